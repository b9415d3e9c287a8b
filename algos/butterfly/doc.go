// Package butterfly holds the routing algorithms of 001_afbf5d537b48cc65.txt
// (Upfal, Felperin & Snir) on the butterfly with r extra stages
// (routecheck/models/butterfly):
//
//   - Rename: the random renaming σ^{-1}πσ of §2 (the permutation that sends
//     σ(x) to σ(π(x)), as in the proof of Theorem 2);
//   - Packets: the packets of a pipelined sequence of t permutations, each
//     with its r random transitions (X, uniform: "one of the 2^r nodes it
//     can reach at stage r") and §3's priority (⌈ℓ/log N⌉, R), R uniform in
//     [0, c·log N·2^r]; with r = 0 and t ≤ log N this is §2's priority
//     (uniform in a range of Θ(log N + p) values, ties broken by source);
//   - the greedy policy: every queue forwards its highest-priority packet
//     (PaperPriority: smallest (⌈ℓ/log N⌉, R), then smallest source, then
//     smallest ℓ) or its oldest (FIFO, the "random conflict resolution seems
//     adequate" alternative of §2 made deterministic), run on the step
//     model (RunOnModel) or on the fast engine Run, which gives every
//     packet the same delivery step (differentially tested); Greedy is
//     the same policy as a models/butterfly Router (RunOnModel runs it
//     through that interface, as props/bflytest runs anyone's router);
//   - Congestion: C(π, v), the number of packets whose path crosses node v
//     (it does not depend on priorities, §2).
//
// Randomness is always an explicit *rand.Rand (math/rand/v2); Run and
// RunOnModel are deterministic given the packets.
package butterfly
