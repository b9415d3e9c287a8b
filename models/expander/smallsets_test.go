package expander

import (
	"slices"
	"testing"

	"routecheck/internal/seeds"
)

// naiveMinUpTo computes min |Γ(X)| over |X| = x ≤ k by visiting every such
// X with Graph.Gamma (maps, no bitsets, no pruning: a second, independent
// enumeration).
func naiveMinUpTo(g Graph, k int) []int {
	min := make([]int, k+1)
	for x := 1; x <= k; x++ {
		min[x] = g.NB + 1
	}
	var X []int32
	var rec func(start int)
	rec = func(start int) {
		if x := len(X); x > 0 {
			if c := g.Gamma(X); c < min[x] {
				min[x] = c
			}
			if x == k {
				return
			}
		}
		for a := start; a < g.NA; a++ {
			X = append(X, int32(a))
			rec(a + 1)
			X = X[:len(X)-1]
		}
	}
	if k > 0 {
		rec(0)
	}
	return min
}

// checkSmall runs MinNeighboursSmall and checks that each witness has the
// right size and the reported |Γ|.
// It also runs the branch and bound without the greedy upper bounds, which
// must give the same minima (the greedy bounds alone are often exact, so
// this is what exercises the pruning).
func checkSmall(t *testing.T, name string, g Graph, k int) []int {
	t.Helper()
	var first []int
	for _, greedy := range []bool{true, false} {
		min, worst, err := minNeighboursSmall(g, k, 0, greedy)
		if err != nil {
			t.Fatalf("%s (greedy %v): %v", name, greedy, err)
		}
		for x := 1; x <= k; x++ {
			if len(worst[x]) != x || g.Gamma(worst[x]) != min[x] {
				t.Fatalf("%s (greedy %v): x = %d: witness %v has |Γ| = %d, reported %d", name, greedy, x, worst[x], g.Gamma(worst[x]), min[x])
			}
		}
		if first == nil {
			first = min
		} else if !slices.Equal(min, first) {
			t.Fatalf("%s: %v with the greedy bounds, %v without", name, first, min)
		}
	}
	return first
}

// On random regular graphs, their folds and the MGG concentrators up to
// m = 64, the branch and bound agrees with MinNeighbours' plain enumeration;
// at m = 128 and 256 (k = 2) with the naive map-based count.
func TestMinNeighboursSmallMatchesEnumeration(t *testing.T) {
	for i := range 40 {
		rng := seeds.Rand(7, uint64(i))
		n := 4 + 2*rng.IntN(13) // 4…28
		g := RandomRegular(n, 1+rng.IntN(5), rng)
		if i%2 == 1 {
			g = Fold(g)
		}
		k := min(g.NA, 1+rng.IntN(5))
		want, _, err := MinNeighbours(g, k)
		if err != nil {
			t.Fatal(err)
		}
		if got := checkSmall(t, "random", g, k); !slices.Equal(got, want) {
			t.Fatalf("case %d (NA = %d, k = %d): %v, enumeration %v", i, g.NA, k, got, want)
		}
	}
	for _, c := range []struct{ m, k int }{{16, 4}, {32, 4}, {64, 3}, {128, 2}, {256, 2}} {
		for _, build := range []func(int) (Splitter, error){MGGSplitter, MGGSplitterShifted} {
			sp, err := build(c.m)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range []Graph{sp.Upper, sp.Lower} {
				want := naiveMinUpTo(g, c.k)
				if got := checkSmall(t, "MGG", g, c.k); !slices.Equal(got, want) {
					t.Fatalf("m = %d: %v, naive %v", c.m, got, want)
				}
			}
		}
	}
}

