package bflyexp

import (
	"fmt"
	"math"
	"strings"

	"routecheck/internal/experiment"
)

// CellMean is one cell for PrintedTest: a cell's regressors, the mean of its runs and
// their standard deviation.
type CellMean struct {
	X        []float64
	Mean, SD float64
}

// PrintedFit is a least-squares refit of cell means with the printed
// coefficients tested against the runs' pure error (see PrintedTest).
type PrintedFit struct {
	Fit OLSFit
	// SEPure[j] is coefficient j's standard error from pure error (the
	// variance of one cell mean, S2Pure/Runs), not from the refit's
	// residuals, which hold the linear form's lack of fit.
	SEPure       []float64
	S2Pure       float64 // pooled within-cell variance of one run
	DFPure       int     // Σ(runs − 1)
	MinSD, MaxSD float64 // the cells' SDs
	Runs         int
	// F, P: the pooled test (equal cell variances assumed); FC, PC: the
	// conservative one (the largest cell variance, df = Runs − 1), valid
	// whatever the cell variances, for normal cell means.
	F, P, FC, PC float64
	// RMSPrinted is the printed coefficients' RMS deviation from the means.
	RMSPrinted float64
	// LF, LP: the lack-of-fit test of the linear form (OLSFit.LackOfFit),
	// pooled (S2Pure/Runs on DFPure); LFC, LPC: conservative (the largest
	// cell variance, df = Runs − 1).
	LF, LP, LFC, LPC float64
}

// PrintedTest refits the cell means by ordinary least squares and tests
// the printed coefficient vector against the pure error of the runs
// (OLSFit.FTestPure: the numerator RSS(printed) − RSS(refit) holds no lack
// of fit) twice: pooled (within-cell variance pooled over the cells, df =
// Σ(runs − 1)) and conservative (the largest cell variance, df = runs − 1);
// and the linear form's own lack of fit (OLSFit.LackOfFit: the refit's
// residual variance against the same pure error) the same two ways.
// Every cell has runs runs (≥ 2). It fails when the cells have no pure
// error or the regressors are not independent.
func PrintedTest(cells []CellMean, runs int, printed []float64) (PrintedFit, error) {
	if runs < 2 {
		return PrintedFit{}, fmt.Errorf("no pure error: %d runs per cell", runs)
	}
	X := make([][]float64, len(cells))
	y := make([]float64, len(cells))
	pooled, df := 0.0, 0
	r := PrintedFit{MinSD: math.Inf(1), Runs: runs}
	for i, c := range cells {
		X[i], y[i] = c.X, c.Mean
		pooled += float64(runs-1) * c.SD * c.SD
		df += runs - 1
		r.MinSD, r.MaxSD = math.Min(r.MinSD, c.SD), math.Max(r.MaxSD, c.SD)
	}
	f, err := OLS(X, y)
	if err != nil {
		return PrintedFit{}, err
	}
	if pooled <= 0 {
		return PrintedFit{}, fmt.Errorf("no pure error: every cell's runs are equal (%d runs per cell)", runs)
	}
	r.Fit, r.S2Pure, r.DFPure = f, pooled/float64(df), df
	s2Mean := r.S2Pure / float64(runs)
	r.SEPure = make([]float64, len(f.SE))
	for j, v := range f.InvDiag {
		r.SEPure[j] = math.Sqrt(s2Mean * v)
	}
	r.F, r.P = f.FTestPure(printed, s2Mean, df)
	r.FC, r.PC = f.FTestPure(printed, r.MaxSD*r.MaxSD/float64(runs), runs-1)
	r.RMSPrinted = math.Sqrt(f.RSSAt(printed) / float64(len(y)))
	r.LF, r.LP = f.LackOfFit(s2Mean, df)
	r.LFC, r.LPC = f.LackOfFit(r.MaxSD*r.MaxSD/float64(runs), runs-1)
	return r, nil
}

