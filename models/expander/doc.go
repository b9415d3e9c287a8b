// Package expander holds the bipartite graphs of Upfal, "An O(log N)
// Deterministic Packet-Routing Scheme" (seed 004_8aa7b4c265a7324b.txt, §2):
// expanders, depth-2 concentrators and splitters, how they are built, and two
// independent ways of checking their expansion.
//
// Definitions (the paper's, §2):
//   - Definition 2.1: G = (A, B, E) is an (α, β, n, d)-expander if
//     |A| = |B| = n, every vertex has degree d, and every X ⊂ A with
//     |X| ≤ αn has |Γ(X)| ≥ β|X|.
//   - Definition 2.2: a depth-2 (α, β, m, m/2, d)-concentrator has |A| = m,
//     |B| = m/2, left degree d, right degree 2d, and the same expansion for
//     |X| ≤ αm.
//   - Definition 2.3: an (α, β, m, 2d)-splitter joins m inputs to two sets of
//     m/2 outputs by one concentrator each.
//
// Graph is a bipartite multigraph given by left adjacency lists (parallel
// edges allowed; Γ counts distinct neighbours, so a parallel edge never
// helps expansion).
//
// Constructions (as the paper uses them):
//   - RandomRegular: the union of d independent uniformly random perfect
//     matchings of A onto B — the random d-regular bipartite multigraph of
//     the counting argument of Theorem 2.1(1) and of Appendix A ("the d
//     permutations defined by the d colours").
//   - Fold: Corollary 2.1's proof, "folding the set of vertices B": right
//     vertex b and b + n/2 become one vertex b (our reading of "folding"; any
//     fixed pairing gives the same guarantee). An (α, 2β, m, d)-expander folds
//     to an (α, β, m, m/2, d)-concentrator, since |fold(Y)| ≥ |Y|/2.
//   - NewSplitter: two independently folded random expanders on the same
//     inputs (Corollary 2.1's proof), with a proper 2d-edge-colouring
//     (§3.2: "the edges of each splitter are colored with 2d colors").
//
// Checks:
//
//   - MinNeighbours is exact, by enumerating every X ⊆ A with |X| ≤ k
//     (cost Σ_{x≤k} C(|A|, x); |B| ≤ 64). It is the oracle for small graphs.
//
//   - Spectral is a certificate for large graphs: Tanner's bound (Tanner
//     1984, the paper's ref. [10]; Alon–Chung style). Assumptions: the graph
//     is (dA, dB)-biregular (left degree dA, right degree dB; parallel edges
//     counted in M). Let M be the |A|×|B| biadjacency matrix and λ₂ the
//     second largest eigenvalue of M·Mᵀ (whose largest is dA·dB, eigenvector
//     1). Then every X ⊆ A with |X| = x has
//
//     |Γ(X)| ≥ dA²·x / (λ₂ + (dA·dB − λ₂)·x/|A|).
//
//     Proof: with v = 1_X and c = Mᵀv, Σc_b = dA·x and c_b > 0 exactly on
//     Γ(X), so Cauchy–Schwarz gives |Γ(X)| ≥ (dA·x)²/‖c‖²; split v along 1
//     and its complement to get ‖c‖² = vᵀMMᵀv ≤ dA·dB·x²/|A| + λ₂(x − x²/|A|).
//     The eigenvalues come from gonum's mat.EigenSym (O(|A|³)); the bound is
//     rounded down by 1e-9 relative before taking ceilings, so it stays a
//     lower bound under floating-point error of that size.
//
// All randomness is an explicit *rand.Rand. Nothing here prints.
package expander
