package popsdet

import (
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Run names the failing slot 1-based, as the Observer does: a packet whose
// relay is out of range fails in the first slot of its round, slot
// 2·Round+1 by Plan's definition — slot 1 for round 0, slot 3 for round 1.
func TestRunErrorNamesSlot(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2} // 2⌈d/g⌉ = 4 slots, rounds 0 and 1
	pl, err := NewPlan(sh, perm.Identity(sh.N()))
	if err != nil {
		t.Fatal(err)
	}
	for round, want := range map[int32]string{0: "slot 1: ", 1: "slot 3: "} {
		p := -1
		for q, r := range pl.Round {
			if r == round {
				p = q
				break
			}
		}
		if p < 0 {
			t.Fatalf("no packet in round %d: %v", round, pl.Round)
		}
		bad := pl
		bad.Relay = append([]int32(nil), pl.Relay...)
		bad.Relay[p] = int32(sh.N())
		_, _, err := Run(bad, nil)
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "outside") {
			t.Errorf("packet %d (round %d) with relay n: err = %v, want prefix %q", p, round, err, want)
		}
	}
}
