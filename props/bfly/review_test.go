package bfly

import (
	"math/rand/v2"
	"testing"

	ab "routecheck/algos/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
)

// The partial-renaming fault keeps the high half of every address and is a
// permutation; and it cannot break the transpose's congestion: σ^{-1}πσ
// maps (h, l) to (τ(l), τ^{-1}(h)) (or the same with τ and τ^{-1}
// exchanged), so at stage n/2 the node addressed by the destination's high
// half and the source's low half, (τ(l), l), is crossed by all 2^{n/2}
// packets with low half l: C = 2^{n/2} = √N, the most any node can carry
// on the plain butterfly. (Derived by hand, not from the claim.)
func TestLowBitsSigmaKeepsTransposeCongestion(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 4; n <= 10; n += 2 {
		s := lowBitsSigma(n, rng)
		if err := perm.Validate(s, true); err != nil {
			t.Fatalf("n=%d: σ is not a permutation: %v", n, err)
		}
		for x, y := range s {
			if int(y)>>(n/2) != x>>(n/2) {
				t.Fatalf("n=%d: σ(%d) = %d changes the high half", n, x, y)
			}
		}
		if got, want := plainCongestion(n, ab.Rename(bflyforms.Transpose(n), s)), 1<<(n/2); got != want {
			t.Errorf("n=%d: congestion of the partially renamed transpose %d, want √N = %d", n, got, want)
		}
	}
}
