package pops

import (
	"math"
	"strings"
	"testing"

	"routecheck/props"
)

// TestProofCEps: c + ε(g) = c/(1 − g^{−1/3})³ at the values the audit and
// the degree-schedule review worked out by hand (c = e^{1+1/e} = 3.92699):
// 16^{−1/3} = 0.39685, (1 − 0.39685)³ = 0.21942, 3.92699/0.21942 = 17.897;
// 64^{−1/3} = 1/4, (3/4)³ = 27/64, 3.92699·64/27 = 9.3084.
func TestProofCEps(t *testing.T) {
	for _, c := range []struct {
		g    int
		want float64
	}{{16, 17.897}, {64, 9.3084}} {
		if got := proofCEps(c.g); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("proofCEps(%d) = %.5f, want %.4f", c.g, got, c.want)
		}
	}
}

// TestCPComplexity: at log₂ g = 16 §I's log log log log g is 1 (16 → 4 → 2
// → 1) and §II-A's log g·log log g is 16·4 = 64; the check is violated on
// the printed pair and holds when §I prints §II-A's expression (or one
// within a constant factor of it), so its verdict can come out either way.
func TestCPComplexity(t *testing.T) {
	if cpSec1(16) != 1 || cpSec2A(16) != 64 {
		t.Fatalf("at log₂ g = 16: §I %g (want 1), §II-A %g (want 64)", cpSec1(16), cpSec2A(16))
	}
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	if o := checkCPComplexity(cpSec1, cpSec2A)(env); o.Verdict != props.Violated {
		t.Errorf("printed pair: %v, want violated: %s", o.Verdict, o.Evidence)
	}
	if o := checkCPComplexity(cpSec2A, cpSec2A)(env); o.Verdict != props.Holds {
		t.Errorf("§II-A against itself: %v, want holds: %s", o.Verdict, o.Evidence)
	}
	thrice := func(k float64) float64 { return 3 * cpSec2A(k) }
	if o := checkCPComplexity(thrice, cpSec2A)(env); o.Verdict != props.Holds {
		t.Errorf("3·§II-A against §II-A: %v, want holds: %s", o.Verdict, o.Evidence)
	}
}

// TestXExpFactsSigns: x·e^{−x/g} has derivative e^{−x/g}(1 − x/g) ≥ 0 on
// [0, g], so the facts the chain uses hold with the minus sign too; with
// e^{−2x/g} the maximum is at x = g/2 and the check must fail.
func TestXExpFactsSigns(t *testing.T) {
	env := props.Env{Budget: props.Small}
	for _, c := range []struct {
		s    float64
		want props.Verdict
	}{{1, props.Holds}, {-1, props.Holds}, {-2, props.Violated}, {-0.5, props.Holds}} {
		if o := checkXExpFacts(c.s)(env); o.Verdict != c.want {
			t.Errorf("sign %g: %v, want %v: %s", c.s, o.Verdict, c.want, o.Evidence)
		}
	}
}

// TestXaChainTightness: at L = g, z = g the chain's step (2) reads
// (1 − δ)²g·e^{−1}e^{−e^{−1}} ≥ (1 − δ)^pow·g·e^{−1}e^{−e^{−1}}, true for
// pow ≥ 2; at z = (1 − δ)L and L = g the ratio of step (2) with pow = 2 is
// h(1 − δ)/h(1) < 1 (h(u) = u·e^{−u − u·e^{−u}} peaks at u = 1), so pow = 2
// fails and pow = 3 (the proof) holds.
func TestXaChainTightness(t *testing.T) {
	env := props.Env{Budget: props.Small}
	if o := checkXaChain(3)(env); o.Verdict != props.Holds {
		t.Fatalf("pow 3: %v: %s", o.Verdict, o.Evidence)
	}
	if o := checkXaChain(2)(env); o.Verdict != props.Violated {
		t.Fatalf("pow 2: %v, want violated: %s", o.Verdict, o.Evidence)
	}
	if o := checkXaChain(4)(env); o.Verdict != props.Holds {
		t.Fatalf("pow 4 (weaker): %v: %s", o.Verdict, o.Evidence)
	}
}

