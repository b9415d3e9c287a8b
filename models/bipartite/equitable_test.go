package bipartite

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// equitableOK reports whether Equitable(m, k) is a proper k-colouring with
// class sizes differing by at most one (de Werra), a panic counting as a
// failure.
func equitableOK(m Multigraph, k int) (ok bool, why string) {
	defer func() {
		if r := recover(); r != nil {
			ok, why = false, "panic"
		}
	}()
	col, err := Equitable(m, k)
	if err != nil {
		return false, err.Error()
	}
	if err := Check(m, col, k); err != nil {
		return false, err.Error()
	}
	if s := ClassSizes(col, k); k > 0 && slices.Max(s)-slices.Min(s) > 1 {
		return false, "class sizes differ by more than one"
	}
	return true, ""
}

// Random small multigraphs beyond TestExhaustiveTiny's edge counts (up to 8
// edges on 4 + 4 vertices), every k from Δ to Δ + 3. The first case is one
// where balancing must start an alternating path at a vertex whose colour-s
// edge is edge 0 (found by a random search against a mutant that took edge
// 0 for "no edge"): 8 edges, k = 4, so every class must have exactly 2.
func TestEquitableSmallRandom(t *testing.T) {
	cases := []Multigraph{{L: 4, R: 4, Edges: []Edge{{0, 0}, {2, 2}, {0, 2}, {3, 3}, {1, 3}, {2, 0}, {3, 3}, {3, 2}}}}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		l, rr := 1+r.IntN(4), 1+r.IntN(4)
		m := Multigraph{L: l, R: rr}
		for range 1 + r.IntN(8) {
			m.Edges = append(m.Edges, Edge{U: int32(r.IntN(l)), V: int32(r.IntN(rr))})
		}
		cases = append(cases, m)
	}
	for _, m := range cases {
		d := m.MaxDegree()
		for k := d; k <= d+3; k++ {
			if ok, why := equitableOK(m, k); !ok {
				t.Fatalf("%+v k = %d: %s", m, k, why)
			}
		}
	}
}

// A graph without edges may ask for k = 0 colours (Equitable's doc: k ≥ 1
// unless m has no edges) and gets the empty colouring; k = −1 is refused.
func TestEquitableNoEdgesZeroColours(t *testing.T) {
	m := Multigraph{L: 2, R: 3}
	if ok, why := equitableOK(m, 0); !ok {
		t.Errorf("no edges, k = 0: %s", why)
	}
	if col, err := Equitable(m, 0); err != nil || len(col) != 0 {
		t.Errorf("no edges, k = 0: %v, %v; want the empty colouring", col, err)
	}
	if _, err := Equitable(m, -1); err == nil {
		t.Error("k = −1 accepted")
	}
}