// The reviewer's independent exact counts (Python, both concentrators
// alike) on the plain fold: m = 128 least |Γ(X)| for |X| = 1, 2 is [5, 8]
// and m = 256 for |X| = 1…4 is [5, 5, 10, 10], with inputs 0 and 128
// sharing the adjacency list [0 16 0 1 0 112 0 15] at m = 256; the
// shifted fold's least pair neighbourhoods are 9, 8, 9 at m = 128, 256, 512.
func TestMinNeighboursSmallMGGCounts(t *testing.T) {
	for _, c := range []struct {
		m    int
		want []int
	}{{128, []int{0, 5, 8}}, {256, []int{0, 5, 5, 10, 10}}} {
		sp, err := MGGSplitter(c.m)
		if err != nil {
			t.Fatal(err)
		}
		for side, g := range []Graph{sp.Upper, sp.Lower} {
			if got := checkSmall(t, "MGG", g, len(c.want)-1); !slices.Equal(got, c.want) {
				t.Errorf("plain fold m = %d side %d: %v, want %v", c.m, side, got, c.want)
			}
		}
	}
	sp, _ := MGGSplitter(256)
	if a, b := sp.Upper.Adj[0], sp.Upper.Adj[128]; !slices.Equal(a, b) || !slices.Equal(a, []int32{0, 16, 0, 1, 0, 112, 0, 15}) {
		t.Errorf("m = 256 upper: inputs 0 and 128 have %v and %v", a, b)
	}
	for _, c := range []struct{ m, want int }{{128, 9}, {256, 8}, {512, 9}} {
		sp, err := MGGSplitterShifted(c.m)
		if err != nil {
			t.Fatal(err)
		}
		for side, g := range []Graph{sp.Upper, sp.Lower} {
			if got := checkSmall(t, "shifted", g, 2); got[2] != c.want {
				t.Errorf("shifted fold m = %d side %d: least pair %d, want %d", c.m, side, got[2], c.want)
			}
		}
	}
}

// A planted fault is found: in the shifted fold at m = 256 (least |Γ| of
// a single input 5, of a pair 8, of a 4-set 13) input 200 is given the
// adjacency list of an input s with the least |Γ({s})|, so {s, 200} has
// |Γ| = |Γ({s})| < 8, and inputs 40, 90, 150 are given input 3's list
// rotated, so {3, 40, 90, 150} has |Γ| = |Γ({3})| < 13.
func TestMinNeighboursSmallFindsPlantedSets(t *testing.T) {
	sp, err := MGGSplitterShifted(256)
	if err != nil {
		t.Fatal(err)
	}
	base := checkSmall(t, "unplanted", sp.Upper, 4)
	_, w, _ := MinNeighboursSmall(sp.Upper, 1, 0)
	s := w[1][0]
	g := Graph{NA: sp.Upper.NA, NB: sp.Upper.NB, Adj: slices.Clone(sp.Upper.Adj)}
	g.Adj[200] = slices.Clone(g.Adj[s])
	one := g.Gamma([]int32{s})
	for i, a := range []int{40, 90, 150} {
		l := slices.Clone(g.Adj[3])
		for j := range l {
			l[j] = g.Adj[3][(j+i+1)%len(l)]
		}
		g.Adj[a] = l
	}
	four := g.Gamma([]int32{3})
	// The plants are faults: the unplanted graph has no pair or 4-set that
	// small.
	if base[2] <= one || base[4] <= four || s == 200 || s == 3 {
		t.Fatalf("unplanted %v already reaches the planted pair %d / 4-set %d (s = %d)", base, one, four, s)
	}
	min := checkSmall(t, "planted", g, 4)
	if min[2] > one || min[4] > four {
		t.Errorf("planted pair |Γ| = %d, 4-set |Γ| = %d; found %v", one, four, min)
	}
}

func TestMinNeighboursSmallErrors(t *testing.T) {
	g := RandomRegular(8, 2, seeds.Rand(1, 1))
	for _, k := range []int{-1, 9} {
		if _, _, err := MinNeighboursSmall(g, k, 0); err == nil {
			t.Errorf("k = %d accepted", k)
		}
	}
	if _, _, err := MinNeighboursSmall(Graph{NA: 1, NB: 1, Adj: [][]int32{{3}}}, 1, 0); err == nil {
		t.Error("invalid graph accepted")
	}
	if _, _, err := MinNeighboursSmall(RandomRegular(40, 3, seeds.Rand(1, 2)), 6, 100); err == nil {
		t.Error("the visit limit was not enforced")
	}
}
