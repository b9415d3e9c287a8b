package sot

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
)

// forward is a router that sends a packet on the input's own direction (a
// packet from the left goes right, one from up goes down) and injects one
// own packet right when that output is free.
type forward struct{ views []View }

func (f *forward) Node(v View, _ *rand.Rand) Action {
	f.views = append(f.views, v)
	var a Action
	if v.Left.ID >= 0 {
		a.Right = FromLeft
	}
	if v.Up.ID >= 0 {
		a.Down = FromUp
	}
	if a.Right == None && len(v.Pending) > 0 {
		a.Right = Inject(v.Pending[0].ID)
	}
	return a
}

// View shows a node exactly its own inputs and, at a processor, its own
// unsent packets in relation order; Decide asks every node once, in order.
func TestViewAndDecide(t *testing.T) {
	rel := []perm.Pair{{Src: 1, Dst: 0}, {Src: 0, Dst: 2}, {Src: 1, Dst: 1}}
	s, err := NewState(3, rel)
	if err != nil {
		t.Fatal(err)
	}
	r := &forward{}
	a := make([]Action, 9)
	Decide(&s, r, nil, a)
	if len(r.views) != 9 {
		t.Fatalf("%d views, want 9", len(r.views))
	}
	p1 := r.views[s.ProcNode(1)]
	if p1.Proc != 1 || p1.I != 1 || p1.J != 1 || len(p1.Pending) != 2 || p1.Pending[0] != (Packet{0, 0}) || p1.Pending[1] != (Packet{2, 1}) {
		t.Fatalf("P1's view %+v", p1)
	}
	if d := r.views[0]; d.Proc != -1 || d.Pending != nil || d.Left != NoPacket || d.Up != NoPacket {
		t.Fatalf("R(0,0)'s view %+v", d)
	}
	next, _, err := Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	// packet 0 went right from P1 (1,1) to (1,2); packet 1 from P0 (0,2) to (0,0).
	r.views = r.views[:0]
	Decide(&next, r, nil, a)
	if v := r.views[next.Node(1, 2)]; v.Left != (Packet{0, 0}) || v.Up != NoPacket || v.T != 1 {
		t.Fatalf("(1,2)'s view %+v", v)
	}
	if v := r.views[next.ProcNode(1)]; len(v.Pending) != 1 || v.Pending[0].ID != 2 {
		t.Fatalf("P1's pending after one injection: %+v", v.Pending)
	}
}
