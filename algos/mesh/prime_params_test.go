package mesh

import (
	"strings"
	"testing"
)

// AllocatePrime and NewPlanPrime at the ends of their parameter ranges:
// n = n' = 1 is allowed (one PU, one submesh); a destination row or column
// equal to n is refused by the function itself, with a message that names
// the offending packet (or PU) and the allowed range [0, n)² (not by the
// functions they call, which would name a bundle range or another step).
func TestPrimeParameterEnds(t *testing.T) {
	if a, err := AllocatePrime(1, 1, []Dest{{0, 0}, {0, 0}}); err != nil || len(a.Pos) != 2 || a.Counts[0] != 2 {
		t.Errorf("AllocatePrime(1, 1): %+v, %v", a, err)
	}
	if _, err := NewPlanPrime(1, 1, [][]Dest{{{0, 0}}}, Options{}); err != nil {
		t.Errorf("NewPlanPrime(1, 1): %v", err)
	}
	for _, d := range []Dest{{4, 0}, {0, 4}, {-1, 0}, {0, -1}} {
		_, err := AllocatePrime(4, 2, []Dest{{0, 0}, d})
		if err == nil || !strings.Contains(err.Error(), "[0, 4)²") {
			t.Errorf("AllocatePrime(4, 2) with destination %v: %v", d, err)
		}
		dst := make([][]Dest, 16)
		for p := range dst {
			dst[p] = []Dest{{int32(p / 4), int32(p % 4)}}
		}
		dst[5] = []Dest{d}
		_, err = NewPlanPrime(4, 2, dst, Options{})
		if err == nil || !strings.Contains(err.Error(), "PU 5 sends to") || !strings.Contains(err.Error(), "[0, 4)²") {
			t.Errorf("NewPlanPrime(4, 2) with destination %v at PU 5: %v", d, err)
		}
	}
}
