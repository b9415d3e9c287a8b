package expander

import (
	"math"
	"testing"

	"routecheck/models/bipartite"
)

// TestMGGStructure: 8-regular on both sides (every map a bijection) and a
// symmetric biadjacency (the ± maps are mutual inverses), for square and
// 1×2-rectangular tori.
func TestMGGStructure(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {1, 2}, {2, 2}, {4, 8}, {8, 8}, {8, 16}} {
		g, err := MGG(s[0], s[1])
		if err != nil {
			t.Fatal(err)
		}
		if dA, dB, ok := g.Biregular(); !ok || dA != 8 || dB != 8 {
			t.Fatalf("%v: degrees %d %d %v", s, dA, dB, ok)
		}
		cnt := map[[2]int32]int{}
		for a, l := range g.Adj {
			for _, b := range l {
				cnt[[2]int32{int32(a), b}]++
			}
		}
		for e, k := range cnt {
			if cnt[[2]int32{e[1], e[0]}] != k {
				t.Fatalf("%v: edge %v multiplicity %d, reverse %d", s, e, k, cnt[[2]int32{e[1], e[0]}])
			}
		}
	}
}

// TestMGGGabberGalilBound: Hoory–Linial–Wigderson Theorem 8.1, |λ| ≤ 5√2
// for the square tori (a published bound, not our output).
func TestMGGGabberGalilBound(t *testing.T) {
	for _, m := range []int{3, 4, 5, 8, 16} {
		g, err := MGG(m, m)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Spectral(g)
		if err != nil {
			t.Fatal(err)
		}
		if math.Sqrt(c.Lambda2) > 5*math.Sqrt2+1e-9 {
			t.Fatalf("m=%d: λ = %.4f > 5√2", m, math.Sqrt(c.Lambda2))
		}
	}
}

func TestMGGSplitter(t *testing.T) {
	for _, build := range []func(int) (Splitter, error){MGGSplitter, MGGSplitterShifted} {
		testMGGSplitter(t, build)
	}
}

func testMGGSplitter(t *testing.T, build func(int) (Splitter, error)) {
	t.Helper()
	for _, m := range []int{2, 4, 8, 32, 128} {
		s, err := build(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []Graph{s.Upper, s.Lower} {
			if dA, dB, ok := g.Biregular(); !ok || dA != 8 || dB != 16 || g.NA != m || g.NB != m/2 {
				t.Fatalf("m=%d: concentrator degrees %d %d %v, sides %d %d", m, dA, dB, ok, g.NA, g.NB)
			}
		}
		mg := bipartite.Multigraph{L: m, R: m}
		for _, e := range s.Edges() {
			v := e.Out
			if e.Lower {
				v += int32(m / 2)
			}
			mg.Edges = append(mg.Edges, bipartite.Edge{U: e.In, V: v})
		}
		if err := bipartite.Check(mg, s.Colour, 16); err != nil {
			t.Fatalf("m=%d: %v", m, err)
		}
	}
	for _, m := range []int{0, 1, 3, 12, 1 << 17} {
		if _, err := build(m); err == nil {
			t.Fatalf("MGGSplitter(%d): no error", m)
		}
	}
	if _, err := MGG(4, 3); err == nil {
		t.Fatal("MGG(4, 3): no error")
	}
}

// TestFoldShift: on the 4 × 8 torus (a = 4, b = 8) right vertex (2, 0)
// (index 16) is paired with (0, 7) (index 7), (3, 5) (index 29) with
// (1, 4) (index 12), and vertices with x < 2 keep their index; Fold pairs
// 16 with 0 instead. The folded graph keeps every edge (same left degree)
// and each folded vertex has exactly two preimages.
func TestFoldShift(t *testing.T) {
	g := Graph{NA: 4, NB: 32, Adj: [][]int32{{16}, {29}, {7}, {12}}}
	f := FoldShift(g, 4, 8)
	if f.NB != 16 {
		t.Fatalf("NB = %d, want 16", f.NB)
	}
	for v, want := range []int32{7, 12, 7, 12} {
		if f.Adj[v][0] != want {
			t.Errorf("left %d: folded to %d, want %d", v, f.Adj[v][0], want)
		}
	}
	if Fold(g).Adj[0][0] != 0 {
		t.Errorf("Fold: 16 ↦ %d, want 0", Fold(g).Adj[0][0])
	}
	all := Graph{NA: 1, NB: 32, Adj: [][]int32{make([]int32, 32)}}
	for w := range int32(32) {
		all.Adj[0][w] = w
	}
	cnt := make([]int, 16)
	for _, w := range FoldShift(all, 4, 8).Adj[0] {
		cnt[w]++
	}
	for w, c := range cnt {
		if c != 2 {
			t.Fatalf("folded vertex %d has %d preimages, want 2", w, c)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("odd a accepted")
		}
	}()
	FoldShift(Graph{NA: 1, NB: 6, Adj: [][]int32{{0}}}, 3, 2)
}
