package bfly

import (
	"fmt"
	"math"
	"strings"

	"routecheck/internal/bflyexp"
	"routecheck/props"

	"gonum.org/v1/gonum/stat"
)

// §4.3's fitted formulas against a refit of our own cells (issue 12): at
// N = 2^10 (the cells the §4 fit claims already run, shared through
// simCell's cache) the printed formulas reduce to four coefficients —
// L = β₀ + β_p·p + β_q·p/2^r + β_r·r with β₀ = c₀ + 10·c_n and β_q = c_q +
// 10·c_nq — which we refit by least squares (bflyexp.OLS) with their
// standard errors, and test the printed vector by the F test against the
// runs' pure error (bflyexp.PrintedTest; until the 2026-11-24 review
// against the refit's own residual variance, which holds the linear form's
// lack of fit — bfly/sec4/lack-of-fit/* tests that). All six terms on
// several N, and at large the paper's grid (N = 1K…8K, p ≤ 200), are the
// claims of grid_claims.go; `reproduce bfly-fit` and `reproduce
// bfly-fit-pipelined` run that grid with any number of runs and print the
// same six-term refit (bflyexp.RefitLines).

// printedReduced returns the printed fit (avg or max) reduced to n = 10:
// (β₀, β_p, β_q, β_r).
func printedReduced(which string) []float64 {
	if which == "maximum" {
		return []float64{-29.69 + 8.09*simN, 1.83, 0.84 + 0.76*simN, -1.43}
	}
	return []float64{-12.90 + 3.18*simN, 0.75, 0.69 + 0.07*simN, 3.20}
}

var reducedNames = []string{"1", "p", "p/2^r", "r"}

func init() {
	for _, which := range []string{"average", "maximum"} {
		for _, reading := range []string{"strict", "pipelined"} {
			w := map[string]string{"average": "avg", "maximum": "max"}[which]
			found := map[string]string{
				"avg/strict":    "inconsistent at default (conservative p = 9.3e-10, within a factor 1.1 of Alpha: a knife edge, on the conservative side; the pooled test gives 3e-201; refit p coefficient 0.86 ± 0.004 against 0.75, r coefficient 2.60 against 3.20), inconclusive at small (conservative p = 1.8e-9, pooled 9e-159). Until this review it was recorded consistent on the residual-based test (p ≈ 4e-9 small, 5e-7 default), whose denominator held the linear form's lack of fit (residual SD of the cell means 1.64 against 0.12 from pure error at default).",
				"avg/pipelined": "inconsistent at both budgets (conservative p = 1e-14 small, 2e-19 default): the p/2^r coefficient is 0.54–0.62 against 1.39.",
				"max/strict":    "inconclusive at both budgets (was inconsistent on the residual-based test): the pooled test rejects (p = 1e-81 small, 8e-132 default) but the conservative one does not (p = 5e-5, 8e-7), because the maximum latency's cell SDs range 0.8–31 (default). The disagreement itself is large (intercept at n = 10: 21–29 against 51.2; r coefficient ≈ +2 against −1.43).",
				"max/pipelined": "inconsistent at default (conservative p = 4e-13; intercept at n = 10: 24 against 51.2, r coefficient +1.9 against −1.43), inconclusive at small (conservative p = 2.6e-9, pooled 7e-158).",
			}
			key := w + "/" + reading
			rec, recAt := props.Inconsistent, map[props.Budget]props.Verdict{props.Small: props.Inconclusive}
			switch key {
			case "avg/pipelined":
				recAt = nil
			case "max/strict":
				rec, recAt = props.Inconclusive, nil
			}
			props.Register(props.Claim{ID: "bfly/sec4/refit/" + key, Source: seed001 + " §4.3 (fitted latency formulas)", Kind: props.Statistical, Recorded: rec, RecordedAt: recAt, Class: props.Beyond,
				Statement: fmt.Sprintf("The printed %s-latency fit's coefficients are the least-squares coefficients of the same linear form on our cells, within the runs' pure error.", which),
				Scope:     fmt.Sprintf("%s node-model reading; N = 2^10 (the printed formula reduced to its four n = 10 coefficients), r ∈ %v, p ∈ {1, 10, 20} (+ 50 at default/large), cell means of 8/10/10 runs (the cells of the §4 fit claims); F test of the printed coefficient vector against the pure error of the runs (bflyexp.OLSFit.FTestPure: the numerator RSS(printed) − RSS(refit) holds no lack of fit), twice: pooled (within-cell variance pooled over cells, df = Σ(runs − 1); assumes equal cell variances) and conservative (the largest cell variance, df = runs − 1; valid whatever the cell variances, for normal cell means). Inconsistent if the conservative test rejects at Alpha; inconclusive if only the pooled one does; consistent if neither (then the planted fault must be caught). One rule for the four sibling claims", reading, simGridR),
				Notes:     "Reading: which node model the paper simulated is not said (see sim_claims.go). The paper fitted N = 1K–8K, p ≤ 200; we fit N = 2^10 only, p ≤ 20 (50 at default). The linear form does not fit our cells within pure error (the refit's residual SD of cell means is 2.5–14× the pure-error SD of a mean), so the least-squares coefficients depend on the grid: a rejection says the printed coefficients are not the best coefficients of that form for our cells on our grid under this reading, not that the paper misfitted its own data (its grid and node model differ). [2026-11-24, review] The test was changed from the refit's residual variance (which holds the linear form's lack of fit) to pure error from the runs, with the conservative guard because the cells' SDs differ 25× or more (the evidence gives the range), and the planted fault moved to predicted-latency space: the printed formula plus 5 % of the mean cell latency (fixed before running; needed only where the verdict is consistent, which none is now). [2026-11-25, review] Class beyond (was reading): the statement asks the printed coefficients to be the least-squares coefficients on our N = 2^10 cells with p ≤ 50, which the paper never claims (its fit is over N = 1K–8K, p ≤ 200, and a fit over a larger grid need not be the least-squares fit on a part of it), and the linear form does not fit our cells within pure error, so a rejection is a finding about our sub-grid, not an erratum; avg/strict is also a knife edge (conservative p = 9.3e-10 against Alpha = 1e-9 on the ledger's seed; on seeds 1–9 two reject and seven give 3e-9 to 9e-8, a fresh reviewer's runs). The paper's own grid is bfly/sec4/grid-refit/… (judged at --budget large). Found: " + found[key],
				Check:     refitCheck(which, reading, false),
				Faults:    []props.Fault{{Name: "the printed formula plus 5 % of the mean cell latency (fixed before running)", Check: refitCheck(which, reading, true)}},
			})
		}
	}
}

