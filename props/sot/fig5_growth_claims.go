package sot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props"
)

// Review of issue 13 (point 1): the §3 reading of Figure 5's "h = n log n
// gives quite good efficiency results". §3 sets the goal the figure
// confirms: "a good practical goal would be an algorithm that routes
// n log n packets (from each of the n processors) in O(n log n) time", i.e.
// the cost T/h at h = n·log₂ n is bounded in n. Finite sizes cannot confirm
// boundedness; what they can refute is growth at least as fast as the
// next class up, a cost ∝ log₂ n (time n·log² n). Fixed from that
// arithmetic before running: between the smallest and the largest size of
// sotFig5Sizes the cost ratio is compared with log₂ n_max / log₂ n_min
// (5/3 for 8 → 32, 4/3 for 8 → 16), on the log scale with the delta method
// (se of log(mean) = sd/(mean·√runs)), one Student-t test at Alpha
// (min runs − 1 df): inconsistent if the ratio is significantly above,
// consistent if significantly below, else inconclusive.

// sotIdleRounds returns a planted fault: processors inject only in rounds
// (blocks of n steps, ⌊T/n⌋) r with r mod k(n) = 0, and idle (inject
// nothing; passing packets still move) in the other k(n) − 1 of every
// k(n) rounds (k(n) ≤ 1: no change). Whole rounds keep Algorithm 2's schedule (every target
// comes up once per round). Dropping an injection is legal: the packet
// stays pending and the routers inject it later (they read IsInjected).
func sotIdleRounds(k func(n int) int) sotTamper {
	return func(s *msot.State, a []msot.Action) {
		kk := k(s.N)
		if kk <= 1 || (s.T/s.N)%kk == 0 {
			return
		}
		for v := range a {
			if _, inj := a[v].Right.Packet(); inj {
				a[v].Right = msot.None
			}
			if _, inj := a[v].Down.Packet(); inj {
				a[v].Down = msot.None
			}
		}
	}
}

// sotGrowthCosts returns the cost T/h per run of alg at h = n·log₂ n on
// the relations of sotEfficiencies (the same runs when idle and tamper are
// nil). With idle, the router idles as sotIdleRounds(idle) makes it, on
// the fast engine (asot.RouteIdle: Route with that tamper, tested against
// it in algos/sot and by TestSotGrowthIdleSameOnStepModel); with tamper
// (and no idle), its actions are rewritten by tamper on the step model.
func sotGrowthCosts(env props.Env, alg asot.Algorithm, n, runs int, idle func(n int) int, tamper sotTamper) ([]float64, string) {
	h := n * sotLog2(n)
	if idle == nil && tamper == nil {
		e, msg := sotEfficiencies(env, alg, n, h, runs)
		if msg != "" {
			return nil, msg
		}
		out := make([]float64, len(e))
		for i, x := range e {
			out[i] = 1 / x
		}
		return out, ""
	}
	return sotTaggedCosts(env, 0xf45, alg, n, h, runs, "", func(rel []perm.Pair, rng *rand.Rand) (asot.Result, error) {
		if idle != nil {
			return asot.RouteIdle(alg, n, rel, rng, 0, idle(n))
		}
		res, _, err := asot.Route(alg, n, rel, rng, asot.Options{Tamper: tamper})
		return res, err
	})
}

// sotTaggedCosts returns T/h of runs 0 … runs − 1 of route on random
// h-relations of SOT(n), relation and router stream of run r from
// seeds.Rand(env.Seed, tag, n, h, r) and (…, r, 1); a run that errs or
// does not complete ends it with a message (label after the run number).
func sotTaggedCosts(env props.Env, tag uint64, alg asot.Algorithm, n, h, runs int, label string, route func(rel []perm.Pair, rng *rand.Rand) (asot.Result, error)) ([]float64, string) {
	var out []float64
	for r := range runs {
		rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, tag, uint64(n), uint64(h), uint64(r)))
		res, err := route(rel, seeds.Rand(env.Seed, tag, uint64(n), uint64(h), uint64(r), 1))
		if err != nil || !res.Complete {
			return nil, fmt.Sprintf("%s n=%d h=%d run %d%s: error %v, %+v", alg, n, h, r, label, err, res)
		}
		out = append(out, float64(res.Steps)/float64(h))
	}
	return out, ""
}

