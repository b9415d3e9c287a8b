package pops

import (
	"fmt"
	"math"
	"testing"

	"routecheck/props"
)

// By hand: g = 2, m = 2 gives E|C̄| = 2·(1/2)² = 1/2, so E²/(2g) = 1/16 =
// 0.0625 < g/(2e²) = 1/e² ≈ 0.1353 (the paper's step fails); m = 1 gives
// E = 1, E²/4 = 0.25 ≥ 0.1353 (holds); the repaired exponent at m = 2 is
// (1/2)²/e² ≈ 0.0338 ≤ 0.0625 (holds).
func TestBinsExponentGapHand(t *testing.T) {
	if got := binsExponentGap(2, 2, 1); math.Abs(got-(0.0625-1/(math.E*math.E))) > 1e-12 || got >= 0 {
		t.Fatalf("g = 2, m = 2: gap %v, want 1/16 − 1/e² < 0", got)
	}
	if got := binsExponentGap(2, 1, 1); got < 0 {
		t.Fatalf("g = 2, m = 1: gap %v, want ≥ 0", got)
	}
	if got := binsExponentGap(2, 2, 0.25); math.Abs(got-(0.0625-0.25/(math.E*math.E))) > 1e-12 || got < 0 {
		t.Fatalf("g = 2, m = 2 repaired: gap %v, want 1/16 − 1/(4e²) ≥ 0", got)
	}
	// (1 − 1/g)^g < 1/e for every g: the step fails at m = g, e.g. g = 1000.
	if binsExponentGap(1000, 1000, 1) >= 0 || binsExponentGap(1000, 999, 1) < 0 {
		t.Fatal("g = 1000: the step must fail at m = g and hold at m = g − 1")
	}
}

// (1 − 1/g)^{g−1} = (1 + 1/(g−1))^{−(g−1)} ≥ 1/e for every g ≥ 2, so the
// range the proof uses (m ≤ g − 1) holds and the sentence's range (m ≤ g)
// fails first at g = 2, m = 2 (by hand above).
func TestBinsStepUsedRange(t *testing.T) {
	for _, g := range []int{2, 3, 10, 100, 1024} {
		if got := binsExponentGap(g, g-1, 1); got < 0 {
			t.Errorf("g = %d, m = g − 1: gap %v, want ≥ 0", g, got)
		}
	}
	env := props.Env{Budget: props.Small, Seed: 1}
	if o := checkBinsStep(false, 1)(env); o.Verdict != props.Holds {
		t.Errorf("m ≤ g − 1: %v (%s), want holds", o.Verdict, o.Evidence)
	}
	o := checkBinsStep(false, 0)(env)
	if o.Verdict != props.Violated || fmt.Sprint(o.Counterexample) != "map[g:2 m:2]" {
		t.Errorf("m ≤ g: %v %v, want violated at g = 2, m = 2", o.Verdict, o.Counterexample)
	}
}
