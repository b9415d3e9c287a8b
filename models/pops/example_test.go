package pops_test

import (
	"fmt"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// POPS(2,2): processors 0 and 1 form group 0, processors 2 and 3 group 1.
// In slot 1 both processors of group 0 send on coupler c(1,0): a conflict,
// so processor 3, listening to it, gets nothing. In slot 2 only processor 0
// sends and processor 3, its packet's destination, accepts it.
func ExampleStep() {
	s, err := pops.NewState(pops.Shape{D: 2, G: 2}, []int32{3, 2, perm.None, perm.None})
	if err != nil {
		panic(err)
	}
	send := func(to int32) pops.Action { return pops.Action{Send: 0, Ack: -1, To: []int32{to}, Listen: -1} }
	listen := pops.Action{Send: -1, Ack: -1, Listen: 0, Keep: pops.KeepOwn}
	slots := [][]pops.Action{
		{send(1), send(1), pops.Idle(), listen},
		{send(1), pops.Idle(), pops.Idle(), listen},
	}
	for _, a := range slots {
		next, ev, err := pops.Step(s, a)
		if err != nil {
			panic(err)
		}
		s = next
		fmt.Printf("slot %d: conflicts %v, delivered %v\n", s.Slot, ev.Conflicts, ev.Delivered)
	}
	o, c, d := s.Occupancy(3)
	fmt.Printf("processor 3 stores %d originals, %d copies, %d delivered\n", o, c, d)
	// Output:
	// slot 1: conflicts [c(1,0)], delivered []
	// slot 2: conflicts [], delivered [0]
	// processor 3 stores 0 originals, 0 copies, 1 delivered
}
