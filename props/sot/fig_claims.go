package sot

import (
	"fmt"
	"math"
	"strings"
	"sync"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	"routecheck/props"
)

// Issue 13, step 1: Figures 4–5 of 002_59e118519f43b14a.txt as claims for
// every router (not only plots), and delivery beyond n ≤ 6.
//
// Readings fixed before any of these checks was run (the Figure 5
// threshold follows the ledger's existing reading of "about", not the data;
// the cost figures of `routecheck reproduce sot-fig5` and the notes of
// sot/sec4.2/greedy-a/cost-e-over-e-minus-1 were known when it was fixed,
// which is why it is tied to a convention fixed earlier and not chosen):
//   - efficiency of a run is h/T (packets per processor and time unit, the
//     inverse of the routing cost T/h); fresh efficiency is the throughput
//     of the first round of fresh packets (algos/sot.FreshWaves, what
//     Figure 3 plots), measured for the same router at the same n; for
//     Algorithm 2 it is 1 by construction (every injected packet arrives
//     undeflected, sot/alg-2/no-deflections, one injection per step);
//   - Figure 4, "by increasing h, the efficiency of routing all packets
//     approaches to the efficiency of routing fresh packets": the distance
//     |E(h) − E_fresh| is significantly smaller at h = 16n (the largest h
//     of our Figure 4) than at h = n;
//   - Figure 5, "h = n log n gives quite good efficiency results": the
//     sentence opens with "Indeed", as the confirmation of Figure 4's, so
//     "quite good" is read as "close to the fresh efficiency", and "close"
//     as the ledger's ±10 % reading of "about". [2026-11-24, review] The
//     first version compared h/T with E_fresh, which no router can meet:
//     every packet needs n hops (Lemma 1), so even a router that delivers
//     at its fresh rate from the first step has T ≥ h/E_fresh + n − 1,
//     while E_fresh (a per-wave throughput) carries no latency; for
//     Algorithm 2 h/T ≤ h/(h + n − 1) = 0.77, 0.81, 0.84 at n = 8, 16, 32.
//     The comparison is now latency-corrected, fixed from that arithmetic
//     before the corrected checks were run: E' = h/(T − n + 1) ≥
//     0.9·E_fresh, which a router that delivers at its fresh rate reaches
//     (E' = E_fresh; E' = 1 for a perfect Algorithm 2). The ratio
//     E'/E_fresh is reported, so a reader with a looser reading can apply
//     it to the evidence.

// costMemo caches the per-run efficiencies of one (router, n, h) cell:
// a claim and its planted fault judge the same runs.
type costMemoKey struct {
	seed       uint64
	alg        asot.Algorithm
	n, h, runs int
	from       int // the first run of the cell (0 but for sotCostRange)
}

type costMemoCell struct {
	once  sync.Once
	eff   []float64 // h/T per run
	steps []int     // T per run
	msg   string    // non-empty: a run failed (error or incomplete)
}

var costMemo sync.Map

// sotEfficiencies routes runs random h-relations (algos/sot.RandomRelation)
// on SOT(n) with alg and returns h/T per run; msg is non-empty if a run
// returned an error or did not deliver every packet within the default cap.
// Relation r is the same for every router (common random numbers).
func sotEfficiencies(env props.Env, alg asot.Algorithm, n, h, runs int) ([]float64, string) {
	c := sotCostRuns(env, alg, n, h, runs)
	return c.eff, c.msg
}

// sotLatencyFreeEfficiencies is sotEfficiencies with Lemma 1's latency
// taken out: h/(T − n + 1) per run (T ≥ n for any packet, so the
// denominator is ≥ 1).
func sotLatencyFreeEfficiencies(env props.Env, alg asot.Algorithm, n, h, runs int) ([]float64, string) {
	c := sotCostRuns(env, alg, n, h, runs)
	if c.msg != "" {
		return nil, c.msg
	}
	out := make([]float64, len(c.steps))
	for i, T := range c.steps {
		out[i] = float64(h) / float64(T-n+1)
	}
	return out, ""
}

