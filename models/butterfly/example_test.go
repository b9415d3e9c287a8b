package butterfly_test

import (
	"fmt"

	mb "routecheck/models/butterfly"
)

// Two packets from input 0 of a 4-input butterfly in the §2 node model: the
// node forwards one of them per step, so the second arrives a step later.
func Example() {
	sh := mb.Shape{LogN: 2, Mode: mb.NodeQueue}
	st, _ := mb.New(sh, []mb.Packet{{ID: 0, Src: 0, Dst: 3}, {ID: 1, Src: 0, Dst: 1}})
	for st.InFlight() > 0 {
		var a []mb.Send
		for i, q := range st.Queues {
			if len(q) > 0 {
				a = append(a, mb.Send{Queue: int32(i), Index: 0})
			}
		}
		next, ev, err := mb.Step(st, a)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, d := range ev.Delivered {
			fmt.Printf("step %d: packet %d at output %d\n", next.Step, d.ID, d.Row)
		}
		st = next
	}
	// The §3 path of packet 0 (0 → 3): rows 0, 2, 3.
	fmt.Println(sh.RowAt(mb.Packet{Src: 0, Dst: 3}, 1), sh.RowAt(mb.Packet{Src: 0, Dst: 3}, 2))
	// Output:
	// step 2: packet 0 at output 3
	// step 3: packet 1 at output 1
	// 2 3
}
