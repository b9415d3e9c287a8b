package expander

import (
	"fmt"

	"routecheck/models/bipartite"
)

// checkColouring is bipartite.Check (col is a proper colouring of m with
// colours in [0, k)) with the (vertex, colour) pairs seen kept in two flat
// arrays instead of two maps: the same checks in the same edge order, so
// the same verdict and the same error. colourSplitter checks every
// splitter's colouring with it; on a d = 102 network the maps cost more
// than the colouring itself. TestCheckColouringMatchesBipartite holds it to
// bipartite.Check.
func checkColouring(m bipartite.Multigraph, col []int32, k int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if len(col) != len(m.Edges) {
		return fmt.Errorf("bipartite: %d colours for %d edges", len(col), len(m.Edges))
	}
	if k < 0 {
		k = 0
	}
	// seenL[u·k + c] = 1 + the first edge of colour c at left vertex u (0:
	// none yet); seenR the same on the right.
	seenL := make([]int32, m.L*k)
	seenR := make([]int32, m.R*k)
	for e, c := range col {
		if c < 0 || int(c) >= k {
			return fmt.Errorf("bipartite: edge %d has colour %d, allowed [0, %d)", e, c, k)
		}
		ed := m.Edges[e]
		l, r := int(ed.U)*k+int(c), int(ed.V)*k+int(c)
		if f := seenL[l]; f > 0 {
			return fmt.Errorf("bipartite: edges %d and %d share colour %d at left vertex %d", f-1, e, c, ed.U)
		}
		if f := seenR[r]; f > 0 {
			return fmt.Errorf("bipartite: edges %d and %d share colour %d at right vertex %d", f-1, e, c, ed.V)
		}
		seenL[l], seenR[r] = int32(e+1), int32(e+1)
	}
	return nil
}
