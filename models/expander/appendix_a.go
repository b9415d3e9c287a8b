package expander

import (
	"fmt"

	"routecheck/models/bipartite"
)

// AppendixASplitter builds the splitter of the paper's Appendix A from one
// d-regular bipartite graph G on h = m/2 vertices a side (the
// (α, β, N/2^{s+1}, d)-expander G_s): the m inputs are two halves A¹ =
// {0 … h−1} and A² = {h … 2h−1}, and input a and its partner a + h are both
// joined to G's neighbours of a in the upper and in the lower output set —
// the four (α, β, h, d)-expanders A¹→upper, A¹→lower, A²→upper, A²→lower
// are copies of G. Colour c of G (a proper d-colouring, König) becomes
// colours c and d + c (A¹: upper c, lower d + c; A²: the reverse), so the
// edges of G-colour c form one butterfly stage (the appendix's butterfly
// B_c): every input has one such edge into each output set and partners
// share both neighbours. Left degree d into each set, right
// degree 2d. The appendix concludes an (α, β/2, m, 2d)-splitter. It
// returns an error unless G is d-regular with NA = NB.
func AppendixASplitter(g Graph) (Splitter, error) {
	if err := g.Validate(); err != nil {
		return Splitter{}, err
	}
	dA, dB, ok := g.Biregular()
	if !ok || dA != dB || g.NA != g.NB {
		return Splitter{}, fmt.Errorf("expander: AppendixASplitter needs a d-regular graph with NA = NB (got NA = %d, NB = %d)", g.NA, g.NB)
	}
	h := g.NA
	col, err := EdgeColouring(g)
	if err != nil {
		return Splitter{}, err
	}
	s := Splitter{M: 2 * h, D: dA,
		Upper: Graph{NA: 2 * h, NB: h, Adj: make([][]int32, 2*h)},
		Lower: Graph{NA: 2 * h, NB: h, Adj: make([][]int32, 2*h)}}
	for a := range 2 * h {
		s.Upper.Adj[a] = append([]int32(nil), g.Adj[a%h]...)
		s.Lower.Adj[a] = append([]int32(nil), g.Adj[a%h]...)
	}
	// Edges() lists input by input, upper edges first, in adjacency order.
	// A¹ inputs: upper c, lower d + c; A² inputs: upper d + c, lower c —
	// so an output meets colour c once from each half.
	for a := range 2 * h {
		up, low := int32(0), int32(dA)
		if a >= h {
			up, low = low, up
		}
		for i := range g.Adj[a%h] {
			s.Colour = append(s.Colour, up+col[a%h][i])
		}
		for i := range g.Adj[a%h] {
			s.Colour = append(s.Colour, low+col[a%h][i])
		}
	}
	return s, nil
}

// EdgeColouring returns a proper Δ-edge-colouring (König,
// routecheck/models/bipartite) of g, Δ its maximum degree: col[a][i] in
// [0, Δ) is the colour of the edge to g.Adj[a][i] (AppendixASplitter colours
// G_s with it). It returns bipartite.Colour's error for a malformed graph.
func EdgeColouring(g Graph) ([][]int32, error) {
	mg := bipartite.Multigraph{L: g.NA, R: g.NB}
	for a, l := range g.Adj {
		for _, b := range l {
			mg.Edges = append(mg.Edges, bipartite.Edge{U: int32(a), V: b})
		}
	}
	col, err := bipartite.Colour(mg)
	if err != nil {
		return nil, err
	}
	out := make([][]int32, g.NA)
	k := 0
	for a, l := range g.Adj {
		out[a] = col[k : k+len(l) : k+len(l)]
		k += len(l)
	}
	return out, nil
}
