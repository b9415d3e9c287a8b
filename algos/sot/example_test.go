package sot_test

import (
	"fmt"
	"math/rand/v2"

	asot "routecheck/algos/sot"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// A randomized router takes an explicit generator. Whatever its coins, a
// lone packet is never deflected and arrives after exactly n hops (Lemma 1):
// here P0 → P3 on SOT(5) under Greedy-c, which picks the direction that
// shortens the longer remaining distance.
func ExampleNew() {
	s, err := msot.NewState(5, []perm.Pair{{Src: 0, Dst: 3}})
	if err != nil {
		panic(err)
	}
	r, err := asot.New(asot.GreedyC, &s, rand.New(rand.NewPCG(2026, 11)))
	if err != nil {
		panic(err)
	}
	res, _, err := asot.Run(s, r, asot.Options{Check: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("delivered:", res.Delivered, "hops:", res.MaxLatency, "deflections:", res.Deflections)
	// Output: delivered: 1 hops: 5 deflections: 0
}
