package mbflyforms

import (
	"math"
	"testing"
)

func TestBatches(t *testing.T) {
	for _, c := range []struct {
		a, b, c, d int64
		want       int64
	}{{1, 2312, 7, 1, 289}, {1, 189, 7, 1, 24}, {1, 8, 3, 1, 2}, {1, 32, 7, 1, 4}, {1, 10, 1, 1, 5}} {
		if got := Batches(R(c.a, c.b), R(c.c, c.d)); got != c.want {
			t.Errorf("α=%d/%d β=%d/%d: %d, want %d", c.a, c.b, c.c, c.d, got, c.want)
		}
	}
}

// Hand values: 0.714^14 ≈ 0.0089493, so (1)'s left side is 0.5 + 3·0.0089493
// /0.9910507 ≈ 0.527090 > γ² = 0.509796. With γ = 3/4, θ = 14: 0.75^14 ≈
// 0.0178179, left 0.5 + 0.0544244 = 0.554424 ≤ 0.5625.
func TestCond1(t *testing.T) {
	lhs, g2, ok := Cond1(R(7, 1), R(714, 1000), 14)
	if ok || math.Abs(F(lhs)-0.527090) > 2e-6 || math.Abs(F(g2)-0.509796) > 1e-12 {
		t.Fatalf("nonexplicit: %v %v %v", F(lhs), F(g2), ok)
	}
	lhs, _, ok = Cond1(R(7, 1), R(3, 4), 14)
	if !ok || math.Abs(F(lhs)-0.554424) > 2e-6 {
		t.Fatalf("γ = 3/4: %v %v", F(lhs), ok)
	}
}

// Hand value: β = 6, γ = 0.81, θ = 12: 0.81^12 ≈ 0.0797664, 1−… = 0.9202336;
// 2/(0.6561·7·0.9202336) ≈ 0.473220; × (1 + 1.086681) ≈ 0.987461
// (independently: Python fractions give 0.98746075).
func TestCond2(t *testing.T) {
	lhs, ok := Cond2(R(6, 1), R(81, 100), 12)
	if !ok || math.Abs(F(lhs)-0.98746075) > 1e-8 {
		t.Fatalf("%v %v", F(lhs), ok)
	}
}

// Hand value: d = 10, β = 7, γ = 0.714: 20·2.5/log₂(1/0.714) = 50/0.486004 ≈
// 102.88.
func TestThm31Coefficient(t *testing.T) {
	if got := Thm31Coefficient(10, 7, 0.714, false); math.Abs(got-102.88) > 0.01 {
		t.Fatal(got)
	}
}

// T0 is minimal: the proof's sum, evaluated directly (no logarithms), is
// < 1 at T0 and ≥ 1 at T0 − 2.
func TestT0Minimal(t *testing.T) {
	sum := func(logN, L int, beta, gamma float64, theta, T int) float64 {
		n := math.Ldexp(1, logN)
		gt := math.Pow(gamma, float64(theta))
		return n / float64(L) * math.Pow(beta+1, float64(1+logN)/2) * math.Pow(gamma, float64(T-theta*L)) * gt / (1 - gt)
	}
	for _, c := range []struct {
		logN, L int
		beta, g float64
		theta   int
	}{{6, 4, 7, 0.75, 14}, {10, 68, 7, 0.714, 14}, {4, 2, 5, 0.9, 30}} {
		T := T0(c.logN, c.L, c.beta, c.g, c.theta)
		if T%2 != 0 || sum(c.logN, c.L, c.beta, c.g, c.theta, T) >= 1 || T >= 2 && sum(c.logN, c.L, c.beta, c.g, c.theta, T-2) < 1 {
			t.Fatalf("%+v: T0 = %d", c, T)
		}
	}
	if _, _, _, ok := BestT0(6, 4, 3); ok {
		t.Fatal("β = 3 admits condition (1)")
	}
	if T, g, th, ok := BestT0(6, 4, 7); !ok || T > T0(6, 4, 7, 0.75, 14) {
		t.Fatalf("BestT0 worse than a known feasible point: %d %v %d", T, g, th)
	}
}

func TestSigDigits(t *testing.T) {
	for x, want := range map[float64]int{100: 1, 600: 1, 18500: 3, 8e4: 1, 37000: 2, 1.6e5: 2} {
		if got := SigDigits(x); got != want {
			t.Errorf("%v: %d, want %d", x, got, want)
		}
	}
	if RoundSig(102.88, 1) != 100 || RoundSig(19150, 3) != 19200 {
		t.Fatal("RoundSig")
	}
}
