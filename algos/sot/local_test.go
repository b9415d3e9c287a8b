package sot

import (
	"math/rand/v2"
	"slices"
	"testing"

	msot "routecheck/models/sot"
)

// The local routers decide exactly as the fast engine does, step by step,
// drawing the same random numbers: the suite (props/sottest) runs the
// algorithms the experiments measure.
func TestLocalMatchesEngine(t *testing.T) {
	runs := 40
	if testing.Short() {
		runs = 10
	}
	for _, alg := range Algorithms {
		for r := range runs {
			gen := rand.New(rand.NewPCG(uint64(r), 7))
			n := 2 + gen.IntN(7)
			var rel = RandomTargets(n, 1+gen.IntN(2*n), false, gen)
			if r%2 == 0 {
				rel = RandomRelation(n, 1+gen.IntN(n), gen)
			}
			s, err := msot.NewState(n, rel)
			if err != nil {
				t.Fatal(err)
			}
			eng, err := New(alg, &s, rand.New(rand.NewPCG(uint64(r), 1)))
			if err != nil {
				t.Fatal(err)
			}
			loc, err := Local(alg)
			if err != nil {
				t.Fatal(err)
			}
			lrng := rand.New(rand.NewPCG(uint64(r), 1))
			a, b := make([]msot.Action, n*n), make([]msot.Action, n*n)
			for step := 0; step < 8*n+4*len(rel) && !s.Done(); step++ {
				eng.Actions(&s, a)
				msot.Decide(&s, loc, lrng, b)
				if !slices.Equal(a, b) {
					t.Fatalf("%s, n = %d, run %d, step %d: engine %v, local %v", alg, n, r, step, a, b)
				}
				next, _, err := msot.Step(s, a)
				if err != nil {
					t.Fatalf("%s: %v", alg, err)
				}
				s = next
			}
		}
	}
	if _, err := Local("nope"); err == nil {
		t.Error("Local accepted an unknown algorithm")
	}
}
