// Package bipartite holds bipartite multigraphs and their proper edge
// colourings.
//
// A Multigraph has L left and R right vertices and a list of edges; parallel
// edges are allowed and edges are named by their index. A proper edge
// colouring gives every edge a colour so that the edges at any vertex have
// pairwise different colours.
//
//   - Colour returns a proper colouring with exactly Δ colours (Δ the maximum
//     degree), which exists by König's edge-colouring theorem. It colours the
//     edges one by one; when the colour free at the left end is taken at the
//     right end it swaps two colours along an alternating path (the classical
//     proof of König's theorem). Cost O(|E|·(L+R+Δ)).
//   - Equitable returns, for any k ≥ Δ, a proper colouring with k colours
//     whose colour classes differ in size by at most one (de Werra's theorem
//     for bipartite graphs). It balances a König colouring by swapping two
//     colours along an alternating path with one more edge of the larger
//     class.
//   - Check validates a colouring independently of how it was computed.
//
// A d-regular bipartite multigraph on g + g vertices coloured with d colours
// splits into d perfect matchings; this is what the off-line POPS router of
// routecheck/algos/popsdet (000_de3be866f009217f.txt Theorem 2.1) uses.
package bipartite
