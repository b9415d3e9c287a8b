package sottest_test

import (
	"fmt"
	"math/rand/v2"

	msot "routecheck/models/sot"
	"routecheck/props/sottest"
)

// rowFirst is a deliberately broken toy router: a packet goes right until
// it reaches its target column, then down; a processor injects its next
// packet to the right when that output is free. When two packets want the
// same output, it sends the one from up and keeps the other for the next
// step — store and forward, which a hot-potato node cannot do.
type rowFirst struct{}

func (rowFirst) Node(v msot.View, _ *rand.Rand) msot.Action {
	want := func(p msot.Packet) msot.Dir {
		if int(p.Dst) == v.N-1-v.J { // in its target column
			return msot.Down
		}
		return msot.Right
	}
	var a msot.Action
	if v.Up.ID >= 0 {
		if want(v.Up) == msot.Right {
			a.Right = msot.FromUp
		} else {
			a.Down = msot.FromUp
		}
	}
	if v.Left.ID >= 0 {
		if want(v.Left) == msot.Right && a.Right == msot.None {
			a.Right = msot.FromLeft
		} else if want(v.Left) == msot.Down && a.Down == msot.None {
			a.Down = msot.FromLeft
		} // else: the packet from the left waits here (illegal)
	}
	if v.Proc >= 0 && a.Right == msot.None && len(v.Pending) > 0 {
		a.Right = msot.Inject(v.Pending[0].ID)
	}
	return a
}

// The suite catches the toy router: rapid shrinks a failing relation to two
// packets for P0 on SOT(3), which meet at R(2,2) in step 2 (one from the
// left, one from up, both in their target column), and the model names the
// node that kept a packet.
func Example() {
	fs := sottest.Check(func() msot.Router { return rowFirst{} }, sottest.Options{
		Sizes: []int{3, 4, 8}, Checks: 100, ReplayDir: "-",
	})
	for _, f := range fs {
		if f.Family == "random" {
			fmt.Println(f.Property, "at step", f.Step, "on", f.Instance.Rel)
			fmt.Println(f.Message)
		}
	}
	// Output:
	// legal at step 2 on [[1 0] [2 0]]
	// sot: illegal action: deflection node R(2,2): keeps the packet from the left (hot potato: it must leave) (shrunk by rapid)
}
