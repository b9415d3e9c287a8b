package tbrecord

import (
	"slices"
	"testing"
)

// Errorf and Fatalf are recorded in order, formatted, and do not fail or
// stop the test.
func TestRecorder(t *testing.T) {
	r := New(t)
	r.Errorf("a %d", 1)
	r.Fatalf("b %s", "x")
	r.Errorf("c")
	if !slices.Equal(r.Errs, []string{"a 1", "c"}) || !slices.Equal(r.Fatals, []string{"b x"}) {
		t.Errorf("recorded %q and %q", r.Errs, r.Fatals)
	}
	if r.Failed() {
		t.Error("the wrapped test failed")
	}
}
