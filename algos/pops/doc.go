// Package pops holds routing algorithms for POPS(d, g) networks (seed
// 000_de3be866f009217f.txt).
//
// The randomized router of §III is implemented twice:
//
//   - RunOnModel drives the slot model (models/pops) message by message: every
//     slot is a set of per-processor actions built only from what that
//     processor has seen, and models/pops.Step enforces the physics. This is
//     the reference and the thing the claims are checked on.
//   - Engine.Run is the fast path used for the paper-scale tables. It is not
//     the step model: it computes the same conflicts with per-group counting
//     arrays and no per-slot allocation. Differential tests run both on the
//     same instance with the same random stream and require identical step
//     counts, per-step survivors and losses.
//
// Both consume the random stream identically, through the same function: at
// the start of each step the pending packets (in increasing order) take part
// with probability p_s (Theorem 3.8's coin; 1 after stage 1), sampled by
// geometric gaps, and each participant draws rng.IntN(g) for its random
// intermediate group.
//
// Scope: the router is stated for d = g and d > g. For d < g the procedure
// as written can leave a packet with no listening relay on any path (for
// POPS(1,2) and π = (1 0) packet 0 can never leave its group), so
// RunOnModel and Engine.Run refuse d < g with an error (CheckShape) unless
// Options.OutOfScope asks for the literal procedure; see the claim
// pops/sec3/d-lt-g-as-written.
//
// Ambiguity resolved here: in slots 1 and 2 the paper has processor i of
// group a listen to c(a, Δ(i)). When d > g, d/g processors of a group share a
// residue mod g; if all of them relayed the copy, every slot-2 send would
// collide. We make exactly one of them responsible — the lowest-index one,
// i.e. index-within-group < g — which for d = g is the paper's "processor
// r(i)d + a".
package pops
