package bipartite

import (
	"fmt"
	"math"
)

// Edge joins left vertex U to right vertex V.
type Edge struct{ U, V int32 }

// Multigraph is a bipartite multigraph: left vertices 0…L-1, right vertices
// 0…R-1, and edges that may repeat. The zero value is the empty graph.
type Multigraph struct {
	L, R  int
	Edges []Edge
}

// Validate reports whether L, R ≥ 0, every edge has 0 ≤ U < L and
// 0 ≤ V < R, and the edge count fits an int32.
func (m Multigraph) Validate() error {
	if m.L < 0 || m.R < 0 {
		return fmt.Errorf("bipartite: L = %d, R = %d: vertex counts must be ≥ 0", m.L, m.R)
	}
	if len(m.Edges) > math.MaxInt32 {
		return fmt.Errorf("bipartite: %d edges, at most %d allowed", len(m.Edges), math.MaxInt32)
	}
	for e, ed := range m.Edges {
		if ed.U < 0 || int(ed.U) >= m.L || ed.V < 0 || int(ed.V) >= m.R {
			return fmt.Errorf("bipartite: edge %d is (%d, %d), allowed U in [0, %d), V in [0, %d)", e, ed.U, ed.V, m.L, m.R)
		}
	}
	return nil
}

// Degrees returns the degree of every left and every right vertex (a
// parallel edge counts once per copy). m must be valid.
func (m Multigraph) Degrees() (left, right []int) {
	left, right = make([]int, m.L), make([]int, m.R)
	for _, ed := range m.Edges {
		left[ed.U]++
		right[ed.V]++
	}
	return left, right
}

// MaxDegree is Δ, the largest vertex degree (0 for a graph without edges).
// m must be valid.
func (m Multigraph) MaxDegree() int {
	left, right := m.Degrees()
	d := 0
	for _, x := range left {
		d = max(d, x)
	}
	for _, x := range right {
		d = max(d, x)
	}
	return d
}

// Check reports whether col is a proper edge colouring of m with colours in
// [0, k): one colour per edge, and no two edges of one colour at a vertex.
// The error names the offending edge(s). It is independent of Colour and
// Equitable and is what their tests rely on.
func Check(m Multigraph, col []int32, k int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if len(col) != len(m.Edges) {
		return fmt.Errorf("bipartite: %d colours for %d edges", len(col), len(m.Edges))
	}
	seenL := map[[2]int32]int{}
	seenR := map[[2]int32]int{}
	for e, c := range col {
		if c < 0 || int(c) >= k {
			return fmt.Errorf("bipartite: edge %d has colour %d, allowed [0, %d)", e, c, k)
		}
		ed := m.Edges[e]
		if f, dup := seenL[[2]int32{ed.U, c}]; dup {
			return fmt.Errorf("bipartite: edges %d and %d share colour %d at left vertex %d", f, e, c, ed.U)
		}
		if f, dup := seenR[[2]int32{ed.V, c}]; dup {
			return fmt.Errorf("bipartite: edges %d and %d share colour %d at right vertex %d", f, e, c, ed.V)
		}
		seenL[[2]int32{ed.U, c}] = e
		seenR[[2]int32{ed.V, c}] = e
	}
	return nil
}

// ClassSizes returns how many edges carry each colour in [0, k).
func ClassSizes(col []int32, k int) []int {
	n := make([]int, k)
	for _, c := range col {
		n[c]++
	}
	return n
}
