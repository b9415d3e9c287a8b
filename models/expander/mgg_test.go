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
	for _, m := range []int{2, 4, 8, 32, 128} {
		s, err := MGGSplitter(m)
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
		if _, err := MGGSplitter(m); err == nil {
			t.Fatalf("MGGSplitter(%d): no error", m)
		}
	}
	if _, err := MGG(4, 3); err == nil {
		t.Fatal("MGG(4, 3): no error")
	}
}
