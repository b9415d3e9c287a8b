package sortnet

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt/hunttest"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedAKSFile, huntedAKSExpanderFile)
}
