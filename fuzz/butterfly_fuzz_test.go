package fuzz

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"routecheck/models/butterfly"
)

// butterflyStepSeeds are f.Add seeds for FuzzButterflyStep, decoded as
// described at runButterflyStep. More are in
// testdata/fuzz/FuzzButterflyStep/.
var butterflyStepSeeds = [][]byte{
	{},                                   // a 2-input butterfly, no packet, one idle step
	{2, 1, 0, 0, 4, 0, 1, 1, 2, 2, 3},    // N = 8, r = 1, node queues
	{2, 2, 1, 1, 8, 7, 6, 5, 4, 3, 2, 1}, // N = 8, r = 2, buffered, strict
	[]byte("routecheck butterfly step model: legal, illegal and raw sends"),
}

// FuzzButterflyStep steps models/butterfly through byte-decoded runs and
// checks every step: Step never panics, rejects exactly the illegal sends
// (a queue or index out of range, two sends from one queue, in Buffered
// mode a packet in the queue of a link its path does not take, under
// StrictBuffers a send into an occupied buffer) with an error wrapping
// butterfly.ErrAction, leaves its input untouched, and after an accepted
// step butterfly.CheckInvariants holds (every packet on its path, none
// twice, in flight plus delivered = total) and the events count the sends.
func FuzzButterflyStep(f *testing.F) {
	for _, seed := range butterflyStepSeeds {
		f.Add(seed)
	}
	f.Fuzz(runButterflyStep)
}

// runButterflyStep decodes data as: log N (1–3), r (0–log N), the mode,
// StrictBuffers, the number of packets (0–2N) and for each its source,
// destination and X, the number of steps (1–10), and per step the number
// of sends (0–8), each a non-empty queue and an index in it (byte mod 8
// < 6), the straight path's queue (Buffered), or raw values near range.
func runButterflyStep(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	logN := c.intn(1, 3)
	sh := butterfly.Shape{LogN: logN, R: c.intn(0, logN)}
	if c.bool() {
		sh.Mode = butterfly.Buffered
		sh.StrictBuffers = c.bool()
	}
	N := sh.N()
	P := c.intn(0, 2*N)
	packets := make([]butterfly.Packet, P)
	for i := range packets {
		packets[i] = butterfly.Packet{ID: int32(i), Src: int32(c.intn(0, N-1)), Dst: int32(c.intn(0, N-1)), X: int32(c.intn(0, 1<<sh.R-1))}
	}
	st, err := butterfly.New(sh, packets)
	if err != nil {
		t.Fatalf("New(%+v): %v", sh, err)
	}
	if err := butterfly.CheckInvariants(st, P); err != nil {
		t.Fatalf("initial state: %v", err)
	}
	steps := c.intn(1, 10)
	for s := 0; s < steps; s++ {
		var nonEmpty []int32
		for qi, q := range st.Queues {
			if len(q) > 0 {
				nonEmpty = append(nonEmpty, int32(qi))
			}
		}
		var a []butterfly.Send
		for k := c.intn(0, 8); k > 0; k-- {
			switch kind := c.intn(0, 7); {
			case kind < 6 && len(nonEmpty) > 0:
				qi := nonEmpty[c.intn(0, len(nonEmpty)-1)]
				a = append(a, butterfly.Send{Queue: qi, Index: int32(c.intn(0, len(st.Queues[qi])-1))})
			default:
				qi := int32(c.intn(-1, len(st.Queues)))
				q := 0
				if qi >= 0 && int(qi) < len(st.Queues) {
					q = len(st.Queues[qi])
				}
				a = append(a, butterfly.Send{Queue: qi, Index: int32(c.intn(-1, q))})
			}
		}
		before := st.Clone()
		next, ev, err := butterfly.Step(st, a)
		if !reflect.DeepEqual(st, before) {
			t.Fatalf("step %d: Step modified its input", s)
		}
		if problem := butterflyIllegal(st, a); problem != "" {
			if err == nil {
				t.Fatalf("step %d: Step accepted illegal sends (%s): %v", s, problem, a)
			}
			if !errors.Is(err, butterfly.ErrAction) {
				t.Fatalf("step %d: error does not wrap ErrAction: %v", s, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d: Step rejected legal sends %v: %v", s, a, err)
		}
		if err := butterfly.CheckInvariants(next, P); err != nil {
			t.Fatalf("step %d: after sends %v: %v", s, a, err)
		}
		if ev.Moves != len(a) || next.Delivered != st.Delivered+len(ev.Delivered) || next.Step != st.Step+1 {
			t.Fatalf("step %d: %d sends gave events %+v, delivered %d → %d", s, len(a), ev, st.Delivered, next.Delivered)
		}
		st = next
	}
}

// butterflyIllegal is an independent reading of Step's legality rules: a
// description of the first problem with sends a on st, or "".
func butterflyIllegal(st butterfly.State, a []butterfly.Send) string {
	used := map[int32]bool{}
	N := st.N()
	for _, x := range a {
		if x.Queue < 0 || int(x.Queue) >= len(st.Queues) {
			return fmt.Sprintf("queue %d", x.Queue)
		}
		q := st.Queues[x.Queue]
		if x.Index < 0 || int(x.Index) >= len(q) {
			return fmt.Sprintf("index %d of %d", x.Index, len(q))
		}
		if used[x.Queue] {
			return fmt.Sprintf("queue %d sends twice", x.Queue)
		}
		used[x.Queue] = true
		if st.Mode != butterfly.Buffered {
			continue
		}
		node, link := int(x.Queue)/2, int(x.Queue)%2
		s, row := node/N, int32(node%N)
		p := q[x.Index]
		if st.Link(p, s) != link {
			return fmt.Sprintf("packet %d in the wrong link queue", p.ID)
		}
		if st.StrictBuffers && s+1 < st.Stages() {
			to := st.RowAt(p, s+1)
			in := 0
			if to != row {
				in = 1
			}
			if st.Full[2*((s+1)*N+int(to))+in] {
				return fmt.Sprintf("packet %d into an occupied buffer", p.ID)
			}
		}
	}
	return ""
}
