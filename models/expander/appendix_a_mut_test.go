package expander

import "testing"

// TestAppendixAColourHalves: the doc's colour layout — an A¹ input (a < h)
// has its upper edges coloured c < d and its lower edges d + c ≥ d; an A²
// input the reverse — on K_{3,3} (d = 3, h = 3) and a 2-regular 4-cycle.
func TestAppendixAColourHalves(t *testing.T) {
	for _, g := range []Graph{
		{NA: 3, NB: 3, Adj: [][]int32{{0, 1, 2}, {0, 1, 2}, {0, 1, 2}}},
		{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {1, 0}}},
	} {
		s, err := AppendixASplitter(g)
		if err != nil {
			t.Fatal(err)
		}
		h, d := int32(g.NA), int32(len(g.Adj[0]))
		e := s.Edges()
		if len(e) != len(s.Colour) || len(e) != int(2*h*2*d) {
			t.Fatalf("%d edges, %d colours, want %d", len(e), len(s.Colour), 4*h*d)
		}
		for i, x := range e {
			c := s.Colour[i]
			wantLow := (x.In < h) == x.Lower // colour ≥ d
			if (c >= d) != wantLow || c < 0 || c >= 2*d {
				t.Fatalf("edge %+v colour %d: want %s d = %d", x, c, map[bool]string{true: "≥", false: "<"}[wantLow], d)
			}
		}
	}
}
