package bfly

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt/hunttest"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedLatencyFile, huntedQueueFile)
}

// The hunted queue case meets Theorem 8's assumption whatever its
// permutation: at N = 2^6 with r = 3 a node of stage s is reached from ≤ 2^s
// inputs and reaches ≤ 2^{n+r−s} outputs, so |M| ≤ 2^⌊(n+r)/2⌋ = 16 < c·2^r
// = 56 (c = 7).
func TestHuntedQueueCaseInPsi(t *testing.T) {
	if m := bflyMaxM(6, 3); m > 16 || m >= 7<<3 {
		t.Errorf("bflyMaxM(6, 3) = %d, want ≤ 2^⌊9/2⌋ = 16 < 56", m)
	}
}

// TestHuntedMinOver: the power bfly/thm-2/hunted-latency states in its
// notes, against exact binomial tails computed independently (Python,
// exact fractions): at q = 1/64 and α = 1e-9 the least c with
// P(Bin(n, q) ≥ c) ≤ α is 12 for n = 60 (tail 1.48e-10; at 11, 2.29e-9),
// 19 for n = 200 (5.79e-10; 3.84e-9), 45 for n = 1000 (7.04e-10; 2.11e-9).
func TestHuntedMinOver(t *testing.T) {
	for _, c := range []struct{ runs, want int }{{60, 12}, {200, 19}, {1000, 45}} {
		if got := bflyHuntedMinOver(c.runs, 1.0/64); got != c.want {
			t.Errorf("bflyHuntedMinOver(%d, 1/64) = %d, want %d", c.runs, got, c.want)
		}
	}
}
