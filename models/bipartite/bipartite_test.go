package bipartite

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// bruteColour searches every assignment of colours in [0, k) to the edges
// (backtracking, edge by edge) for a proper colouring whose classes have at
// most maxClass edges each (maxClass ≥ |E| means no size limit). It knows
// nothing of alternating paths: it is the oracle for tiny graphs.
func bruteColour(m Multigraph, k, maxClass int) bool {
	col := make([]int32, len(m.Edges))
	size := make([]int, k)
	var rec func(e int) bool
	rec = func(e int) bool {
		if e == len(m.Edges) {
			return true
		}
		for c := range int32(k) {
			if size[c] >= maxClass {
				continue
			}
			ok := true
			for f := range e {
				if col[f] == c && (m.Edges[f].U == m.Edges[e].U || m.Edges[f].V == m.Edges[e].V) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			col[e] = c
			size[c]++
			if rec(e + 1) {
				return true
			}
			size[c]--
		}
		return false
	}
	return rec(0)
}

// eachMultigraph calls f for every bipartite multigraph with L, R ≤ maxSide
// and at most maxEdges edges, each once (edges listed in non-decreasing order).
func eachMultigraph(maxSide, maxEdges int, f func(Multigraph)) {
	for l := 1; l <= maxSide; l++ {
		for r := 1; r <= maxSide; r++ {
			var edges []Edge
			var rec func(from int)
			rec = func(from int) {
				f(Multigraph{L: l, R: r, Edges: slices.Clone(edges)})
				if len(edges) == maxEdges {
					return
				}
				for p := from; p < l*r; p++ {
					edges = append(edges, Edge{U: int32(p / r), V: int32(p % r)})
					rec(p)
					edges = edges[:len(edges)-1]
				}
			}
			rec(0)
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// Every multigraph with L, R ≤ 3 and at most 8 edges, and with L, R ≤ 4 and
// at most 6 edges (fewer in -short): brute force confirms a Δ-colouring
// exists (König) and that Δ−1 colours do not suffice; Colour returns a proper
// colouring with Δ colours. For k = Δ…Δ+2 an equitable colouring exists
// (brute force with class size ≤ ⌈|E|/k⌉) and Equitable returns one.
func TestExhaustiveTiny(t *testing.T) {
	sweeps := [][2]int{{3, 8}, {4, 6}}
	if testing.Short() {
		sweeps = [][2]int{{3, 6}, {4, 4}}
	}
	for _, sw := range sweeps {
		graphs := 0
		eachMultigraph(sw[0], sw[1], func(m Multigraph) {
			graphs++
			checkTiny(t, m)
		})
		t.Logf("%d multigraphs with L, R ≤ %d and ≤ %d edges", graphs, sw[0], sw[1])
	}
}

func checkTiny(t *testing.T, m Multigraph) {
	t.Helper()
	delta := m.MaxDegree()
	e := len(m.Edges)
	if !bruteColour(m, delta, e+1) {
		t.Fatalf("%+v: brute force finds no %d-colouring (König's theorem says one exists)", m, delta)
	}
	if delta > 0 && bruteColour(m, delta-1, e+1) {
		t.Fatalf("%+v: brute force finds a %d-colouring below Δ = %d", m, delta-1, delta)
	}
	col, err := Colour(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(m, col, delta); err != nil {
		t.Fatalf("%+v: Colour = %v: %v", m, col, err)
	}
	for k := max(delta, 1); k <= delta+2; k++ {
		if !bruteColour(m, k, ceilDiv(e, k)) {
			t.Fatalf("%+v: brute force finds no equitable %d-colouring", m, k)
		}
		col, err := Equitable(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(m, col, k); err != nil {
			t.Fatalf("%+v k=%d: Equitable = %v: %v", m, k, col, err)
		}
		if s := ClassSizes(col, k); slices.Max(s)-slices.Min(s) > 1 {
			t.Fatalf("%+v k=%d: Equitable = %v has class sizes %v", m, k, col, s)
		}
	}
}

// Hand-made cases with known answers.
func TestKnown(t *testing.T) {
	cases := []struct {
		name  string
		m     Multigraph
		delta int
	}{
		{"empty", Multigraph{L: 2, R: 3}, 0},
		{"triple edge", Multigraph{L: 1, R: 1, Edges: []Edge{{0, 0}, {0, 0}, {0, 0}}}, 3},
		{"K33", Multigraph{L: 3, R: 3, Edges: []Edge{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}}}, 3},
		{"star", Multigraph{L: 1, R: 4, Edges: []Edge{{0, 0}, {0, 1}, {0, 2}, {0, 3}}}, 4},
		// A 6-cycle with every edge doubled: 4-regular.
		{"doubled C6", Multigraph{L: 3, R: 3, Edges: []Edge{{0, 0}, {0, 0}, {0, 1}, {0, 1}, {1, 1}, {1, 1}, {1, 2}, {1, 2}, {2, 2}, {2, 2}, {2, 0}, {2, 0}}}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.m.MaxDegree(); got != c.delta {
				t.Fatalf("MaxDegree = %d, want %d", got, c.delta)
			}
			col, err := Colour(c.m)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(c.m, col, c.delta); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Check is able to fail: it rejects clashes, out-of-range colours and wrong
// lengths; Colour and Equitable reject bad input.
func TestCheckRejects(t *testing.T) {
	m := Multigraph{L: 2, R: 2, Edges: []Edge{{0, 0}, {0, 1}, {1, 1}}}
	for _, c := range []struct {
		col []int32
		k   int
	}{
		{[]int32{0, 0, 1}, 2}, // clash at left 0
		{[]int32{0, 1, 1}, 2}, // clash at right 1
		{[]int32{0, 2, 0}, 2}, // colour out of range
		{[]int32{0, 1}, 2},    // too short
	} {
		if Check(m, c.col, c.k) == nil {
			t.Errorf("Check accepted %v with k = %d", c.col, c.k)
		}
	}
	if Check(m, []int32{0, 1, 0}, 2) != nil {
		t.Error("Check rejected a proper colouring")
	}
	bad := Multigraph{L: 1, R: 1, Edges: []Edge{{0, 1}}}
	if _, err := Colour(bad); err == nil {
		t.Error("Colour accepted an edge out of range")
	}
	if _, err := Equitable(m, 1); err == nil {
		t.Error("Equitable accepted k < Δ")
	}
}

func genMultigraph(t *rapid.T) Multigraph {
	l := rapid.IntRange(1, 12).Draw(t, "L")
	r := rapid.IntRange(1, 12).Draw(t, "R")
	ne := rapid.IntRange(0, 80).Draw(t, "edges")
	m := Multigraph{L: l, R: r, Edges: make([]Edge, ne)}
	for e := range m.Edges {
		m.Edges[e] = Edge{U: int32(rapid.IntRange(0, l-1).Draw(t, "u")), V: int32(rapid.IntRange(0, r-1).Draw(t, "v"))}
	}
	return m
}

func TestColourRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genMultigraph(t)
		delta := m.MaxDegree()
		col, err := Colour(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(m, col, delta); err != nil {
			t.Fatalf("Colour: %v", err)
		}
		k := delta + rapid.IntRange(0, 6).Draw(t, "extra")
		if k == 0 {
			return
		}
		col, err = Equitable(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(m, col, k); err != nil {
			t.Fatalf("Equitable(%d): %v", k, err)
		}
		if s := ClassSizes(col, k); slices.Max(s)-slices.Min(s) > 1 {
			t.Fatalf("Equitable(%d): class sizes %v", k, s)
		}
	})
}

// A d-regular multigraph on g+g vertices (a union of d random perfect
// matchings) is split by Colour into d perfect matchings of g edges, and by
// Equitable(k ≥ d) into classes of ⌊dg/k⌋ or ⌈dg/k⌉ edges.
func TestRegularRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.IntRange(1, 16).Draw(t, "g")
		d := rapid.IntRange(1, 16).Draw(t, "d")
		m := Multigraph{L: g, R: g}
		for k := range d {
			p := rapid.Permutation(identity(g)).Draw(t, fmt.Sprint("matching", k))
			for u, v := range p {
				m.Edges = append(m.Edges, Edge{U: int32(u), V: int32(v)})
			}
		}
		col, err := Colour(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(m, col, d); err != nil {
			t.Fatal(err)
		}
		for c, s := range ClassSizes(col, d) {
			if s != g {
				t.Fatalf("colour %d has %d edges, a perfect matching has %d", c, s, g)
			}
		}
		k := d + rapid.IntRange(0, 2*g).Draw(t, "extra")
		col, err = Equitable(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(m, col, k); err != nil {
			t.Fatal(err)
		}
		for c, s := range ClassSizes(col, k) {
			if s != d*g/k && s != ceilDiv(d*g, k) {
				t.Fatalf("k=%d: colour %d has %d edges, want ⌊%d/%d⌋ or ⌈…⌉", k, c, s, d*g, k)
			}
		}
	})
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// Validate accepts exactly L, R ≥ 0 with every edge in [0, L) × [0, R).
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		m  Multigraph
		ok bool
	}{
		{Multigraph{}, true}, // the empty graph (zero value)
		{Multigraph{L: 0, R: 3}, true},
		{Multigraph{L: 3, R: 0}, true},
		{Multigraph{L: 2, R: 3, Edges: []Edge{{0, 0}, {1, 2}, {1, 2}}}, true},
		{Multigraph{L: -1, R: 3}, false},
		{Multigraph{L: 3, R: -1}, false},
		{Multigraph{L: 2, R: 3, Edges: []Edge{{2, 0}}}, false},
		{Multigraph{L: 2, R: 3, Edges: []Edge{{0, 3}}}, false},
		{Multigraph{L: 2, R: 3, Edges: []Edge{{-1, 0}}}, false},
		{Multigraph{L: 2, R: 3, Edges: []Edge{{0, -1}}}, false},
	} {
		if err := c.m.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate = %v, want ok %v", c.m, err, c.ok)
		}
	}
}
