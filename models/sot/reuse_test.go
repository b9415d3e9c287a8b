package sot

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
)

// View shows packet 0 when it is on an input and the pending packets of
// processor 0 (the first ids and the first processor). SOT(2): P0 at (0,1),
// P1 at (1,0); P1 sends packet 0 down to the deflection node (0,0).
func TestViewFirstPacketAndP0(t *testing.T) {
	s := fresh(t, 2, []perm.Pair{{Src: 1, Dst: 1}, {Src: 0, Dst: 1}})
	if v := s.View(s.ProcNode(0), nil); v.Proc != 0 || len(v.Pending) != 1 || v.Pending[0] != (Packet{ID: 1, Dst: 1}) {
		t.Fatalf("P0's view %+v, want pending [{1 1}]", v)
	}
	s = mustStep(t, s, map[int]Action{s.ProcNode(1): {Down: Inject(0)}})
	if v := s.View(0, nil); v.Up != (Packet{ID: 0, Dst: 1}) || v.Left != NoPacket || v.Proc != -1 {
		t.Fatalf("(0,0)'s view %+v, want packet 0 from up", v)
	}
}

type idle struct{}

func (idle) Node(View, *rand.Rand) Action { return Action{} }

// Decide reuses one pending buffer for all processors of a step: its
// allocations do not grow with the number of processors (each processor
// here has one pending packet).
func TestDecideReusesPendingBuffer(t *testing.T) {
	allocs := func(n int) float64 {
		rel := make([]perm.Pair, n)
		for x := range rel {
			rel[x] = perm.Pair{Src: int32(x), Dst: int32((x + 1) % n)}
		}
		s := fresh(t, n, rel)
		a := make([]Action, n*n)
		return testing.AllocsPerRun(10, func() { Decide(&s, idle{}, nil, a) })
	}
	if small, large := allocs(4), allocs(16); large > small {
		t.Fatalf("Decide allocates %v times on SOT(4), %v on SOT(16)", small, large)
	}
}

// StepInto with a reused destination and event buffer does not allocate
// (doc.go: "long runs do not allocate per step"). SOT(3): packet 0 waits at
// (0,0) from the left and is sent on right, the same step every time.
func TestStepIntoReusesBuffers(t *testing.T) {
	s := fresh(t, 3, []perm.Pair{{Src: 0, Dst: 1}})
	s = mustStep(t, s, map[int]Action{s.ProcNode(0): {Right: Inject(0)}})
	a := make([]Action, 9)
	a[0] = Action{Right: FromLeft}
	var dst State
	var ev Events
	var err error
	n := testing.AllocsPerRun(10, func() { err = StepInto(&dst, &s, a, &ev) })
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 || dst.InH[1].ID != 0 {
		t.Fatalf("%v allocations per step; packet 0 at (0,1): %+v", n, dst.InH[1])
	}
}
