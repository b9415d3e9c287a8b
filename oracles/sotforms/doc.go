// Package sotforms holds what the sparse-optical-torus claims
// (seed 002_59e118519f43b14a.txt) are compared against, computed
// independently of models/sot and algos/sot:
//
//   - the recurrence P(k, l) of §4.1, exactly with math/big for rational p,
//     and Q_k = P(k, k) three ways: the recurrence itself, the proof's
//     first-return convolution Q_k = 2 Σ_j C_j ½ q^j p^{j+1} Q_{k−j−1}, and
//     the partial sums of the coefficients of the proof's closed form
//     R(z) = (1 − 2q + √(1 − 4pqz))/(2p) (the square-root series computed
//     by the generic power-series recurrence, not from Catalan numbers);
//   - the antidiagonal sums S_k = Σ_{i+j=k} P(i, j), the proof's recurrence
//     for them, and Theorem 3's limits as printed;
//   - the expectations the analysis of §4.2 gives for fresh packets;
//   - shortest-path distances on the SOT(n) graph by breadth-first search
//     over the links as §2.1 defines them (Lemma 1);
//   - the routing time of Algorithm 2 from the numbers w(i, j) alone.
//
// Exact functions take p as a *big.Rat in [0, 1] and panic outside it
// (a programmer error); their cost is stated on each.
package sotforms
