// Package mbflyexp registers the multi-butterfly experiment of Upfal, "An
// O(log N) Deterministic Packet-Routing Scheme" (seed
// 004_8aa7b4c265a7324b.txt) with routecheck/internal/experiment:
//
//   - mbfly-time: the batched priority routing (§3.2) of random
//     permutations on random multi-butterflies (d ∈ {2, 8, 32}, L = 4
//     batches, N = 16 … 1024). Ours = steps / log₂ N; paper = the bound of
//     Theorem 3.1's proof, 2d·T0 / log₂ N, with β = 7, α = 1/32 and the (γ,
//     θ) minimizing T0 under condition (1) — given only for d = 32, the
//     design degree; the networks are verified (N, 32, 1/32, 7)-multi-
//     butterflies only up to N = 64 (see props mbfly/sec3.1/…), so above that
//     the bound is what the theorem would give if the expansion held.
//     Extras: mean iterations, iterations − log₂ N, largest buffer.
//     Cells with explicit = 1 route on the explicit Margulis–Gabber–Galil
//     multi-butterfly (models/multibutterfly.BuildMGG, d = 8) with L = 11
//     (α = 1/64, β = 5); their paper column is Theorem 3.1's bound at β = 5,
//     L = 11. Counted exactly (props mbfly/sec3.1/mgg-tanner-certificate),
//     the network expands by β = 5 at N = 64 and only β = 4 at N = 128 (L = 13
//     would be the schedule), and from N = 256 it is not an (N, 8, 1/64, β > 3)
//     multi-butterfly at all (inputs 0 and 128 of a 256-input splitter share
//     their 5 neighbours): above N = 64 the column is what the theorem would
//     give if the expansion held, not a bound the network is owed.
//
// The paper prints no measurements, only the constants 100 log N and
// 600 log N (§3.3) for d = 10 and 60 — which are checked as claims, not
// here.
package mbflyexp
