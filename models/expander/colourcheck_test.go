package expander

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"routecheck/models/bipartite"
)

// colourCheckDiff compares check with bipartite.Check on random multigraphs
// and colourings — proper ones from bipartite.Colour, then the same with
// colours changed, out of range, one missing, or an edge moved off the
// graph — and returns the first difference in the error (or its absence),
// with how often each outcome came up.
func colourCheckDiff(check func(bipartite.Multigraph, []int32, int) error) (string, map[string]int) {
	kinds := []string{"share colour", "left vertex", "right vertex", "has colour", "colours for", "is (", "ok"}
	seen := map[string]int{}
	rng := rand.New(rand.NewPCG(14, 102))
	for c := range 400 {
		m := bipartite.Multigraph{L: 1 + rng.IntN(8), R: 1 + rng.IntN(8)}
		for range rng.IntN(30) {
			m.Edges = append(m.Edges, bipartite.Edge{U: int32(rng.IntN(m.L)), V: int32(rng.IntN(m.R))})
		}
		col, err := bipartite.Colour(m)
		if err != nil {
			return fmt.Sprintf("case %d: colouring: %v", c, err), seen
		}
		k := max(m.MaxDegree(), 1)
		mg := m
		mg.Edges = append([]bipartite.Edge(nil), m.Edges...)
		switch r := rng.IntN(10); {
		case r < 5 && len(col) > 0:
			for range 1 + rng.IntN(3) {
				col[rng.IntN(len(col))] = int32(rng.IntN(k))
			}
		case r == 5 && len(col) > 0:
			col[rng.IntN(len(col))] = int32([]int{-1, k}[rng.IntN(2)])
		case r == 6 && len(col) > 0:
			col = col[:len(col)-1]
		case r == 7 && len(col) > 0:
			mg.Edges[rng.IntN(len(mg.Edges))].V = int32(mg.R)
		case r == 8:
			k-- // one colour too few (k ≥ 0)
		}
		want, got := bipartite.Check(mg, col, k), check(mg, col, k)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Sprintf("case %d (k = %d, colours %v, edges %v): %v, bipartite.Check %v", c, k, col, mg.Edges, got, want), seen
		}
		for _, kd := range kinds {
			if want == nil && kd == "ok" || want != nil && strings.Contains(want.Error(), kd) {
				seen[kd]++
			}
		}
	}
	return "", seen
}

// TestCheckColouringMatchesBipartite: checkColouring (flat arrays) gives
// bipartite.Check's verdict and error on every random case, every kind of
// error among them; the comparison catches a planted difference (a check
// that misses clashes at right vertices).
func TestCheckColouringMatchesBipartite(t *testing.T) {
	diff, seen := colourCheckDiff(checkColouring)
	if diff != "" {
		t.Fatal(diff)
	}
	for _, kd := range []string{"left vertex", "right vertex", "has colour", "colours for", "is (", "ok"} {
		if seen[kd] == 0 {
			t.Errorf("no case with outcome %q: %v", kd, seen)
		}
	}
	t.Logf("outcomes: %v", seen)
	planted := func(m bipartite.Multigraph, col []int32, k int) error {
		if err := checkColouring(m, col, k); err != nil && !strings.Contains(err.Error(), "right vertex") {
			return err
		}
		return nil
	}
	if diff, _ := colourCheckDiff(planted); diff == "" {
		t.Error("the comparison does not catch a check that misses right-vertex clashes")
	}
}