// sotCostRuns is the memoized cell behind sotEfficiencies: runs 0 … runs − 1.
func sotCostRuns(env props.Env, alg asot.Algorithm, n, h, runs int) *costMemoCell {
	return sotCostRange(env, alg, n, h, 0, runs)
}

// sotCostRange is the memoized cell of runs from … to − 1 (run r's relation
// and coins depend on r alone, so a range is a part of any longer cell
// that contains it).
func sotCostRange(env props.Env, alg asot.Algorithm, n, h, from, to int) *costMemoCell {
	v, _ := costMemo.LoadOrStore(costMemoKey{seed: env.Seed, alg: alg, n: n, h: h, runs: to, from: from}, &costMemoCell{})
	c := v.(*costMemoCell)
	c.once.Do(func() {
		for r := from; r < to; r++ {
			rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0xf45, uint64(n), uint64(h), uint64(r)))
			// The fast engine: asot.Route's result (tested in algos/sot).
			res, err := asot.RouteFast(alg, n, rel, seeds.Rand(env.Seed, 0xf45, uint64(n), uint64(h), uint64(r), 1), 0)
			if err != nil || !res.Complete {
				c.msg = fmt.Sprintf("%s n=%d h=%d run %d: error %v, %+v", alg, n, h, r, err, res)
				return
			}
			c.eff = append(c.eff, float64(h)/float64(res.Steps))
			c.steps = append(c.steps, res.Steps)
		}
	})
	return c
}

type freshMemoKey struct {
	seed    uint64
	alg     asot.Algorithm
	n, runs int
}

type freshMemoCell struct {
	once sync.Once
	st   sotFreshStat
	err  error
}

var freshMemo sync.Map

// sotFreshEff is the fresh efficiency of alg on SOT(n) (mean and standard
// error over the waves of runs FreshWaves runs); 1 with no error for
// Algorithm 2 (see the readings above).
func sotFreshEff(env props.Env, alg asot.Algorithm, n, runs int) (sotFreshStat, error) {
	if alg == asot.Scheduled {
		return sotFreshStat{n: n, mean: 1}, nil
	}
	v, _ := freshMemo.LoadOrStore(freshMemoKey{seed: env.Seed, alg: alg, n: n, runs: runs}, &freshMemoCell{})
	c := v.(*freshMemoCell)
	c.once.Do(func() { c.st, c.err = sotFresh(env, 0xf4f, alg, n, runs) })
	return c.st, c.err
}

// sotFreshRuns is the number of FreshWaves runs at n (about 800 waves).
func sotFreshRuns(n int) int { return max(4, 800/n) }

// sotAgainstFresh is the size loop of the Figure 4 and 5 claims: for each n
// of ns it takes alg's fresh efficiency on SOT(n) (sotFreshEff over
// sotFreshRuns(n) runs) and lets size compare the runs at n with it; size
// returns the one-sided statistic z, its critical value crit, the size's
// evidence line, or msg ≠ "" when a run could not be made. The verdict
// starts consistent and is folded by sotOneSided over the sizes. A
// non-empty msg (or the fresh runs' error) stops the loop: the caller
// reports it as inconclusive.
func sotAgainstFresh(env props.Env, alg asot.Algorithm, ns []int, size func(n int, f sotFreshStat) (z, crit float64, line, msg string)) (verdict props.Verdict, ev []string, msg string) {
	verdict = props.Consistent
	for _, n := range ns {
		f, err := sotFreshEff(env, alg, n, sotFreshRuns(n))
		if err != nil {
			return verdict, ev, err.Error()
		}
		z, crit, line, msg := size(n, f)
		if msg != "" {
			return verdict, ev, msg
		}
		ev = append(ev, line)
		verdict = sotOneSided(verdict, z, crit)
	}
	return verdict, ev, ""
}

