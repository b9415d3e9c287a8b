package mesh

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// Issue 13's remaining sentences of 003_8774480fe7c747cc.txt §1: the
// deterministic algorithm against the randomized ones in §3's regime
// k ≥ n²·log n.

// det3RandSizes are the (n, k) of mesh/sec-1/det3-beats-rand-from-n2-log-n:
// k ≥ n²·log n (the paper's "Already for k = ω(n²·log n)"), k a multiple
// of 2n (coloring), grouped by n, and the randomized runs per size.
func det3RandSizes(b props.Budget) (sizes [][2]int, runs int) {
	sizes = [][2]int{{4, 32}, {4, 128}, {4, 512}, {8, 192}, {8, 768}}
	if b >= props.Default {
		sizes = append(sizes, [2]int{16, 1024})
	}
	if b == props.Large {
		sizes = append(sizes, [2]int{16, 4096})
	}
	return sizes, b.Pick(3, 3, 10)
}

// det3TimesWith is DET_3_PHASE_ROUTE's time on dst (mesh.RouteKKTimes:
// RouteKK's Steps and PhaseSteps without stepping), with ALLOCATE replaced
// by alloc unless nil and with or without coloring.
func det3TimesWith(n int, dst [][]amesh.Dest, alloc allocFn, coloring bool) (amesh.KKResult, error) {
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Coloring: coloring, Allocator: alloc})
	if err != nil {
		return amesh.KKResult{}, err
	}
	return amesh.RouteKKTimes(pl)
}

// randSlowestTimes is randSlowest (the same cases: distributions, coins and
// the slowest family of each run) timed by kkRuns.times on reused buffers
// (the same times: TestKKRunsEqualsPlainRuns, mesh.TestRouteKKTimesEqualsRouteKK).
func randSlowestTimes(kr *kkRuns, seed, tag uint64, alg amesh.Algorithm, n, k, runs int, fams []KKFamily) ([]int, error) {
	return slowestBy(func(c KKStatCase) (amesh.KKResult, error) {
		r, ok, err := kr.times(c)
		if !ok {
			panic("props/mesh: kkRuns.times does not time " + string(alg))
		}
		return r, err
	}, seed, tag, alg, n, k, runs, fams)
}

// DET_3_PHASE_ROUTE's hunted worst cases (time with coloring) at sizes of
// mesh/sec-1/det3-beats-rand-from-n2-log-n, found by `routecheck hunt
// mesh-time --coloring` (each file's command field; not shrunk) and
// counted in DET_3's slowest case at their size.
var huntedFiles = []savedCase{
	{"props/mesh/testdata/mesh-time-n4-k32-colored.json"},
	{"props/mesh/testdata/mesh-time-n4-k128-colored.json.gz"},
	{"props/mesh/testdata/mesh-time-n8-k192-colored.json.gz"},
	{"props/mesh/testdata/mesh-time-n4-k512-colored.json.gz"},
	{"props/mesh/testdata/mesh-time-n8-k768-colored.json.gz"},
	{"props/mesh/testdata/mesh-time-n16-k1024-colored.json.gz"},
}

// huntedAtN2LogN parses them, once (the check and its four faults read
// the same cases; the n = 16 file alone is 3.3 MB of JSON).
var huntedAtN2LogN = sync.OnceValues(func() ([]huntedKK, error) { return parseSaved(huntedFiles) })

// faultNoColoring is the planted fault of the comparison: DET_3 without
// the coloring Theorem 1 assumes.
const faultNoColoring = "DET_3_PHASE_ROUTE without coloring (all k packets in one class, routed as Lemmas 7–9 describe)"

// The sentence quoted by mesh/sec-1/det3-beats-rand-from-n2-log-n.
const sec1MuchSmallerK = "We strive for a more efficient deterministic algorithm, outperforming the randomized algorithms already for much smaller values of k."

