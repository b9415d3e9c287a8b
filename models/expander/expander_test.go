package expander

import (
	"math"
	"testing"

	"routecheck/internal/seeds"
)

// naiveMin computes min |Γ(X)| over |X| = x by visiting all 2^NA subsets
// with Graph.Gamma (a second, independent enumeration).
func naiveMin(g Graph) []int {
	min := make([]int, g.NA+1)
	for x := 1; x <= g.NA; x++ {
		min[x] = math.MaxInt
	}
	for s := 1; s < 1<<g.NA; s++ {
		var X []int32
		for a := range g.NA {
			if s>>a&1 == 1 {
				X = append(X, int32(a))
			}
		}
		if c := g.Gamma(X); c < min[len(X)] {
			min[len(X)] = c
		}
	}
	return min
}

func cycle(n int) Graph { // a → a, a+1 (mod n)
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a := range n {
		g.Adj[a] = []int32{int32(a), int32((a + 1) % n)}
	}
	return g
}

func complete(n int) Graph {
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a := range n {
		for b := range n {
			g.Adj[a] = append(g.Adj[a], int32(b))
		}
	}
	return g
}

func TestRandomRegularAndFoldDegrees(t *testing.T) {
	for _, c := range []struct{ n, d int }{{2, 1}, {8, 3}, {16, 5}, {64, 7}} {
		g := RandomRegular(c.n, c.d, seeds.Rand(1, uint64(c.n), uint64(c.d)))
		if dA, dB, ok := g.Biregular(); !ok || dA != c.d || dB != c.d {
			t.Fatalf("n=%d d=%d: degrees %d,%d,%v", c.n, c.d, dA, dB, ok)
		}
		f := Fold(g)
		if dA, dB, ok := f.Biregular(); !ok || dA != c.d || dB != 2*c.d || f.NB != c.n/2 && c.n > 1 {
			t.Fatalf("folded n=%d d=%d: degrees %d,%d,%v NB=%d", c.n, c.d, dA, dB, ok, f.NB)
		}
	}
}

// Hand-derived minima: a perfect matching has |Γ(X)| = |X|; K_{n,n} has n;
// the 2-regular cycle has min |X|+1 (an interval) for |X| < n, and n.
func TestMinNeighboursKnownGraphs(t *testing.T) {
	n := 9
	match := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a := range n {
		match.Adj[a] = []int32{int32((a * 4) % n)}
	}
	for name, c := range map[string]struct {
		g    Graph
		want func(x int) int
	}{
		"matching": {match, func(x int) int { return x }},
		"complete": {complete(n), func(x int) int { return n }},
		"cycle":    {cycle(n), func(x int) int { return min(x+1, n) }},
	} {
		got, worst, err := MinNeighbours(c.g, n)
		if err != nil {
			t.Fatal(err)
		}
		for x := 1; x <= n; x++ {
			if got[x] != c.want(x) || len(worst[x]) != x || c.g.Gamma(worst[x]) != got[x] {
				t.Errorf("%s: x=%d min %d (witness %v), want %d", name, x, got[x], worst[x], c.want(x))
			}
		}
	}
}

func TestMinNeighboursMatchesNaive(t *testing.T) {
	for i := range 30 {
		rng := seeds.Rand(2, uint64(i))
		n := 4 + 2*rng.IntN(5) // 4…12
		g := RandomRegular(n, 1+rng.IntN(4), rng)
		if i%2 == 1 {
			g = Fold(g)
		}
		want := naiveMin(g)
		got, _, err := MinNeighbours(g, g.NA)
		if err != nil {
			t.Fatal(err)
		}
		for x := 1; x <= g.NA; x++ {
			if got[x] != want[x] {
				t.Fatalf("case %d x=%d: %d, naive %d", i, x, got[x], want[x])
			}
		}
	}
}

// Closed-form spectra: K_{n,n} has M·Mᵀ = nJ (λ₂ = 0); the cycle has
// eigenvalues |1 + ω^k|² = 2 + 2cos(2πk/n) (λ₂ at k = 1).
func TestSpectralKnownEigenvalues(t *testing.T) {
	c, err := Spectral(complete(8))
	if err != nil || math.Abs(c.Lambda2) > 1e-9 || c.MinNeighbours(3) != 8 {
		t.Fatalf("K_8,8: %+v %v, bound(3) = %d", c, err, c.MinNeighbours(3))
	}
	for _, n := range []int{5, 8, 13} {
		c, err := Spectral(cycle(n))
		if want := 2 + 2*math.Cos(2*math.Pi/float64(n)); err != nil || math.Abs(c.Lambda2-want) > 1e-9 {
			t.Fatalf("cycle %d: λ₂ %v, want %v (%v)", n, c.Lambda2, want, err)
		}
	}
	if _, err := Spectral(Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0}}}); err == nil {
		t.Fatal("irregular graph accepted")
	}
}

