package mesh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/props"
)

// Claims of 003_8774480fe7c747cc.txt §1 on the baselines: DET_4_PHASE_ROUTE
// (Lemma 3; algos/mesh.NewPlanDet4, column-sort with single-PU subsets),
// the comparison "better than the previous deterministic algorithms", and
// RAND_4_PHASE_ROUTE's per-phase bound k·n/4 + O((k·n·log n)^{1/2}) (the
// sentence before Lemma 1).

// det4Sizes are the (n, k) with k ≥ n⁴ (Lemma 3's regime in which "all
// rearrangements become internal operations", where NewPlanDet4 is the
// cited algorithm) at a budget.
func det4Sizes(b props.Budget) [][2]int {
	s := [][2]int{{4, 256}, {4, 512}}
	if b >= props.Default {
		s = append(s, [2]int{8, 4096})
	}
	if b == props.Large {
		s = append(s, [2]int{4, 2048}, [2]int{8, 8192})
	}
	return s
}

// det4Beyond are sizes with k < n⁴ at which the comparison with
// DET_3_PHASE_ROUTE is also run (NewPlanDet4 is there a stand-in that
// charges no submesh rearrangements).
func det4Beyond(b props.Budget) [][2]int {
	s := [][2]int{{4, 16}, {8, 64}}
	if b >= props.Default {
		s = append(s, [2]int{8, 192}, [2]int{16, 256})
	}
	return s
}

// det4Run routes family f at (n, k) with DET_4_PHASE_ROUTE and coloring on
// the fast engine, with the unshuffle deal replaced by deal unless nil.
func det4Run(n, k int, dst [][]amesh.Dest, deal amesh.Deal) (amesh.KKResult, error) {
	pl, err := amesh.NewPlanDet4(n, dst, amesh.Det4Options{Coloring: true, Deal: deal})
	if err != nil {
		return amesh.KKResult{}, err
	}
	return amesh.RouteKK(pl, amesh.Options{})
}

// det3Run routes dst with DET_3_PHASE_ROUTE (ALLOCATE replaced by alloc
// unless nil; with or without coloring) on the fast engine: RouteKK of
// NewPlan, every queue measured. det3TimesWith is its times-only twin.
func det3Run(n int, dst [][]amesh.Dest, alloc allocFn, coloring bool) (amesh.KKResult, error) {
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Coloring: coloring, Allocator: alloc})
	if err != nil {
		return amesh.KKResult{}, err
	}
	return amesh.RouteKK(pl, amesh.Options{})
}

// Lemma3Term is the reading of Lemma 3's additive term used by the
// ledger: k^{5/6}·n^{2/3}, the cost O(k·s) of rearranging in submeshes of
// side s = n^{2/3}/k^{1/6} (the side the paper gives); the printed term
// n^{2/3}/k^{1/6} is s itself (Lemma3PrintedTerm).
func Lemma3Term(n, k int) float64 {
	return math.Pow(float64(k), 5.0/6) * math.Pow(float64(n), 2.0/3)
}

// Lemma3PrintedTerm is Lemma 3's additive term as printed, n^{2/3}/k^{1/6}.
func Lemma3PrintedTerm(n, k int) float64 {
	return math.Pow(float64(n), 2.0/3) / math.Pow(float64(k), 1.0/6)
}

// Planted faults of the DET_4_PHASE_ROUTE claims.
const (
	faultDealStay   = "DET_4_PHASE_ROUTE without the unshuffle (amesh.DealStay: Phases 1 and 2 leave every packet in place, so Phases 3 and 4 are plain row-then-column routing)"
	faultDealBlocks = "DET_4_PHASE_ROUTE unshuffling in contiguous blocks (amesh.DealBlocks: rank t to ⌊t·n/size⌋ instead of t mod n)"
)

// Det4RoundingC is the constant of mesh/lemma-3/det4-time's rounding
// bound: at k ≥ n⁴ the time exceeds k·n/2 by at most Det4RoundingC·n²
// (derived before running, see the claim's notes: at most 2·n² per row
// or column phase).
const Det4RoundingC = 4

// dealStrided is a planted fault of mesh/lemma-3/det4-time that differs
// from column-sort's unshuffle only in rounding: rank t goes to position
// ⌊t/n⌋ mod n, so every PU of the line still gets exactly size/n packets
// when n² divides size, but a run of consecutive ranks (one destination
// range) is spread within ±n instead of ±1.
func dealStrided(t, _, _, n int) int { return (t / n) % n }

