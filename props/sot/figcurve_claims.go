package sot

import (
	"fmt"
	"math/rand/v2"
	"strings"

	asot "routecheck/algos/sot"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	"routecheck/props"
)

// Issue 13 (audit, 2026-11-24): Figure 4 of 002_59e118519f43b14a.txt as a
// curve. sot/fig4/<alg>/approaches-fresh compares only h = n with h = 16n;
// these claims check the shape between them: at SOT(16) the routing cost
// T/h falls at every doubling of h ∈ {n, 2n, 4n, 8n, 16n}.
//
// Reading, fixed before the first run (the costs at h = n and 16n were
// known from the approaches-fresh claims): "falls as h grows" is read as a
// monotone curve — at each of the four doublings the mean cost is lower.
// One Welch statistic per doubling (conservative runs − 1 df, the ledger's
// convention) against the two-sided critical value at Alpha/4 (Bonferroni
// over the four doublings), used one direction at a time, so each direction
// has false-alarm rate Alpha/8 per doubling: consistent if every doubling
// lowers the cost significantly, inconsistent if some doubling raises it
// significantly, inconclusive otherwise.
//
// Planted fault (2026-11-25): a router that backs off with the load
// (sotCurveIdle), whose cost rises from 4n on. The two faults before it
// carried no information: the h order reversed (Welch's statistic is
// antisymmetric, so it was caught exactly when the claim was consistent)
// and the cost normalised by n (T/n rises whenever T(2h) > T(h), i.e. for
// every router that completes).
//
// Runs per h: 40 (small and default), 60 (large). The first 20 (60 at
// large) are the approaches-fresh claim's runs at h = n and 16n (one memo,
// sotCostRange). The count 40 was chosen after a pilot of the first 20
// runs at every h (same seed), where the doublings gave t = 6.9–23 against
// the critical 12.0 of 19 df (only greedy-c consistent): with 40 runs the
// critical value is 8.4 and the standard error √2 smaller.

// sotCurveSide is the torus side of the Figure 4 curve claims.
const sotCurveSide = 16

// sotCurveMultiples are the slacknesses h/n of the curve.
var sotCurveMultiples = []int{1, 2, 4, 8, 16}

// sotCurveRuns is the number of runs per h at budget b.
func sotCurveRuns(b props.Budget) int { return b.Pick(40, 40, 60) }

// sotCurveCosts returns T/h of runs 0 … runs − 1 of alg at (n, h), read
// from the memo of sotCostRuns: the first min(runs, shared) runs are the
// cell the approaches-fresh claim uses (shared = its run count), the rest a
// cell of their own.
func sotCurveCosts(env props.Env, alg asot.Algorithm, n, h, runs, shared int) ([]float64, string) {
	cut := min(runs, shared)
	var out []float64
	for _, c := range []*costMemoCell{sotCostRange(env, alg, n, h, 0, cut), sotCostRange(env, alg, n, h, cut, runs)} {
		if c.msg != "" {
			return nil, c.msg
		}
		for _, e := range c.eff {
			out = append(out, 1/e)
		}
	}
	return out, ""
}

// sotCurveIdle is the planted fault of sot/fig4/<alg>/cost-falls-with-h:
// a router that halves its injection rate at each doubling of h from 4n
// on (idles k − 1 of every k rounds of n steps, k = max(1, h/(2n)); a
// rate control that backs off with the load), so its cost per packet
// rises with h where the real router's falls.
func sotCurveIdle(n, h int) int { return max(1, h/(2*n)) }

// sotCurveIdleCosts returns T/h of runs 0 … runs − 1 of alg at (n, h)
// with the router idling as sotCurveIdle says (its own relations).
func sotCurveIdleCosts(env props.Env, alg asot.Algorithm, n, h, runs int) ([]float64, string) {
	return sotTaggedCosts(env, 0xf4c, alg, n, h, runs, " (idling router)", func(rel []perm.Pair, rng *rand.Rand) (asot.Result, error) {
		return asot.RouteIdle(alg, n, rel, rng, 0, sotCurveIdle(n, h))
	})
}

// sotCurveCheck is sot/fig4/<alg>/cost-falls-with-h's check; with idle
// (its planted fault) the router backs off with the load (sotCurveIdle).
func sotCurveCheck(alg asot.Algorithm, idle bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		n := sotCurveSide
		runs := sotCurveRuns(env.Budget)
		shared := sotFig4Runs(env.Budget) // the approaches-fresh claim's runs
		sums := make([]stats.Summary, len(sotCurveMultiples))
		for k, m := range sotCurveMultiples {
			c, msg := sotCurveCosts(env, alg, n, m*n, runs, shared)
			if idle {
				c, msg = sotCurveIdleCosts(env, alg, n, m*n, runs)
			}
			if msg != "" {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: msg}
			}
			sums[k] = stats.Summarize(c)
		}
		steps := len(sums) - 1
		crit := stats.T(props.Alpha/float64(steps), runs-1)
		verdict := props.Consistent
		var curve, tests []string
		for k, s := range sums {
			curve = append(curve, fmt.Sprintf("h=%dn %.3f (sd %.3f)", sotCurveMultiples[k], s.Mean, s.SD))
			if k == 0 {
				continue
			}
			z := stats.WelchZ(sums[k-1], s) // > 0: the cost falls from h/2 to h
			verdict = sotOneSided(verdict, z, crit)
			tests = append(tests, fmt.Sprintf("%dn→%dn t = %.1f", sotCurveMultiples[k-1], sotCurveMultiples[k], z))
		}
		router := "the router"
		if idle {
			router = "the router backing off with the load"
		}
		return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("%s on SOT(%d) (%s), %d runs per h, mean cost T/h: %s; falls at each doubling: %s (critical %.1f: two-sided at α = %.2g per doubling, so one-sided α = %.2g per doubling and direction; %d df)",
			alg, n, router, runs, strings.Join(curve, ", "), strings.Join(tests, ", "), crit, props.Alpha/float64(steps), props.Alpha/float64(2*steps), runs-1)}
	}
}

