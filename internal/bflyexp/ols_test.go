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

// The pure-error F test: its p-value against gonum's F(k, dfPure); on
// cell means of replicated runs whose true means are NOT linear (a
// quadratic term the fit lacks), the true projection is rejected at 1e-3 in
// about 1e-3 of 2000 data sets (fixed seed; binomial 99.9999 % range
// 0…9), although the lack of fit is large; a slope off by 0.5 is
// rejected at 0.05 in most of 200.
func TestOLSFTestPure(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const cells, runs = 8, 5
	mu := func(x float64) float64 { return 1 + 2*x + 0.8*x*x } // not linear
	X := make([][]float64, cells)
	means := make([]float64, cells)
	for i := range cells {
		X[i] = []float64{1, float64(i)}
		means[i] = mu(float64(i))
	}
	// The projection of the true means on (1, x), by the normal equations
	// of simple regression (independent of OLS's QR).
	a, b := stat.LinearRegression([]float64{0, 1, 2, 3, 4, 5, 6, 7}, means, nil, false)
	proj := []float64{a, b}
	gen := func() (OLSFit, float64, int) {
		y := make([]float64, cells)
		pooled := 0.0
		for i := range cells {
			xs := make([]float64, runs)
			for j := range xs {
				xs[j] = means[i] + 3*rng.NormFloat64()
			}
			y[i] = stat.Mean(xs, nil)
			pooled += stat.Variance(xs, nil) * (runs - 1)
		}
		df := cells * (runs - 1)
		f, err := OLS(X, y)
		if err != nil {
			t.Fatal(err)
		}
		return f, pooled / float64(df) / runs, df
	}
	f, s2, df := gen()
	F, p := f.FTestPure(proj, s2, df)
	if want := 1 - (distuv.F{D1: 2, D2: float64(df)}).CDF(F); math.Abs(p-want) > 1e-9 {
		t.Errorf("p = %g, 1 − CDF = %g (F = %g)", p, want, F)
	}
	rejected := 0
	for range 2000 {
		f, s2, df := gen()
		if _, p := f.FTestPure(proj, s2, df); p < 1e-3 {
			rejected++
		}
	}
	if rejected > 9 {
		t.Errorf("the true projection rejected %d of 2000 times at 1e-3", rejected)
	}
	// Moving the slope alone by 0.5 raises RSS by 0.25·Σx² = 35, so F has
	// mean ≈ 1 + 35/2/1.8 ≈ 10.7 (s2 ≈ 9/5): p < 0.05 in most data sets.
	caught := 0
	for range 200 {
		f, s2, df := gen()
		if _, p := f.FTestPure([]float64{proj[0], proj[1] + 0.5}, s2, df); p < 0.05 {
			caught++
		}
	}
	if caught < 100 {
		t.Errorf("a slope off by 0.5 caught at 0.05 only %d of 200 times (F mean ≈ 10.7)", caught)
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

// The lack-of-fit test: its p-value against gonum's F distribution; on
// means that lie in the span (a line in x plus noise of known σ, with the
// true σ²/runs or a pure-error estimate) it rejects at 1e-3 about 1e-3 of
// the time; with curvature it rejects; and its conservative form (the
// largest cell variance from that cell's own runs, df = runs − 1) stays
// within its level when the cells' variances differ 25× (the argument in
// LackOfFit's comment). Fixed seeds; the counts' binomial 99.9999 % ranges
// are stated at each bound.
func TestLackOfFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const runs = 5
	// gen returns a fit of 12 cell means (x = 0…11) of runs runs each with
	// SD sd(x), true mean 1 + 2x + curv·x², and the pooled and largest
	// cell sample variances.
	gen := func(curv float64, sd func(x int) float64) (f OLSFit, pooled, largest float64) {
		var X [][]float64
		var ys []float64
		for x := range 12 {
			var s, s2 float64
			for range runs {
				v := 1 + 2*float64(x) + curv*float64(x*x) + sd(x)*rng.NormFloat64()
				s, s2 = s+v, s2+v*v
			}
			m := s / runs
			v := (s2 - runs*m*m) / (runs - 1)
			pooled += v / 12
			largest = math.Max(largest, v)
			X = append(X, []float64{1, float64(x)})
			ys = append(ys, m)
		}
		f, err := OLS(X, ys)
		if err != nil {
			t.Fatal(err)
		}
		return f, pooled, largest
	}
	flat := func(int) float64 { return 1 }
	f, pooled, _ := gen(0, flat)
	F, p := f.LackOfFit(pooled/runs, 12*(runs-1))
	if want := (distuv.F{D1: 10, D2: 48}).Survival(F); math.Abs(p-want) > 1e-9 {
		t.Errorf("p = %g, F survival = %g (F = %g)", p, want, F)
	}
	if math.Abs(F-f.RSS/10/(pooled/runs)) > 1e-12 {
		t.Errorf("F = %g, want (RSS/DF)/(s²/runs) = %g", F, f.RSS/10/(pooled/runs))
	}
	rejected, caught := 0, 0
	for range 2000 {
		f, pooled, _ := gen(0, flat)
		if _, p := f.LackOfFit(pooled/runs, 12*(runs-1)); p < 1e-3 {
			rejected++ // Bin(2000, 1e-3): 0…10 at 99.9999 %
		}
		// Curvature 0.15·x²: x²'s residual from its best line on x = 0…11
		// has sum of squares n(n² − 1)(n² − 4)/180 = 1334.7 (n = 12), so
		// the noncentrality is 0.15²·1334.7/(1/runs) ≈ 150 on 10 df: F
		// averages ≈ 16 against a 1e-3 critical value ≈ 3.7.
		f, pooled, _ = gen(0.15, flat)
		if _, p := f.LackOfFit(pooled/runs, 12*(runs-1)); p < 1e-3 {
			caught++
		}
	}
	if rejected > 10 {
		t.Errorf("a true line rejected %d of 2000 times at 1e-3", rejected)
	}
	if caught < 1900 {
		t.Errorf("curvature 0.15·x² caught only %d of 2000 times at 1e-3", caught)
	}
	// Unequal variances: cell SD 1 except the last, SD 5. The pooled test
	// assumes equal variances and is not protected; the conservative one
	// must reject a true line at 0.01 no more than about 1 % of the time
	// (Bin(2000, 0.01): ≤ 45 at 99.9999 %).
	uneven := func(x int) float64 {
		if x == 11 {
			return 5
		}
		return 1
	}
	rejected = 0
	for range 2000 {
		f, _, largest := gen(0, uneven)
		if _, p := f.LackOfFit(largest/runs, runs-1); p < 0.01 {
			rejected++
		}
	}
	if rejected > 45 {
		t.Errorf("conservative lack-of-fit test rejected a true line %d of 2000 times at 0.01", rejected)
	}
	if _, p := f.LackOfFit(1, 1); f.RSS > 0 && (p <= 0 || p > 1) {
		t.Errorf("p = %g out of (0, 1]", p)
	}
}
