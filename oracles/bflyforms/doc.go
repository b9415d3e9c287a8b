// Package bflyforms holds what the butterfly claims of
// 001_afbf5d537b48cc65.txt (Upfal, Felperin & Snir) are compared against,
// computed independently of the routers in routecheck/algos/butterfly:
//
//   - PlainRow and M: the plain butterfly's unique path written bit by bit
//     as §2 prints it, and |M(π, s, (a_{r+1}, …, a_n))| of §3.1 (packets of
//     π whose plain path crosses the set B(s, (a_{r+1}, …, a_n)));
//   - InPsi: membership in the "good" set Ψ(r, τ); MBound: the proof of
//     Theorem 6's bounds on |M| (2^r for s ≤ r, min(2^s, 2^r·2^{n−s})
//     otherwise);
//   - Thm6UnionBound: the first display of Theorem 6's proof, exactly
//     (math/big);
//   - Lemma9Bound: the per-node congestion bound of Lemma 9's proof;
//   - FitAvg, FitMax: the fitted latency formulas of §4.3, as printed;
//   - Transpose, BitReversal: structured permutations.
package bflyforms
