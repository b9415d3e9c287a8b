package fuzz

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// multiButterflyStepSeeds are f.Add seeds for FuzzMultiButterflyStep,
// decoded as described at runMultiButterflyStep. More are in
// testdata/fuzz/FuzzMultiButterflyStep/.
var multiButterflyStepSeeds = [][]byte{
	{},                                   // N = 2, d = 1, L = 1, identity, one idle step
	{1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 7, 5}, // N = 4, d = 2, L = 2
	{2, 2, 2, 9, 9, 9, 9, 9, 9, 9, 9, 3, 1, 2, 3, 4, 5, 6, 7, 8},
	[]byte("routecheck multi-butterfly step model: on-route, off-route and raw moves"),
}

// FuzzMultiButterflyStep steps models/multibutterfly through byte-decoded
// runs and checks every step: Step never panics; it rejects exactly the
// illegal moves (unknown packet or edge, a packet not at the edge's tail,
// a packet moved twice, two packets on one edge, a node on two active
// lines) with mb.ErrIllegal and otherwise exactly the moves that overfill
// a buffer with mb.ErrCapacity; it leaves its input untouched; an
// accepted step conserves packets (Count is the tally of Pos, every
// packet once), keeps every buffer within L, moves each packet as told,
// and after a run in which every move follows its packet's route, mb.CheckInvariants
// holds.
func FuzzMultiButterflyStep(f *testing.F) {
	for _, seed := range multiButterflyStepSeeds {
		f.Add(seed)
	}
	f.Fuzz(runMultiButterflyStep)
}

// runMultiButterflyStep decodes data as: log N (1–3), d (1–3), L (1–3), a
// seed for the splitters (8 bytes), a partial permutation (Fisher–Yates,
// then one byte per input, no packet when ≡ 3 mod 4), the number of steps
// (1–8), and per step the number of moves (0–2N), each (byte mod 8) an
// out edge of the packet's node on its route (0–4), any out edge (5–6),
// or raw packet and edge numbers near range (7).
func runMultiButterflyStep(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	logN, d, L := c.intn(1, 3), c.intn(1, 3), c.intn(1, 3)
	N := 1 << logN
	seed := c.seed()
	net, err := mb.Build(N, d, rand.New(rand.NewPCG(seed, 0x3b)))
	if err != nil {
		t.Fatalf("Build(%d, %d): %v", N, d, err)
	}
	p := c.perm(N)
	for i := range p {
		if c.intn(0, 3) == 3 {
			p[i] = perm.None
		}
	}
	s, err := mb.Init(net, L, p)
	if err != nil {
		t.Fatalf("Init(N = %d, L = %d, %v): %v", N, L, p, err)
	}
	if err := mb.CheckInvariants(s); err != nil {
		t.Fatalf("initial state: %v", err)
	}
	P := len(s.Pos)
	// routed: every move so far followed its packet's route.
	routed := true
	steps := c.intn(1, 8)
	for st := 0; st < steps; st++ {
		var a []mb.Move
		for k := c.intn(0, 2*N); k > 0 && P > 0; k-- {
			q := int32(c.intn(0, P-1))
			out := net.Out[s.Pos[q]]
			switch kind := c.intn(0, 7); {
			case kind <= 4 && len(out) > 0:
				var on []int32
				for _, e := range out {
					if net.OnRoute(net.Edges[e].To, s.Dest[q]) {
						on = append(on, e)
					}
				}
				if len(on) > 0 {
					a = append(a, mb.Move{Packet: q, Edge: on[c.intn(0, len(on)-1)]})
				}
			case kind <= 6 && len(out) > 0:
				a = append(a, mb.Move{Packet: q, Edge: out[c.intn(0, len(out)-1)]})
			default:
				a = append(a, mb.Move{Packet: int32(c.intn(-1, P)), Edge: int32(c.intn(-1, len(net.Edges)))})
			}
		}
		before := s.Clone()
		next, _, err := mb.Step(s, a)
		if !reflect.DeepEqual(s, before) {
			t.Fatalf("step %d: Step modified its input", st)
		}
		want, problem := mbNaiveStep(s, a)
		switch {
		case problem != nil && err == nil:
			t.Fatalf("step %d: Step accepted moves %v (%v)", st, a, problem)
		case problem != nil && !errors.Is(err, problem):
			t.Fatalf("step %d: moves %v: error %v, want one wrapping %v", st, a, err, problem)
		case problem != nil:
			continue
		case err != nil:
			t.Fatalf("step %d: Step rejected legal moves %v: %v", st, a, err)
		}
		if !reflect.DeepEqual(next.Pos, want.Pos) || !reflect.DeepEqual(next.Count, want.Count) {
			t.Fatalf("step %d: moves %v: Step and the naive step disagree\n  got:  %v %v\n  want: %v %v", st, a, next.Pos, next.Count, want.Pos, want.Count)
		}
		for _, m := range a {
			routed = routed && net.OnRoute(net.Edges[m.Edge].To, s.Dest[m.Packet])
		}
		if err := mb.CheckInvariants(next); routed && err != nil {
			t.Fatalf("step %d: a run of on-route moves, last %v: %v", st, a, err)
		}
		s = next
	}
}

// mbNaiveStep is an independent reading of Step's contract: the next
// positions and counts of moves a on s, or the error the moves must be
// rejected with (mb.ErrIllegal before mb.ErrCapacity).
func mbNaiveStep(s mb.State, a []mb.Move) (mb.State, error) {
	next := s.Clone()
	packets, edges, lines := map[int32]bool{}, map[int32]bool{}, map[int32]bool{}
	for _, m := range a {
		if m.Packet < 0 || int(m.Packet) >= len(s.Pos) || m.Edge < 0 || int(m.Edge) >= len(s.Net.Edges) {
			return next, mb.ErrIllegal
		}
		e := s.Net.Edges[m.Edge]
		if s.Pos[m.Packet] != e.From || packets[m.Packet] || edges[m.Edge] || lines[e.From] || lines[e.To] {
			return next, mb.ErrIllegal
		}
		packets[m.Packet], edges[m.Edge], lines[e.From], lines[e.To] = true, true, true, true
		next.Pos[m.Packet] = e.To
	}
	for v := range next.Count {
		next.Count[v] = 0
	}
	for _, v := range next.Pos {
		next.Count[v]++
	}
	for v, k := range next.Count {
		if int(k) > s.L && k > s.Count[v] {
			return next, mb.ErrCapacity
		}
	}
	return next, nil
}
