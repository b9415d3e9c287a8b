package bfly

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"

	"routecheck/internal/bflyexp"
	"routecheck/props"

	"gonum.org/v1/gonum/stat"
)

// §4.3 on the paper's grid (issue 12): "similar experiments were run for
// networks of size 1K, 2K, and 8K. When the data … is fitted as a function
// of n, r, p, p/2^r and np/2^r, …" — the six-term refit needs cells at two
// or more N (at one N the intercept and n terms, and the p/2^r and np/2^r
// terms, are collinear), which the N = 2^10 refit claims (refit_claims.go)
// cannot give. The grid claims refit all six coefficients with standard
// errors from the runs' pure error and judge the printed vector by
// bflyexp.PrintedTest's two F tests; the lack-of-fit claims judge the
// linear form itself against the same pure error (bflyexp.OLSFit.LackOfFit:
// the refit's own residual spread made a test).
//
// Grid per budget (gridCells), every cell a mean of simRuns runs through
// simCell, so the N = 2^10 cells are the ones the §4 fit and refit claims
// already run (same seeds, same cache):
//
//   - small: N = 2^10 with p ∈ {1, 10, 20}, N = 2^11 with p ∈ {1, 10};
//     r ∈ {0, 2, …, 10}; 8 runs;
//   - default (defined, not run: gridNotAtDefault): N = 2^10 with p ∈ {1,
//     10, 20, 50}, N = 2^11 with p ∈ {1, 10};
//     r ∈ {0, 2, …, 10}; 10 runs;
//   - large: the paper's grid, N = 2^10 … 2^13, p ∈ {1, 10, 20, 50, 100,
//     200}, r = 0 … min(12, n), 10 runs (the paper's 10): 294 cells a
//     reading. One run of the whole grid measured 163 CPU s (strict) and
//     156 CPU s (pipelined) on 2026-11-24 (user + sys, one worker), so
//     ≈ 27 and 26 CPU minutes a reading at 10 runs, shared by that
//     reading's four claims (Shares), ≈ 53 CPU minutes in all.

// gridCell is one (n, r, p) cell of the grid claims.
type gridCell struct{ n, r, p int }

// gridCells is the grid of the §4.3 grid claims at budget b.
func gridCells(b props.Budget) []gridCell {
	var cs []gridCell
	if b == props.Large {
		for n := 10; n <= 13; n++ {
			for _, p := range bflyexp.Ps {
				for r := 0; r <= min(12, n); r++ {
					cs = append(cs, gridCell{n, r, p})
				}
			}
		}
		return cs
	}
	// At N = 2^11, p ∈ {1, 10}: below large the refit is not judged
	// (gridRefitCheck), so the second N is there to identify the six terms
	// and report them, which p ∈ {1, 10} does (TestGridIdentifiesSixTerms).
	// The default budget's grid is defined the same way but not run
	// (gridNotAtDefault).
	ps := map[int][]int{10: simGridP(b), 11: {1, 10}}
	for _, n := range []int{10, 11} {
		for _, p := range ps[n] {
			for _, r := range simGridR {
				cs = append(cs, gridCell{n, r, p})
			}
		}
	}
	return cs
}

// gridScope describes gridCells for the claims' scope.
const gridScope = "grid: small N = 2^10 with p ∈ {1, 10, 20} and N = 2^11 with p ∈ {1, 10}, r ∈ {0, 2, …, 10}, 8 runs; default: not simulated (judged only at large; small shows the refit); large the paper's grid, N = 2^10…2^13, p ∈ {1, 10, 20, 50, 100, 200}, r = 0…min(12, n), 10 runs (≈ 27 CPU minutes a reading, shared by its four grid claims); r ≤ min(12, n) is our reading of the grid: the paper states r = 0…12 for 4K only ('similar experiments' for 1K, 2K, 8K) and our model refuses r > n, so N = 1K and 2K lose r = 11–12"

