package multibutterfly_test

import (
	"fmt"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// Route a random permutation of 64 on a (64, 3)-multi-butterfly with L = 4
// batches (dest mod 4).
func Example() {
	rng := seeds.Rand(7)
	net, _ := mb.Build(64, 3, rng)
	s, _ := mb.Init(net, 4, perm.Random(64, rng))
	res, fin, err := amb.Run(s, amb.Options{Check: true})
	fmt.Println(res.Complete, fin.Done(), res.MaxBuffer <= 4, err)
	fmt.Println(res.Steps == 2*3*res.Iterations)
	// Output:
	// true true true <nil>
	// true
}
