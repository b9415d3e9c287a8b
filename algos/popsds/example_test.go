package popsds_test

import (
	"fmt"
	"math/rand/v2"

	"routecheck/algos/popsds"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Route a random permutation of POPS(8,4) with the simulated [8]: two
// sub-network sorts of 20 slots, 9 + 2 information and wave slots after
// each, then 2 final rounds: 2·(20 + 11) + 2 = 64 slots.
func ExampleRoute() {
	sh := pops.Shape{D: 8, G: 4}
	dst := perm.Random(sh.N(), rand.New(rand.NewPCG(1, 2)))
	res, err := popsds.Route(sh, dst, popsds.None)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Slots, popsds.Slots(sh), res.SortSlots, res.Delivered, res.Conflicts, res.Completed)
	// Output: 64 64 40 32 0 true
}
