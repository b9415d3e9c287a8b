package expander

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGreedySmallSetTieRule: the documented tie rule ("the vertex that adds
// the fewest new neighbours; ties: the first in a random order"), replayed
// independently with the same random order (same PCG seed, one start) on
// the cycle C_12 as a bipartite graph (a ~ a, a+1 mod 12), where every
// step after the first has a tie between the set's two ends. With one
// start the ratio (|X|+1)/|X| falls strictly, so the returned set is the
// whole greedy sequence of k vertices.
func TestGreedySmallSetTieRule(t *testing.T) {
	const n, k = 12, 4
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a := range n {
		g.Adj[a] = []int32{int32(a), int32((a + 1) % n)}
	}
	for seed := uint64(1); seed <= 5; seed++ {
		order := rand.New(rand.NewPCG(seed, 7)).Perm(n)
		want := []int32{int32(order[0])}
		covered := map[int32]bool{}
		for _, b := range g.Adj[order[0]] {
			covered[b] = true
		}
		for len(want) < k {
			best, bestAdd := -1, 3
			for _, a := range order {
				if slices.Contains(want, int32(a)) {
					continue
				}
				add := 0
				for _, b := range g.Adj[a] {
					if !covered[b] {
						add++
					}
				}
				if add < bestAdd {
					best, bestAdd = a, add
				}
			}
			want = append(want, int32(best))
			for _, b := range g.Adj[best] {
				covered[b] = true
			}
		}
		ratio, set := GreedySmallSet(g, k, 1, rand.New(rand.NewPCG(seed, 7)))
		if !slices.Equal(set, want) || ratio != float64(k+1)/k {
			t.Errorf("seed %d: GreedySmallSet = %v, %v; want %v, %v", seed, ratio, set, want, float64(k+1)/k)
		}
	}
}
