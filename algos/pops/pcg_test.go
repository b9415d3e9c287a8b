package pops

import (
	"math/rand/v2"
	"testing"
)

// drawGroups draws what rand.Rand.IntN(g) draws and leaves the *rand.PCG
// where it leaves it, for powers of two and not (internal/pcgstate's
// TestStateMatchesRandPCG checks the draws themselves).
func TestDrawGroupsMatchesRandIntN(t *testing.T) {
	for _, g := range []int{1, 2, 3, 24, 4096, 4097} {
		a, r := rand.NewPCG(7, uint64(g)), rand.New(rand.NewPCG(7, uint64(g)))
		got := make([]int32, 3000)
		drawGroups(a, got, g)
		for k, x := range got {
			if y := r.IntN(g); int(x) != y {
				t.Fatalf("g = %d, draw %d: %d, rand.IntN %d", g, k, x, y)
			}
		}
		if a.Uint64() != r.Uint64() {
			t.Fatalf("g = %d: drawGroups leaves the stream elsewhere", g)
		}
	}
}

// BenchmarkDrawGroups is 2^20 draws of IntN(4096): rand.Rand.IntN against
// drawGroups.
func BenchmarkDrawGroups(b *testing.B) {
	groups := make([]int32, 1<<20)
	b.Run("rand.IntN", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		for b.Loop() {
			for k := range groups {
				groups[k] = int32(r.IntN(4096))
			}
		}
	})
	b.Run("drawGroups", func(b *testing.B) {
		src := rand.NewPCG(1, 2)
		for b.Loop() {
			drawGroups(src, groups, 4096)
		}
	})
}