// sotFig4Check is the test sot/fig4/<alg>/approaches-fresh reports (it no
// longer judges by it: props.NotJudged): is the gap to the fresh
// efficiency significantly smaller at h = 16n than at h = n? (Its planted
// fault, the two slacknesses swapped, was dropped on 2026-11-25: it negated
// the statistic.)
func sotFig4Check(alg asot.Algorithm) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := sotFig4Sizes(env.Budget, alg)
		runs := sotFig4Runs(env.Budget)
		tc := stats.T(props.Alpha/float64(len(ns)), runs-1)
		verdict, ev, msg := sotAgainstFresh(env, alg, ns, func(n int, f sotFreshStat) (float64, float64, string, string) {
			lo, hi := n, 16*n
			var gaps [2]stats.Summary
			var effs [2]float64
			for k, h := range []int{lo, hi} {
				e, msg := sotEfficiencies(env, alg, n, h, runs)
				if msg != "" {
					return 0, 0, "", msg
				}
				g := make([]float64, len(e))
				for i, x := range e {
					g[i] = math.Abs(x - f.mean)
				}
				gaps[k] = stats.Summarize(g)
				effs[k] = stats.Summarize(e).Mean
			}
			// |E − E_fresh| per run against the fresh mean; the fresh
			// mean's own error is common to both sides and is added to
			// the spread (conservative).
			z := (gaps[0].Mean - gaps[1].Mean) / math.Sqrt(gaps[0].SD*gaps[0].SD/float64(runs)+gaps[1].SD*gaps[1].SD/float64(runs)+2*f.se*f.se)
			return z, tc, fmt.Sprintf("n=%d: E_fresh = %.4f; E(h=%d) = %.4f (gap %.4f), E(h=%d) = %.4f (gap %.4f, %.0f%% of fresh); gap shrinks with t = %.1f (critical %.1f)",
				n, f.mean, lo, effs[0], gaps[0].Mean, hi, effs[1], gaps[1].Mean, 100*effs[1]/f.mean, z, tc), ""
		})
		if msg != "" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: msg}
		}
		return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("%s, %d runs per h, α = %.2g per size, Student-t (runs − 1 df): %s", alg, runs, props.Alpha/float64(len(ns)), strings.Join(ev, "; "))}
	}
}

// sotFig4Runs is the number of runs per h of the approaches-fresh claims.
func sotFig4Runs(b props.Budget) int { return b.Pick(20, 20, 60) }

// sotFig4Sizes are the torus sides of the Figure 4 claims: 16, and 32 at
// the default budget except for greedy-b (one of its runs at h = 16·32 is
// ≈ 3·10^6 node-steps; large adds it).
func sotFig4Sizes(b props.Budget, alg asot.Algorithm) []int {
	if b == props.Large || (b == props.Default && alg != asot.GreedyB) {
		return []int{16, 32}
	}
	return []int{16}
}

// sotFig5Sizes are the torus sides of the Figure 5 claims (greedy-b, whose
// cost grows like n/5, stops at 16 at the small budget and 32 otherwise;
// the others run 8, 16, 32 and add 64 at the large budget, where one run is
// ≈ 4·10^6 node-steps).
func sotFig5Sizes(b props.Budget, alg asot.Algorithm) []int {
	if alg == asot.GreedyB {
		if b >= props.Default {
			return []int{8, 16, 32}
		}
		return []int{8, 16}
	}
	ns := []int{8, 16, 32}
	if b == props.Large {
		ns = append(ns, 64)
	}
	return ns
}

