package pops

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"routecheck/props"
)

// exactTail is Pr[Bin(n, p) > k] for rational p = num/den, in exact
// rational arithmetic: an independent computation of lnBinomUpper.
func exactTail(n int, num, den int64, k int) *big.Rat {
	p := big.NewRat(num, den)
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	sum := new(big.Rat)
	for j := k + 1; j <= n; j++ {
		t := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(j)))
		for range j {
			t.Mul(t, p)
		}
		for range n - j {
			t.Mul(t, q)
		}
		sum.Add(sum, t)
	}
	return sum
}

// The log-space tails agree with exact rational sums to 1e-9 relative.
func TestLnBinomAgainstExact(t *testing.T) {
	for _, tc := range []struct {
		n        int
		num, den int64
		k        int
	}{{13, 2, 13, 11}, {27, 2, 27, 23}, {40, 1, 4, 10}, {64, 16, 64, 20}, {10, 1, 2, 0}, {10, 1, 2, 9}} {
		want, _ := exactTail(tc.n, tc.num, tc.den, tc.k).Float64()
		got := math.Exp(lnBinomUpper(tc.n, float64(tc.num)/float64(tc.den), tc.k))
		if math.Abs(got-want) > 1e-9*want {
			t.Fatalf("Pr[Bin(%d, %d/%d) > %d] = %.12g, exact %.12g", tc.n, tc.num, tc.den, tc.k, got, want)
		}
	}
	if !math.IsInf(lnBinomUpper(5, 0.5, 5), -1) {
		t.Fatal("Pr[Bin(5, ½) > 5] must be 0")
	}
	// Lower tail: Pr[Bin(4, ½) < 1.5] = (1 + 4)/16.
	if got := math.Exp(lnBinomLower(4, 0.5, 1.5)); math.Abs(got-5.0/16) > 1e-12 {
		t.Fatalf("Pr[Bin(4, ½) < 1.5] = %v, want 5/16", got)
	}
}

// The counterexamples the claims report, recomputed exactly. The searches
// judge the supremum over δ, Pr[P_a ≥ k] against the bound at δ = k/g − 1
// (since 2026-11-25): with g = 2, d_s = |S_a| = 11, δ → 3.5 the tail
// Pr[Bin(11, 2/11) ≥ 9] = 8.357e-6 exceeds e^{−δ²·11·2/(2·11)} =
// e^{−12.25} = 4.785e-6; with d_s = |S_a| = 24, δ → 9.5, Pr[Bin(24, 2/24) ≥
// 21] = 3.431e-20 exceeds e^{−δ²·2/4} = e^{−45.125} = 2.526e-20 (both also
// computed with Python's fractions); and no smaller d_s at g = 2 fails the
// first form (the search's order).
func TestChernoffCounterexamplesExact(t *testing.T) {
	tail11, _ := exactTail(11, 2, 11, 8).Float64() // P > 8 = P ≥ 9
	if b := math.Exp(-12.25); tail11 <= b || math.Abs(tail11-8.357120460e-6) > 1e-14 {
		t.Fatalf("g=2, d_s=11: tail %.10g against bound %.6g (want 8.357120460e-6 > bound)", tail11, b)
	}
	tail24, _ := exactTail(24, 2, 24, 20).Float64() // P ≥ 21
	if b := math.Exp(-45.125); tail24 <= b {
		t.Fatalf("g=2, d_s=24: tail %.6g ≤ bound %.6g", tail24, b)
	}
	for form, want := range []chernoffCase{{2, 11, 11, 9}, {2, 24, 24, 21}} {
		c, _, _, ok := chernoffSearch(form, 2, 64)
		if !ok || c != want {
			t.Fatalf("form %d: search found %+v (%v), want %+v", form, c, ok, want)
		}
	}
	// Below the first case every instance at g = 2 satisfies the form, checked exactly.
	for ds := 3; ds < 11; ds++ {
		for s := ds; 2*s >= ds; s-- {
			for k := 3; k < s; k++ {
				delta := float64(k)/2 - 1
				tail, _ := exactTail(s, 2, int64(ds), k-1).Float64() // P ≥ k
				if b := math.Exp(-delta * delta * float64(s) * 2 / (2 * float64(ds))); tail > b*(1+1e-9) {
					t.Fatalf("g=2, d_s=%d, |S_a|=%d, k=%d fails (%.6g > %.6g) before the reported first case", ds, s, k, tail, b)
				}
			}
		}
	}
}

