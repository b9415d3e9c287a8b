// Package mbflyforms holds the closed forms and printed numbers of Upfal,
// "An O(log N) Deterministic Packet-Routing Scheme" (seed
// 004_8aa7b4c265a7324b.txt), as independent oracles: the number of batches
// L = ⌈1/(α(β+1))⌉ (§3.2), conditions (1) (§3.3) and (2) (§4.3) in exact
// rational arithmetic, the run-time coefficients of Theorems 3.1, 4.1 and
// 4.3, the explicit iteration count T0 of Theorem 3.1's proof, the bound of
// Claim 3.2, and the parameter sets the paper prints.
//
// Logarithms: the paper writes "log" without a base; the coefficients are
// computed with log₂ (the network has log N stages, N a power of two), and
// Coefficients also reports the natural-log reading where a claim needs it.
//
// Nothing here imports routecheck/algos.
package mbflyforms
