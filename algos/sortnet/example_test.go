package sortnet_test

import (
	"fmt"

	"routecheck/algos/sortnet"
	model "routecheck/models/sortnet"
)

func ExampleOddEvenMergeSort() {
	nw, err := sortnet.OddEvenMergeSort(4)
	if err != nil {
		panic(err)
	}
	fmt.Println(nw.Stages)
	xs := []int{3, 1, 2, 0}
	model.Apply(nw, xs)
	fmt.Println(xs, nw.Depth(), nw.Size())
	// Output:
	// [[{0 1} {2 3}] [{0 2} {1 3}] [{1 2}]]
	// [0 1 2 3] 3 5
}

func ExampleBitonicSort() {
	nw, err := sortnet.BitonicSort(4)
	if err != nil {
		panic(err)
	}
	fmt.Println(nw.Stages)
	// Output:
	// [[{0 1} {2 3}] [{0 3} {1 2}] [{0 1} {2 3}]]
}