const faultDealStrided = "DET_4_PHASE_ROUTE unshuffling in strides (rank t to ⌊t/n⌋ mod n: the same counts per position, a destination range spread within ±n instead of ±1)"

func init() {
	lemma3 := func(env props.Env, deal amesh.Deal) props.Outcome {
		var ev []string
		var sl slackMax
		worstC, worstP := 0.0, 0.0
		for _, nk := range det4Sizes(env.Budget) {
			n, k := nk[0], nk[1]
			b := k*n/2 + Det4RoundingC*n*n
			for fi, f := range KKFamilies {
				seed := seeds.Derive(env.Seed, 0xde74, uint64(n), uint64(k), uint64(fi))
				r, err := det4Run(n, k, GenKK(f, n, k, seeds.Rand(seed)), deal)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				sl.see(float64(r.Steps-k*n/2), float64(Det4RoundingC*n*n))
				if r.Steps > b {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %d steps %v > k·n/2 + %d·n² = %d (rounding only)", n, k, f, r.Steps, r.PhaseSteps, Det4RoundingC, b),
						Counterexample: KKCase{amesh.Det4, true, n, k, f, seed}}
				}
				ex := float64(r.Steps) - float64(k*n)/2
				worstC = max(worstC, ex/Lemma3Term(n, k))
				worstP = max(worstP, ex/Lemma3PrintedTerm(n, k))
				ev = append(ev, fmt.Sprintf("n=%d k=%d %s: %d = k·n/2 + %d %v", n, k, f, r.Steps, r.Steps-k*n/2, r.PhaseSteps))
			}
		}
		return sl.on(props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%s. Fitted constants (excess over k·n/2 divided by the term, largest over the runs): %.4f for k^{5/6}·n^{2/3}, %.2f for the printed n^{2/3}/k^{1/6}", strings.Join(ev, "; "), worstC, worstP)})
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-3/det4-time",
		Statement: fmt.Sprintf("Our DET_4_PHASE_ROUTE (column-sort with single-PU subsets, the paper's k ≥ n⁴ regime) with coloring routes k-k distributions in k·n/2 plus rounding only: at most k·n/2 + %d·n² steps. (Lemma 3's k·n/2 + O(n^{2/3}/k^{1/6}), read as k·n/2 + O(k^{5/6}·n^{2/3}), is far looser here: the evidence reports the constants it would need.)", Det4RoundingC),
		Notes: "[2026-11-24] Review: checked against k·n/2 + k^{5/6}·n^{2/3} the claim almost could not fail at k ≥ n⁴ (measured excess 0–24 steps against a term of about k); DET_4_PHASE_ROUTE is our build (the paper only cites it), so the class is construction and the check is now a rounding bound. " +
			fmt.Sprintf("Derivation (fixed before running; the constant %d·n², not the C·n the review suggested, because C·n could not be derived and choosing C after seeing the excesses would be fitting). ", Det4RoundingC) +
			"Per colour class every PU holds L = k/2 packets, a multiple of n, so Phases 1 and 2 are exact (L·n/4 each: algos/mesh TestDet4UnshuffleExact). The sort key is column-major, so a PU's packets for the columns ≥ j are a suffix of its sorted list, and the round-robin deal gives each position ⌊m/n⌋ or ⌈m/n⌉ of a suffix of m: an error below 1. Through the two deals, the packets in columns ≤ a of a row with destination column ≥ j deviate from their exact share by less than n·(a + 1) (Phase-2 deals, n per PU) plus n·(a + 1) (Phase-1 deals, each below 1 and divided by n in Phase 2), so by less than 2·n²; farthest-first attains max over a < j of (j − a − 1 + h) (mesh/lemma-4/corrected), whose exact value is at most L·n/4; so Phase 3 takes at most L·n/4 + 2·n², and Phase 4 likewise. This assumes each destination gets exactly L packets of each colour (true when every source–destination group is even; on uniform traffic the colouring's odd groups add a small imbalance that the derivation does not cover, so a violation there would first be checked against that). " +
			"The evidence also reports the fitted constants for Lemma 3's term as read (k^{5/6}·n^{2/3}) and as printed (n^{2/3}/k^{1/6}, which lacks the factor k and is below one step when k ≥ n⁴). " +
			"DET_4_PHASE_ROUTE is not spelled out in the paper; NewPlanDet4 is column-sort's sort-and-unshuffle with one PU per subset (rank t of a PU's sorted packets to position t mod n along its row, then again along its column), which is the cited algorithm when k ≥ n⁴ and s ≤ 1. " +
			"Planted faults (written before running): the unshuffle skipped, the unshuffle in blocks, and the unshuffle in strides (rank t to ⌊t/n⌋ mod n), which differs from the real one only by rounding (every position still gets exactly L/n packets; a destination range is spread within ±n instead of ±1). Measured at the default: skip and blocks are caught; strides is not (+107 steps at n = 8, k = 4096, +14 at n = 4, k = 512, against 4·n² = 256 and 64, while the real unshuffle gives +24 and +6): the derived 4·n² is too loose to tell ±1 rounding from ±n, and a tighter C·n would need a derivation we do not have (choosing C between 3 and 13 now would be fitted to these numbers). Left open.",
		Check: func(env props.Env) props.Outcome { return lemma3(env, nil) },
		Faults: []props.Fault{
			{Name: faultDealStay, Check: func(env props.Env) props.Outcome { return lemma3(env, amesh.DealStay) }},
			{Name: faultDealBlocks, Check: func(env props.Env) props.Outcome { return lemma3(env, amesh.DealBlocks) }},
			{Name: faultDealStrided, Check: func(env props.Env) props.Outcome { return lemma3(env, dealStrided) }},
		}})))

	// DET_3 against DET_4 on the same distributions.
	compare := func(env props.Env, alloc allocFn) props.Outcome {
		var ev []string
		worst := 0.0 // largest T(DET_3)/T(DET_4)
		worstAt := ""
		for _, group := range []struct {
			name  string
			sizes [][2]int
		}{{"k ≥ n⁴", det4Sizes(env.Budget)}, {"k < n⁴ (DET_4 stand-in)", det4Beyond(env.Budget)}} {
			for _, nk := range group.sizes {
				n, k := nk[0], nk[1]
				var parts []string
				for fi, f := range KKFamilies {
					seed := seeds.Derive(env.Seed, 0xc3c4, uint64(n), uint64(k), uint64(fi))
					dst := GenKK(f, n, k, seeds.Rand(seed))
					r4, err := det4Run(n, k, dst, nil)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					r3, err := det3Run(n, dst, alloc, true)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					ratio := float64(r3.Steps) / float64(r4.Steps)
					if ratio > worst {
						worst, worstAt = ratio, fmt.Sprintf("n=%d k=%d %s", n, k, f)
					}
					if r3.Steps > r4.Steps {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s: n = %d, k = %d, %s: DET_3 takes %d steps %v, DET_4 %d %v", group.name, n, k, f, r3.Steps, r3.PhaseSteps, r4.Steps, r4.PhaseSteps),
							Counterexample: KKCase{amesh.Det3, true, n, k, f, seed}}
					}
					parts = append(parts, fmt.Sprintf("%s %d/%d = %.3f", f, r3.Steps, r4.Steps, ratio))
				}
				ev = append(ev, fmt.Sprintf("n=%d k=%d: %s", n, k, strings.Join(parts, ", ")))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("T(DET_3)/T(DET_4) ≤ 1 everywhere, largest %.3f (at %s); %s", worst, worstAt, strings.Join(ev, "; "))}
	}
	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/sec-1/det3-better-than-det4"}), compare))

	// RAND_4's per-phase bound.
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-1/rand4-per-phase",
		Check: func(env props.Env) props.Outcome { return rand4PerPhase(env, nil) },
		Faults: []props.Fault{{Name: "random positions drawn from the first half of each line only (rng.IntN(n/2) in place of rng.IntN(n))", Check: func(env props.Env) props.Outcome {
			return rand4PerPhase(env, func(r *rand.Rand, n int) int32 { return int32(r.IntN(max(1, n/2))) })
		}}, {Name: "random positions that never use the last PU of a line (rng.IntN(n − 1); a near miss, a fresh review's, 2026-11-25)", Check: func(env props.Env) props.Outcome {
			return rand4PerPhase(env, func(r *rand.Rand, n int) int32 { return int32(r.IntN(max(1, n-1))) })
		}}}})))
}

