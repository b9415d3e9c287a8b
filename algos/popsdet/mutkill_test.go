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

// Simulate reports a missing delivery at a comparator wire even when the
// partner is wire 1: compile the stage [0:1] (every other wire a fixed
// point), then move a fixed-point packet q of packet 1's source group and
// round onto an idle relay in packet 1's relay group. Both then use one
// coupler in the same slot and are lost, so processor 0 (partner 1) ends
// with no delivered packet — an error by Simulate's contract — while every
// other comparator wire (only 1, which gets packet 0) is served.
func TestSimulateMissingDeliveryFromWireOne(t *testing.T) {
	tried := 0
	for _, sh := range []pops.Shape{{D: 3, G: 2}, {D: 4, G: 2}, {D: 5, G: 3}, {D: 6, G: 2}} {
		sp, err := CompileStage(sh, sortnet.Stage{{I: 0, J: 1}})
		if err != nil {
			t.Fatal(err)
		}
		busy := map[[2]int32]bool{} // (round, relay)
		for p := range sp.Relay {
			busy[[2]int32{sp.Round[p], sp.Relay[p]}] = true
		}
		h := sh.Group(int(sp.Relay[1]))
		done := false
		for q := 2; q < sh.N() && !done; q++ {
			if sh.Group(q) != sh.Group(1) || sp.Round[q] != sp.Round[1] || sh.Group(int(sp.Relay[q])) == h || sh.Group(int(sp.Relay[0])) == h {
				continue
			}
			for r := h * sh.D; r < (h+1)*sh.D && !done; r++ {
				if busy[[2]int32{sp.Round[1], int32(r)}] {
					continue
				}
				bad := sp
				bad.Relay = append([]int32(nil), sp.Relay...)
				bad.Relay[q] = int32(r)
				tried++
				done = true
				_, res, err := Simulate(bad, []int{5, 4, 3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14}[:sh.N()])
				if res.Lost != 2 {
					t.Fatalf("%v: tampered run lost %d packets, want 2 (packets 1 and %d)", sh, res.Lost, q)
				}
				if err == nil || !strings.Contains(err.Error(), "processor 0 holds packet -1") {
					t.Errorf("%v: packet 1 lost, Simulate err = %v, want processor 0's missing delivery", sh, err)
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no shape gave a packet to collide with packet 1")
	}
}
