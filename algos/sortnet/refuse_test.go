package sortnet

import (
	"fmt"
	"strings"
	"testing"

	"routecheck/oracles/sortnetforms"
)

// A refused n > MaxN names the memory it would need: the bitonic network on
// 2^k wires, k = ⌈lg n⌉, has k(k+1)·2^(k−2) comparators (Knuth's closed form,
// oracles/sortnetforms), 8 bytes each. n = MaxN + 1 needs k = 23 (about
// 9 GB), n = 2^26 + 5 needs k = 27 (about 203 GB), n = 2^30 needs k = 30
// (about 1997 GB: ⌈lg n⌉ of a power of two is its own exponent).
func TestRefusalNamesMemory(t *testing.T) {
	for _, c := range []struct{ n, k int }{{MaxN + 1, 23}, {1<<26 + 5, 27}, {1 << 30, 30}} {
		gb := float64(sortnetforms.BitonicSizePow2(c.k)) * 8 / 1e9
		want := fmt.Sprintf("needs about %.0f GB", gb)
		for _, b := range builds {
			if _, err := b.f(c.n); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s(%d): %v, want %q", b.name, c.n, err, want)
			}
		}
	}
}

// padded accepts n = MaxN itself (N = 2^22, k = 22) without building
// anything, and pads other n to the next power of two.
func TestPaddedLimits(t *testing.T) {
	for _, c := range []struct{ n, N, k int }{{MaxN, MaxN, 22}, {MaxN - 1, MaxN, 22}, {5, 8, 3}, {8, 8, 3}, {1, 1, 0}, {0, 1, 0}} {
		N, k, err := padded(c.n, "test")
		if err != nil || N != c.N || k != c.k {
			t.Errorf("padded(%d) = %d, %d, %v; want %d, %d", c.n, N, k, err, c.N, c.k)
		}
	}
}
