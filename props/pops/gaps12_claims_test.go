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
