package meshtest_test

import (
	"testing"

	am "routecheck/algos/mesh"
	"routecheck/models/mesh"
	"routecheck/props/meshtest"
)

func ff() mesh.Router { return am.GridFarthestFirst }

// Our farthest-first router through the suite, on the mesh and the torus,
// with the default time bound and, for (partial) permutations on the mesh,
// 2n − 2: the greedy row-then-column algorithm with farthest-first on the
// column links (Leighton, Introduction to Parallel Algorithms and
// Architectures, §1.7).
func TestGridFarthestFirst(t *testing.T) {
	o := meshtest.Options{
		Torus: true,
		MaxSteps: func(in meshtest.Instance) int {
			if !in.Torus && in.H() <= 1 {
				return max(1, 2*in.N-2)
			}
			return 0
		},
	}
	if testing.Short() {
		o.Sizes = []int{1, 2, 3, 4, 5}
	}
	meshtest.Run(t, ff, o)
}

// The fuzz adapter, as a user writes it.
func FuzzGridFarthestFirst(f *testing.F) { meshtest.Fuzz(f, ff) }
