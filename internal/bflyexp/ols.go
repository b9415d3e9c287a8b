package bflyexp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
)

// OLSFit is an ordinary least-squares fit y ≈ X·β with its uncertainty:
// SE[j] = √(s²·((XᵀX)^{-1})_jj), s² = RSS/DF the residual variance of the
// fit itself (DF = points − coefficients).
type OLSFit struct {
	Coef, SE []float64
	// InvDiag is the diagonal of (XᵀX)^{-1}: coefficient j's variance is
	// σ²·InvDiag[j] for any error variance σ² of the points.
	InvDiag []float64
	RSS     float64
	DF      int
	X       [][]float64
	Y       []float64
}

// ResidSD is the residual standard deviation √(RSS/DF).
func (f OLSFit) ResidSD() float64 { return math.Sqrt(f.RSS / float64(f.DF)) }

// OLS fits y ≈ X·β (rows of X are the points' regressors). It needs more
// points than coefficients and independent regressors.
func OLS(X [][]float64, y []float64) (OLSFit, error) {
	m := len(X)
	if m == 0 || m != len(y) {
		return OLSFit{}, fmt.Errorf("ols: %d rows, %d values", m, len(y))
	}
	k := len(X[0])
	if m <= k {
		return OLSFit{}, fmt.Errorf("ols: %d points for %d coefficients, need more points than coefficients", m, k)
	}
	A := mat.NewDense(m, k, nil)
	for i, row := range X {
		if len(row) != k {
			return OLSFit{}, fmt.Errorf("ols: row %d has %d regressors, want %d", i, len(row), k)
		}
		A.SetRow(i, row)
	}
	b := mat.NewVecDense(m, append([]float64(nil), y...))
	var qr mat.QR
	qr.Factorize(A)
	var beta mat.VecDense
	if err := qr.SolveVecTo(&beta, false, b); err != nil {
		return OLSFit{}, fmt.Errorf("ols: %v (are the regressors independent?)", err)
	}
	f := OLSFit{Coef: append([]float64(nil), beta.RawVector().Data...), DF: m - k, X: X, Y: y}
	f.RSS = f.RSSAt(f.Coef)
	var ata, inv mat.Dense
	ata.Mul(A.T(), A)
	if err := inv.Inverse(&ata); err != nil {
		return OLSFit{}, fmt.Errorf("ols: XᵀX is singular: %v", err)
	}
	s2 := f.RSS / float64(f.DF)
	f.SE, f.InvDiag = make([]float64, k), make([]float64, k)
	for j := range k {
		f.InvDiag[j] = inv.At(j, j)
		f.SE[j] = math.Sqrt(s2 * f.InvDiag[j])
	}
	return f, nil
}

// RSSAt is the residual sum of squares of coefficients beta on the fit's
// points.
func (f OLSFit) RSSAt(beta []float64) float64 {
	rss := 0.0
	for i, row := range f.X {
		d := f.Y[i]
		for j, x := range row {
			d -= beta[j] * x
		}
		rss += d * d
	}
	return rss
}

// FTest is the F test of a fixed coefficient vector beta0 (for example a
// published fit) against the fit's own residual spread:
// F = ((RSS(beta0) − RSS)/k)/(RSS/DF), with k coefficients; under the
// linear model with independent normal errors of equal variance and
// β = beta0, F ~ F(k, DF). It returns F and its upper-tail p-value
// I_{DF/(DF + k·F)}(DF/2, k/2) (the regularized incomplete beta, precise
// far below 1e-16).
func (f OLSFit) FTest(beta0 []float64) (F, p float64) {
	k := float64(len(f.Coef))
	d2 := float64(f.DF)
	F = (f.RSSAt(beta0) - f.RSS) / k / (f.RSS / d2)
	if F <= 0 {
		return F, 1
	}
	return F, mathext.RegIncBeta(d2/2, k/2, d2/(d2+k*F))
}

// FTestPure is the F test of a fixed coefficient vector beta0 against
// pure error: when each point's y is the mean of independent runs with a
// common per-point variance s2 (estimated from the runs' spread with dfPure
// degrees of freedom, e.g. pooled Σ(runs−1)·SD²/Σ(runs−1) divided by the
// runs per point), F = ((RSS(beta0) − RSS)/k)/s2 ~ F(k, dfPure) whenever
// beta0 is the least-squares projection of the true means on the
// regressors — whether or not the linear form fits them (its lack of fit
// is in RSS, not in the numerator). It returns F and the upper-tail
// p-value as FTest does; it panics for s2 ≤ 0 or dfPure < 1.
func (f OLSFit) FTestPure(beta0 []float64, s2 float64, dfPure int) (F, p float64) {
	if !(s2 > 0) || dfPure < 1 {
		panic("bflyexp: FTestPure needs s2 > 0 and dfPure ≥ 1")
	}
	k := float64(len(f.Coef))
	d2 := float64(dfPure)
	F = (f.RSSAt(beta0) - f.RSS) / k / s2
	if F <= 0 {
		return F, 1
	}
	return F, mathext.RegIncBeta(d2/2, k/2, d2/(d2+k*F))
}

// LackOfFit is the lack-of-fit F test of the linear form itself against
// pure error: F = (RSS/DF)/s2, the fit's own residual variance over the
// variance s2 of one point from the runs (dfPure degrees of freedom).
// When the points' true means lie in the span of the regressors and their
// errors are independent normal with variance s2's expectation, F ~
// F(DF, dfPure) (RSS holds only noise); a form that does not fit the means
// puts its lack of fit in RSS and raises F. It returns F and the upper-tail
// p-value I_{dfPure/(dfPure + DF·F)}(dfPure/2, DF/2); it panics for s2 ≤ 0
// or dfPure < 1.
//
// With unequal point variances s2 may be the largest point's variance
// estimated from its own runs (dfPure = runs − 1): RSS = ε̄ᵀ(I − H)ε̄ is
// then stochastically at most σ²_max·χ²_DF (the projection's DF
// eigenvalues, scaled by the point variances, are ≤ σ²_max), and that
// point's sample variance is at least its own σ²·χ²_{runs−1}/(runs − 1),
// so the test stays valid (conservative) for normal point means.
func (f OLSFit) LackOfFit(s2 float64, dfPure int) (F, p float64) {
	if !(s2 > 0) || dfPure < 1 {
		panic("bflyexp: LackOfFit needs s2 > 0 and dfPure ≥ 1")
	}
	d1, d2 := float64(f.DF), float64(dfPure)
	F = f.RSS / d1 / s2
	if F <= 0 {
		return F, 1
	}
	return F, mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*F))
}

// RefitSE is Refit with the uncertainty of every coefficient (OLS on §4.3's
// regressors 1, n, p, p/2^r, np/2^r, r); fit.FTest(printed) tests the
// printed coefficients against the refit's own residual spread.
func RefitSE(pts []Point) (OLSFit, error) {
	X := make([][]float64, len(pts))
	y := make([]float64, len(pts))
	for i, p := range pts {
		X[i] = Regress(p.N, p.R, p.P)
		y[i] = p.L
	}
	return OLS(X, y)
}