// rand4Runs is the number of runs of mesh/sec-1/rand4-per-phase at side n:
// the budget's runs, raised where needed so that the test could flag the
// size at all — even when every run exceeds, P(Bin(runs, 1/n) ≥ runs) =
// n^−runs must be at most the per-case alpha (at n = 4 and α ≈ 5·10⁻¹¹
// that is 18 runs, not 12).
func rand4Runs(runs, n int, alpha float64) int {
	for math.Pow(float64(n), -float64(runs)) > alpha {
		runs++
	}
	return runs
}

// rand4Sizes are the sizes of mesh/sec-1/rand4-per-phase and the budget's
// runs per size and family before rand4Runs raises them.
func rand4Sizes(b props.Budget) (sizes [][2]int, runs int) {
	sizes = [][2]int{{4, 8}, {4, 16}, {4, 32}, {8, 16}, {8, 64}}
	runs = b.Pick(12, 15, 100)
	if b >= props.Default {
		sizes = append(sizes, [2]int{8, 192}, [2]int{16, 32})
	}
	if b == props.Large {
		sizes = append(sizes, [2]int{16, 256})
	}
	return sizes, runs
}

// Rand4PerPhaseC is the constant of mesh/sec-1/rand4-per-phase, fixed
// before running.
const Rand4PerPhaseC = 2.0

