package popstwohop_test

import (
	"fmt"

	"routecheck/algos/popstwohop"
	"routecheck/models/pops"
)

// Two groups of two processors swap their packets under the shift schedule:
// p0 and p3 reach their destination group in one hop (slot 1), p1 and p2 are
// relayed and arrive in slot 2.
func ExampleRun() {
	s := popstwohop.Shift(pops.Shape{D: 2, G: 2})
	res, err := popstwohop.Run(s, []int32{2, 3, 0, 1}, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println("routed at:", res.RoutedAt, "relayed in slot 1:", res.Relayed[0])
	// Output: routed at: [1 2 2 1] relayed in slot 1: [1 2]
}
