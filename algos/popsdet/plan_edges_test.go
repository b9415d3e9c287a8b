package popsdet

import (
	"strings"
	"testing"

	"routecheck/models/pops"
)

// For d = 1 the plan is direct: every Round 0 and every Relay −1 (the Plan
// documentation), and the run delivers everything in its single slot.
func TestPlanD1Direct(t *testing.T) {
	sh := pops.Shape{D: 1, G: 4}
	pl, err := NewPlan(sh, []int32{2, 0, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	for p := range 4 {
		if pl.Round[p] != 0 || pl.Relay[p] != -1 {
			t.Errorf("packet %d: round %d relay %d, want 0 and −1", p, pl.Round[p], pl.Relay[p])
		}
	}
	res, _, err := Run(pl, nil)
	if err != nil || !res.Completed || res.Slots != 1 {
		t.Errorf("d = 1 run: %+v %v", res, err)
	}
}

// The observer sees slots 1, 2, …, Slots in order.
func TestRunObserverSlots(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	pl, err := NewPlan(sh, []int32{3, 2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	res, _, err := Run(pl, func(slot int, _ []pops.Action, _, _ pops.State, _ pops.Events) { seen = append(seen, slot) })
	if err != nil || !res.Completed {
		t.Fatalf("%+v %v", res, err)
	}
	if len(seen) != pl.Slots() || len(seen) == 0 {
		t.Fatalf("observer saw %v, want %d slots", seen, pl.Slots())
	}
	for i, s := range seen {
		if s != i+1 {
			t.Fatalf("observer saw slots %v, want 1 … %d", seen, pl.Slots())
		}
	}
}

// Tampered plans are refused with the reason: a relay equal to n (one past
// the last processor), and two packets of group 0 sent to one relay in one
// round (it would listen to two couplers; its first coupler is c(·, 0), the
// group-0 one).
func TestRunTamperedPlans(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	pl, err := NewPlan(sh, []int32{3, 2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	bad := pl
	bad.Relay = append([]int32(nil), pl.Relay...)
	bad.Relay[0] = 4
	if _, _, err := Run(bad, nil); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("relay 4 = n: %v", err)
	}
	two := pl
	two.Round = []int32{0, 0, 1, 1}
	two.Relay = []int32{2, 2, 0, 1}
	if _, _, err := Run(two, nil); err == nil || !strings.Contains(err.Error(), "listen to two couplers") {
		t.Errorf("packets 0 and 1 both to relay 2 in round 0: %v", err)
	}
}
