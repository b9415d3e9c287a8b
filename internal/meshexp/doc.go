// Package meshexp registers the experiment `mesh-kk` (`routecheck reproduce
// mesh-kk`): k-k routing on the n×n mesh (003_8774480fe7c747cc.txt) with
// RAND_3_PHASE_ROUTE, RAND_4_PHASE_ROUTE, DET_3_PHASE_ROUTE and the
// baseline DET_4_PHASE_ROUTE (Lemma 3; algos/mesh.NewPlanDet4, column-sort
// with single-PU subsets), and DET_3_PHASE_ROUTE on the n×n torus (§6; the
// step model with the shorter-way stand-in for the paper's [4], and with
// a second stand-in that splits the distance-n/2 packets between both
// ways; n ≤ TorusMaxN), all with coloring, on uniformly random k-k
// distributions and the structured families of props/mesh.GenKK
// (transpose, reflect, row-to-col).
//
// A cell is (n, k, dist, alg) with n ∈ {4, 8, 16, 32}, k ∈ {n, n², n²·log n}
// and, for n ≤ N4MaxN and the four mesh algorithms (not the torus, which
// runs on the step model), k = n⁴ (Lemma 3's regime for DET_4_PHASE_ROUTE),
// dist an index into props/mesh.KKFamilies and alg an index into Algorithms.
// --max-n is the largest mesh side n (a cell's Size is its number of PUs,
// n²). Every algorithm runs with coloring at the same k. For
// DET_3_PHASE_ROUTE at k = n each colour class has n/2 packets per PU,
// outside the paper's analysis (it assumes k/2 a multiple of n): ALLOCATE
// still gives every position ⌊k/2n⌋ or ⌈k/2n⌉ of them (the ledger's
// mesh/lemma-6/k-not-multiple-of-n), Corollary 1 is no longer exact
// (mesh/cor-1/k-not-multiple-of-n), and the cell's note says so. The
// plots show all four k, k = n and n² dashed.
//
// One run draws a distribution from the stream seeds.Rand(seed, tag, n, k,
// dist, run) — the same for every algorithm, so the algorithms are compared
// on common distributions — and the algorithm's coin flips from a stream
// that adds the algorithm; results depend only on (seed, cell, run), never
// on workers or shards. DET_3_PHASE_ROUTE on a structured family is a
// deterministic function of the cell, so a worker computes it once per cell
// and returns it for every run.
//
// A row reports the routing time divided by k·n/2 (ours: mean, sd, max over
// runs) and, as extras, the maximum queue divided by k (mean, sd, max), the
// normalized excess (T − k·n/2)/√(k·n·log n) of Lemmas 1 and 2, and for
// DET_3_PHASE_ROUTE Theorem 1's bounds as stated in the same units (its
// queue bound is false: mesh/thm-1/queue), for DET_4_PHASE_ROUTE Lemma 3's
// bound read as k·n/2 + k^{5/6}·n^{2/3} (lemma3_time; the cited algorithm
// is ours only for k ≥ n⁴, which only the k = n⁴ cells reach — each cell
// note says which regime it is in; at k = n⁴ the bound is k·n/2 + k, i.e.
// lemma3_time = 1 + 2/n),
// and for the torus §6's halved Theorem 1 bound k·n/4 + 1.5·n²·log n
// (torus_time; the ledger's mesh/sec-6/torus-one-way-exceeds finds it
// exceeded with the one-way stand-in, mesh/sec-6/torus-halved-split met with
// the tie-splitting one). The text table prints ours' max
// rounded to an integer (the shared table format); the extra time_max, the
// JSON and the CSV carry it exactly. The paper prints no table, so the
// paper column is empty.
package meshexp
