// Package popslower holds the adversarial constructions of the lower-bound
// proofs of 000_de3be866f009217f.txt §II-B, written to run against real
// routers: Theorem 2.5 (oblivious routing: a permutation of path congestion
// ≥ √g/2) and Theorem 2.8 (rigid routing: the sets P(i, t) of packets a
// processor can have seen, and a permutation a rigid router cannot have
// finished in fewer than log₂ n slots).
//
// The network is the bipartite digraph D of the proof of Theorem 2.5: the n
// processors and the g² couplers are its nodes; processor p → coupler
// c(b, group(p)) for every b, and coupler c(group(p), a) → p for every a.
// A path is given as the processors visited after the source (ending at the
// destination); its node set (a, b] is every coupler it crosses and every
// processor after a.
package popslower
