package pops

import (
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// halfFixed (the closer planted fault of pops/cor-2.7/randomized-yao) must
// return a permutation that fixes every source a < n/2 and keeps π(a) for
// every a ≥ n/2 whose destination is not one of those fixed points.
func TestHalfFixed(t *testing.T) {
	for _, n := range []int{2, 7, 16, 4096} {
		pi := perm.Random(n, seeds.Rand(1, uint64(n)))
		out := halfFixed(pi)
		if err := perm.Validate(out, true); err != nil {
			t.Fatalf("n = %d: not a permutation: %v", n, err)
		}
		for a := range n {
			switch {
			case a < n/2 && out[a] != int32(a):
				t.Fatalf("n = %d: source %d → %d, want fixed", n, a, out[a])
			case a >= n/2 && int(pi[a]) >= n/2 && out[a] != pi[a]:
				t.Fatalf("n = %d: source %d → %d, want π(a) = %d kept", n, a, out[a], pi[a])
			}
		}
	}
}
