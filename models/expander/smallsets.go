package expander

import (
	"fmt"
	"math"
	"math/bits"
)

// MinNeighboursSmall returns what MinNeighbours returns — for x = 0…k the
// minimum of |Γ(X)| over all X ⊆ A with |X| = x (min[0] = 0) and one set
// attaining each minimum — without MinNeighbours' limits on NA and NB, for
// the small k of a concentrator at small α (k = ⌊m/64⌋ at α = 1/64).
//
// It is a branch and bound over the sets in lexicographic order: |Γ| only
// grows with X, so a prefix P is not extended once |Γ(P)| ≥ the best value
// found so far for every size above |P|. The upper bounds start from a
// greedy growth from every vertex (cost NA²·k·⌈NB/64⌉). The result is exact;
// the cost depends on the graph (few prefixes survive in a graph whose
// vertices have distinct, spread neighbourhoods). It visits at most
// maxVisits prefixes and returns an error beyond (maxVisits ≤ 0 means
// MaxSubsets); it returns an error for an invalid graph or k outside
// [0, NA].
func MinNeighboursSmall(g Graph, k int, maxVisits int) (min []int, worst [][]int32, err error) {
	return minNeighboursSmall(g, k, maxVisits, true)
}

// minNeighboursSmall is MinNeighboursSmall; greedy = false skips the greedy
// upper bounds (the tests check the branch and bound alone with it).
func minNeighboursSmall(g Graph, k int, maxVisits int, greedy bool) (min []int, worst [][]int32, err error) {
	if err := g.Validate(); err != nil {
		return nil, nil, err
	}
	if k < 0 || k > g.NA {
		return nil, nil, fmt.Errorf("expander: MinNeighboursSmall needs 0 ≤ k ≤ NA (got NA = %d, k = %d)", g.NA, k)
	}
	if maxVisits <= 0 {
		maxVisits = MaxSubsets
	}
	words := (g.NB + 63) / 64
	mask := make([]uint64, g.NA*words)
	for a, l := range g.Adj {
		for _, b := range l {
			mask[a*words+int(b)/64] |= 1 << uint(b%64)
		}
	}
	row := func(a int) []uint64 { return mask[a*words : (a+1)*words] }
	count := func(acc []uint64) int {
		c := 0
		for _, w := range acc {
			c += bits.OnesCount64(w)
		}
		return c
	}
	min = make([]int, k+1)
	worst = make([][]int32, k+1)
	for x := 1; x <= k; x++ {
		min[x] = math.MaxInt
	}
	// Greedy upper bounds: from every vertex, add the vertex that adds the
	// fewest new neighbours (the smallest index on ties).
	acc := make([]uint64, words)
	in := make([]bool, g.NA)
	for s := 0; greedy && s < g.NA && k > 0; s++ {
		set := []int32{int32(s)}
		copy(acc, row(s))
		clear(in)
		in[s] = true
		for x := 1; ; x++ {
			if c := count(acc); c < min[x] {
				min[x] = c
				worst[x] = append([]int32(nil), set...)
			}
			if x == k {
				break
			}
			bestA, bestC := -1, math.MaxInt
			for a := 0; a < g.NA; a++ {
				if in[a] {
					continue
				}
				c := 0
				for i, w := range row(a) {
					c += bits.OnesCount64(w | acc[i])
				}
				if c < bestC {
					bestA, bestC = a, c
				}
			}
			in[bestA] = true
			set = append(set, int32(bestA))
			for i, w := range row(bestA) {
				acc[i] |= w
			}
		}
	}
	// above[p] = the largest best value over sizes p+1…k: a prefix of size
	// p with |Γ| ≥ above[p] cannot improve any of them.
	above := make([]int, k+1)
	refresh := func() {
		above[k] = math.MinInt
		for p := k - 1; p >= 0; p-- {
			above[p] = max(above[p+1], min[p+1])
		}
	}
	refresh()
	stack := make([]uint64, (k+1)*words)
	cur := make([]int32, 0, k)
	visits := 0
	var rec func(start int) error
	rec = func(start int) error {
		x := len(cur)
		level := stack[x*words : (x+1)*words]
		c := count(level)
		if x > 0 && c < min[x] {
			min[x] = c
			worst[x] = append([]int32(nil), cur...)
			refresh()
		}
		if x == k || c >= above[x] {
			return nil
		}
		next := stack[(x+1)*words : (x+2)*words]
		for a := start; a < g.NA; a++ {
			if visits++; visits > maxVisits {
				return fmt.Errorf("expander: MinNeighboursSmall visited more than %d prefixes (NA = %d, NB = %d, k = %d)", maxVisits, g.NA, g.NB, k)
			}
			for i, w := range row(a) {
				next[i] = level[i] | w
			}
			cur = append(cur, int32(a))
			err := rec(a + 1)
			cur = cur[:len(cur)-1]
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(0); err != nil {
		return nil, nil, err
	}
	return min, worst, nil
}
