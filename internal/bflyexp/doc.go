// Package bflyexp registers the butterfly experiments of
// 001_afbf5d537b48cc65.txt §4 (Upfal, Felperin & Snir) with
// internal/experiment (`routecheck reproduce <name>`):
//
//   - bfly-figs: Figs. 1 and 2, average and maximum latency against the
//     number r = 0…12 of extra stages on a 4K-input butterfly for p ∈ {1,
//     10, 20, 50, 100, 200} pipelined copies of a random permutation;
//   - bfly-fit: the same sweep at N = 1K, 2K, 4K and 8K, the data of §4.3's
//     fitted formulas (r ≤ min(12, n)), strict buffers; after its table,
//     both formulas refitted on every cell with all six terms and the
//     printed coefficients tested against the runs' pure error (RefitLines);
//   - bfly-fit-pipelined: the same in the pipelined-buffer reading;
//   - bfly-readings: the node-model readings side by side (strict and
//     pipelined buffers of §4.1, the §2 node queue; §3's priorities and
//     FIFO) at N = 4K, p ∈ {1, 20, 100}, r ∈ {0, 3, 6, 12}.
//
// A cell is (n, r, p, reading, prio): reading 0 strict buffers (the reading
// the ledger uses, see props' butterfly_sim_claims.go), 1 pipelined
// buffers, 2 the §2 node queue; prio 0 §3's priorities (c = 7), 1 FIFO.
// Its Size is N = 2^n (what --max-n compares against).
//
// Run r of a cell draws σ and every coin from seeds.Rand(seed, tag, n, r,
// p, run): the same stream for every reading and discipline, so readings
// are compared on common permutations, and results do not depend on
// workers or shards. A row reports the mean over runs of the per-run
// average latency (ours) against §4.3's fitted L_avg (paper), and as extras
// the mean of the per-run maximum latency (max_mean, max_sd) against the
// fitted L_max (fit_max). The paper's figures are not in the extracted
// text, so the fitted formulas are the only published numbers.
package bflyexp