// gridMeans runs (or recalls) the grid's cells of one reading and returns
// their means of the average or maximum latency.
//
// At the default budget it simulates nothing and returns errNotAtDefault,
// which both checks report as their inconclusive outcome.
func gridMeans(env props.Env, reading, which string) ([]gridCell, []bflyexp.CellMean, int, error) {
	if env.Budget == props.Default {
		return nil, nil, 0, errNotAtDefault
	}
	runs := simRuns(env.Budget)
	cs := gridCells(env.Budget)
	out := make([]bflyexp.CellMean, len(cs))
	for i, c := range cs {
		v, err := simCell(reading, c.n, c.r, c.p, env.Seed, runs)
		if err != nil {
			return nil, nil, 0, err
		}
		s := v.avg
		if which == "maximum" {
			s = v.max
		}
		if s.N != runs {
			return nil, nil, 0, fmt.Errorf("cell n = %d, r = %d, p = %d has %d runs, want %d", c.n, c.r, c.p, s.N, runs)
		}
		out[i] = bflyexp.CellMean{X: bflyexp.Regress(c.n, c.r, c.p), Mean: s.Mean, SD: s.SD}
	}
	return cs, out, runs, nil
}

// gridNotAtDefault is the grid claims' outcome at the default budget,
// which does not simulate the grid: below large the refit is not judged
// (gridRefitCheck) and the lack of fit cannot be rejected (gridLOFNotes),
// so at default the grid's N = 2^11 cells (≈ 3.5 CPU s of the main job)
// bought evidence only; the small budget shows the refit and both tests on
// two N, and large judges them on the paper's grid.
var (
	errNotAtDefault  = errors.New("not simulated at budget default: the grid-refit claims are judged only at --budget large, on the paper's grid, and the lack-of-fit claims cannot reject below it (see the notes); --budget small shows the six-term refit and both tests on N = 2^10 and 2^11")
	gridNotAtDefault = props.Outcome{Verdict: props.Inconclusive, Evidence: errNotAtDefault.Error()}
)

// gridDesc is the evidence's one-line description of the grid.
func gridDesc(cs []gridCell, runs int) string {
	ns := map[int]int{}
	var order []int
	for _, c := range cs {
		if ns[c.n] == 0 {
			order = append(order, c.n)
		}
		ns[c.n]++
	}
	var parts []string
	for _, n := range order {
		parts = append(parts, fmt.Sprintf("2^%d: %d", n, ns[n]))
	}
	return fmt.Sprintf("%d cells (by N, %s) × %d runs", len(cs), strings.Join(parts, ", "), runs)
}

func printedOf(which string) []float64 {
	if which == "maximum" {
		return append([]float64(nil), bflyexp.PrintedMax...)
	}
	return append([]float64(nil), bflyexp.PrintedAvg...)
}

// gridRefitCheck refits the six coefficients on the grid and tests the
// printed vector against the runs' pure error (bflyexp.PrintedTest). With
// fault set the printed formula is raised by 5 % of the mean cell latency
// (the planted fault of the N = 2^10 refit claims, fixed before running).
// The verdict is drawn only at the large budget, on the paper's grid;
// below it the outcome is inconclusive whatever the tests say (the
// evidence still reports them at small), and the default budget does not
// simulate the grid (gridMeans, gridNotAtDefault).
func gridRefitCheck(which, reading string, fault bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		cs, cells, runs, err := gridMeans(env, reading, which)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		b0 := printedOf(which)
		if fault {
			b0[0] += 0.05 * meanOf(cells)
		}
		t, err := bflyexp.PrintedTest(cells, runs, b0)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "the six terms could not be refitted on this grid: " + err.Error()}
		}
		f := t.Fit
		var co []string
		for j, name := range bflyexp.Regressors {
			co = append(co, fmt.Sprintf("%s %.3f ± %.3f (printed %.2f, z = %.1f)", name, f.Coef[j], t.SEPure[j], b0[j], (f.Coef[j]-b0[j])/t.SEPure[j]))
		}
		ev := fmt.Sprintf("six-term refit, %s reading, %s latency, %s: %s (SE from pure error); pure-error SD of one run %.3g (cells %.3g–%.3g, df %d); residual SD of the refit's cell means %.3g against %.3g from pure error; RMS deviation of the printed formula %.3g; pooled F = %.4g on (6, %d), p = %.3g; conservative F (largest cell variance) = %.4g on (6, %d), p = %.3g (Alpha = %g)",
			reading, which, gridDesc(cs, runs), strings.Join(co, ", "), math.Sqrt(t.S2Pure), t.MinSD, t.MaxSD, t.DFPure, f.ResidSD(), math.Sqrt(t.S2Pure/float64(runs)), t.RMSPrinted, t.F, t.DFPure, t.P, t.FC, runs-1, t.PC, props.Alpha)
		if env.Budget != props.Large {
			// The form misfits our cells (bfly/sec4/lack-of-fit/*), so its
			// least-squares coefficients depend on the cells fitted: on
			// the small and default grids they are not the paper's grid's
			// (strict L_avg p coefficient 1.066 small, 0.886 default,
			// 0.732 on the paper's grid, printed 0.75). A rejection here
			// would measure our choice of grid, not the printed fit.
			verdict := "the conservative test would not reject"
			if t.PC <= props.Alpha {
				verdict = "the conservative test rejects"
			}
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("judged only at --budget large, on the paper's grid: below it the grid is ours, and since the linear form misfits our cells (bfly/sec4/lack-of-fit/*) the refitted coefficients depend on the grid, so a rejection here would not be evidence against the paper (%s at this budget). ", verdict) + ev}
		}
		switch {
		case t.PC <= props.Alpha:
			return props.Outcome{Verdict: props.Inconsistent, Evidence: "rejected by the conservative test: " + ev,
				Counterexample: map[string]any{"reading": reading, "which": which, "cells": len(cs), "runs": runs, "refit": f.Coef, "se_pure": t.SEPure, "printed": b0, "F_conservative": t.FC, "p_conservative": t.PC, "F_pooled": t.F, "p_pooled": t.P, "seed": env.Seed, "budget": env.Budget.String()}}
		case t.P <= props.Alpha:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "rejected by the pooled test only, which assumes equal cell variances (the cells' SDs differ as shown): " + ev}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: ev}
	}
}

