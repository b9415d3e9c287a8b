package sortnet

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
	for _, file := range []string{huntedAKSFile, huntedAKSExpanderFile} {
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
