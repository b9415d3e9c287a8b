package pops

import (
	"math/big"
	"testing"
)

// bruteY2 enumerates every assignment of distinct colors within each block
// (uniform over injective colorings, independent between blocks) and
// averages the number of packets whose color no other packet has.
func bruteY2(ms []int, g int) *big.Rat {
	k := 0
	for _, m := range ms {
		k += m
	}
	colors := make([]int, 0, k)
	total, count := 0, 0
	var rec func(b, j int)
	rec = func(b, j int) {
		if b == len(ms) {
			seen := map[int]int{}
			for _, c := range colors {
				seen[c]++
			}
			for _, c := range colors {
				if seen[c] == 1 {
					total++
				}
			}
			count++
			return
		}
		if j == ms[b] {
			rec(b+1, 0)
			return
		}
		start := len(colors) - j // this block's colors so far
		for c := range g {
			dup := false
			for _, x := range colors[start:] {
				dup = dup || x == c
			}
			if !dup {
				colors = append(colors, c)
				rec(b, j+1)
				colors = colors[:len(colors)-1]
			}
		}
	}
	rec(0, 0)
	return big.NewRat(int64(total), int64(count))
}

// The closed form E[Y_b^2] = Σ_j m_j Π_{i≠j}(1 − m_i/g) equals the brute
// force on small cases, and singletonBound is k(1−1/g)^{k−1} (by hand:
// g = 4, k = 3 gives 3·9/16 = 27/16).
func TestExpectedY2BruteForce(t *testing.T) {
	for _, tc := range []struct {
		ms []int
		g  int
	}{{[]int{1, 1}, 2}, {[]int{2, 1}, 3}, {[]int{1, 1, 1}, 3}, {[]int{2, 2}, 3}, {[]int{3, 1}, 4}, {[]int{2, 1, 1}, 4}, {[]int{1, 1, 1, 1}, 4}, {[]int{3, 3}, 3}} {
		got, want := expectedY2(tc.ms, tc.g), bruteY2(tc.ms, tc.g)
		if got.Cmp(want) != 0 {
			t.Fatalf("blocks %v, g = %d: formula %s, brute force %s", tc.ms, tc.g, got.RatString(), want.RatString())
		}
	}
	if got := singletonBound(3, 4); got.Cmp(big.NewRat(27, 16)) != 0 {
		t.Fatalf("singletonBound(3, 4) = %s, want 27/16", got.RatString())
	}
	// Partitions of 6 into ≤ 3 parts of size ≤ 3, by hand: 33, 321, 222.
	n := 0
	partitions(6, 3, 3, func([]int) { n++ })
	if n != 3 {
		t.Fatalf("partitions of 6 into ≤ 3 parts ≤ 3: %d, want 3 (33, 321, 222)", n)
	}
}