// PrintedAvg and PrintedMax are §4.3's fitted coefficients on Regressors
// (1, n, p, p/2^r, np/2^r, r): L_avg = −12.90 + 3.18n + 0.75p + 0.69p/2^r
// + 0.07np/2^r + 3.20r, L_max = −29.69 + 8.09n + 1.83p + 0.84p/2^r +
// 0.76np/2^r − 1.43r (oracles/bflyforms evaluates the same formulas).
var (
	PrintedAvg = []float64{-12.90, 3.18, 0.75, 0.69, 0.07, 3.20}
	PrintedMax = []float64{-29.69, 8.09, 1.83, 0.84, 0.76, -1.43}
)

// Regress is a cell's row of Regressors.
func Regress(n, r, p int) []float64 {
	q := float64(p) / float64(int64(1)<<r)
	return []float64{1, float64(n), float64(p), q, float64(n) * q, float64(r)}
}

// RefitLines refits §4.3's two formulas on rows of a bfly-fit sweep (all
// six terms, every cell) and tests the printed coefficients against the
// runs' pure error (PrintedTest): the lines `reproduce bfly-fit` prints
// after its table. The intercept and n terms need cells at two or more N.
func RefitLines(rows []experiment.Row) []string {
	if len(rows) == 0 {
		return nil
	}
	ns := map[int]bool{}
	runs := rows[0].Runs
	reading := Decode(rows[0].Cell).Reading
	for _, r := range rows {
		c := Decode(r.Cell)
		ns[c.N] = true
		if r.Runs != runs {
			return []string{fmt.Sprintf("§4.3 refit: not done — cells have different run counts (%d and %d)", runs, r.Runs)}
		}
		if c.Reading != reading {
			return []string{"§4.3 refit: not done — the rows mix node-model readings"}
		}
	}
	if len(ns) < 2 {
		return []string{"§4.3 refit: not done — the intercept and n terms need cells at two or more N (use --max-n ≥ 2048)"}
	}
	var out []string
	for _, m := range []struct {
		name, mean, sd string
		printed        []float64
	}{{"average", "", "", PrintedAvg}, {"maximum", "max_mean", "max_sd", PrintedMax}} {
		cells := make([]CellMean, len(rows))
		for i, r := range rows {
			c := Decode(r.Cell)
			cm := CellMean{X: Regress(c.N, c.R, c.P)}
			if m.mean == "" {
				if r.Ours.Mean == nil || r.Ours.SD == nil {
					return append(out, fmt.Sprintf("§4.3 refit (%s latency): not done — cell %s has no mean or SD", m.name, r.Cell.Key()))
				}
				cm.Mean, cm.SD = *r.Ours.Mean, *r.Ours.SD
			} else {
				cm.Mean, cm.SD = r.Extra[m.mean], r.Extra[m.sd]
			}
			cells[i] = cm
		}
		t, err := PrintedTest(cells, runs, m.printed)
		if err != nil {
			out = append(out, fmt.Sprintf("§4.3 refit (%s latency): not done — %v", m.name, err))
			continue
		}
		var cs []string
		for j, name := range Regressors {
			cs = append(cs, fmt.Sprintf("%s %.3f ± %.3f (printed %.2f)", name, t.Fit.Coef[j], t.SEPure[j], m.printed[j]))
		}
		k := len(Regressors)
		out = append(out,
			fmt.Sprintf("§4.3 refit, %s latency, %s, %d cells × %d runs: %s (SE from the runs' pure error)", m.name, Readings[reading].Name, len(cells), runs, strings.Join(cs, ", ")),
			fmt.Sprintf("  residual SD of the refit's cell means %.3f against %.3f from pure error (lack of fit of the linear form); RMS deviation of the printed formula %.3f; printed coefficients against the refit: pooled F = %.4g on (%d, %d), p = %.3g; conservative F (largest cell variance) = %.4g on (%d, %d), p = %.3g",
				t.Fit.ResidSD(), math.Sqrt(t.S2Pure/float64(runs)), t.RMSPrinted, t.F, k, t.DFPure, t.P, t.FC, k, runs-1, t.PC))
	}
	return out
}

// Analysis is RefitLines for the bfly-fit sweeps (nothing for the others).
func (s sweep) Analysis(rows []experiment.Row) []string {
	if !s.refit {
		return nil
	}
	return RefitLines(rows)
}
