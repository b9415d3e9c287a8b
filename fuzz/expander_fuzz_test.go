package fuzz

import (
	"math"
	"math/rand/v2"
	"testing"

	"routecheck/models/expander"
)

// expanderSpectralSeeds are f.Add seeds for FuzzExpanderSpectral, decoded
// as described at runExpanderSpectral. More are in
// testdata/fuzz/FuzzExpanderSpectral/.
var expanderSpectralSeeds = [][]byte{
	{},                             // one matching on 2 + 2 vertices
	{0, 6, 2, 0, 1, 2, 3, 4, 5},    // matchings on 8 + 8
	{1, 10, 3, 1, 9, 8, 7, 6, 5},   // folded union of matchings
	{2, 5, 3, 7, 1, 2, 3, 4, 5, 6}, // arbitrary adjacency lists
	[]byte("routecheck expander spectral certificate against exact enumeration"),
}

// FuzzExpanderSpectral checks models/expander's spectral certificate
// against exact enumeration on tiny bipartite graphs: Spectral never
// panics, refuses every graph that is not biregular, and for every graph
// it certifies, no size x has a certified bound (Bound, MinNeighbours)
// above the exact minimum |Γ(X)| over |X| = x (expander.MinNeighbours), and
// Certifies(k, β) never holds when expander.Expands finds a violating
// set. GreedySmallSet's ratio is never below the exact minimum ratio.
func FuzzExpanderSpectral(f *testing.F) {
	for _, seed := range expanderSpectralSeeds {
		f.Add(seed)
	}
	f.Fuzz(runExpanderSpectral)
}

// runExpanderSpectral decodes data as: the kind (byte mod 3: a union of
// byte-decoded perfect matchings; that union folded; arbitrary adjacency
// lists), the left side n (2–12), the degree d (1–4), then the matchings
// (Fisher–Yates swaps) or the lists (right side 1–12, each neighbour a
// byte).
func runExpanderSpectral(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	kind, n, d := c.intn(0, 2), c.intn(2, 12), c.intn(1, 4)
	var g expander.Graph
	switch kind {
	case 0, 1:
		g = expander.Graph{NA: n, NB: n, Adj: make([][]int32, n)}
		for range d {
			for a, b := range c.perm(n) {
				g.Adj[a] = append(g.Adj[a], b)
			}
		}
		if kind == 1 && n%2 == 0 {
			g = expander.Fold(g)
		}
	default:
		nb := c.intn(1, 12)
		g = expander.Graph{NA: n, NB: nb, Adj: make([][]int32, n)}
		for a := range g.Adj {
			for k := c.intn(0, d); k > 0; k-- {
				g.Adj[a] = append(g.Adj[a], int32(c.intn(0, nb-1)))
			}
		}
	}
	if err := g.Validate(); err != nil {
		t.Fatalf("decoded graph invalid: %v", err)
	}
	_, _, biregular := g.Biregular()
	cert, err := expander.Spectral(g)
	if err != nil {
		if biregular {
			t.Fatalf("Spectral refused a biregular graph %v: %v", g.Adj, err)
		}
		return
	}
	if !biregular {
		t.Fatalf("Spectral certified a graph that is not biregular: %v", g.Adj)
	}
	min, worst, err := expander.MinNeighbours(g, g.NA)
	if err != nil {
		t.Fatalf("MinNeighbours: %v", err)
	}
	for x := 1; x <= g.NA; x++ {
		if got := g.Gamma(worst[x]); got != min[x] || len(worst[x]) != x {
			t.Fatalf("x = %d: MinNeighbours' witness %v has |Γ| = %d, claimed %d", x, worst[x], got, min[x])
		}
		if b := cert.Bound(x); b > float64(min[x])+1e-9 {
			t.Fatalf("x = %d: Bound %.12g exceeds the exact minimum %d (λ₂ = %.12g, graph %v)", x, b, min[x], cert.Lambda2, g.Adj)
		}
		if m := cert.MinNeighbours(x); m > min[x] {
			t.Fatalf("x = %d: certified %d neighbours, exact minimum %d (graph %v)", x, m, min[x], g.Adj)
		}
	}
	for k := 1; k <= g.NA; k++ {
		// the exact best β for sets up to size k, and a β just above it
		beta := math.Inf(1)
		for x := 1; x <= k; x++ {
			beta = math.Min(beta, float64(min[x])/float64(x))
		}
		for _, b := range []float64{beta, beta * (1 + 1e-6), beta + 0.5} {
			ok, bad, err := expander.Expands(g, k, b)
			if err != nil {
				t.Fatalf("Expands(k = %d, β = %g): %v", k, b, err)
			}
			if want := b <= beta; ok != want {
				t.Fatalf("Expands(k = %d, β = %g) = %v, exact minimum ratio %g", k, b, ok, beta)
			}
			if !ok && cert.Certifies(k, b) {
				t.Fatalf("Certifies(k = %d, β = %g) but set %v has |Γ| = %d (graph %v)", k, b, bad, g.Gamma(bad), g.Adj)
			}
		}
		ratio, set := expander.GreedySmallSet(g, k, 2, rand.New(rand.NewPCG(uint64(k), 1)))
		if ratio < beta-1e-12 || len(set) < 1 || len(set) > k || math.Abs(float64(g.Gamma(set))/float64(len(set))-ratio) > 1e-12 {
			t.Fatalf("GreedySmallSet(k = %d) = %g with %v, exact minimum ratio %g", k, ratio, set, beta)
		}
	}
}