// The failure bound at δ = g^{−1/3}, against values computed separately
// (Python, the same formula term by term): ln 9.13 at g = 2^10 (terms 9.09
// and 5.80), −4.28 at g = 2^70, where it first falls below 1.
func TestThm38FailureBound(t *testing.T) {
	for _, tc := range []struct {
		k    int
		want float64
	}{{10, 9.13}, {50, 31.40}, {69, 0}, {70, -4.28}} {
		got := lnThm38Failure(tc.k, -1.0/3)
		if tc.k == 69 {
			if got < 0 {
				t.Fatalf("g = 2^69: ln failure bound %.3f < 0, but 2^70 is the first below 1", got)
			}
			continue
		}
		if math.Abs(got-tc.want) > 0.01 {
			t.Fatalf("g = 2^%d: ln failure bound %.4f, want %.2f", tc.k, got, tc.want)
		}
	}
}

// The threshold above which e^{−δ²g/4} fails. In the Poisson/large-μ limit
// the tail's exponent is μ((1+δ)ln(1+δ) − δ), which crosses δ²/4 (at μ = g)
// at δ ≈ 4.116, found here by bisection on the closed form (independent
// of the binomial sums); 2e − 1 ≈ 4.437, the old text's threshold, is not
// it. At d_s = |S_a| = 64g the exact binomial tails first exceed the bound
// at δ = k/g − 1 with k = 97 (g = 16, δ = 5.0625) and k = 361 (g = 64,
// δ = 4.640625), as the review computed independently; both lie above the
// limit and fall toward it.
func TestChernoffGOver4Threshold(t *testing.T) {
	lo, hi := 1.0, 10.0
	for range 100 {
		m := (lo + hi) / 2
		if (1+m)*math.Log1p(m)-m > m*m/4 {
			lo = m
		} else {
			hi = m
		}
	}
	if lo < 4.11 || lo > 4.12 {
		t.Fatalf("Poisson-limit crossover %.5f, want ≈ 4.116", lo)
	}
	for _, tc := range []struct{ g, k int }{{16, 97}, {64, 361}} {
		ds := 64 * tc.g
		first := 0
		for k := tc.g + 1; k < ds && first == 0; k++ {
			c := chernoffCase{tc.g, ds, ds, k}
			if c.lnUpper() > chernoffForms[1].ln(c, c.delta())+1e-9 {
				first = k
			}
		}
		if first != tc.k {
			t.Errorf("g = %d, d_s = |S_a| = 64g: first failure at k = %d (δ = %.4f), want k = %d", tc.g, first, float64(first)/float64(tc.g)-1, tc.k)
		}
	}
}

// The union bound with the step factor 4d/g restored, against values
// computed separately (Python, the same formula plus ln 4 + K·ln g): at
// d/g = g it is first below 1 at g = 2^76 (ln −1.05; 9.56 at 2^75), at
// d/g = g⁴ at 2^85 (ln −12.94; 17.54 at 2^84). The planted fault d/g =
// e^{g^{1/6}/(4e²)} never falls below 1.
func TestThm38UnionOverSteps(t *testing.T) {
	for _, tc := range []struct {
		K       float64
		k       int
		want    float64
		wantPre float64
	}{{1, 76, -1.05, 9.56}, {4, 85, -12.94, 17.54}} {
		steps := thm38Steps(func(k int) float64 { return tc.K * float64(k) * math.Ln2 })
		got, pre := lnThm38Failure(tc.k, -1.0/3)+steps(tc.k), lnThm38Failure(tc.k-1, -1.0/3)+steps(tc.k-1)
		if math.Abs(got-tc.want) > 0.01 || math.Abs(pre-tc.wantPre) > 0.01 {
			t.Errorf("d/g = g^%g: ln bound %.3f at 2^%d and %.3f at 2^%d, want %.2f and %.2f", tc.K, got, tc.k, pre, tc.k-1, tc.want, tc.wantPre)
		}
	}
	env := props.Env{Budget: props.Small, Seed: 1}
	if o := checkThm38UnionOverSteps(env); o.Verdict != props.Holds {
		t.Errorf("polynomial d/g: %v (%s), want holds", o.Verdict, o.Evidence)
	}
	fault := checkThm38OneMinusO1(-1.0/3, thm38Steps(func(k int) float64 { return math.Pow(math.Exp2(float64(k)), 1.0/6) / (4 * math.E * math.E) }), "")
	if o := fault(env); o.Verdict != props.Violated || !strings.Contains(o.Evidence, "never below 1") {
		t.Errorf("d/g = e^{g^{1/6}/(4e²)}: %v (%s), want violated, never below 1", o.Verdict, o.Evidence)
	}
}