func init() { sotCurveClaims() }

func sotCurveClaims() {
	for _, alg := range sotCompleting {
		note := sotForScheduled(alg, " Figure 4's caption is 'the effect of slackness on the cost of greedy routing': Algorithm 2 is outside it (class beyond), as in sot/fig4/scheduled/approaches-fresh.")
		props.Register(props.Claim{ID: fmt.Sprintf("sot/fig4/%s/cost-falls-with-h", alg), Source: seed002 + " §3.3 Figure 4 (\"The effect of slackness on the cost of greedy routing\"; \"by increasing h, the efficiency of routing all packets approaches to the efficiency of routing fresh packets\")", Kind: props.Statistical, Recorded: props.Consistent, Class: sotFigClass(alg),
			Statement: "Figure 4 as a curve: the routing cost T/h falls as the slackness h grows — at every doubling of h from n to 16n.",
			Scope:     fmt.Sprintf("%s on random h-relations (algos/sot.RandomRelation, the relations of sot/fig4/%s/approaches-fresh), SOT(16), h ∈ {n, 2n, 4n, 8n, 16n}; 40 runs per h (small and default), 60 (large); fast engine (asot.RouteFast)", alg, alg),
			Notes:     "Issue 13 asks for Figures 4–5 as claims, not only plots; sot/fig4/…/approaches-fresh tests two points of the curve (h = n and 16n). Read as a monotone curve (fixed before the first run): one Welch test per doubling against the two-sided critical value at Alpha/4 (Bonferroni over the four doublings), i.e. one-sided Alpha/8 per doubling in each direction; consistent if every doubling lowers the mean cost significantly, inconsistent if one raises it significantly, inconclusive otherwise; the evidence gives the whole curve and every t. The figure itself is not in the extracted text (only its caption), hence class reading (beyond for Algorithm 2, see below). Planted fault (after review, fixed before running): the same runs with the cost normalised by n instead of h (T/n = (h/n)·T/h), which rises with h unless the per-packet cost halves at a doubling — predicted caught (inconsistent) for all five algorithms from the recorded curves, whose cost ratios per doubling are 0.54–0.94. It replaces the first fault, the h order reversed, which carried no information (Welch's statistic is antisymmetric, so it was caught exactly when the claim was consistent). Runs: the first 20 (60 at large) are the approaches-fresh claim's runs at h = n and 16n (one memo); 40 (small and default) was chosen after a pilot of the first 20 runs at every h (the same seed), whose doublings gave t = 6.9–23 against the critical 12.0 of 19 df (inconclusive for all but greedy-c); with 40 runs the critical value is 8.4. [2026-11-25, review] A fresh reviewer pointed out that the T/n fault is caught whatever the data (T/n rises whenever T(2h) > T(h), which holds for every router that completes), so it said nothing of the check's power. It is replaced by a router-level fault, written before running: the same router backing off with the load, idling h/2n − 1 of every h/2n rounds (no idling up to h = 2n, half the rounds at 4n, 3 of 4 at 8n, 7 of 8 at 16n; props/sot.sotCurveIdle, asot.RouteIdle), whose cost rises from 4n or 8n on; caught (inconsistent) for all five routers at the small budget. A real router's cost also falls partly by itself (the latency term (n − 1)/h), so this claim says the curve falls, not why." + sotCurveNote(alg) + note + " " + sotStudentNote,
			Check:     sotCurveCheck(alg, false),
			Faults:    []props.Fault{{Name: "a router that halves its injection rate at each doubling of h from 4n on (idles h/2n − 1 of every h/2n rounds)", Check: sotCurveCheck(alg, true)}}})
	}
}

// sotCurveNote is what the first run found for alg (seed 20261122; the
// small and default budgets run the same 40 runs per h).
func sotCurveNote(alg asot.Algorithm) string {
	found := map[asot.Algorithm]string{
		asot.GreedyA:          "4.79 → 3.32 → 2.49 → 2.11 → 1.84, smallest t = 11.9 (4n → 8n)",
		asot.GreedyB:          "6.84 → 3.87 → 3.19 → 2.87 → 2.69, smallest t = 11.8 (8n → 16n)",
		asot.GreedyBEdgeFirst: "4.37 → 2.56 → 1.77 → 1.28 → 1.05, smallest t = 14.2 (2n → 4n)",
		asot.GreedyC:          "5.12 → 2.79 → 2.06 → 1.69 → 1.51, smallest t = 19.6 (8n → 16n)",
		asot.Scheduled:        "4.98 → 3.68 → 2.74 → 2.11 → 1.78, smallest t = 10.8 (8n → 16n)",
	}
	return " Recorded consistent: the cost falls at every doubling, " + found[alg] + " against the critical 8.4; the router backing off with the load is caught (inconsistent; until 2026-11-25 the fault was the T/n curve)."
}
