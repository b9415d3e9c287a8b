package sortnet

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt/hunttest"
)

// TestHuntedCasesAreCopies: every case this package's hunted claims cite
// is a byte-for-byte copy of the saved case under the module's
// testdata/hunt/ (hunttest.CitedCopies): a re-hunted case must be copied
// again.
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedAKSFile, huntedAKSExpanderFile)
}
