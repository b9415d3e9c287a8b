package pops

import (
	"math"
	"testing"
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
