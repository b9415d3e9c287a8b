package stats

import (
	"math"
	"testing"
)

// Reference values computed independently (closed forms / standard tables).
func TestZ(t *testing.T) {
	for _, c := range []struct{ alpha, want float64 }{{0.05, 1.959964}, {1e-9, 6.109410}} {
		if got := Z(c.alpha); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("Z(%v) = %v, want %v", c.alpha, got, c.want)
		}
	}
}

// Wilson(0, n): lo = 0, hi = z²/(n+z²). Wilson(5, 10) at alpha 0.05 is
// [0.2366, 0.7634] (textbook value).
func TestWilson(t *testing.T) {
	lo, hi := Wilson(0, 100, 1e-9)
	z := Z(1e-9)
	if lo != 0 || math.Abs(hi-z*z/(100+z*z)) > 1e-12 {
		t.Errorf("Wilson(0,100) = [%v, %v]", lo, hi)
	}
	lo, hi = Wilson(5, 10, 0.05)
	if math.Abs(lo-0.2366) > 1e-4 || math.Abs(hi-0.7634) > 1e-4 {
		t.Errorf("Wilson(5,10) = [%v, %v], want [0.2366, 0.7634]", lo, hi)
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	// mean 5, sample variance 32/7
	if s.Mean != 5 || math.Abs(s.SD-math.Sqrt(32.0/7)) > 1e-12 || s.Max != 9 || s.Min != 2 || s.N != 8 {
		t.Errorf("Summarize = %+v", s)
	}
}

func TestConsistencyTestsCanFail(t *testing.T) {
	if z := MeanZ(10, 1, 100, 5, 0); z < 40 {
		t.Errorf("MeanZ far apart = %v", z)
	}
	if ok, _ := SDConsistent(5, 100, 1, 100, 0.01, 0, 1e-9); ok {
		t.Error("sd 5 vs 1 over 100 runs each judged consistent")
	}
	if ok, _ := SDConsistent(1.05, 100, 1, 100, 0.01, 0, 1e-9); !ok {
		t.Error("sd 1.05 vs 1 judged inconsistent")
	}
	// Paper sd 0: our runs all on the mode ⇒ consistent; half off ⇒ not.
	if ok, _ := SDConsistent(0, 100, 0, 100, 0.01, 0, 1e-9); !ok {
		t.Error("all equal judged inconsistent")
	}
	if ok, _ := SDConsistent(0.5, 100, 0, 100, 0.01, 50, 1e-9); ok {
		t.Error("half off the mode judged consistent with a zero sd")
	}
	// Degenerate samples: two identical runs cannot reject a nearby mean or a
	// small published spread, a hundred identical runs far from it can.
	if ok, _ := MeanConsistent(Summary{N: 2, Mean: 67}, 66.59, 0.049, 100, 1e-9); !ok {
		t.Error("2 identical runs judged inconsistent")
	}
	if ok, _ := SDConsistent(0, 2, 0.49, 100, 0.01, 0, 1e-9); !ok {
		t.Error("sd 0 over 2 runs judged inconsistent with 0.49")
	}
	if ok, _ := MeanConsistent(Summary{N: 100, Mean: 7, SD: 0.5}, 9, 0.05, 100, 1e-9); ok {
		t.Error("mean 7±0.05 judged consistent with 9±0.05")
	}
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i % 10) // 0..9
	}
	if ok, _, _ := MaxConsistent(xs, 9, 100, 1e-9); !ok {
		t.Error("max 9 judged inconsistent with a sample whose max is 9")
	}
	// Above our range: not rejectable by rank (documented), but the bound
	// on P(max ≥ 40) must still be the Wilson one, 1−(1−z²/(100+z²))^100.
	z := Z(1e-9)
	if ok, pGE, _ := MaxConsistent(xs, 40, 100, 1e-9); !ok || math.Abs(pGE-(1-math.Pow(1-z*z/(100+z*z), 100))) > 1e-12 {
		t.Errorf("max 40: ok=%v pAtLeast=%v", ok, pGE)
	}
	if ok, _, _ := MaxConsistent(xs, 3, 100, 1e-9); ok {
		t.Error("max 3 judged consistent although 60% of runs exceed 3")
	}
}

// BinomAtLeast against hand-computed tails: P(Bin(60, q) ≥ 1) = 1 − (1 − q)^60
// and P(Bin(10, 0.5) ≥ 8) = (45 + 10 + 1)/1024 = 0.0546875.
func TestBinomAtLeast(t *testing.T) {
	q := 3 / (4 * 4096.0)
	if got, want := BinomAtLeast(1, 60, q), 1-math.Pow(1-q, 60); math.Abs(got-want) > 1e-12 {
		t.Errorf("P(Bin(60,%g) ≥ 1) = %g, want %g", q, got, want)
	}
	if got := BinomAtLeast(8, 10, 0.5); math.Abs(got-0.0546875) > 1e-12 {
		t.Errorf("P(Bin(10,.5) ≥ 8) = %g", got)
	}
	if BinomAtLeast(0, 5, 0.1) != 1 || BinomAtLeast(6, 5, 0.1) != 0 {
		t.Error("edge cases")
	}
}

// T against printed table values and its limit Z.
func TestT(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		df    int
		want  float64
	}{{0.05, 1, 12.7062}, {0.05, 9, 2.2622}, {0.01, 4, 4.6041}} {
		if got := T(c.alpha, c.df); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("T(%g, %d) = %g, want %g", c.alpha, c.df, got, c.want)
		}
	}
	// (gonum's quantile loses precision for df ≳ 1e5; the claims use df ≤ 30)
	if d := T(1e-9, 10000) - Z(1e-9); d < 0 || d > 0.01 {
		t.Errorf("T → Z: differ by %g", d)
	}
}

func TestWelchZ(t *testing.T) {
	a := Summary{N: 4, Mean: 10, SD: 2}
	b := Summary{N: 4, Mean: 12, SD: 2}
	if z := WelchZ(a, b); math.Abs(z-(-2/math.Sqrt(2))) > 1e-12 {
		t.Errorf("WelchZ = %v, want %v", z, -2/math.Sqrt(2))
	}
	if z := WelchZ(Summary{N: 3, Mean: 1}, Summary{N: 3, Mean: 2}); !math.IsInf(z, -1) {
		t.Errorf("zero spreads: WelchZ = %v, want -Inf", z)
	}
}