// sotGrowthCheck is sot/fig5/<alg>/cost-bounded-in-n's check, the router
// idling as sotIdleRounds(idle) makes it (its planted fault, on the fast
// engine) or its actions rewritten by tamper (both nil: the real router).
func sotGrowthCheck(alg asot.Algorithm, idle func(n int) int, tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := sotFig5Sizes(env.Budget, alg)
		base := sotFig5BaseRuns(env.Budget, alg)
		if alg == asot.GreedyB && env.Budget == props.Small {
			// greedy-b's small sizes stop at n = 16 (sotFig5Sizes):
			// more runs there (cheap) instead of n = 32.
			base = 48
		}
		var ev []string
		var sum [2]stats.Summary
		for k, n := range []int{ns[0], ns[len(ns)-1]} {
			c, msg := sotGrowthCosts(env, alg, n, sotFig5Runs(n, base), idle, tamper)
			if msg != "" {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: msg}
			}
			sum[k] = stats.Summarize(c)
			ev = append(ev, fmt.Sprintf("n=%d h=%d: mean cost T/h = %.3f (sd %.3f, %d runs)", n, n*sotLog2(n), sum[k].Mean, sum[k].SD, sum[k].N))
		}
		lo, hi := ns[0], ns[len(ns)-1]
		gauge := float64(sotLog2(hi)) / float64(sotLog2(lo))
		ratio := sum[1].Mean / sum[0].Mean
		se := math.Hypot(sum[0].SD/(sum[0].Mean*math.Sqrt(float64(sum[0].N))), sum[1].SD/(sum[1].Mean*math.Sqrt(float64(sum[1].N))))
		z := (math.Log(ratio) - math.Log(gauge)) / se
		tc := stats.T(props.Alpha, min(sum[0].N, sum[1].N)-1)
		verdict := props.Inconclusive
		switch {
		case z > tc:
			verdict = props.Inconsistent
		case z < -tc:
			verdict = props.Consistent
		}
		return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("%s at h = n·log₂ n: %s; cost ratio %.3f against log₂ %d / log₂ %d = %.3f (growth exponent %.2f per doubling of n): t = %.1f on the log scale (critical %.1f, α = %.2g)",
			alg, strings.Join(ev, "; "), ratio, hi, lo, gauge, math.Log2(ratio)/math.Log2(float64(hi)/float64(lo)), z, tc, props.Alpha)}
	}
}

func init() { sotGrowthClaims() }

// sotGrowthIdle is the planted fault's idle rounds: n/4 − 1 of every n/4.
func sotGrowthIdle(n int) int { return n / 4 }

func sotGrowthClaims() {
	for _, alg := range sotCompleting {
		schedNote := sotForScheduled(alg, " Figure 5's caption says 'greedy routing': Algorithm 2 is outside it (class beyond); its cost at h = Ω(n log n) is §4.3's claim (sot/sec4.3/whp-n-plus-ch, …/far-above-nlogn).")
		props.Register(props.Claim{ID: fmt.Sprintf("sot/fig5/%s/cost-bounded-in-n", alg), Source: seed002 + " §3.3 Figure 5 with §3's goal", Kind: props.Statistical, Recorded: sotGrowthRecorded(alg), Class: sotGrowthClass(alg),
			Mem:       props.MemEstimate{Small: 64 << 20, Default: 64 << 20, Large: 256 << 20},
			Statement: "Figure 5: h = n log n gives quite good efficiency results — read with §3's goal (route n log n packets per processor in O(n log n) time) in the one form finite n can refute: the cost T/h at h = n·log₂ n grows more slowly than log₂ n (the statement said 'does not grow with n' until 2026-11-25, which the check never tested).",
			Scope:     fmt.Sprintf("%s on random h-relations, h = n·log₂ n, the runs of sot/fig5/%s/quite-good (n ∈ %v small; see there for default and large); checked as: the cost ratio between the smallest and the largest n is not at least log₂ n_max/log₂ n_min (a cost growing like log n, time n·log² n)", alg, alg, sotFig5Sizes(props.Small, alg)),
			Notes:     "Added after review (2026-11-24): the quite-good claim's threshold had no number in the text; §3 ties h = n log n to this goal. Boundedness cannot be confirmed at finite n; the check can only refute growth at least as fast as log₂ n (the next class above O(1)), a gauge fixed from that arithmetic before running: one Student-t test of log(cost(n_max)/cost(n_min)) against log(log₂ n_max/log₂ n_min), delta-method standard error, α = Alpha; consistent = significantly slower than log n, not a proof of boundedness. Planted fault: the same router idling n/4 − 1 of every n/4 rounds of n steps (props/sot.sotIdleRounds; every other round at n = 8, 7 of 8 at n = 32), which caps its injection rate at 4/n per step, so its cost grows at least like n (the growth of the printed Greedy-b, sot/sec5/conjecture/greedy-b). The first planted fault, fixed before the first run, idled log₂ n − 1 of every log₂ n rounds; it was not caught (cost ratio 1.90 for scheduled against the gauge 1.67, t = 3.6): a cost ∝ log n times a nearly flat one sits at the gauge by construction, so it cannot test a check whose boundary is log n; it was replaced by the n/4 mutant before any verdict was recorded (an n/8 variant, tried to cut the mutant's cost, was not caught for greedy-a and greedy-b-edge-first: idling 3 of 4 rounds at n = 32 caps the rate at 1/4 per step, cost ≥ 4, only just above the gauge). The mutant's runs are most of the claim's cost (the real runs are shared with the quite-good claim); any caught mutant must lengthen the runs at the largest n. sot/sec5/conjecture/… reports the growth exponent at every size." + sotGrowthNote(alg) + schedNote + " " + sotStudentNote,
			Check:     sotGrowthCheck(alg, nil, nil),
			Faults:    []props.Fault{{Name: "the router idles n/4 − 1 of every n/4 rounds (cost ∝ n)", Check: sotGrowthCheck(alg, sotGrowthIdle, nil)}}})
	}
}