// The certificate is a lower bound: on random graphs and folds it never
// exceeds the brute-force minimum, and for d ≥ 3 it is not vacuous.
func TestSpectralBelowBruteForce(t *testing.T) {
	useful := 0
	for i := range 40 {
		rng := seeds.Rand(3, uint64(i))
		n := 8 + 2*rng.IntN(5) // 8…16
		g := RandomRegular(n, 2+rng.IntN(5), rng)
		if i%2 == 1 {
			g = Fold(g)
		}
		c, err := Spectral(g)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := MinNeighbours(g, g.NA)
		if err != nil {
			t.Fatal(err)
		}
		for x := 1; x <= g.NA; x++ {
			if c.MinNeighbours(x) > got[x] {
				t.Fatalf("case %d x=%d: certificate %d > exact %d (%+v)", i, x, c.MinNeighbours(x), got[x], c)
			}
			if x == 1 && c.MinNeighbours(1) > 1 {
				useful++
			}
		}
	}
	if useful < 10 {
		t.Fatalf("certificate useful on only %d of 40 graphs", useful)
	}
}

func TestSplitterColouring(t *testing.T) {
	for _, c := range []struct{ m, d int }{{2, 1}, {2, 3}, {8, 3}, {32, 4}} {
		s := NewSplitter(c.m, c.d, seeds.Rand(4, uint64(c.m), uint64(c.d)))
		e := s.Edges()
		if len(e) != 2*c.d*c.m || len(s.Colour) != len(e) {
			t.Fatalf("m=%d d=%d: %d edges, %d colours", c.m, c.d, len(e), len(s.Colour))
		}
		type key struct {
			side, v, col int32
		}
		seen := map[key]bool{}
		for i, x := range e {
			col := s.Colour[i]
			out := x.Out
			if x.Lower {
				out += int32(c.m / 2)
			}
			for _, k := range []key{{0, x.In, col}, {1, out, col}} {
				if col < 0 || int(col) >= 2*c.d || seen[k] {
					t.Fatalf("m=%d d=%d: colour %d repeated at %v", c.m, c.d, col, k)
				}
				seen[k] = true
			}
		}
	}
}

func TestExpandsWitness(t *testing.T) {
	ok, bad, err := Expands(cycle(8), 3, 1.5)
	// |Γ| = x+1: 2 ≥ 1.5, 3 ≥ 3, then 4 < 4.5 → violated first at x = 3.
	if err != nil || ok || len(bad) != 3 {
		t.Fatalf("ok=%v bad=%v err=%v", ok, bad, err)
	}
	if ok, _, _ := Expands(cycle(8), 3, 4.0/3); !ok {
		t.Fatal("cycle(8) expands by 4/3 up to 3")
	}
}

func TestMinNeighboursRefusesHugeEnumerations(t *testing.T) {
	g := RandomRegular(64, 2, seeds.Rand(5))
	if _, _, err := MinNeighbours(g, 16); err == nil {
		t.Fatal("C(64, 16) subsets accepted")
	}
	if _, _, err := MinNeighbours(Fold(g), 3); err != nil {
		t.Fatal(err)
	}
}

// The greedy search never beats the exact minimum (its ratio is attained
// by the set it returns), and on the cycle it finds the interval optimum.
func TestGreedySmallSet(t *testing.T) {
	for i := range 20 {
		rng := seeds.Rand(6, uint64(i))
		g := Fold(RandomRegular(16, 2+rng.IntN(3), rng))
		k := 4
		r, set := GreedySmallSet(g, k, 8, rng)
		min, _, err := MinNeighbours(g, k)
		if err != nil {
			t.Fatal(err)
		}
		exact := math.Inf(1)
		for x := 1; x <= k; x++ {
			exact = math.Min(exact, float64(min[x])/float64(x))
		}
		if r < exact || float64(g.Gamma(set))/float64(len(set)) != r || len(set) > k {
			t.Fatalf("case %d: greedy %v (set %v), exact %v", i, r, set, exact)
		}
	}
	if r, _ := GreedySmallSet(cycle(12), 6, 4, seeds.Rand(7)); r != 7.0/6 {
		t.Fatalf("cycle: %v, want 7/6", r)
	}
}