// refitCheck refits the cells and tests the printed (reduced)
// coefficients against the pure error of the runs: the pooled within-cell
// variance Σ(runs−1)·SD²/Σ(runs−1), divided by the runs per cell (the
// variance of one cell mean), df = Σ(runs−1) (bflyexp.OLSFit.FTestPure).
// With fault set the printed formula is raised by 5 % of the mean cell
// latency (the planted fault, in predicted-latency space).
func refitCheck(which, reading string, fault bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := simRuns(env.Budget)
		var cells []bflyexp.CellMean
		for _, p := range simGridP(env.Budget) {
			for _, r := range simGridR {
				v, err := simCell(reading, simN, r, p, env.Seed, runs)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				s := v.avg
				if which == "maximum" {
					s = v.max
				}
				if s.N != runs {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("cell p = %d, r = %d has %d runs, want %d", p, r, s.N, runs)}
				}
				cells = append(cells, bflyexp.CellMean{X: []float64{1, float64(p), float64(p) / float64(int(1)<<r), float64(r)}, Mean: s.Mean, SD: s.SD})
			}
		}
		b0 := printedReduced(which)
		if fault {
			y := make([]float64, len(cells))
			for i, c := range cells {
				y[i] = c.Mean
			}
			b0[0] += 0.05 * stat.Mean(y, nil)
		}
		t, err := bflyexp.PrintedTest(cells, runs, b0)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		f, pv, pc := t.Fit, t.P, t.PC
		var cs []string
		for j, name := range reducedNames {
			cs = append(cs, fmt.Sprintf("%s: %.2f ± %.2f (printed %.2f)", name, f.Coef[j], t.SEPure[j], b0[j]))
		}
		ev := fmt.Sprintf("refit at N = 2^10, %s reading, %d cells of %d runs: %s (SE from pure error); pure-error SD of one run %.2f (cells %.2f–%.2f, df %d), residual SD of the refit's cell means %.2f against %.2f from pure error (lack of fit of the linear form), RMS deviation of the printed formula %.2f; pooled F = %.3g on (4, %d), p = %.3g; conservative F (largest cell variance) = %.3g on (4, %d), p = %.3g (Alpha = %g)",
			reading, len(cells), runs, strings.Join(cs, ", "), math.Sqrt(t.S2Pure), t.MinSD, t.MaxSD, t.DFPure, f.ResidSD(), math.Sqrt(t.S2Pure/float64(runs)), t.RMSPrinted, t.F, t.DFPure, pv, t.FC, runs-1, pc, props.Alpha)
		switch {
		case pc <= props.Alpha:
			return props.Outcome{Verdict: props.Inconsistent, Evidence: "rejected by the conservative test: " + ev, Counterexample: map[string]any{"reading": reading, "which": which, "refit": f.Coef, "printed": b0, "pure_error_sd": math.Sqrt(t.S2Pure), "largest_cell_sd": t.MaxSD, "runs": runs, "F_conservative": t.FC, "p_conservative": pc, "F_pooled": t.F, "p_pooled": pv}}
		case pv <= props.Alpha:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "rejected by the pooled test only, which assumes equal cell variances (the cells' SDs differ as shown): " + ev}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: ev}
	}
}