// sotFig5Check is the test sot/fig5/<alg>/quite-good reports without a
// verdict (props.NotJudged), with the threshold frac (0.9, the ±10 %
// convention; its planted fault, 1.05, was dropped on 2026-11-25): at
// h = n·log₂ n, the
// latency-corrected efficiency E' = h/(T − n + 1) ≥ frac·E_fresh at every
// size. Inconsistent when some size's statistic is
// significantly below, consistent when every size's is significantly
// above.
func sotFig5Check(alg asot.Algorithm, frac float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := sotFig5Sizes(env.Budget, alg)
		runs := sotFig5BaseRuns(env.Budget, alg)
		verdict, ev, msg := sotAgainstFresh(env, alg, ns, func(n int, f sotFreshStat) (float64, float64, string, string) {
			h := n * sotLog2(n)
			e, msg := sotLatencyFreeEfficiencies(env, alg, n, h, sotFig5Runs(n, runs))
			if msg != "" {
				return 0, 0, "", msg
			}
			raw, _ := sotEfficiencies(env, alg, n, h, sotFig5Runs(n, runs))
			st := stats.Summarize(e)
			z := (st.Mean - frac*f.mean) / math.Sqrt(st.SD*st.SD/float64(st.N)+frac*frac*f.se*f.se)
			tcn := stats.T(props.Alpha/float64(len(ns)), st.N-1)
			return z, tcn, fmt.Sprintf("n=%d h=%d: E' = h/(T−n+1) = %.4f (h/T = %.4f, cost %.3f, %d runs), E_fresh = %.4f (cost %.3f): E'/E_fresh = %.3f; t = %.1f against %.2f·E_fresh (critical %.1f)",
				n, h, st.Mean, stats.Summarize(raw).Mean, 1/stats.Summarize(raw).Mean, st.N, f.mean, 1/f.mean, st.Mean/f.mean, z, frac, tcn), ""
		})
		if msg != "" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: msg}
		}
		return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("%s, threshold E' = h/(T − n + 1) ≥ %.2f·E_fresh at h = n·log₂ n, α = %.2g per size: %s", alg, frac, props.Alpha/float64(len(ns)), strings.Join(ev, "; "))}
	}
}

// sotFig5BaseRuns is the number of runs per size of the Figure 5 claims:
// 20 at the small and default budgets, 40 at large. Raised at review
// (2026-11-24) from 16 at small, so that the small budget runs the default
// budget's relations at n ≤ 32 (the relation of run r does not depend on
// the run count) and reaches its verdicts.
func sotFig5BaseRuns(b props.Budget, alg asot.Algorithm) int {
	return b.Pick(20, 20, 40)
}

// sotFig5Runs is the number of runs at n: fewer at n = 64, where one
// greedy run is ≈ 4·10^6 node-steps.
func sotFig5Runs(n, runs int) int {
	if n >= 64 {
		return max(8, runs/2)
	}
	return runs
}

// sotCompletesLargeCase is one family and size of the delivery claims
// beyond n ≤ 6.
type sotCompletesLargeCase struct {
	n, h   int
	family string // "h-relation" (RandomRelation) or "random-targets" (RandomTargets, self included)
}

func sotCompletesLargeCases(b props.Budget) []sotCompletesLargeCase {
	var cs []sotCompletesLargeCase
	sizes := [][2]int{{8, 8}, {8, 24}, {16, 16}, {16, 64}, {32, 32}}
	if b >= props.Default {
		sizes = append(sizes, [2]int{32, 160}, [2]int{64, 64})
	}
	for _, s := range sizes {
		for _, fam := range []string{"h-relation", "random-targets"} {
			cs = append(cs, sotCompletesLargeCase{s[0], s[1], fam})
		}
	}
	return cs
}

