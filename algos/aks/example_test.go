package aks_test

import (
	"fmt"
	"math/rand/v2"

	"routecheck/algos/aks"
	"routecheck/models/sortnet"
)

func ExampleConstruct() {
	res, err := aks.Construct(8, aks.SeiferasParams(), aks.Exact())
	if err != nil {
		panic(err)
	}
	_, ok, _ := sortnet.Sorts01Exhaustive(res.Net)
	fmt.Println("stages:", res.Stages, "depth:", res.Net.Depth(), "sorts:", ok)

	// The expander version: Lemma 2 separators from 8 random matchings.
	sep := aks.FromHalver(aks.ExpanderHalver(8, rand.New(rand.NewPCG(1, 2))))
	res, err = aks.Construct(1024, aks.SeiferasParams(), sep)
	if err != nil {
		panic(err)
	}
	fmt.Println("n = 1024 stages:", res.Stages)
	// Output:
	// stages: 5 depth: 15 sorts: true
	// n = 1024 stages: 54
}

func ExamplePaperDepth() {
	d, _ := aks.PaperDepth(20, aks.SeiferasParams(), 1)
	fmt.Println(d.Iterations, "stages of", d.SepHalvers, "halvers of depth", d.HalverDepth, "=", d.Total)
	// Output:
	// 124 stages of 7 halvers of depth 10564 = 9169558
}
