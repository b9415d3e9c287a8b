package sot

import (
	"slices"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// The memoized cost cells are the runs the cost claim used to simulate in
// its own loop: recomputed here directly for two seeds and two cells (a
// cache keyed on too little would hand one cell's runs to another).
func TestGreedyACostsMemo(t *testing.T) {
	for _, seed := range []uint64{props.DefaultSeed, 7} {
		for _, m := range []int{4, 16} {
			n, runs := 8, 3
			env := props.Env{Budget: props.Small, Seed: seed}
			var want []float64
			for r := range runs {
				rel := asot.RandomRelation(n, m*n, seeds.Rand(seed, 0xc05, uint64(n), uint64(m), uint64(r)))
				res, _, err := asot.Route(asot.GreedyA, n, rel, nil, asot.Options{})
				if err != nil || !res.Complete {
					t.Fatalf("seed %d m %d run %d: %v %+v", seed, m, r, err, res)
				}
				want = append(want, float64(res.Steps)/float64(m*n))
			}
			for range 2 { // the second call is served from the cache
				c := greedyACosts(env, n, m, runs)
				if c.failed || !slices.Equal(c.xs, want) {
					t.Errorf("seed %d, h/n = %d: got %v (failed %v), want %v", seed, m, c.xs, c.failed, want)
				}
			}
		}
	}
}
