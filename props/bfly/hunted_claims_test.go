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
