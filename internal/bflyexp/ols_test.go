package bflyexp

import (
	"math"
	"math/rand/v2"
	"testing"

	"routecheck/oracles/bflyforms"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// One regressor and an intercept: OLS against gonum's LinearRegression
// and the textbook standard error of the slope √(s²/Sxx).
func TestOLSSimpleRegression(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var X [][]float64
	var xs, ys []float64
	for i := range 30 {
		x := float64(i)
		y := 2 + 0.5*x + rng.NormFloat64()
		X = append(X, []float64{1, x})
		xs, ys = append(xs, x), append(ys, y)
	}
	f, err := OLS(X, ys)
	if err != nil {
		t.Fatal(err)
	}
	a, b := stat.LinearRegression(xs, ys, nil, false)
	if math.Abs(f.Coef[0]-a) > 1e-9 || math.Abs(f.Coef[1]-b) > 1e-9 {
		t.Fatalf("coefficients %v, LinearRegression (%g, %g)", f.Coef, a, b)
	}
	mx := stat.Mean(xs, nil)
	sxx := 0.0
	for _, x := range xs {
		sxx += (x - mx) * (x - mx)
	}
	want := math.Sqrt(f.RSS / 28 / sxx)
	if math.Abs(f.SE[1]-want) > 1e-12 {
		t.Errorf("slope SE %g, textbook %g", f.SE[1], want)
	}
	if f.DF != 28 {
		t.Errorf("DF %d, want 28", f.DF)
	}
}

// The F test's p-value: against gonum's F distribution where 1 − CDF is
// precise, zero F gives 1, and the true coefficients are rejected at 1e-3
// in about 1e-3 of 2000 synthetic data sets (fixed seed; the count's
// binomial 99.9999 % range is 0…9).
func TestOLSFTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := func() OLSFit {
		var X [][]float64
		var ys []float64
		for i := range 20 {
			x := float64(i % 7)
			z := float64(i / 7)
			X = append(X, []float64{1, x, z})
			ys = append(ys, 1+2*x-z+rng.NormFloat64())
		}
		f, err := OLS(X, ys)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := gen()
	F, p := f.FTest([]float64{1, 2, -1})
	if want := 1 - (distuv.F{D1: 3, D2: 17}).CDF(F); math.Abs(p-want) > 1e-9 {
		t.Errorf("p = %g, 1 − CDF = %g (F = %g)", p, want, F)
	}
	if _, p := f.FTest(f.Coef); p != 1 {
		t.Errorf("the fit's own coefficients: p = %g, want 1", p)
	}
	rejected := 0
	for range 2000 {
		if _, p := gen().FTest([]float64{1, 2, -1}); p < 1e-3 {
			rejected++
		}
	}
	if rejected > 9 {
		t.Errorf("true coefficients rejected %d of 2000 times at 1e-3", rejected)
	}
	if _, p := f.FTest([]float64{1, 3, -1}); p > 1e-6 {
		t.Errorf("a slope off by 1 (≈ 9 SE: Sxx ≈ 80) not rejected: p = %g", p)
	}
}

func TestOLSBadInput(t *testing.T) {
	if _, err := OLS([][]float64{{1, 2}}, []float64{1}); err == nil {
		t.Error("one point for two coefficients accepted")
	}
	if _, err := OLS([][]float64{{1, 1}, {1, 1}, {1, 1}}, []float64{1, 2, 3}); err == nil {
		t.Error("collinear regressors accepted")
	}
}

// RefitSE gives Refit's coefficients, and on points that are the printed
// formula plus noise of known σ the printed coefficients pass the F test
// and the residual SD is near σ.
func TestRefitSE(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var pts []Point
	for n := 10; n <= 13; n++ {
		for _, p := range Ps {
			for r := 0; r <= min(12, n); r++ {
				pts = append(pts, Point{N: n, R: r, P: p, L: bflyforms.FitAvg(n, r, p) + 2*rng.NormFloat64()})
			}
		}
	}
	f, err := RefitSE(pts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Refit(pts)
	if err != nil {
		t.Fatal(err)
	}
	for j := range b {
		if math.Abs(f.Coef[j]-b[j]) > 1e-9 {
			t.Errorf("%s: RefitSE %g, Refit %g", Regressors[j], f.Coef[j], b[j])
		}
	}
	if s := f.ResidSD(); s < 1.7 || s > 2.3 {
		t.Errorf("residual SD %g, noise σ = 2 (%d points)", s, len(pts))
	}
	if _, p := f.FTest([]float64{-12.90, 3.18, 0.75, 0.69, 0.07, 3.20}); p < 1e-4 {
		t.Errorf("the generating coefficients rejected: p = %g", p)
	}
}
