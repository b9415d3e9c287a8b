package popsdet

import (
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
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

// SimulateStage (Lemma 2.2 on one stage, compiled by CompileStage): on
// POPS(2, 2) the stage [0:1] [2:3] on values (3, 1, 0, 2) leaves the minimum
// on each I side and the maximum on each J side: (1, 3, 0, 2), by hand. A bad
// shape is refused.
func TestSimulateStageByHand(t *testing.T) {
	st := sortnet.Stage{{I: 0, J: 1}, {I: 2, J: 3}}
	out, res, err := SimulateStage(pops.Shape{D: 2, G: 2}, st, []int{3, 1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 3, 0, 2}; !slices.Equal(out, want) {
		t.Errorf("SimulateStage = %v, want %v", out, want)
	}
	if !res.Completed || res.Conflicts != 0 || res.Slots != 2 {
		t.Errorf("run %+v: want every packet delivered in 2⌈d/g⌉ = 2 slots without conflicts", res)
	}
	if _, _, err := SimulateStage(pops.Shape{D: 0, G: 2}, st, []int{3, 1, 0, 2}); err == nil {
		t.Error("d = 0 accepted")
	}
}