// gridLackOfFitCheck tests the linear form of §4.3 itself on the grid:
// the six-term refit's residual variance against the runs' pure error
// (bflyexp.OLSFit.LackOfFit, pooled and conservative). With fault set
// every cell mean is raised by 5 % of the mean cell latency times
// (r/r_max)², a curvature in r outside the form's span (planted fault,
// fixed before running).
func gridLackOfFitCheck(which, reading string, fault bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		cs, cells, runs, err := gridMeans(env, reading, which)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		if fault {
			rmax, m := 0, meanOf(cells)
			for _, c := range cs {
				rmax = max(rmax, c.r)
			}
			for i, c := range cs {
				x := float64(c.r) / float64(rmax)
				cells[i].Mean += 0.05 * m * x * x
			}
		}
		t, err := bflyexp.PrintedTest(cells, runs, printedOf(which))
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "the six terms could not be refitted on this grid: " + err.Error()}
		}
		f := t.Fit
		worst, at := 0.0, ""
		for i, c := range cs {
			pred := 0.0
			for j, x := range cells[i].X {
				pred += f.Coef[j] * x
			}
			if d := cells[i].Mean - pred; math.Abs(d) > math.Abs(worst) {
				worst, at = d, fmt.Sprintf("N = 2^%d, r = %d, p = %d (mean %.2f)", c.n, c.r, c.p, cells[i].Mean)
			}
		}
		ev := fmt.Sprintf("linear form (1, n, p, p/2^r, np/2^r, r) refitted on the %s reading's %s latency, %s: residual SD of the cell means %.3g on %d df against %.3g from pure error (ratio %.2g; df %d); largest residual %+.3g at %s; lack-of-fit F pooled = %.4g on (%d, %d), p = %.3g; conservative F (largest cell variance, cell SDs %.3g–%.3g) = %.4g on (%d, %d), p = %.3g (Alpha = %g)",
			reading, which, gridDesc(cs, runs), f.ResidSD(), f.DF, math.Sqrt(t.S2Pure/float64(runs)), f.ResidSD()/math.Sqrt(t.S2Pure/float64(runs)), t.DFPure, worst, at, t.LF, f.DF, t.DFPure, t.LP, t.MinSD, t.MaxSD, t.LFC, f.DF, runs-1, t.LPC, props.Alpha)
		switch {
		case t.LPC <= props.Alpha:
			return props.Outcome{Verdict: props.Inconsistent, Evidence: "lack of fit, by the conservative test: " + ev,
				Counterexample: map[string]any{"reading": reading, "which": which, "cells": len(cs), "runs": runs, "refit": f.Coef, "resid_sd": f.ResidSD(), "pure_error_sd_of_mean": math.Sqrt(t.S2Pure / float64(runs)), "F_conservative": t.LFC, "p_conservative": t.LPC, "F_pooled": t.LF, "p_pooled": t.LP, "seed": env.Seed, "budget": env.Budget.String()}}
		case t.LP <= props.Alpha:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "lack of fit by the pooled test only, which assumes equal cell variances (the cells' SDs differ as shown): " + ev}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: ev}
	}
}

