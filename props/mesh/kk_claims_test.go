package mesh

import (
	"slices"
	"testing"
)

// TestKKFamiliesNamed: the named k-k families are the suite's, in its
// order (the claims' evidence and seeds index them).
func TestKKFamiliesNamed(t *testing.T) {
	want := []KKFamily{KKUniform, KKTranspose, KKReflect, KKRowToCol}
	if !slices.Equal(KKFamilies, want) {
		t.Errorf("KKFamilies = %v, want %v", KKFamilies, want)
	}
}