// TestBestPExpectations: the expected slot-1 survivors per group quoted in
// pops/sec3-b/p-g-over-d-best/both-slots's notes, d·p·(1 − p/g)^{d−1} at
// POPS(256,16): p = 1/32: 8·(511/512)^255 = 4.859; p = 1/16: 16·(255/256)^255
// = 5.898; p = 1/8: 32·(127/128)^255 = 4.331 (computed by hand with ln).
func TestBestPExpectations(t *testing.T) {
	for _, c := range []struct{ p, want float64 }{{1.0 / 32, 4.859}, {1.0 / 16, 5.898}, {1.0 / 8, 4.331}} {
		if got := expectedSlot1(256, 16, c.p); math.Abs(got-c.want) > 2e-3 {
			t.Errorf("p = %g: %.4f, want %.3f", c.p, got, c.want)
		}
	}
}

// TestGapExpCanHold: the rule of pops/headline/gap-grows/exponentially is
// violated on the printed Table I and holds on a table whose gap is exactly
// exponential in n (B − A = 2·e^{n/2^22}, B/A = 1.5·e^{n/2^23}: ln(gap) is a
// line in n, so the exponential fit's residual is 0 and the power fit's is
// not); a gap that is a power of n, 3·n^0.2, is violated. lineFit is checked
// on y = 1 + 2x exactly.
func TestGapExpCanHold(t *testing.T) {
	if a, b, rss := lineFit([]float64{0, 1, 2, 5}, []float64{1, 3, 5, 11}); math.Abs(a-1) > 1e-12 || math.Abs(b-2) > 1e-12 || rss > 1e-20 {
		t.Fatalf("lineFit on y = 1 + 2x: a = %g, b = %g, rss = %g", a, b, rss)
	}
	env := props.Env{Budget: props.Small}
	if o := checkGapExp(paperGaps)(env); o.Verdict != props.Violated {
		t.Errorf("printed Table I: %v, want violated: %s", o.Verdict, o.Evidence)
	}
	synth := func(diff, quot func(n float64) float64) func() []gapRow {
		return func() []gapRow {
			gr := gapRow{ratio: 1}
			for n := 4.0; n <= 1<<24; n *= 4 {
				gr.n = append(gr.n, n)
				gr.diff = append(gr.diff, diff(n))
				gr.quot = append(gr.quot, quot(n))
			}
			return []gapRow{gr}
		}
	}
	exp := synth(func(n float64) float64 { return 2 * math.Exp(n/(1<<22)) }, func(n float64) float64 { return 1.5 * math.Exp(n/(1<<23)) })
	if o := checkGapExp(exp)(env); o.Verdict != props.Holds {
		t.Errorf("gap exponential in n: %v, want holds: %s", o.Verdict, o.Evidence)
	}
	pow := synth(func(n float64) float64 { return 3 * math.Pow(n, 0.2) }, func(n float64) float64 { return 1.5 * math.Pow(n, 0.1) })
	if o := checkGapExp(pow)(env); o.Verdict != props.Violated {
		t.Errorf("gap a power of n: %v, want violated: %s", o.Verdict, o.Evidence)
	}
}

// TestCannotCheckClaims: the three claims the seed gives no way to check are
// recorded inconclusive, carry no fault, and say in their notes what would
// make them checkable.
func TestCannotCheckClaims(t *testing.T) {
	for _, id := range []string{"pops/rival-8/own-completion", "pops/rival-15/rajasekaran-davila", "pops/rival-8/cypher-plaxton-variant"} {
		cs, err := props.Claims("^" + id + "$")
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %d claims, %v", id, len(cs), err)
		}
		c := cs[0]
		if c.Recorded != props.Inconclusive || len(c.Faults) != 0 {
			t.Errorf("%s: recorded %v with %d faults", id, c.Recorded, len(c.Faults))
		}
		if o := c.Check(props.Env{Budget: props.Small}); o.Verdict != props.Inconclusive || !strings.Contains(o.Evidence, "not checkable from the seed") {
			t.Errorf("%s: %v: %s", id, o.Verdict, o.Evidence)
		}
		if !strings.Contains(c.Notes, "Cannot be checked") || !strings.Contains(c.Notes, "checkable") {
			t.Errorf("%s: notes do not say why and what would make it checkable", id)
		}
	}
}