func meanOf(cells []bflyexp.CellMean) float64 {
	y := make([]float64, len(cells))
	for i, c := range cells {
		y[i] = c.Mean
	}
	return stat.Mean(y, nil)
}

// gridMem is the grid claims' memory estimate: at large a cell of N = 2^13
// and p = 200 (1.6 M packets) is ≈ 250 MiB of packets and engine a worker
// (bflyexp's BytesPerWorker), and simCell runs min(runs, GOMAXPROCS)
// workers at once; 320 MiB a worker leaves room (the strict reading's large
// run peaked at 663 MB RSS with 2 workers).
func gridMem() props.MemEstimate {
	w := int64(min(simRuns(props.Large), runtime.GOMAXPROCS(0)))
	return props.MemEstimate{Large: w*320*props.MiB + 64*props.MiB}
}

// onGrid is c as one of the claims judged on reading's grid (the refit
// and lack-of-fit claims of both latencies): they share its cells
// (Shares: the ledger never checks two of them at once), are slow in
// -short, and have the grid's memory estimate.
func onGrid(reading string, c props.Claim) props.Claim {
	c.SlowInShort, c.Shares, c.Mem = true, "bfly/sec4/grid/"+reading, gridMem()
	return c
}

func init() {
	for _, which := range []string{"average", "maximum"} {
		w := map[string]string{"average": "avg", "maximum": "max"}[which]
		for _, reading := range []string{"strict", "pipelined"} {
			key := w + "/" + reading
			g := gridFound[key]
			props.Register(onGrid(reading, props.Claim{ID: "bfly/sec4/grid-refit/" + key, Source: seed001 + " §4.3 (fitted latency formulas over N = 1K, 2K, 4K, 8K)", Kind: props.Statistical, Class: props.Reading,
				Recorded: g.refit, RecordedAt: g.refitAt,
				Statement: fmt.Sprintf("The printed %s-latency fit's six coefficients (1, n, p, p/2^r, np/2^r, r) are the least-squares coefficients of the same linear form on our cells over several N, within the runs' pure error.", which),
				Scope:     fmt.Sprintf("%s node-model reading; §3's priorities; %s. The six terms are refitted by least squares with standard errors from the runs' pure error; the printed vector is F-tested against pure error twice (bflyexp.PrintedTest): pooled (equal cell variances assumed) and conservative (largest cell variance, df = runs − 1; valid for unequal variances if the runs are normal, which the maximum latency's cells, SDs 0–227, need not be). At --budget large, on the paper's grid: inconsistent if the conservative test rejects at Alpha, inconclusive if only the pooled one does, consistent if neither (then the planted fault must be caught) — the rule of the N = 2^10 refit claims; below large, inconclusive whatever the tests say (the grid is ours and the refit depends on it)", reading, gridScope),
				Notes:     gridRefitNotes + " Found (what the tests gave — 'inconsistent' below means the conservative test rejected; below large the verdict is inconclusive, see above; the default figures are from the default budget's grid before it stopped being simulated, which also had p = 20 at N = 2^11): " + g.refitFound,
				Check:     gridRefitCheck(which, reading, false),
				Faults:    []props.Fault{{Name: "the printed formula plus 5 % of the mean cell latency (fixed before running)", Check: gridRefitCheck(which, reading, true)}},
			}))
			props.Register(onGrid(reading, props.Claim{ID: "bfly/sec4/lack-of-fit/" + key, Source: seed001 + " §4.3 (\"fitted as a function of n, r, p, p/2^r and np/2^r … best fit with the following coefficients\")", Kind: props.Statistical, Class: props.Beyond,
				Recorded: g.lof, RecordedAt: g.lofAt,
				Statement: fmt.Sprintf("The linear form of §4.3's %s-latency fit describes our cell means: the residual spread of its own least-squares refit is within the runs' pure error (lack-of-fit F test).", which),
				Scope:     fmt.Sprintf("%s node-model reading; §3's priorities; %s. F = (RSS/(cells − 6))/(pure-error variance of a cell mean) (bflyexp.OLSFit.LackOfFit), pooled (df Σ(runs − 1); equal cell variances assumed) and conservative (largest cell variance, df runs − 1; valid for unequal variances, for normal cell means). Inconsistent if the conservative test rejects at Alpha, inconclusive if only the pooled one does, consistent if neither (then the planted fault must be caught)", reading, gridScope),
				Notes:     gridLOFNotes + " Found (the default figures are from the default budget's grid before it stopped being simulated, which also had p = 20 at N = 2^11): " + g.lofFound,
				Check:     gridLackOfFitCheck(which, reading, false),
				Faults:    []props.Fault{{Name: "every cell mean plus 5 % of the mean cell latency × (r/r_max)², a curvature in r outside the form (fixed before running)", Check: gridLackOfFitCheck(which, reading, true)}},
			}))
		}
	}
}

