package hunttest

import (
	"fmt"
	"testing"

	"routecheck/internal/hunt"
)

// recorder is a testing.TB that records Errorf instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Why the check takes the shrink's floor and not the case's value: the
// 3-cycle 0→1→2→0 under eval = packets moved has value 3; every fixing
// swap leaves a 2-cycle (value 2). A shrink that kept the metric ≥ 1 would
// have kept such a swap, so the 3-cycle is not locally minimal for floor
// 1 — but every swap is below the value 3, so a check against the value
// (what the helpers did before) passes it.
func TestLocallyMinimalPermUsesTheFloor(t *testing.T) {
	p := []int32{1, 2, 0}
	eval := func(q []int32) float64 { return float64(hunt.Moved(q)) }
	var atFloor, atValue recorder
	atFloor.TB, atValue.TB = t, t
	LocallyMinimalPerm(&atFloor, p, eval, 1)
	LocallyMinimalPerm(&atValue, p, eval, 3)
	if len(atFloor.errs) != 3 {
		t.Errorf("against the floor 1: %d complaints, want one per packet (3): %q", len(atFloor.errs), atFloor.errs)
	}
	if len(atValue.errs) != 0 {
		t.Errorf("against the value 3: %q", atValue.errs)
	}
	// Two-packet swap at floor 2: fixing either packet gives the identity
	// (0 < 2): locally minimal, no complaint.
	var two recorder
	two.TB = t
	if mv := LocallyMinimalPerm(&two, []int32{1, 0, 2}, eval, 2); mv != 2 || len(two.errs) != 0 {
		t.Errorf("2-cycle: %d moved, %q", mv, two.errs)
	}
}
