package multibutterfly

import "fmt"

// CheckShape is the degree census of a §4.1 network, independent of how it
// was built: it returns an error naming the first node or edge where c is
// not the topology of §4.1 with degree parameter c.D.
//   - Expander part (Part 0): every edge goes from stage s < log n to
//     stage s + 1; every node of stages 0 … log n − 1 has exactly d such
//     out-edges and every node of stages 1 … log n exactly d in-edges;
//     colours lie in [0, d) and no two edges at a node share one.
//   - Multi-butterfly part (Part 1): every edge goes from stage log n + s to
//     log n + s + 1 inside its splitter's column range [j·m, (j+1)·m),
//     m = n/2^s, into the upper half [j·m, j·m + m/2) exactly when Lower is
//     false; every node of stages log n … 2 log n − 1 has d upper and d
//     lower out-edges, every node of stages log n + 1 … 2 log n has 2d
//     in-edges; colours lie in [0, 2d), proper at tails and at heads.
//   - Direct part (Part 2): exactly the edges ⟨s, q⟩ → ⟨s + 1, q⟩,
//     2 log n ≤ s < 3 log n, one per node, colour 0.
//
// It also checks len(Part) = len(Edges) = (3d + 1)·n·log n and that MB (if
// set) has as many edges as the middle part, 2d·n·log n (their count only:
// not that they are the same edges). Cost O(|E| + nodes·d) time and
// 16·nodes·d bytes.
func (c *CommNetwork) CheckShape() error {
	n, k, d := c.N, c.LogN, c.D
	if want := (3*d + 1) * n * k; len(c.Edges) != want || len(c.Part) != len(c.Edges) {
		return fmt.Errorf("multibutterfly: %d edges and %d part labels, want (3d + 1)·n·log n = %d", len(c.Edges), len(c.Part), want)
	}
	if c.MB != nil && len(c.MB.Edges) != 2*d*n*k {
		return fmt.Errorf("multibutterfly: the middle part MB has %d edges, want 2d·n·log n = %d", len(c.MB.Edges), 2*d*n*k)
	}
	nodes := c.Nodes()
	out := make([]int32, nodes) // expander or direct out-edges; splitter upper
	low := make([]int32, nodes) // splitter lower out-edges
	in := make([]int32, nodes)  // in-edges
	// seen[(v·2 + dir)·2d + colour]: node v has an out- (dir 0) or in-edge
	// (dir 1) of that colour — a colour class must be a matching among the
	// edges of one stage (edges of different stages are never active in
	// the same iteration, and a node's in- and out-edges lie in different
	// stages).
	seen := make([]int32, nodes*2*2*d)
	for i := range seen {
		seen[i] = -1
	}
	for i, e := range c.Edges {
		part := c.Part[i]
		if e.From < 0 || int(e.From) >= nodes || e.To < 0 || int(e.To) >= nodes {
			return fmt.Errorf("multibutterfly: edge %d (%d → %d) out of range", i, e.From, e.To)
		}
		s, q := int(e.From)/n, int(e.From)%n
		t, r := int(e.To)/n, int(e.To)%n
		if t != s+1 || int(e.Stage) != s {
			return fmt.Errorf("multibutterfly: edge %d goes from stage %d to %d (Stage %d), not to the next stage", i, s, t, e.Stage)
		}
		colours := d
		switch part {
		case 0:
			if s >= k {
				return fmt.Errorf("multibutterfly: expander edge %d leaves stage %d ≥ log n = %d", i, s, k)
			}
			out[e.From]++
		case 1:
			if s < k || s >= 2*k {
				return fmt.Errorf("multibutterfly: splitter edge %d leaves stage %d, outside log n … 2 log n − 1", i, s)
			}
			m := n >> (s - k)
			j := q / m
			lo := j*m + m/2
			if e.Lower {
				if r < lo || r >= (j+1)*m {
					return fmt.Errorf("multibutterfly: lower edge %d from ⟨%d, %d⟩ to ⟨%d, %d⟩, outside the lower output set [%d, %d)", i, s, q, t, r, lo, (j+1)*m)
				}
				low[e.From]++
			} else {
				if r < j*m || r >= lo {
					return fmt.Errorf("multibutterfly: upper edge %d from ⟨%d, %d⟩ to ⟨%d, %d⟩, outside the upper output set [%d, %d)", i, s, q, t, r, j*m, lo)
				}
				out[e.From]++
			}
			colours = 2 * d
		case 2:
			if s < 2*k || r != q || e.Colour != 0 {
				return fmt.Errorf("multibutterfly: direct edge %d from ⟨%d, %d⟩ to ⟨%d, %d⟩ colour %d", i, s, q, t, r, e.Colour)
			}
			out[e.From]++
			colours = 1
		default:
			return fmt.Errorf("multibutterfly: edge %d has part %d", i, part)
		}
		in[e.To]++
		if e.Colour < 0 || int(e.Colour) >= colours {
			return fmt.Errorf("multibutterfly: edge %d (part %d) has colour %d, outside [0, %d)", i, part, e.Colour, colours)
		}
		for dir, v := range []int32{e.From, e.To} {
			key := (int(v)*2+dir)*2*d + int(e.Colour)
			if j := seen[key]; j >= 0 {
				return fmt.Errorf("multibutterfly: edges %d and %d of stage %d share colour %d at node %d", j, i, e.Stage, e.Colour, v)
			}
			seen[key] = int32(i)
		}
	}
	for v := range nodes {
		s := v / n
		wantOut, wantLow, wantIn := 0, 0, 0
		switch {
		case s < k:
			wantOut = d
		case s < 2*k:
			wantOut, wantLow = d, d
		case s < 3*k:
			wantOut = 1
		}
		switch {
		case s == 0:
		case s <= k:
			wantIn = d
		case s <= 2*k:
			wantIn = 2 * d
		default:
			wantIn = 1
		}
		if int(out[v]) != wantOut || int(low[v]) != wantLow || int(in[v]) != wantIn {
			return fmt.Errorf("multibutterfly: node ⟨%d, %d⟩ has %d (upper) and %d (lower) out-edges and %d in-edges, want %d, %d and %d", s, v%n, out[v], low[v], in[v], wantOut, wantLow, wantIn)
		}
	}
	return nil
}