// binomTail is P(X ≥ k) for X ~ Binomial(n, q), summed term by term with
// C(n, i) built by the multiplicative formula (independent of stats).
func binomTail(k, n int, q float64) float64 {
	sum := 0.0
	for i := k; i <= n; i++ {
		c := 1.0
		for j := 1; j <= i; j++ {
			c = c * float64(n-i+j) / float64(j)
		}
		sum += c * math.Pow(q, float64(i)) * math.Pow(1-q, float64(n-i))
	}
	return sum
}

// TestWhpPower: whpPower against a direct sum — the critical count is the
// smallest k with P(X ≥ k | q) < α, and the power P(X ≥ k | 1 − (1 − q)⁴);
// at n = 20, q = 1/16, α = 1e-3/3 it is about 0.15 (the number the
// proof-eps notes quote), at n = 100 above 0.9.
func TestWhpPower(t *testing.T) {
	for _, c := range []struct {
		n      int
		q, a   float64
		lo, hi float64
	}{{20, 1.0 / 16, 1e-3 / 3, 0.1, 0.2}, {100, 1.0 / 16, 1e-3 / 4, 0.9, 1}, {10, 1.0 / 64, 1e-3 / 3, 0, 0.01}} {
		k := 0
		for binomTail(k, c.n, c.q) >= c.a {
			k++
		}
		want := binomTail(k, c.n, 1-math.Pow(1-c.q, 4))
		got := whpPower(c.n, c.q, c.a)
		if math.Abs(got-want) > 1e-9 || got < c.lo || got > c.hi {
			t.Errorf("n = %d, q = %g: power %.4f, direct %.4f (k = %d), want in [%g, %g]", c.n, c.q, got, want, k, c.lo, c.hi)
		}
	}
}

// TestProofScheduleVerdicts: at the small budget the k = 1 claim has no
// power (inconclusive, saying so) and its fault (c + ε(g) halved) is
// caught; at the default budget the k = 1 reading is inconsistent and the
// k = 1/2 reading consistent on the same traces (skipped with -short).
func TestProofScheduleVerdicts(t *testing.T) {
	small := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	if o := checkProofSchedule(1, whpOneOverG)(small); o.Verdict != props.Inconclusive || !strings.Contains(o.Evidence, "no power") {
		t.Errorf("k = 1 at small: %v, want inconclusive (no power): %s", o.Verdict, o.Evidence)
	}
	if o := checkProofSchedule(2, whpOneOverG)(small); o.Verdict != props.Inconsistent {
		t.Errorf("c+ε(g)/2 at small: %v, want inconsistent: %s", o.Verdict, o.Evidence)
	}
	if testing.Short() {
		t.Skip("default-budget traces skipped with -short")
	}
	def := props.Env{Budget: props.Default, Seed: props.DefaultSeed}
	if o := checkProofSchedule(1, whpOneOverG)(def); o.Verdict != props.Inconsistent {
		t.Errorf("k = 1 at default: %v, want inconsistent: %s", o.Verdict, o.Evidence)
	}
	if o := checkProofSchedule(1, whpOneOverSqrtG)(def); o.Verdict != props.Consistent {
		t.Errorf("k = 1/2 at default: %v, want consistent: %s", o.Verdict, o.Evidence)
	}
}

// TestEpsTrendBothWays: at the small budget (d = 4g, g = 16 → 64 only) the
// measured constants do not fall significantly (inconclusive); tilted by
// (g/16)^{−1/2} they fall by half, and by (g/16)^{1/2} they double, which
// the check must call consistent and inconsistent.
func TestEpsTrendBothWays(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	for _, c := range []struct {
		e    float64
		want props.Verdict
	}{{0, props.Inconclusive}, {-0.5, props.Consistent}, {0.5, props.Inconsistent}} {
		if o := checkEpsTrend(func(g int) float64 { return math.Pow(float64(g)/16, c.e) })(env); o.Verdict != c.want {
			t.Errorf("tilt (g/16)^%g: %v, want %v: %s", c.e, o.Verdict, c.want, o.Evidence)
		}
	}
}
