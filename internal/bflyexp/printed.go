package bflyexp

import (
	"fmt"
	"math"
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
}

// PrintedTest refits the cell means by ordinary least squares and tests
// the printed coefficient vector against the pure error of the runs
// (OLSFit.FTestPure: the numerator RSS(printed) − RSS(refit) holds no lack
// of fit) twice: pooled (within-cell variance pooled over the cells, df =
// Σ(runs − 1)) and conservative (the largest cell variance, df = runs − 1).
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
	return r, nil
}
