package bflyexp

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Point is one measured cell for Refit: parameters and a latency.
type Point struct {
	N, R, P int
	L       float64
}

// Regressors are §4.3's terms in the printed order: 1, n, p, p/2^r,
// np/2^r, r.
var Regressors = []string{"1", "n", "p", "p/2^r", "np/2^r", "r"}

// Refit fits L ≈ β·(1, n, p, p/2^r, np/2^r, r) by ordinary least squares,
// the form of §4.3's "best fit" (the paper does not say how it fitted; OLS
// is the plain reading). It needs at least six points with independent
// regressors (more than one n among them, or the intercept and n terms are
// collinear).
func Refit(pts []Point) ([]float64, error) {
	k := len(Regressors)
	if len(pts) < k {
		return nil, fmt.Errorf("refit: %d points, need ≥ %d", len(pts), k)
	}
	X := mat.NewDense(len(pts), k, nil)
	y := mat.NewVecDense(len(pts), nil)
	for i, p := range pts {
		X.SetRow(i, Regress(p.N, p.R, p.P))
		y.SetVec(i, p.L)
	}
	var qr mat.QR
	qr.Factorize(X)
	var b mat.VecDense
	if err := qr.SolveVecTo(&b, false, y); err != nil {
		return nil, fmt.Errorf("refit: %v (are the regressors independent? several n are needed)", err)
	}
	return b.RawVector().Data, nil
}