const gridRefitNotes = "Issue 12 asks for §4 on the paper's grid (N = 1K…8K, p up to 200, both node-model readings) and a refit of the printed coefficients with their uncertainty. The refit claims bfly/sec4/refit/* fit N = 2^10 only, where the printed formula reduces to four coefficients; the n and np/2^r terms need several N, so this claim refits all six. Which node model the paper simulated is not said (sim_claims.go), hence one claim per reading. The paper does not say how it fitted ('best fit'); ordinary least squares on cell means is the plain reading. The judge is the runs' pure error, not the refit's residual spread: the residual holds the linear form's lack of fit (bfly/sec4/lack-of-fit/* tests that separately), so a residual-based test would be weakened by exactly the misfit it should report. The planted fault (the printed formula raised by 5 % of the mean cell latency) and the rule were written before the claim was first run. Cost (2026-11-24, 2-core machine shared with other jobs): in the ledger the grid claims added ≈ 0.8 CPU s a claim at default (12 s for the two readings at the main job's default, measured 2026-11-24 22:20 UTC; ≈ 4 s once p = 20 left the default grid's N = 2^11 cells, and none since the default budget stopped simulating the grid, gridNotAtDefault) and ≈ 0.25 at small (their N = 2^10 cells are the §4 fit claims'); run alone, the eight took 16.6 CPU s at default (before the default budget stopped simulating the grid) and take 4.2 at small. Large is the paper's grid at 10 runs: one run of it measured 163 CPU s (strict) and 156 CPU s (pipelined), so ≈ 27 CPU minutes a reading, ≈ 53 in all, which is why the claims are SlowInShort-marked and share their cells per reading. The strict reading's four claims were run at large on 2026-11-24: 1611 CPU s (user + sys; 39 minutes wall on the shared machine, peak RSS 663 MB with 2 workers), every verdict as recorded; the pipelined reading's four were run at large on 2026-11-24 22:35–22:43 UTC: 930 CPU s (471 s wall with 2 workers, peak RSS 694 MB), every verdict as recorded — its L_avg refit is far from the printed one (p 0.368 against 0.75, z = −3527; r 2.44 against 3.20), and L_max's p 0.891 against 1.83 (`go run ./cmd/routecheck claims --filter '^bfly/sec4/(grid-refit|lack-of-fit)/' --budget large` checks all eight). `reproduce bfly-fit` and `reproduce bfly-fit-pipelined` run the same grid with any number of runs and print the same six-term refit. [2026-11-24 review] Below the large budget the verdict is inconclusive whatever the tests say: the linear form misfits our cells, so the least-squares coefficients move with the grid (strict L_avg p coefficient 1.066 ± 0.002 small, 0.886 ± 0.001 default, 0.732 on the paper's grid; r 2.36, 2.55, 2.86) — estimates ≈ 150 standard errors apart from the same simulator — and a rejection on our smaller grids would measure the grid, not the printed fit (the evidence still reports the refit and both tests). Not handled: the printed coefficients are rounded to two decimals (±0.005), while at large the p and np/2^r standard errors are below 0.0005 and np/2^r reaches 2600, so the rounding alone is worth ≈ ±13 steps; the strict L_avg rejection (0.732 against 0.745 at the least) probably survives it (not computed), the pipelined ones are far beyond it (p 0.368 and 0.891 against 0.75 and 1.83); the test should take the smallest F over the box printed ± 0.005."