// sotGrowthClass is sot/fig5/<alg>/cost-bounded-in-n's scope class:
// sotFigClass's, but beyond for the printed Greedy-b, whose growth is that
// of pseudo-code the paper's prose contradicts (see sotGrowthNote).
func sotGrowthClass(alg asot.Algorithm) props.ScopeClass {
	if alg == asot.GreedyB {
		return props.Beyond
	}
	return sotFigClass(alg)
}

// sotGrowthNote is what the first run found for alg (seed 20261122, the
// same at the small and default budgets).
func sotGrowthNote(alg asot.Algorithm) string {
	switch alg {
	case asot.GreedyB:
		return " Recorded inconsistent: the printed Greedy-b's cost grows from 2.1 at n = 8 to 3.2 at n = 16 (small; 48 runs, t = 10.7) and 6.1 at n = 32 (default; ratio 2.9 against 5/3, t = 28): faster than log n, like n (sot/sec5/conjecture/greedy-b); the text's edge-first reading stays flat. [2026-11-25, review] Class beyond (was reading): the growth is the printed pseudo-code's, which contradicts the paper's own prose (edge packets privileged; that disagreement is the erratum sot/sec4.2/greedy-b/fresh-throughput), and for Greedy-b the paper only believes h ∈ Ω(n log n) would be enough (§5); so this is not a second erratum of Figure 5 (a fresh reviewer's point)."
	case asot.GreedyC:
		return " Recorded inconclusive: greedy-c's cost rises from 1.78 to 2.35 between n = 8 and 32 (ratio 1.32, growth exponent 0.20 per doubling), below the gauge 5/3 but not significantly at α (t = −10.4, critical 11.1): the diagonal protocol loses fresh efficiency with n (sot/sec3.3/greedy-c/decreasing), so a growing cost is expected; no power is needed for an inconclusive verdict."
	}
	return " Recorded consistent: ratio between n = 8 and n = 32 well below log₂ 32/log₂ 8 = 5/3 (see the evidence); the planted fault is caught. [2026-11-25, review] A fresh reviewer pointed out that the statement ('does not grow with n') said more than the check tests: a cost a + b·log₂ n with a large intercept passes the ratio test, and the costs do rise (greedy-a 2.28 → 2.65 between n = 8 and 32 in these runs; `routecheck reproduce sot-fig5 --runs 10`: 2.06, 2.19, 2.62, 2.73, 2.74, 2.94 at n = 4 … 128, about +0.15 per doubling). The statement now says what is judged (slower than log₂ n); whether the cost is bounded is not decided here (sot/sec5/conjecture/… reports the growth exponents)."
}

// sotGrowthRecorded is the recorded verdict of
// sot/fig5/<alg>/cost-bounded-in-n (see the claim's notes).
func sotGrowthRecorded(alg asot.Algorithm) props.Verdict {
	switch alg {
	case asot.GreedyB:
		return props.Inconsistent
	case asot.GreedyC:
		return props.Inconclusive
	}
	return props.Consistent
}
