package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func normalSample(r *rand.Rand, n int, mu, sd float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Round(mu + sd*r.NormFloat64())
	}
	return xs
}

func summaryOf(xs []float64) Published {
	s := Summarize(xs)
	return Published{Mean: s.Mean, SD: s.SD, Max: s.Max, Runs: len(xs), Round: 0.01, Floor: 0}
}

// A published summary of runs from the same distribution is consistent.
func TestSpreadConsistentSameNormal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ours := normalSample(r, 10000, 60, 5)
	for range 20 {
		pub := summaryOf(normalSample(r, 100, 60, 5))
		if res := SpreadConsistent(ours, pub, 1e-9); !res.OK {
			t.Fatalf("same distribution judged inconsistent: %+v vs %+v", res, pub)
		}
	}
}

// σ = 1 over 100 runs cannot come from N(60, 5²): about 55% of those runs
// lie 3 or more from the mean, but σ = 1 allows at most 11 such runs.
func TestSpreadConsistentTooLittleSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ours := normalSample(r, 10000, 60, 5)
	pub := Published{Mean: 60, SD: 1, Max: 63, Runs: 100, Round: 0.01}
	if res := SpreadConsistent(ours, pub, 1e-9); res.OK {
		t.Fatalf("σ = 1 against N(60, 25) judged consistent: %+v", res)
	}
}

// σ = 40 with every run in [0, 75] around a mean of 60 needs at least 37 runs
// outside [41, 79] (each contributes at most 60², the rest at most 19²);
// N(60, 5²) puts essentially none there.
func TestSpreadConsistentTooMuchSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ours := normalSample(r, 10000, 60, 5)
	pub := Published{Mean: 60, SD: 40, Max: 75, Runs: 100, Round: 0.01}
	if res := SpreadConsistent(ours, pub, 1e-9); res.OK {
		t.Fatalf("σ = 40 against N(60, 25) judged consistent: %+v", res)
	}
}

// heavy draws from a heavy-tailed integer distribution like the router's
// step counts at d = 16g: a narrow body and, with probability 3%, a long run.
func heavy(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		x := 55 + math.Floor(4*r.ExpFloat64())
		if r.Float64() < 0.03 {
			x += math.Floor(50 * math.Exp(2*r.Float64()))
		}
		xs[i] = x
	}
	return xs
}

// The point of the distribution-free test: 100 published runs from the same
// heavy-tailed distribution are never judged inconsistent (false alarm ≤
// 1e-9 per comparison), while a normal-theory F test is fooled by samples
// that happened to miss the tail. The F test's verdicts are only logged.
func TestSpreadConsistentHeavyTail(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ours := heavy(r, 3000)
	so := Summarize(ours)
	fRejects := 0
	for range 200 {
		ys := heavy(r, 100)
		pub := summaryOf(ys)
		if res := SpreadConsistent(ours, pub, 1e-9); !res.OK {
			t.Fatalf("same heavy-tailed distribution judged inconsistent: %+v vs %+v", res, pub)
		}
		if ok, _ := SDConsistent(so.SD, so.N, pub.SD, pub.Runs, 0.01, 0, 1e-9); !ok {
			fRejects++
		}
	}
	t.Logf("normal-theory F test rejected %d of 200 same-distribution comparisons", fRejects)
}

// Z stays accurate far below float64's 1e-16 resolution near 1; the
// reference values were found by bisection on erfc(z/√2) = alpha.
func TestZTinyAlpha(t *testing.T) {
	for _, c := range []struct{ alpha, z float64 }{{1e-9, 6.10941}, {1e-18, 8.83511}, {1e-30, 11.52388}} {
		if got := Z(c.alpha); math.Abs(got-c.z) > 1e-3 {
			t.Errorf("Z(%g) = %v, want %v", c.alpha, got, c.z)
		}
	}
}

// The binomial tails agree with a direct sum of terms computed in logs.
func TestBinomTails(t *testing.T) {
	term := func(k, n int, q float64) float64 {
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return math.Exp(a - b - c + float64(k)*math.Log(q) + float64(n-k)*math.Log1p(-q))
	}
	for _, c := range []struct {
		m, n int
		q    float64
	}{{43, 100, 0.083}, {5, 100, 0.5}, {1, 10, 0.3}, {100, 100, 0.9}} {
		var ge, le float64
		for k := 0; k <= c.n; k++ {
			if k >= c.m {
				ge += term(k, c.n, c.q)
			} else {
				le += term(k, c.n, c.q)
			}
		}
		if got := binomSurvival(float64(c.m), c.n, c.q); math.Abs(got-ge) > 1e-9*ge {
			t.Errorf("P(Bin(%d,%g) ≥ %d) = %g, want %g", c.n, c.q, c.m, got, ge)
		}
		if got := binomCDF(float64(c.m-1), c.n, c.q); math.Abs(got-le) > 1e-9*le {
			t.Errorf("P(Bin(%d,%g) ≤ %d) = %g, want %g", c.n, c.q, c.m-1, got, le)
		}
	}
}
