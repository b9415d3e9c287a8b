package multibutterfly

import (
	"math/rand/v2"
	"slices"

	"routecheck/models/expander"
)

// BuildAppendixA returns the multi-butterfly of the paper's Appendix A: for
// each stage s one d-regular graph G_s on N/2^{s+1} vertices a side (a
// random union of d matchings, standing for the appendix's
// (α, β, N/2^{s+1}, d)-expander), and every set A_{s,j} joined to its two
// output sets by expander.AppendixASplitter(G_s) — the superposition of d
// butterflies, one per colour of G_s. N must be a power of two in
// [2, 2^20] and d ≥ 1 with 2d·N·log N ≤ MaxEdges.
func BuildAppendixA(n, d int, rng *rand.Rand) (*Network, error) {
	logN, err := checkSize(n, d)
	if err != nil {
		return nil, err
	}
	sp := make([][]expander.Splitter, logN)
	for s := range logN {
		x, err := expander.AppendixASplitter(expander.RandomRegular(n>>(s+1), d, rng))
		if err != nil {
			return nil, err
		}
		sp[s] = slices.Repeat([]expander.Splitter{x}, 1<<s)
	}
	return FromSplitters(n, d, sp)
}
