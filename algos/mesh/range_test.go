package mesh

import (
	"strings"
	"testing"
)

// Destinations are cells of the n×n mesh: row or column n is refused, by
// Allocate and by AllocateLinear alike; row and column n − 1 are fine.
func TestAllocateDestinationRange(t *testing.T) {
	const n = 4
	first := func(c []int32) int32 { return c[0] }
	for _, d := range []Dest{{Row: n, Col: 0}, {Row: 0, Col: n}, {Row: -1, Col: 0}, {Row: 0, Col: -1}} {
		if _, err := Allocate(n, []Dest{d}, first); err == nil || !strings.Contains(err.Error(), "allowed [0, 4)²") {
			t.Errorf("Allocate, destination %+v: %v", d, err)
		}
		if _, err := AllocateLinear(n, []Dest{d}); err == nil || !strings.Contains(err.Error(), "allowed [0, 4)²") {
			t.Errorf("AllocateLinear, destination %+v: %v", d, err)
		}
	}
	ok := []Dest{{Row: n - 1, Col: n - 1}, {Row: 0, Col: n - 1}}
	if _, err := Allocate(n, ok, first); err != nil {
		t.Errorf("Allocate, row and column n − 1: %v", err)
	}
	if _, err := AllocateLinear(n, ok); err != nil {
		t.Errorf("AllocateLinear, row and column n − 1: %v", err)
	}
}