// rand4Size is a size of mesh/sec-1/rand4-per-phase with its runs, its
// O() term o = (k·n·log n)^{1/2} and its per-phase bound
// B = k·n/4 + Rand4PerPhaseC·o.
type rand4Size struct {
	n, k, runs int
	o, B       float64
}

// rand4Plan is what mesh/sec-1/rand4-per-phase (and rand3-is-rand4-merged)
// run at a budget: the sizes of rand4Sizes with their runs raised by
// rand4Runs, the budget's runs before raising, and the per-test level
// alpha = Alpha/(sizes × families).
func rand4Plan(b props.Budget) (sizes []rand4Size, runs0 int, alpha float64) {
	nks, runs0 := rand4Sizes(b)
	alpha = props.Alpha / float64(len(nks)*len(KKFamilies))
	for _, nk := range nks {
		n, k := nk[0], nk[1]
		o := math.Sqrt(float64(k * n * floorLog2(n)))
		sizes = append(sizes, rand4Size{n, k, rand4Runs(runs0, n, alpha), o, float64(k*n)/4 + Rand4PerPhaseC*o})
	}
	return sizes, runs0, alpha
}

// rand4PooledPlan is rand4Plan for a check that also judges each side n
// pooled over its sizes and families: the sides in order, and the
// false-alarm rate of each test, Alpha split over the cell tests and the
// pooled ones alike.
func rand4PooledPlan(b props.Budget) (sizes []rand4Size, runs0 int, sides []int, alpha float64) {
	sizes, runs0, _ = rand4Plan(b)
	for _, sz := range sizes {
		if !slices.Contains(sides, sz.n) {
			sides = append(sides, sz.n)
		}
	}
	return sizes, runs0, sides, props.Alpha / float64(len(sizes)*len(KKFamilies)+len(sides))
}

