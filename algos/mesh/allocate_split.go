package mesh

import "math/bits"

// RegularIndices returns the indices §2 of 003_8774480fe7c747cc.txt takes
// when it "regularly extracts" x elements out of a sorted set of size s:
// ⌊i·s/x⌋ for 0 ≤ i < x, in increasing order. For 0 ≤ x ≤ s they are x
// distinct indices in [0, s); it panics for x < 0 or x > s (the procedure
// is only defined for x ≤ s).
func RegularIndices(s, x int) []int {
	if x < 0 || x > s {
		panic("mesh: RegularIndices needs 0 ≤ x ≤ s")
	}
	out := make([]int, x)
	for i := range out {
		out[i] = i * s / x
	}
	return out
}

// SplitPowersOfTwo is §2's decomposition of a sorted set into subsets whose
// sizes are powers of two: m = ⌊log₂ s⌋ is determined, x = 2^m elements are
// regularly extracted, and the procedure is repeated with the remaining
// s − x elements. It returns the subsets in the order they are made, each
// in the original (sorted) order; s is not modified. Time O(s): every round
// walks the remaining elements once and the remainder at least halves.
func SplitPowersOfTwo(s []int32) [][]int32 {
	var out [][]int32
	rest := s
	for len(rest) > 0 {
		x := 1 << (bits.Len(uint(len(rest))) - 1)
		var take []int32
		take, rest = extractWalk(rest, x, nil, nil, nil)
		out = append(out, take)
	}
	return out
}

// extractWalk appends to take the x elements of s with indices ⌊i·|s|/x⌋,
// 0 ≤ i < x, and the others to rest, both in their order in s, in one walk
// over s (the indices increase strictly when x ≤ |s|). It adds |s| to *ops
// when ops is non-nil (one elementary operation per element moved).
func extractWalk(s []int32, x int, take, rest []int32, ops *int) ([]int32, []int32) {
	next := 0 // the next i whose index ⌊i·|s|/x⌋ is still ahead
	for t, p := range s {
		if next < x && t == next*len(s)/x {
			take = append(take, p)
			next++
		} else {
			rest = append(rest, p)
		}
	}
	if ops != nil {
		*ops += len(s)
	}
	return take, rest
}