// sotCompletesLargeCheck is sot/alg/<alg>/completes-large's check, the
// router's actions rewritten by tamper (nil: the real router).
func sotCompletesLargeCheck(alg asot.Algorithm, tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := env.Budget.Pick(1, 2, 4)
		worst := 0.0
		count, maxN := 0, 0
		for _, c := range sotCompletesLargeCases(env.Budget) {
			maxN = max(maxN, c.n)
			for r := range runs {
				rng := seeds.Rand(env.Seed, 0xc1a, uint64(c.n), uint64(c.h), uint64(len(c.family)), uint64(r))
				var rel []perm.Pair
				if c.family == "h-relation" {
					rel = asot.RandomRelation(c.n, c.h, rng)
				} else {
					rel = asot.RandomTargets(c.n, c.h, false, rng)
				}
				seed := seeds.Derive(env.Seed, 0xc1b, uint64(c.n), uint64(c.h), uint64(len(c.family)), uint64(r))
				res, _, err := asot.Route(alg, c.n, rel, seeds.Rand(seed), asot.Options{Tamper: tamper})
				count++
				if err != nil || !res.Complete {
					return props.Outcome{Verdict: props.Violated,
						Evidence:       fmt.Sprintf("%s on SOT(%d), %s with h = %d (run %d): %d of %d delivered after %d steps (cap %d), error %v", alg, c.n, c.family, c.h, r, res.Delivered, len(rel), res.Steps, asot.DefaultMaxSteps(c.n, len(rel)), err),
						Counterexample: map[string]any{"n": c.n, "h": c.h, "family": c.family, "run": r, "algorithm": alg, "delivered": res.Delivered, "packets": len(rel)}}
				}
				worst = math.Max(worst, float64(res.Steps)/float64(asot.DefaultMaxSteps(c.n, len(rel))))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random relations on SOT(8…%d) all delivered; worst steps / DefaultMaxSteps = %.3f", count, maxN, worst), Slack: props.SlackOf(worst, 1)}
	}
}

// sotFigClass is the class of the Figure 4–5 claims but
// sot/fig4/…/approaches-fresh (review, 2026-11-24): the figures' captions
// say "greedy routing", so Algorithm 2 is beyond them; for the greedy
// routers the comparison with fresh efficiency is one reading of text
// with no number.
func sotFigClass(alg asot.Algorithm) props.ScopeClass {
	if alg == asot.Scheduled {
		return props.Beyond
	}
	return props.Reading
}

// sotForScheduled is note for Algorithm 2 (asot.Scheduled) and "" for the
// greedy routers: what a Figure 4–5 claim's notes add for the router the
// figures' captions leave out.
func sotForScheduled(alg asot.Algorithm, note string) string {
	if alg == asot.Scheduled {
		return note
	}
	return ""
}

func init() { sotFigClaims() }

func sotFigClaims() {
	fig4Class := func(alg asot.Algorithm) props.ScopeClass {
		if alg == asot.Scheduled {
			return props.Beyond
		}
		return props.Reading // greedy-c too since 2026-11-25: Figure 4 is not in the text (as for Figure 5)
	}
	for _, alg := range sotCompleting {
		fig4Note := sotForScheduled(alg, " [2026-11-24, review] Class beyond (was reading): Figure 4's caption is 'the effect of slackness on the cost of greedy routing'; Algorithm 2 is outside it. Verdict unchanged.") +
			" [2026-11-25, review] Recorded inconclusive (was consistent): the check is weaker than the statement — the gap to E_fresh shrinks between h = n and 16n for any router whose per-packet cost does not grow with h (E = h/(h/r + n − 1) rises towards its own steady rate r, whatever r is), so it does not test that the limit is E_fresh — and its planted fault, the two slacknesses swapped, negates the test statistic, so it was caught exactly when the check said consistent and carried no power (as sot/fig-curve's notes had said of the reversed order). A test of the limit would compare the latency-corrected gap (as sot/fig5/…) against a fixed fraction; not done. The figures stay in the evidence. Class reading for greedy-c too (was paper): the figure is not in the text."
		props.Register(props.Claim{ID: fmt.Sprintf("sot/fig4/%s/approaches-fresh", alg), Source: seed002 + " §3.3 Figure 4", Kind: props.Statistical, Recorded: props.Inconclusive, Class: fig4Class(alg),
			Statement: "By increasing h, the efficiency of routing all packets approaches the efficiency of routing fresh packets.",
			Scope:     fmt.Sprintf("%s on random h-relations (h random permutations, random order), SOT(16) (small; + SOT(32) default, except greedy-b: large only); h = n against h = 16n (Figure 4's range is h = 1…16n); 20 runs per h (60 large); efficiency E = h/T, E_fresh measured by FreshWaves for the same router and n (1 for Algorithm 2)", alg),
			Notes:     "Read as: the distance |E(h) − E_fresh| is significantly smaller at h = 16n than at h = n (one test per n, Student-t with runs − 1 df, α = Alpha/sizes; inconsistent if it is significantly larger, inconclusive if neither). The evidence reports E(16n) as a percentage of the fresh efficiency: approaching is not reaching (see sot/fig5/…/quite-good). [2026-11-24] Planted fault, fixed before running, the rule of sot/sec3.3/greedy-c/decreasing: the same measurements with the two slacknesses swapped (efficiency moving away from the fresh one as h grows)." + fig4Note + " " + sotStudentNote,
			Check:     props.NotJudged("a shrinking gap between h = n and 16n follows from latency amortisation for any steady rate (see notes)", sotFig4Check(alg))})
	}
	for _, alg := range sotCompleting {
		schedNote := sotForScheduled(alg, " Figure 5's caption says 'greedy routing': Algorithm 2, whose nodes act as in Greedy-a, is included so that every router has the claim (issue 13), class beyond (review, 2026-11-24; was reading), with its fresh efficiency 1 by construction (every injection arrives undeflected).")
		verdictNote := " Verdict unchanged (inconsistent) under the corrected comparison."
		if alg == asot.GreedyB {
			verdictNote = " Verdict changed from inconsistent to inconclusive by the latency correction: E'/E_fresh = 0.72, 0.79, 0.82 at n = 8, 16, 32 (default; h/T gave 0.62–0.79), below 0.9 at every size but not significantly at α with 20 runs (t = −10.4, −7.7, −6.1; critical 11.8); its cost growth is sot/fig5/greedy-b/cost-bounded-in-n (inconsistent)."
		}
		verdictNote += " [2026-11-25, review] Recorded inconclusive for every router (greedy-a, greedy-b-edge-first, greedy-c and scheduled were inconsistent): the sentence gives no number and Figure 5 is not in the text, so 'quite good' cannot be judged; the 0.9 threshold is our convention, fixed when the costs were already known, and a fair reader could call E'/E_fresh ≈ 0.65 quite good, so an inconsistent verdict on it was not an erratum of the paper (a fresh reviewer's point). The check still reports E'/E_fresh at every n and, for reference, what the 0.9 convention's test gives; the checkable reading, §3's goal, is sot/fig5/…/cost-bounded-in-n."
		props.Register(props.Claim{ID: fmt.Sprintf("sot/fig5/%s/quite-good", alg), Source: seed002 + " §3.3 Figure 5", Kind: props.Statistical, Recorded: props.Inconclusive, Class: sotFigClass(alg),
			Statement: "Figure 5 shows that h = n log n gives quite good efficiency results (for greedy routing).",
			Scope:     fmt.Sprintf("%s, h = n·log₂ n, random h-relations, n ∈ %v (small; greedy-b: {8, 16} small, + 32 default; the others add 64 at large); 20 runs per n (small and default), 40 (large; 20 at n = 64); 'quite good' read as: the latency-corrected efficiency h/(T − n + 1) ≥ 0.9 × the fresh efficiency of the same router at the same n", alg, sotFig5Sizes(props.Small, alg)),
			Notes:     "The sentence gives no number. The threshold is the ledger's ±10% reading of 'about', applied because the sentence opens with 'Indeed', as the confirmation of Figure 4's ('efficiency approaches the efficiency of fresh packets'); it is a convention borrowed from the ledger, not a number of the text (the costs at h = n log₂ n were known from `routecheck reproduce sot-fig5` when it was fixed). The evidence reports E'/E_fresh at every n, so a looser reading of 'quite good' can be applied to it; §3's goal, the other reading, is sot/fig5/…/cost-bounded-in-n. One test per n (Student-t, runs − 1 df, the fresh mean's standard error added), α = Alpha/sizes; inconsistent if some n is significantly below the threshold. [2026-11-24] Planted fault, fixed before running, the rule of the band claims (sotFreshBandFaults): the threshold shifted by the tolerance plus 5% (1.05·E_fresh). [2026-11-24, review] The first version compared h/T with E_fresh, a threshold no router can meet: every packet needs n hops (Lemma 1) while E_fresh, a per-wave throughput, carries no latency, so even a router delivering at its fresh rate from the first step has T ≥ h/E_fresh + n − 1 (for Algorithm 2, h/T ≤ h/(h + n − 1) = 0.77, 0.81, 0.84 at n = 8, 16, 32). The check now compares E' = h/(T − n + 1), fixed from that arithmetic before the corrected check was run (E' = E_fresh for a router at its fresh rate, 1 for a perfect Algorithm 2); class reading (was paper for greedy-c: the text has no number); runs at small 20 (was 16), the default's relations." + verdictNote + schedNote + " " + sotStudentNote,
			Check:     props.NotJudged("the sentence gives no number and Figure 5 is not in the text (see notes); the test reported is the ±10 % convention's, E' ≥ 0.9·E_fresh", sotFig5Check(alg, 0.9))})
	}
	for _, alg := range sotCompleting {
		faults := []props.Fault{{Name: "the two nodes in front of P_0 deflect every packet for P_0 away from it", Check: sotCompletesLargeCheck(alg, sotShutP0)}}
		literal := ""
		if alg == asot.GreedyA {
			faults = append(faults, sotLiteralFault(sotCompletesLargeCheck))
			literal = " [2026-11-25, review] A second fault: the pseudo-code's Greedy-a (greedy-a-literal) in its place, which livelocks only under contention: caught at SOT(8), h = 8 (14 of 64 delivered by the cap); its livelock was known (sot/alg-1/greedy-a-literal/random-4-relation), so it is the next-coarsest fault, not a near miss."
		}
		props.Register(props.Claim{ID: fmt.Sprintf("sot/alg/%s/completes-large", alg), Source: seed002 + " §3.1–3.2 (the algorithms route every packet)", Kind: props.Bound, Recorded: props.Holds, Class: props.Reading, // greedy-c too since 2026-11-25, as sot/alg/greedy-c/completes: no sentence says it delivers every packet
			Statement: "The algorithm delivers every packet (beyond the n ≤ 6 of sot/alg/…/completes).",
			Scope:     fmt.Sprintf("%s on SOT(n), (n, h) ∈ {(8, 8), (8, 24), (16, 16), (16, 64), (32, 32)} (small; default adds (32, 160), (64, 64)), two families each — random h-relations and h random targets per processor (self included, receivers unbalanced); 1 run per case (2 default, 4 large); delivered within algos/sot.DefaultMaxSteps = 64·n·(K/n + 2)", alg),
			Notes:     "The paper proves no termination bound; Slack is the largest steps / DefaultMaxSteps. Issue 13 asked for delivery beyond n ≤ 6 (sot/alg/…/completes checks arbitrary relations there). [2026-11-24] Planted fault, fixed before running: props/sot.sotShutP0, the two nodes in front of P_0 deflect every packet for P_0 away from it (a legal livelock; the one fault of sot/alg/…/completes that every router's check catches there, so it is the one written for this checker)." + literal,
			Check:     sotCompletesLargeCheck(alg, nil),
			Faults:    faults})
	}
}
