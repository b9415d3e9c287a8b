package pcgstate

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShuffleMatchesRand: Shuffle gives rand.Rand.Shuffle's order on the
// same stream (sizes around the batch of 256 and beyond, several seeds)
// and leaves the stream where rand.Rand.Shuffle leaves it (the next draw
// agrees).
func TestShuffleMatchesRand(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 255, 256, 257, 513, 5000} {
		for seed := range uint64(4) {
			want := make([]int, n)
			for i := range want {
				want[i] = i * 7
			}
			got := slices.Clone(want)
			ref := rand.NewPCG(seed, 99)
			rand.New(ref).Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
			src := rand.NewPCG(seed, 99)
			Shuffle(got, src)
			if !slices.Equal(got, want) {
				t.Fatalf("n = %d, seed %d: Shuffle and rand.Rand.Shuffle differ", n, seed)
			}
			if a, b := src.Uint64(), ref.Uint64(); a != b {
				t.Fatalf("n = %d, seed %d: Shuffle leaves the stream elsewhere", n, seed)
			}
		}
	}
}
