package expander

import (
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/bipartite"
)

func TestAppendixASplitter(t *testing.T) {
	for _, c := range []struct{ h, d int }{{1, 1}, {4, 3}, {16, 5}} {
		g := RandomRegular(c.h, c.d, seeds.Rand(3, uint64(c.h), uint64(c.d)))
		s, err := AppendixASplitter(g)
		if err != nil {
			t.Fatal(err)
		}
		m := 2 * c.h
		for _, x := range []Graph{s.Upper, s.Lower} {
			if dA, dB, ok := x.Biregular(); !ok || dA != c.d || dB != 2*c.d || x.NA != m || x.NB != c.h {
				t.Fatalf("h=%d d=%d: degrees %d %d %v", c.h, c.d, dA, dB, ok)
			}
		}
		mg := bipartite.Multigraph{L: m, R: m}
		for _, e := range s.Edges() {
			v := e.Out
			if e.Lower {
				v += int32(c.h)
			}
			mg.Edges = append(mg.Edges, bipartite.Edge{U: e.In, V: v})
		}
		if err := bipartite.Check(mg, s.Colour, 2*c.d); err != nil {
			t.Fatalf("h=%d d=%d: %v", c.h, c.d, err)
		}
		// partners share neighbours; colours c and d + c pair up per input
		for a := range c.h {
			for i, b := range s.Upper.Adj[a] {
				if s.Upper.Adj[a+c.h][i] != b || s.Lower.Adj[a][i] != b {
					t.Fatalf("input %d edge %d: partners differ", a, i)
				}
			}
		}
	}
	if _, err := AppendixASplitter(Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0}}}); err == nil {
		t.Fatal("irregular graph accepted")
	}
}
