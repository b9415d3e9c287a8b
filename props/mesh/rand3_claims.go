package mesh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/props"
)

// RAND_3_PHASE_ROUTE as RAND_4_PHASE_ROUTE with its last phases exchanged
// and merged (003_8774480fe7c747cc.txt §1, between Lemmas 1 and 2).

// rand4SwappedPlans draws, for the k-k distribution dst, one random column
// x and one random row y per packet (in packet order, x then y, from rng;
// position replaces rng.IntN(n) unless nil) and returns RAND_4_PHASE_ROUTE
// with Phases 3 and 4 exchanged — rows to (sr, x), columns to (y, x),
// columns to (dr, x), rows to (dr, dc) — and the plan with its two column
// phases merged into one, which is RAND_3_PHASE_ROUTE with the same x:
// rows to (sr, x), columns to (dr, x), rows to (dr, dc). No coloring.
func rand4SwappedPlans(n int, dst [][]amesh.Dest, rng *rand.Rand, position func(*rand.Rand, int) int32) (swapped, merged amesh.Plan) {
	draw := func() int32 { return int32(rng.IntN(n)) }
	if position != nil {
		draw = func() int32 { return position(rng, n) }
	}
	k := len(dst[0])
	K := n * n * k
	swapped = amesh.Plan{N: n, Src: make([]int32, K), Targets: make([][]int32, 4)}
	merged = amesh.Plan{N: n, Src: swapped.Src, Targets: make([][]int32, 3)}
	for ph := range 4 {
		swapped.Targets[ph] = make([]int32, K)
	}
	for ph := range 3 {
		merged.Targets[ph] = make([]int32, K)
	}
	at := func(r, c int32) int32 { return r*int32(n) + c }
	for p, ds := range dst {
		sr := int32(p / n)
		for r, d := range ds {
			q := p*k + r
			x, y := draw(), draw()
			swapped.Src[q] = int32(p)
			swapped.Targets[0][q], swapped.Targets[1][q] = at(sr, x), at(y, x)
			swapped.Targets[2][q], swapped.Targets[3][q] = at(d.Row, x), at(d.Row, d.Col)
			merged.Targets[0][q], merged.Targets[1][q], merged.Targets[2][q] = at(sr, x), at(d.Row, x), at(d.Row, d.Col)
		}
	}
	return swapped, merged
}

// Rand3MergeScaleFault is the factor of the planted fault of
// mesh/sec-1/rand3-is-rand4-merged (fixed before running): the merged
// phase must take at most this fraction of the two phases it replaces.
const Rand3MergeScaleFault = 0.4

// halfLine draws a position from the first half of a line (a planted
// fault of mesh/sec-1/rand3-is-rand4-merged).
func halfLine(r *rand.Rand, n int) int32 { return int32(r.IntN(max(1, n/2))) }

