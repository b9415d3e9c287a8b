// Package sotexp registers the sparse-optical-torus experiments of
// 002_59e118519f43b14a.txt (§3.3, Figures 3–5) with internal/experiment,
// for `routecheck reproduce`:
//
//   - sot-fig3: throughput with fresh packets against n (Figure 3). A cell
//     is (n, alg) with n ∈ {4, 8, …, 256} and alg an index into
//     Fig3Algorithms (greedy-a, greedy-b, greedy-b-edge-first, greedy-c).
//     One run is algos/sot.FreshWaves: the n waves of the first round of
//     fresh traffic (targets uniform over the other processors); the run's
//     value is the mean over its waves of (packets delivered undeflected)/n,
//     the throughput per processor and time unit. The paper column holds
//     the values the paper states: 1 − 1/e (Greedy-a), 2(1 − 1/e)
//     (Greedy-b, both readings) and 2/3 (Greedy-c, "about 2n/3" of 2n);
//     extras give the finite-n analysis values (sotforms).
//   - sot-fig4: routing cost against the slackness h (Figure 4). A cell is
//     (n, h, alg) with n ∈ {16, 32, 64}, h = 1, 2, 4, …, 16n, and alg an
//     index into CostAlgorithms (greedy-a, greedy-b, greedy-b-edge-first,
//     greedy-c, scheduled = Algorithm 2).
//   - sot-fig5: routing cost at h = n·log₂ n against n ∈ {4, …, 256}
//     (Figure 5); greedy-b (pseudo-code) stops at n = 128 (at n = 256 one
//     run is ≈ 10^10 node-steps).
//
// In sot-fig4 and sot-fig5 one run routes a random h-relation
// (algos/sot.RandomRelation: h random permutations, each processor's
// packets in random order) to completion on the step model; the value is
// the routing cost T/h (steps per packet per processor). The paper column
// is e/(e − 1) ≈ 1.58 for Greedy-a (§4.2: "for large n and h") and empty
// otherwise (the paper prints only plots). Extras: mean steps, deflections
// per packet, mean latency, runs that hit the step cap, the same router's
// fresh-packet efficiency (one algos/sot.FreshWaves run per sample on a
// stream of its own; 1 for Algorithm 2) and efficiency_over_fresh, the mean
// h/T divided by it — what Figure 4's and Figure 5's sentences compare
// (claims sot/fig4/…/approaches-fresh, sot/fig5/…/quite-good).
//
// Randomness: in sot-fig4 and sot-fig5 run r of a cell draws its relation
// from seeds.Rand(seed, tag, n, h, r) — the same relation for every
// algorithm, so algorithms are compared on common instances — and the
// router's coins from that path plus the algorithm; in sot-fig3 run r draws
// targets and coins from seeds.Rand(seed, tag, n, r, alg). Results depend
// only on (seed, cell, run), never on workers or shards. A cell's Size
// (what --max-n compares against) is n.
package sotexp
