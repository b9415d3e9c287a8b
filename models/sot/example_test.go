package sot_test

import (
	"fmt"

	"routecheck/models/perm"
	"routecheck/models/sot"
)

// One packet from P0 to P1 on SOT(3) (P0 at (0,2), P1 at (1,1)), steered by
// hand: right to (0,0), down to (1,0), right into P1 — three hops, the
// distance of Lemma 1. A deflection node that tried to keep the packet
// would be rejected.
func ExampleStep() {
	s, err := sot.NewState(3, []perm.Pair{{Src: 0, Dst: 1}})
	if err != nil {
		panic(err)
	}
	route := []struct {
		i, j int
		a    sot.Action
	}{
		{0, 2, sot.Action{Right: sot.Inject(0)}},
		{0, 0, sot.Action{Down: sot.FromLeft}},
		{1, 0, sot.Action{Right: sot.FromUp}},
	}
	for _, r := range route {
		a := make([]sot.Action, 9)
		if r.i == 1 {
			// keeping the packet is illegal (hot potato)
			if _, _, err := sot.Step(s, a); err != nil {
				fmt.Println("rejected:", err)
			}
		}
		a[s.Node(r.i, r.j)] = r.a
		next, ev, err := sot.Step(s, a)
		if err != nil {
			panic(err)
		}
		s = next
		for _, d := range ev.Delivered {
			fmt.Printf("step %d: packet %d delivered to P%d after %d hops\n", s.T, d.ID, d.Proc, d.Latency)
		}
	}
	// Output:
	// rejected: sot: illegal action: deflection node R(1,0): keeps the packet from up (hot potato: it must leave)
	// step 3: packet 0 delivered to P1 after 3 hops
}