func init() {
	// beats compares DET_3's slowest case (the families and the hunted
	// cases of the size) with the randomized slowest family in their best
	// run (ALLOCATE replaced by alloc unless nil; without coloring when
	// uncoloured: the planted faults).
	beats := func(env props.Env, alloc allocFn, uncoloured bool) props.Outcome {
		sizes, runs := det3RandSizes(env.Budget)
		hunted, err := huntedAtN2LogN()
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		var ev []string
		var sl slackMax
		worstBest, worstMed := 0.0, 0.0
		var kr kkRuns
		for _, nk := range sizes {
			n, k := nk[0], nk[1]
			d3, at := 0, KKFamily("")
			for fi, f := range KKFamilies {
				r, err := det3TimesWith(n, GenKK(f, n, k, seeds.Rand(env.Seed, 0x13d3, uint64(n), uint64(k), uint64(fi))), alloc, !uncoloured)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if r.Steps > d3 {
					d3, at = r.Steps, f
				}
			}
			for _, h := range hunted {
				if h.n != n || h.k != k {
					continue
				}
				r, err := det3TimesWith(n, h.dst, alloc, !uncoloured)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if r.Steps > d3 {
					d3, at = r.Steps, KKFamily("hunted "+h.file)
				}
			}
			parts := []string{fmt.Sprintf("DET_3 %d (%s)", d3, at)}
			for _, alg := range []amesh.Algorithm{amesh.Rand3, amesh.Rand4} {
				ws, err := randSlowestTimes(&kr, env.Seed, 0x13d4, alg, n, k, runs, KKFamilies)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				slices.Sort(ws)
				best, med := ws[0], ws[(len(ws)-1)/2]
				sl.see(float64(d3), float64(best))
				worstBest = max(worstBest, float64(d3)/float64(best))
				worstMed = max(worstMed, float64(d3)/float64(med))
				parts = append(parts, fmt.Sprintf("%s best %d, median %d (ratios %.3f, %.3f)", alg, best, med, float64(d3)/float64(best), float64(d3)/float64(med)))
				if d3 >= best {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d (k·n/2 = %d): DET_3's slowest case takes %d steps (%s), %s's slowest family only %d in its best of %d runs (median %d)", n, k, k*n/2, d3, at, alg, best, runs, med),
						Counterexample: map[string]any{"n": n, "k": k, "det3": d3, "det3_family": at, string(alg) + "_best": best, string(alg) + "_median": med, "coloring": !uncoloured}}
				}
			}
			ev = append(ev, fmt.Sprintf("n=%d k=%d (k·n/2 = %d): %s", n, k, k*n/2, strings.Join(parts, ", ")))
		}
		return sl.on(props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("T(DET_3, slowest case) < T(randomized, slowest family) in every randomized run; largest ratio %.3f against the best run, %.3f against the median: %s", worstBest, worstMed, strings.Join(ev, "; "))})
	}
	sizes := func(b props.Budget) string {
		s, r := det3RandSizes(b)
		var ps []string
		for _, nk := range s {
			ps = append(ps, fmt.Sprintf("(%d, %d)", nk[0], nk[1]))
		}
		return fmt.Sprintf("%s with %d runs", strings.Join(ps, ", "), r)
	}
	props.Register(props.Claim{ID: "mesh/sec-1/det3-beats-rand-from-n2-log-n", Source: seed003 + " §1 ('" + sec1MuchSmallerK + " … Already for k = ω(n²·log n) all routing decisions can be made internally.')", Kind: props.Bound, Recorded: props.Holds, Class: props.Reading,
		Statement: "Already at k ≥ n²·log n — far below DET_4's k = ω(n⁴) — DET_3_PHASE_ROUTE (ALLOCATE, coloring) outperforms the randomized algorithms on the worst case: its slowest case (the four families and its hunted worst case, saved at every size run but n = 16, k = 4096, where the claim is judged against the four families only) takes fewer steps than the slowest family of RAND_3_PHASE_ROUTE and of RAND_4_PHASE_ROUTE (both with coloring) in every one of their runs.",
		Scope:     "n a power of two, k ≥ n²·log n, k a multiple of 2n: (n, k) " + sizes(props.Small) + " (small), " + sizes(props.Default) + " (default), " + sizes(props.Large) + " (large); DET_3 on uniform random, transpose, reflect and row-to-col (one draw each) and on its hunted worst cases at n = 4, k ∈ {32, 128, 512}, n = 8, k ∈ {192, 768} and n = 16, k = 1024 (props/mesh/testdata/mesh-time-n<n>-k<k>-colored.json[.gz]); at n = 16, k = 4096 (large only) no case is hunted, so there DET_3's slowest is reflect's exactly k·n/2 and the claim holds only against the four families (the check says only that RAND's slowest family exceeds k·n/2 — by 567 steps at the large budget — where Theorem 1 allows DET_3 up to k·n/2 + 1536); RAND_3 and RAND_4 on all four families per run, the slowest family of each run; times by the corrected Lemma 4 closed form (mesh.RouteKKTimes and its buffered twin mesh.KKTimer), equal to the fast engine's (differential tests)",
		Notes: "The sentence is §1's aim, stated before the algorithm; the 'much smaller values of k' are §3's k = ω(n²·log n) against DET_4's k = ω(n⁴). Class reading: 'outperforming' is read as the worst case over the distributions run (as mesh/sec-1/det4-beats-rand-for-huge-k reads 'better'), compared with each randomized run's slowest family, and the randomized algorithm's best run counted (conservative for DET_3: a win must beat every run); ω(n²·log n) is read as k ≥ n²·log n at the sizes the fast engine runs. The paper's own bounds do not settle it at these k: Theorem 1's O(n²·log n) is below Lemmas 1 and 2's O((k·n·log n)^{1/2}) only for k > n³·log n (constants 1), which only n = 4, k = 512 reaches here, so the comparison is measured, not derived. " +
			"The structured families are not DET_3's worst case (on them its slowest is reflect, exactly k·n/2, so over the families alone the check would only test that the randomized slowest family exceeds k·n/2), so DET_3's hunted worst cases at k = n²·log n are counted as well: `routecheck hunt mesh-time --coloring` at n = 4, k = 32 (--iters 20000 --seed 2: 76 = k·n/2 + 12 steps; seeds 1 and 3 gave 75 and 76), n = 4, k = 128 (--iters 5000 --seed 2: 265 = k·n/2 + 9) and at n = 8, k = 192 (--iters 4000 --seed 2: 784 = k·n/2 + 16; seed 1 with 1500 iterations 782), not shrunk. They were added after the first run (which had the families only; its verdict, holds, is unchanged). A hunted case is a lower bound on DET_3's worst case, so a holds verdict still says less than the sentence; the margins at those sizes (RAND_3's best runs 83, 297 and 843) are 7, 32 and 59 steps. " +
			"[2026-11-24, review] Until then the larger sizes had no hunted case (DET_3's slowest was reflect's exact k·n/2, so there the check only said RAND's slowest family exceeds k·n/2, by 73, 141 and 303 steps, while Theorem 1 allows DET_3 up to k·n/2 + 1.5·n²·log n). Hunted since (each not shrunk, ≈ 68 CPU s in all): n = 4, k = 512 (--iters 3000 --seed 2: 1029 = k·n/2 + 5), n = 8, k = 768 (--time 60s --seed 2: 3088 = k·n/2 + 16) and n = 16, k = 1024 (--time 90s --seed 2, only 326 hill-climbing steps: 8200 = k·n/2 + 8); the verdict is unchanged (holds), the margins to RAND_3's best run there 68, 125 and 295 steps. The hunts find less as n grows (the best excess over k·n/2 is 0.38, 0.08 and 0.008 of n²·log n at n = 4, 8, 16, against Theorem 1's allowance of 1.5·n²·log n), so at n = 16 the check is little more than one against the families; at n = 16, k = 4096 (large only; 2^20 packets a case) none is hunted and it is exactly that. " +
			"Planted faults (written before running): DET_3 without coloring (one class of k packets: Phase 2 alone can take k·n/2 on reflect) and ALLOCATE skipped (plain column-then-row routing: transpose costs k·n/2 + k·n/4 per colour class). Both change the leading term (caught at n = 4, k = 32 by 128 and 96 steps against RAND_3's best 83), while the claim is about lower-order terms, so two near-faults, the ones other DET_3 claims use, were added after review (not written before running: the reviewer had run them): ALLOCATE with an off-by-one extraction, caught only at n = 8, k = 192 on the hunted case, by one step (844 against RAND_3's best 843), and ALLOCATE mirrored, caught only by a tie at n = 4, k = 32 (83 against 83; a tie counts against DET_3; at the large budget, 10 runs, by one step: 83 against 82). Those margins, one step and none, show how thin the check's power is: a fault that costs DET_3 only a few steps in its worst case goes uncaught at most sizes.",
		// large: DET_3's plan at n = 16, k = 4096 (2^20 packets, ≈ 77 bytes
		// a packet, as headMem); not measured, rounded up
		Mem:   props.MemEstimate{Large: 256 * props.MiB},
		Check: func(env props.Env) props.Outcome { return beats(env, nil, false) },
		Faults: []props.Fault{
			{Name: faultNoColoring, Check: func(env props.Env) props.Outcome { return beats(env, nil, true) }},
			{Name: faultSkipAllocate, Check: func(env props.Env) props.Outcome { return beats(env, skipAllocate, false) }},
			{Name: faultOffByOne, Check: func(env props.Env) props.Outcome { return beats(env, offByOneAllocate, false) }},
			{Name: faultMirror, Check: func(env props.Env) props.Outcome { return beats(env, mirrorAllocate, false) }},
		},
	})
}
