package pops_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// naiveStep is a second, deliberately simple implementation of one slot,
// written from doc.go: for every listener it counts the senders on its
// coupler by scanning every processor (O(n²)), with no sorting and no keys.
func naiveStep(s pops.State, a []pops.Action) (pops.State, pops.Events) {
	d, g, n := s.Shape.D, s.Shape.G, s.Shape.N()
	sends := func(i, to int) bool { // does processor i send on c(to, group(i))?
		return (a[i].Send >= 0 || a[i].Ack >= 0) && slices.Contains(a[i].To, int32(to))
	}
	senders := func(to, from int) []int {
		var out []int
		for i := from * d; i < (from+1)*d; i++ {
			if sends(i, to) {
				out = append(out, i)
			}
		}
		return out
	}
	var ev pops.Events
	for to := range g {
		for from := range g {
			if len(senders(to, from)) >= 2 {
				ev.Conflicts = append(ev.Conflicts, pops.Coupler{To: int32(to), From: int32(from)})
			}
		}
	}
	next := pops.State{Shape: s.Shape, Dst: slices.Clone(s.Dst), Buf: make([][]pops.Item, n),
		Delivered: slices.Clone(s.Delivered), Lost: slices.Clone(s.Lost), Slot: s.Slot + 1}
	for i := range n {
		for k, it := range s.Buf[i] {
			if !slices.Contains(a[i].Drop, int32(k)) {
				next.Buf[i] = append(next.Buf[i], it)
			}
		}
	}
	for i := range n {
		if a[i].Listen < 0 {
			continue
		}
		from := senders(i/d, int(a[i].Listen))
		if len(from) != 1 {
			continue
		}
		src := from[0]
		msg := pops.Message{Kind: pops.AckMsg, Packet: a[src].Ack}
		if a[src].Send >= 0 {
			msg = pops.Message{Kind: pops.PacketMsg, Packet: s.Buf[src][a[src].Send].Packet}
		}
		ev.Received = append(ev.Received, pops.Reception{Proc: int32(i), Coupler: pops.Coupler{To: int32(i / d), From: a[i].Listen}, Msg: msg})
		if msg.Kind != pops.PacketMsg {
			continue
		}
		p := msg.Packet
		if a[i].Keep == pops.KeepAll {
			next.Buf[i] = append(next.Buf[i], pops.Item{Packet: p, Kind: pops.Copy})
		} else if s.Dst[p] == int32(i) {
			next.Buf[i] = append(next.Buf[i], pops.Item{Packet: p, Kind: pops.Delivered})
			if next.Delivered[p] {
				ev.Duplicated = append(ev.Duplicated, p)
			}
			if !next.Delivered[p] {
				ev.Delivered = append(ev.Delivered, p)
			}
			next.Delivered[p] = true
		}
	}
	for p := range n {
		if s.Dst[p] == perm.None || next.Delivered[p] || next.Lost[p] {
			continue
		}
		held := false
		for _, b := range next.Buf {
			for _, it := range b {
				held = held || (it.Packet == int32(p) && it.Kind != pops.Delivered)
			}
		}
		if !held {
			next.Lost[p] = true
			ev.Lost = append(ev.Lost, int32(p))
		}
	}
	return next, ev
}

// drawActions draws a legal action for every processor: a packet, an ack or
// nothing, sent to a random non-empty set of couplers; a random listen; a
// random Keep; random drops. Small g makes conflicts frequent.
func drawActions(t *rapid.T, s pops.State, slot int) []pops.Action {
	n, g := s.Shape.N(), s.Shape.G
	a := make([]pops.Action, n)
	for i := range a {
		a[i] = pops.Idle()
		label := fmt.Sprintf("slot%d proc%d ", slot, i)
		switch rapid.IntRange(0, 3).Draw(t, label+"msg") {
		case 1, 2:
			if len(s.Buf[i]) > 0 {
				a[i].Send = int32(rapid.IntRange(0, len(s.Buf[i])-1).Draw(t, label+"send"))
			}
		case 3:
			a[i].Ack = int32(rapid.IntRange(0, n-1).Draw(t, label+"ack"))
		}
		if a[i].Send >= 0 || a[i].Ack >= 0 {
			groups := make([]int32, g)
			for b := range groups {
				groups[b] = int32(b)
			}
			to := rapid.Permutation(groups).Draw(t, label+"to")
			a[i].To = to[:rapid.IntRange(1, g).Draw(t, label+"fanout")]
		}
		a[i].Listen = int32(rapid.IntRange(-1, g-1).Draw(t, label+"listen"))
		a[i].Keep = pops.Keep(rapid.IntRange(0, 1).Draw(t, label+"keep"))
		for k := range s.Buf[i] {
			if rapid.IntRange(0, 4).Draw(t, label+fmt.Sprint("drop", k)) == 0 {
				a[i].Drop = append(a[i].Drop, int32(k))
			}
		}
	}
	return a
}

// TestStepAgainstNaive runs random legal slots on small networks and checks
// every slot against naiveStep, purity (the input state is unchanged),
// determinism and CheckInvariants.
func TestStepAgainstNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 3).Draw(t, "d")
		g := rapid.IntRange(1, 3).Draw(t, "g")
		shape := pops.Shape{D: d, G: g}
		dst := rapid.Permutation(perm.Identity(shape.N())).Draw(t, "perm")
		for p := range dst {
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprint("absent", p)) == 0 {
				dst[p] = perm.None
			}
		}
		s, err := pops.NewState(shape, dst)
		if err != nil {
			t.Fatalf("NewState: %v", err)
		}
		slots := rapid.IntRange(1, 4).Draw(t, "slots")
		for slot := range slots {
			a := drawActions(t, s, slot)
			before := s.Clone()
			next, ev, err := pops.Step(s, a)
			if err != nil {
				t.Fatalf("slot %d: legal actions rejected: %v", slot, err)
			}
			if !s.Equal(before) {
				t.Fatalf("slot %d: Step mutated its input", slot)
			}
			wantNext, wantEv := naiveStep(s, a)
			if !next.Equal(wantNext) {
				t.Fatalf("slot %d: next state\n%+v\nnaive oracle\n%+v", slot, next, wantNext)
			}
			if !eventsEqual(ev, wantEv) {
				t.Fatalf("slot %d: events\n%+v\nnaive oracle\n%+v", slot, ev, wantEv)
			}
			if err := pops.CheckInvariants(next); err != nil {
				t.Fatalf("slot %d: %v", slot, err)
			}
			again, ev2, err := pops.Step(s, a)
			if err != nil || !again.Equal(next) || !reflect.DeepEqual(ev, ev2) {
				t.Fatalf("slot %d: Step is not deterministic", slot)
			}
			s = next
		}
	})
}
