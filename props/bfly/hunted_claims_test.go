package bfly

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHuntedCasesAreCopies: every case this package's hunted claims embed
// (under testdata/) is a byte-for-byte copy of the saved case under the
// module's testdata/hunt/, which `go test ./cmd/routecheck` replays and
// `routecheck replay` runs: a re-hunted case must be copied again.
func TestHuntedCasesAreCopies(t *testing.T) {
	for _, file := range []string{huntedLatencyFile, huntedQueueFile} {
		f := filepath.Join("testdata", filepath.Base(file))
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hunt", filepath.Base(f)))
		if err != nil {
			t.Fatalf("%s has no original under testdata/hunt: %v", f, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata/hunt/%s", f, filepath.Base(f))
		}
	}
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
