package pcgstate

import (
	"math/rand/v2"
	"testing"
)

// State draws what math/rand/v2's PCG and Rand.IntN draw and leaves the
// *rand.PCG where they leave it: Uint64, IntN for powers of two, small n,
// and n just above a power of two or near 2^63 (where the rejection loop
// runs about one time in four). Planted difference: a state loaded one
// draw late must part.
func TestStateMatchesRandPCG(t *testing.T) {
	a, b := rand.NewPCG(1, 2), rand.NewPCG(1, 2)
	p := Load(a)
	for i := range 1000 {
		if x, y := p.Uint64(), b.Uint64(); x != y {
			t.Fatalf("draw %d: %d, rand.PCG %d", i, x, y)
		}
	}
	p.Store(a)
	if a.Uint64() != b.Uint64() {
		t.Fatal("Store: the streams part")
	}
	for _, n := range []uint64{1, 2, 3, 5, 7, 1000, 1 << 12, 1 << 20, 1<<20 + 1, 3 << 61, 1<<63 - 1, 1<<62 + 12345} {
		a, r := rand.NewPCG(5, n), rand.New(rand.NewPCG(5, n))
		p := Load(a)
		for i := range 4000 {
			if x, y := p.IntN(n), r.IntN(int(n)); x != uint64(y) {
				t.Fatalf("n = %d, draw %d: IntN %d, rand.IntN %d", n, i, x, y)
			}
		}
		p.Store(a)
		if a.Uint64() != r.Uint64() {
			t.Fatalf("n = %d: the streams part after 4000 draws", n)
		}
	}
	a, b = rand.NewPCG(1, 2), rand.NewPCG(1, 2)
	a.Uint64() // the planted fault
	p = Load(a)
	if p.Uint64() == b.Uint64() {
		t.Fatal("a state one draw ahead gives the same draw")
	}
}
