package pops

import (
	"math/rand/v2"
	"testing"
)

// The value-state PCG draws what math/rand/v2's PCG and Rand.IntN draw and
// leaves the *rand.PCG where they leave it: Uint64, IntN for powers of two,
// small n, and n just above a power of two or near 2^63 (where the
// rejection loop runs about one time in four), and drawGroups for powers of
// two and not.
func TestPCGMatchesRandPCG(t *testing.T) {
	a, b := rand.NewPCG(1, 2), rand.NewPCG(1, 2)
	p := loadPCG(a)
	for i := range 1000 {
		if x, y := p.uint64(), b.Uint64(); x != y {
			t.Fatalf("draw %d: %d, rand.PCG %d", i, x, y)
		}
	}
	p.store(a)
	if a.Uint64() != b.Uint64() {
		t.Fatal("store: the streams part")
	}
	for _, n := range []uint64{1, 2, 3, 5, 7, 1000, 1 << 12, 1<<20 + 1, 3 << 61, 1<<63 - 1, 1<<62 + 12345} {
		a, r := rand.NewPCG(5, n), rand.New(rand.NewPCG(5, n))
		p := loadPCG(a)
		for i := range 4000 {
			if x, y := p.intN(n), r.IntN(int(n)); x != uint64(y) {
				t.Fatalf("n = %d, draw %d: intN %d, rand.IntN %d", n, i, x, y)
			}
		}
		p.store(a)
		if a.Uint64() != r.Uint64() {
			t.Fatalf("n = %d: the streams part after 4000 draws", n)
		}
	}
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