const gridLOFNotes = "Class beyond: §4.3 claims only a 'best fit', never that the form fits within run-to-run noise, so this statement is our strengthening of it. It is in effect a reported comparison: the conservative test's denominator has runs − 1 = 7 (small) or 9 (large; and the first default grid) degrees of freedom, so at Alpha = 1e-9 it would need F above ≈ 712 on (24, 7) or ≈ 203 on (36, 9), against the 0.39–15.9 observed (7.3 at large, where the numerator has 288 df), and its planted fault was not caught at small or default: it cannot come out any way but inconclusive at these run counts (≈ 60 runs in the noisiest cells would bring the critical value to single digits). Issue 12 asks that fit claims be judged 'against the residual spread of the fit itself rather than a band we choose'. The 2026-11-24 review moved the refit claims from the refit's residual variance to pure error because that residual holds the linear form's lack of fit; this claim makes the comparison of the two precise — the lack-of-fit F test, the refit's own residual variance over the pure error of the runs — and gives it a verdict of its own. A rejection says that no choice of the six coefficients describes our cells within their run-to-run noise (in this reading and on this grid), so any printed coefficient vector, the paper's included, can match our cells only up to the form's misfit; it does not say the paper misfitted its own data. The existing reported comparisons (bfly/sec4/fit-*) keep their rule. The planted fault (a curvature in r of 5 % of the mean cell latency at the largest r) and the rule were written before the claim was first run. Its reach: the form absorbs most of it (on the small grid the refit's residual SD is ≈ 0.21 for a curvature of ≈ 2.2 at r_max, TestGridFaultCurvatureOutsideSpan), so the conservative test would catch it only if the noisiest cell's mean had a pure-error SD below ≈ 0.02, while ours is 0.28 (small) and 0.42 (default): at these budgets a consistent verdict would have had no power, whatever the cells."

