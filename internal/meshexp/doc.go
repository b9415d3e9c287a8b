// Package meshexp registers the experiment `mesh-kk` (`routecheck reproduce
// mesh-kk`): k-k routing on the n×n mesh (003_8774480fe7c747cc.txt) with
// RAND_3_PHASE_ROUTE, RAND_4_PHASE_ROUTE and DET_3_PHASE_ROUTE, all with
// coloring, on uniformly random k-k distributions and the structured
// families of props.GenKK (transpose, reflect, row-to-col).
//
// A cell is (n, k, dist, alg) with n ∈ {4, 8, 16, 32}, k ∈ {n, n², n²·log n}
// (k = n is raised to 2n for DET_3_PHASE_ROUTE: with coloring each colour
// class of k/2 packets is allocated separately and the paper's analysis
// assumes its size a multiple of n), dist an index into props.KKFamilies and
// alg an index into Algorithms. A cell's Size is the number of PUs n², which
// is what --max-n compares against.
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
// DET_3_PHASE_ROUTE Theorem 1's bounds in the same units. The paper prints
// no table, so the paper column is empty.
package meshexp