// rand4PerPhase judges each size and family, and (since 2026-11-25) each
// side n pooled over its sizes and families: under the claim every run of
// side n exceeds B with probability ≤ 1/n, so the pooled exceedances are
// stochastically at most Bin(runs of side n, 1/n), and a rate well above
// 1/n spread over the cells is seen where no cell's 12–18 runs could show
// it (a cell can be flagged only when nearly all its runs exceed). The
// claim's Alpha is split over the cell tests and the pooled ones alike.
func rand4PerPhase(env props.Env, position func(*rand.Rand, int) int32) props.Outcome {
	sizes, runs0, sides, alpha := rand4PooledPlan(env.Budget)
	pooledOver, pooledRuns := map[int]int{}, map[int]int{}
	pooledFirst := map[int]*KKStatCase{}
	fitted, fittedAt := math.Inf(-1), ""
	var ev []string
	for _, sz := range sizes {
		n, k, o, B := sz.n, sz.k, sz.o, sz.B
		runs := rand4Runs(sz.runs, n, alpha)
		for fi, f := range KKFamilies {
			over, top := 0, 0
			var first *KKStatCase
			for run := range runs {
				c := KKStatCase{Algorithm: amesh.Rand4, N: n, K: k, Family: f, Metric: "largest phase steps", Bound: B}
				c.DistSeed = seeds.Derive(env.Seed, 0x4a4d, uint64(n), uint64(k), uint64(fi), uint64(run))
				c.AlgSeed = seeds.Derive(c.DistSeed, 1)
				r, err := runKKStatCase(c, position)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				for _, s := range r.PhaseSteps {
					c.Value = max(c.Value, s)
				}
				top = max(top, c.Value)
				if cv := (float64(c.Value) - float64(k*n)/4) / o; cv > fitted {
					fitted, fittedAt = cv, fmt.Sprintf("n=%d k=%d %s", n, k, f)
				}
				if float64(c.Value) > B {
					over++
					if first == nil {
						cc := c
						first = &cc
					}
				}
			}
			if tail := stats.BinomAtLeast(over, runs, 1/float64(n)); over > 0 && tail <= alpha {
				return props.Outcome{Verdict: props.Inconsistent, Counterexample: *first, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %d of %d runs have a phase longer than %.1f; P(Bin(%d, 1/n) ≥ %d) = %.3g ≤ α = %.2g; largest %d", n, k, f, over, runs, B, runs, over, tail, alpha, top)}
			}
			pooledOver[n] += over
			pooledRuns[n] += runs
			if pooledFirst[n] == nil {
				pooledFirst[n] = first
			}
			if f == KKUniform || over > 0 {
				ev = append(ev, fmt.Sprintf("n=%d k=%d %s: largest phase %d vs B=%.0f (%d/%d over)", n, k, f, top, B, over, runs))
			}
		}
	}
	var pooled []string
	for _, n := range sides {
		over, runs := pooledOver[n], pooledRuns[n]
		tail := stats.BinomAtLeast(over, runs, 1/float64(n))
		if over > 0 && tail <= alpha {
			return props.Outcome{Verdict: props.Inconsistent, Counterexample: *pooledFirst[n], Evidence: fmt.Sprintf("n = %d pooled over its sizes and families: %d of %d runs have a phase longer than B; P(Bin(%d, 1/n) ≥ %d) = %.3g ≤ α = %.2g (the counterexample is the first run over B)", n, over, runs, runs, over, tail, alpha)}
		}
		pooled = append(pooled, fmt.Sprintf("n=%d %d/%d over (P = %.3g)", n, over, runs, tail))
	}
	return props.Outcome{Verdict: props.Consistent, Evidence: fmt.Sprintf("%d sizes × %d families × %d runs (%d at n = 4, so that n = 4 can be flagged); no size and family, and no side n pooled (%s), had its exceedance rate above 1/n at α = %.2g each. Fitted constant (smallest C every run meets): %.3f (at %s), against the stated C = %g. %s", len(sizes), len(KKFamilies), runs0, rand4Runs(runs0, 4, alpha), strings.Join(pooled, ", "), alpha, fitted, fittedAt, Rand4PerPhaseC, strings.Join(ev, "; "))}
}

func init() {
	beats := func(env props.Env, deal amesh.Deal) props.Outcome {
		var ev []string
		for _, nk := range det4Sizes(env.Budget) {
			n, k := nk[0], nk[1]
			runs := 3
			if n*n*k > 1<<16 {
				runs = 1 // 2^18 packets and more: one randomized run per family
			}
			d4, at := 0, KKFamily("")
			for fi, f := range KKFamilies {
				r, err := det4Run(n, k, GenKK(f, n, k, seeds.Rand(env.Seed, 0xb4a, uint64(n), uint64(k), uint64(fi))), deal)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if r.Steps > d4 {
					d4, at = r.Steps, f
				}
			}
			parts := []string{fmt.Sprintf("DET_4 %d (%s)", d4, at)}
			for _, alg := range []amesh.Algorithm{amesh.Rand3, amesh.Rand4} {
				ws, err := randSlowest(env.Seed, 0xb4b, alg, n, k, runs, KKFamilies)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				best := slices.Min(ws) // the smallest over runs of the slowest family
				parts = append(parts, fmt.Sprintf("%s %d", alg, best))
				if d4 >= best {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d: DET_4's slowest family takes %d steps (%s), %s's slowest family only %d in its best run", n, k, d4, at, alg, best),
						Counterexample: map[string]any{"n": n, "k": k, "det4": d4, "det4_family": at, string(alg): best}}
				}
			}
			ev = append(ev, fmt.Sprintf("n=%d k=%d (k·n/2 = %d): %s", n, k, k*n/2, strings.Join(parts, ", ")))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "slowest family: " + strings.Join(ev, "; ")}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-1/det4-beats-rand-for-huge-k",
		Check:  func(env props.Env) props.Outcome { return beats(env, nil) },
		Faults: []props.Fault{{Name: faultDealStay, Check: func(env props.Env) props.Outcome { return beats(env, amesh.DealStay) }}},
	})))
}
