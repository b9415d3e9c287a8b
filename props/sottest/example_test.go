package sottest_test

import (
	"fmt"
	"math/rand/v2"

	asot "routecheck/algos/sot"
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

// lookAhead is Greedy-a with a cheat: it remembers which nodes had a packet
// on an input when it served them, and a processor holds back an injection
// when the node before it in its row (j − 1 mod n) — which the router has
// just served in this step — had one. Holding back is always legal; but a
// processor cannot see another node's inputs, and the locality property
// catches the router that can.
type lookAhead struct {
	msot.Router
	busy map[[2]int]bool
}

func (l *lookAhead) Node(v msot.View, rng *rand.Rand) msot.Action {
	l.busy[[2]int{v.I, v.J}] = v.Left.ID >= 0 || v.Up.ID >= 0
	a := l.Router.Node(v, rng)
	if v.Proc >= 0 && l.busy[[2]int{v.I, (v.J + v.N - 1) % v.N}] {
		for _, x := range []*msot.Slot{&a.Right, &a.Down} {
			if _, inj := x.Packet(); inj {
				*x = msot.None
			}
		}
	}
	return a
}

// The cheat is caught where it first changes a decision: a processor still
// holding packets (h ≥ 2, so not a permutation) whose row neighbour has a
// packet on an input; on SOT(3) the first such instance is the random
// 4-relation, in step 2.
func Example_locality() {
	newRouter := func() msot.Router {
		ga, _ := asot.Local(asot.GreedyA)
		return &lookAhead{ga, map[[2]int]bool{}}
	}
	fs := sottest.Check(newRouter, sottest.Options{Sizes: []int{3}, ReplayDir: "-"})
	f := fs[0]
	fmt.Println(f.Property, "on", f.Family, "at step", f.Step)
	// Output: locality on h-relation/h=4 at step 2
}