// gridFound holds each grid claim's recorded verdicts and what was found.
// Large: both readings' verdicts were checked at large (as recorded; see
// gridRefitNotes).
var gridFound = map[string]struct {
	refit, lof           props.Verdict
	refitAt, lofAt       map[props.Budget]props.Verdict
	refitFound, lofFound string
}{
	"avg/strict": {refit: props.Inconclusive, refitAt: map[props.Budget]props.Verdict{props.Large: props.Inconsistent}, lof: props.Inconclusive,
		refitFound: "inconsistent at small and default (conservative p = 2.4e-10 small, 5e-11 default; pooled 1e-297, 0). Default refit: intercept −8.85 ± 0.35 against −12.90, n 2.68 ± 0.03 against 3.18, p 0.886 ± 0.001 against 0.75, p/2^r 0.23 ± 0.05 against 0.69, np/2^r 0.100 ± 0.005 against 0.07, r 2.55 ± 0.005 against 3.20 (SE from pure error); the p and r coefficients are each > 100 SE off. The N = 2^10 refit (bfly/sec4/refit/avg/strict) was a knife edge at default (9.3e-10); with a second N it is not. At large (the paper's grid, 294 cells × 10 runs) the refit comes much nearer the printed fit but is still rejected (conservative p = 6e-11): intercept −9.89 ± 0.15 against −12.90, n 2.82 ± 0.01 against 3.18, p 0.732 (SE < 0.0005) against 0.75, p/2^r 0.587 ± 0.005 against 0.69, np/2^r 0.080 (SE < 0.0005) against 0.07, r 2.86 ± 0.004 against 3.20; the printed formula's RMS deviation from our cell means is 5.9 steps against the refit's 3.8 — on the paper's grid in this reading every printed coefficient is within ≈ 25 % of ours.",
		lofFound:   "inconclusive at small and default: the pooled test finds a lack of fit far beyond chance (residual SD of the cell means 1.64 against 0.095 from pure error, 17×; F = 299 on (36, 378), p = 3e-254 at default; 15×, p = 6e-134 at small), but the cell SDs differ 60× (0.023–1.33 per run), and the conservative test, the one valid whatever the cell variances, gives F = 15.2 on (36, 9), p = 9e-5 (small 1.5e-3), short of Alpha. The largest residuals sit at p = 1, r = 10 (−3.6 at N = 2^11) and p = 20, r = 2. Exploration after the first run (not a test, disclosed): refitted within one p at a time (the form restricted to one p), the cells fit within pure error at p = 1 and the pooled misfit at p = 10, 20 is far smaller (F 32 and 21, conservative p 0.02, 0.09), so the misfit is in how latency grows with p, which the form takes as linear. Large (the paper's grid): the same — residual SD 3.79 against 0.23 from pure error (16×), pooled p = 0, conservative F = 7.3 on (288, 9), p = 1.4e-3 (cell SDs 0.009–4.4); largest residual −10.8 at N = 2^10, r = 4, p = 200.",
	},
	"avg/pipelined": {refit: props.Inconclusive, refitAt: map[props.Budget]props.Verdict{props.Large: props.Inconsistent}, lof: props.Inconclusive,
		refitFound: "inconsistent at small and default (conservative p = 7e-15 small, 2e-19 default). Default refit: p 0.448 ± 0.001 against 0.75 (a link carries a packet every step in this reading, so the load term is about half the strict reading's), p/2^r 0.11 ± 0.03 against 0.69, r 2.27 ± 0.003 against 3.20, intercept −4.96 ± 0.18 against −12.90.",
		lofFound:   "inconclusive at small and default, as for the strict reading: residual SD 0.84 against 0.047 from pure error (18×), pooled F = 315 on (36, 378), p = 3e-258 at default; conservative F = 15.9 on (36, 9), p = 7e-5 (small 1.4e-3), cell SDs 0.011–0.67.",
	},
	"max/strict": {refit: props.Inconclusive, lof: props.Inconclusive,
		refitFound: "inconclusive at small and default: the pooled test rejects (p = 4e-145 small, 2e-233 default), the conservative one does not (2e-5, 6e-7), the maximum latency's cell SDs ranging 0–31.5. The refit itself is far from the printed fit: r coefficient +2.16 ± 0.14 against −1.43 (z = 26), p 2.14 ± 0.03 against 1.83, p/2^r −5.3 ± 1.3 against +0.84 (default). Large (the paper's grid): pooled p = 0, conservative p = 1e-4 (cell SDs 0–227): r −0.43 ± 0.20 against −1.43, p 1.78 ± 0.01 against 1.83, n 5.1 ± 0.6 against 8.09, p/2^r −4.1 ± 0.2 against +0.84, np/2^r 1.09 ± 0.02 against 0.76; the printed formula's RMS deviation is 56 steps against the refit's 32.",
		lofFound:   "inconclusive at small and default: pooled F = 9.25 on (36, 378), p = 1e-33 (default; residual SD 7.5 against 2.5 from pure error, 3×); conservative F = 0.57 on (36, 9), p = 0.89 — the largest cell variance (SD 31.5, p = 50, r = 0) swamps it. The two readings' maximum latencies give the same F to four digits: on the same streams every run we compared (N = 2^10, p ∈ {1, 10, 20}, r ∈ {0, 4, 10}, 2 runs each) had strict maximum = 2·pipelined maximum − (2(n + r) − 1), an affine map inside the form's span, so for L_max the two readings are one experiment, not two (observed, not proved). Large (the paper's grid): pooled F = 9.7 on (288, 2646), p = 6e-255; conservative p = 1 (cell SDs 0–227).",
	},
	"max/pipelined": {refit: props.Inconclusive, refitAt: map[props.Budget]props.Verdict{props.Large: props.Inconsistent}, lof: props.Inconclusive,
		refitFound: "inconsistent at default (conservative p = 4.5e-13; p 1.07 ± 0.01 against 1.83, r +2.08 ± 0.07 against −1.43, n 3.2 ± 0.4 against 8.09), inconclusive at small (conservative p = 2.0e-9, a factor 2 above Alpha; pooled 2e-264). Its maximum latency is an affine image of the strict reading's (see bfly/sec4/lack-of-fit/max/strict), so the refits are too (strict = 2·pipelined + 1 − 2n − 2r); the verdicts differ only because the printed vector is the same under both readings.",
		lofFound:   "inconclusive at small and default, identical in F to the strict reading's (pooled p = 1e-33, conservative p = 0.89 at default): the two readings' maxima differ by an affine map inside the form's span (see bfly/sec4/lack-of-fit/max/strict).",
	},
}
