package expander

import (
	"math"
	"strings"
	"testing"

	"routecheck/internal/seeds"
)

// Validate accepts empty sides and rejects a neighbour equal to NB.
func TestValidateEdges(t *testing.T) {
	for _, c := range []struct {
		g  Graph
		ok bool
	}{
		{Graph{}, true},
		{Graph{NA: 0, NB: 3}, true},
		{Graph{NA: 2, NB: 0, Adj: [][]int32{{}, {}}}, true},
		{Graph{NA: 1, NB: 2, Adj: [][]int32{{1}}}, true},
		{Graph{NA: 1, NB: 2, Adj: [][]int32{{2}}}, false},
		{Graph{NA: 1, NB: 2, Adj: [][]int32{{-1}}}, false},
		{Graph{NA: -1, NB: 2}, false},
		{Graph{NA: 1, NB: -1, Adj: [][]int32{{}}}, false},
		{Graph{NA: 2, NB: 2, Adj: [][]int32{{0}}}, false},
	} {
		if err := c.g.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate = %v, want ok %v", c.g, err, c.ok)
		}
	}
}

// The smallest parameters each function documents are accepted: n = d = 1
// (one edge), k = 0 (min[0] = 0), NB = 64, and Spectral at NA = 2.
func TestSmallestParameters(t *testing.T) {
	if g := RandomRegular(1, 1, seeds.Rand(8)); g.NA != 1 || len(g.Adj[0]) != 1 || g.Adj[0][0] != 0 {
		t.Errorf("RandomRegular(1, 1) = %+v, want the single edge (0, 0)", g)
	}
	if min, _, err := MinNeighbours(cycle(4), 0); err != nil || len(min) != 1 || min[0] != 0 {
		t.Errorf("MinNeighbours(k = 0) = %v, %v; want [0]", min, err)
	}
	// Left vertex a is joined to right vertices 32a … 32a+31 of 64: |Γ| = 32x.
	g := Graph{NA: 2, NB: 64, Adj: make([][]int32, 2)}
	for a := range 2 {
		for b := range 32 {
			g.Adj[a] = append(g.Adj[a], int32(32*a+b))
		}
	}
	if min, _, err := MinNeighbours(g, 2); err != nil || min[1] != 32 || min[2] != 64 {
		t.Errorf("NB = 64: %v, %v; want [0 32 64]", min, err)
	}
	// K_{2,2}: M·Mᵀ = 2J, eigenvalues 4 and 0.
	if c, err := Spectral(complete(2)); err != nil || math.Abs(c.Lambda2) > 1e-9 || c.DA != 2 || c.DB != 2 {
		t.Errorf("Spectral(K_2,2) = %+v, %v; want λ₂ = 0", c, err)
	}
}

// The cost limit counts every size up to k: at NA = 64, Σ_{x≤5} C(64, x)
// = 8 303 633 is allowed and Σ_{x≤6} = 83 278 001 > 5·10^7 is refused.
func TestMinNeighboursCostCountsSizeK(t *testing.T) {
	g := RandomRegular(64, 1, seeds.Rand(9))
	if _, _, err := MinNeighbours(g, 6); err == nil || !strings.Contains(err.Error(), "8.33e+07") {
		t.Errorf("k = 6: %v, want a refusal naming 8.33e+07 subsets", err)
	}
}

// tanner is Tanner's bound written from its statement (package doc):
// |Γ(X)| ≥ dA²·x / (λ₂ + (dA·dB − λ₂)·x/NA).
func tanner(dA, dB, na int, l2 float64, x int) float64 {
	d2, dd := float64(dA*dA), float64(dA*dB)
	return d2 * float64(x) / (l2 + (dd-l2)*float64(x)/float64(na))
}

// The bound of the 8-cycle (λ₂ = 2 + √2) against the formula, and at
// x = NA it is exactly NB: every right vertex is a neighbour.
func TestBoundAndCertifies(t *testing.T) {
	c, err := Spectral(cycle(8))
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= 8; x++ {
		if got, want := c.Bound(x), tanner(2, 2, 8, 2+math.Sqrt2, x); math.Abs(got-want) > 1e-9 {
			t.Errorf("cycle(8) Bound(%d) = %v, want %v", x, got, want)
		}
	}
	if got := c.Bound(8); math.Abs(got-8) > 1e-9 {
		t.Errorf("Bound(NA) = %v, want NB = 8", got)
	}
	// Bound(1) = 4/(3.414… + 0.586…/8) ≈ 1.147 → 2; Bound(2) ≈ 2.294 → 3:
	// the exact minima of the cycle (x + 1), so β = 1.5 is certified up to
	// k = 2 and β = 1.6 is not (3 < 3.2), nor β = 2.01 at k = 1.
	for _, q := range []struct {
		k    int
		beta float64
		want bool
	}{{1, 2, true}, {1, 2.01, false}, {2, 1.5, true}, {2, 1.6, false}, {0, 100, true}} {
		if got := c.Certifies(q.k, q.beta); got != q.want {
			t.Errorf("cycle(8) Certifies(%d, %v) = %v, want %v", q.k, q.beta, got, q.want)
		}
	}
	kc, err := Spectral(complete(8))
	if err != nil || !kc.Certifies(8, 1) || kc.Certifies(8, 1.01) {
		t.Errorf("K_8,8 (|Γ| = 8 for every X): Certifies(8, 1) and not (8, 1.01) expected (%v)", err)
	}
}

// Vertex 0's only neighbour is shared by every other vertex (Adj[a] = {0, a}),
// so from any start a ≠ 0 the greedy step adds vertex 0 (it adds no new
// neighbour) and reaches ratio 2/2 = 1, the minimum. Asking for more vertices
// than there are stops at NA distinct ones.
func TestGreedyAddsVertexZeroAndStops(t *testing.T) {
	const n = 6
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	g.Adj[0] = []int32{0}
	for a := 1; a < n; a++ {
		g.Adj[a] = []int32{0, int32(a)}
	}
	for s := range uint64(10) {
		if r, set := GreedySmallSet(g, 2, 1, seeds.Rand(10, s)); r != 1 || g.Gamma(set) != len(set) {
			t.Errorf("seed %d: ratio %v with set %v, want 1", s, r, set)
		}
	}
	_, set := GreedySmallSet(cycle(5), 9, 3, seeds.Rand(11))
	seen := map[int32]bool{}
	for _, a := range set {
		if seen[a] || a < 0 || a >= 5 {
			t.Fatalf("k > NA: set %v repeats or leaves the graph", set)
		}
		seen[a] = true
	}
}

// colourSplitter refuses what cannot be a splitter: an edge out of range
// (the colouring fails) and a vertex of degree above 2D (it needs more than
// 2D colours).
func TestColourSplitterPanics(t *testing.T) {
	g1 := Graph{NA: 2, NB: 1, Adj: [][]int32{{0}, {0}}}
	for _, c := range []struct {
		s    Splitter
		want string
	}{
		{Splitter{M: 2, D: 1, Upper: Graph{NA: 2, NB: 1, Adj: [][]int32{{5}, {0}}}, Lower: g1}, "expander: colouring a splitter"},
		{Splitter{M: 2, D: 1, Upper: Graph{NA: 2, NB: 1, Adj: [][]int32{{0, 0}, {0}}}, Lower: g1}, "expander: splitter colouring"},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, c.want) {
					t.Errorf("%+v: panic %q, want %q", c.s, r, c.want)
				}
			}()
			colourSplitter(c.s)
		}()
	}
}