func init() {
	// check judges every size and family, and each side n pooled over its
	// sizes and families (as mesh/sec-1/rand4-per-phase, since
	// 2026-11-25); positionOf(run) replaces the random positions of a run
	// unless nil (a planted fault).
	check := func(env props.Env, scale float64, positionOf func(run int) func(*rand.Rand, int) int32) props.Outcome {
		sizes, runs0, sides, alpha := rand4PooledPlan(env.Budget)
		pooledOver, pooledRuns := map[int]int{}, map[int]int{}
		var ev []string
		worstRatio, fitted := 0.0, math.Inf(-1)
		for _, sz := range sizes {
			n, k, o, B := sz.n, sz.k, sz.o, sz.B
			runs := rand4Runs(sz.runs, n, alpha)
			for fi, f := range KKFamilies {
				over, sumSw, sumR4 := 0, 0, 0
				for run := range runs {
					var position func(*rand.Rand, int) int32
					if positionOf != nil {
						position = positionOf(run)
					}
					dseed := seeds.Derive(env.Seed, 0x3a3e, uint64(n), uint64(k), uint64(fi), uint64(run))
					dst := GenKK(f, n, k, seeds.Rand(dseed))
					sw, mg := rand4SwappedPlans(n, dst, seeds.Rand(dseed, 1), position)
					rs, err := amesh.RouteKK(sw, amesh.Options{})
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					rm, err := amesh.RouteKK(mg, amesh.Options{})
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					two := rs.PhaseSteps[1] + rs.PhaseSteps[2]
					cx := map[string]any{"n": n, "k": k, "family": f, "dist_seed": dseed, "draws": "seeds.Rand(dist_seed, 1): x then y per packet", "swapped_phases": rs.PhaseSteps, "merged_phases": rm.PhaseSteps}
					if float64(rm.PhaseSteps[1]) > scale*float64(two) {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s, run %d: the merged column phase takes %d steps, more than %g × (%d + %d)", n, k, f, run, rm.PhaseSteps[1], scale, rs.PhaseSteps[1], rs.PhaseSteps[2]), Counterexample: cx}
					}
					if rm.PhaseSteps[0] != rs.PhaseSteps[0] || rm.PhaseSteps[2] != rs.PhaseSteps[3] {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s, run %d: the unmerged phases differ (%v against %v)", n, k, f, run, rm.PhaseSteps, rs.PhaseSteps), Counterexample: cx}
					}
					if two > 0 {
						worstRatio = max(worstRatio, float64(rm.PhaseSteps[1])/float64(two))
					}
					top := 0
					for _, s := range rs.PhaseSteps {
						top = max(top, s)
					}
					fitted = max(fitted, (float64(top)-float64(k*n)/4)/o)
					if float64(top) > B {
						over++
					}
					sumSw += rs.Steps
					// RAND_4 in its own order, with the same draws.
					r4, err := runRand4Ordered(n, dst, seeds.Rand(dseed, 1), position)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					sumR4 += r4.Steps
				}
				if tail := stats.BinomAtLeast(over, runs, 1/float64(n)); over > 0 && tail <= alpha {
					return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("n = %d, k = %d, %s: with Phases 3 and 4 exchanged, %d of %d runs have a phase longer than k·n/4 + %g·(k·n·log n)^{1/2} = %.1f; P(Bin(%d, 1/n) ≥ %d) = %.3g ≤ α = %.2g", n, k, f, over, runs, Rand4PerPhaseC, B, runs, over, tail, alpha)}
				}
				pooledOver[n] += over
				pooledRuns[n] += runs
				if f == KKUniform || f == KKTranspose {
					ev = append(ev, fmt.Sprintf("n=%d k=%d %s: mean time %.1f exchanged vs %.1f in order", n, k, f, float64(sumSw)/float64(runs), float64(sumR4)/float64(runs)))
				}
			}
		}
		var pooled []string
		for _, n := range sides {
			over, runs := pooledOver[n], pooledRuns[n]
			tail := stats.BinomAtLeast(over, runs, 1/float64(n))
			if over > 0 && tail <= alpha {
				return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("n = %d pooled over its sizes and families: with Phases 3 and 4 exchanged, %d of %d runs have a phase longer than k·n/4 + %g·(k·n·log n)^{1/2}; P(Bin(%d, 1/n) ≥ %d) = %.3g ≤ α = %.2g", n, over, runs, Rand4PerPhaseC, runs, over, tail, alpha)}
			}
			pooled = append(pooled, fmt.Sprintf("n=%d %d/%d over (P = %.3g)", n, over, runs, tail))
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: fmt.Sprintf("%d sizes × %d families × %d runs (%d at n = 4): the merged column phase never took longer than the two it replaces (largest ratio %.3f); with Phases 3 and 4 exchanged no size, and no side n pooled (%s), exceeded k·n/4 + %g·(k·n·log n)^{1/2} per phase more often than 1/n allows (α = %.2g each; fitted constant %.3f). %s", len(sizes), len(KKFamilies), runs0, rand4Runs(runs0, 4, alpha), worstRatio, strings.Join(pooled, ", "), Rand4PerPhaseC, alpha, fitted, strings.Join(ev, "; "))}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-1/rand3-is-rand4-merged",
		Notes: "Class reading (2026-11-24, review): the claim rests on reading the printed 'RAND_3 … Phase 4' as RAND_4; and, as for mesh/sec-1/rand4-per-phase, the runs at n = 4 are raised to 18 so that n = 4 can be flagged at all. The text says 'The time consumption of RAND_3_PHASE_ROUTE does not change if the order of Phase 3 and Phase 4 are exchanged'; RAND_3 has no Phase 4 there, so it is read as RAND_4 (the algorithm the sentence goes on to turn into RAND_3). " +
			"Why merging cannot cost: the two column phases are a schedule for the merged routing (a packet may wait at its intermediate row), and farthest-first attains, per line and direction, the lower bound j − i − 1 + h(i, j) that every schedule must respect (mesh/lemma-4/corrected), so the merged phase is at most the sum; the check is then a test of the engines against that argument. The evidence compares the mean total time of RAND_4 exchanged and in its order (the 'does not change'). " +
			fmt.Sprintf("Planted faults (written before running): the merged phase held to %g× the two phases it replaces (a bound scaled by a factor fixed in advance), and random positions drawn from the first half of each line.", Rand3MergeScaleFault) +
			" [2026-11-25, review] A fresh reviewer found both faults strawmen (half-line positions make every run exceed; 0.4× lies below the ratio of ordinary runs) and the w.h.p. half judged cell by cell, where 12–18 runs flag a cell only when nearly all exceed: a router biased in every other run (50 % of runs over, 1/n allowed) passed. Each side n is now also judged pooled over its sizes and families (as mesh/sec-1/rand4-per-phase; Alpha split over cells and pools), and that intermittent bias is a third fault, written before running: caught pooled at n = 4 (108 of 216 runs over, tail 2.6e-15) at both budgets. The merged ≤ two phases half is, by the argument above, a theorem about farthest-first routing (a test of the engines); the 'does not change' of the sentence is reported (mean times), not judged.",
		Check: func(env props.Env) props.Outcome { return check(env, 1, nil) },
		Faults: []props.Fault{
			{Name: fmt.Sprintf("the merged phase held to %g× the two column phases it replaces", Rand3MergeScaleFault), Check: func(env props.Env) props.Outcome { return check(env, Rand3MergeScaleFault, nil) }},
			{Name: "random positions drawn from the first half of each line only (rng.IntN(n/2) in place of rng.IntN(n))", Check: func(env props.Env) props.Outcome {
				return check(env, 1, func(int) func(*rand.Rand, int) int32 { return halfLine })
			}},
			{Name: "the same in every other run only (an intermittent bias)", Check: func(env props.Env) props.Outcome {
				return check(env, 1, func(run int) func(*rand.Rand, int) int32 {
					if run%2 == 1 {
						return halfLine
					}
					return nil
				})
			}},
		}})))
}

// runRand4Ordered is RAND_4_PHASE_ROUTE in its own order with the draws of
// rand4SwappedPlans (x then y per packet): rows to (sr, x), columns to
// (y, x), rows to (y, dc), columns to (dr, dc).
func runRand4Ordered(n int, dst [][]amesh.Dest, rng *rand.Rand, position func(*rand.Rand, int) int32) (amesh.KKResult, error) {
	sw, _ := rand4SwappedPlans(n, dst, rng, position)
	k := len(dst[0])
	for q := range sw.Src {
		d := dst[q/k][q%k]
		y := sw.Targets[1][q] / int32(n)
		sw.Targets[2][q] = y*int32(n) + d.Col
	}
	return amesh.RouteKK(sw, amesh.Options{})
}
