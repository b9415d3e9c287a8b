package bflyexp

import (
	"math"
	"testing"

	"routecheck/oracles/bflyforms"
)

// Points generated from the paper's own L_avg on its design (n = 10…13,
// r ≤ min(12, n), p ∈ Ps) give back the printed coefficients.
func TestRefitRecoversPrintedCoefficients(t *testing.T) {
	var pts []Point
	for n := 10; n <= 13; n++ {
		for _, p := range Ps {
			for r := 0; r <= min(12, n); r++ {
				pts = append(pts, Point{N: n, R: r, P: p, L: bflyforms.FitAvg(n, r, p)})
			}
		}
	}
	b, err := Refit(pts)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-12.90, 3.18, 0.75, 0.69, 0.07, 3.20}
	for i := range want {
		if math.Abs(b[i]-want[i]) > 1e-8 {
			t.Errorf("%s: %v, printed %v", Regressors[i], b[i], want[i])
		}
	}
	// One n only: the intercept and n columns are collinear.
	if _, err := Refit(pts[:len(Ps)*11]); err == nil {
		t.Error("refit on a single n accepted")
	}
}
