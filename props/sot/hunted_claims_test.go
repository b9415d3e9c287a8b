package sot

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/sothunt"
	"routecheck/props"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedScheduledTimeFile, huntedScheduledDeflFile, huntedGreedyADeflFile)
}

// The hunted scheduled relation, by hand: with Algorithm 2 P_i sends to P_j
// once every n steps from offset (j − i) mod n, so the time is the largest
// n·(w(i, j) − 1) + ((j − i) mod n) + n over the pairs; a plain count here
// (not sotforms) finds processor 7 sending all h = 8 packets to processor
// 6, offset 7: 71 = n·h + n − 1 steps, the bound exactly, which is the
// recorded value 71/h.
func TestHuntedScheduledTimeByHand(t *testing.T) {
	c, err := hunt.Parse(huntedScheduledTimeFile, huntedScheduledTimeCase)
	if err != nil {
		t.Fatal(err)
	}
	var in sothunt.Instance
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		t.Fatal(err)
	}
	n, h := in.N, in.H
	w := map[[2]int]int{}
	for i, ds := range in.Dest {
		if len(ds) > h {
			t.Fatalf("processor %d sends %d > h = %d", i, len(ds), h)
		}
		for _, d := range ds {
			w[[2]int{i, int(d)}]++
		}
	}
	T := 0
	for ij, k := range w {
		T = max(T, n*(k-1)+((ij[1]-ij[0])%n+n)%n+n)
	}
	if n != 8 || h != 8 || w[[2]int{7, 6}] != 8 || T != n*h+n-1 || float64(T)/float64(h) != c.Value {
		t.Errorf("n = %d, h = %d, w(7, 6) = %d, T = %d (want 71 = n·h + n − 1), recorded %g·h", n, h, w[[2]int{7, 6}], T, c.Value)
	}
}

// TestHuntedDeflCheckCatchesSkewWhereItFires: the hunted-no-deflections
// check judges the router it is given, not only the cited value. On the
// scheduled case with its relation replaced by the full 8-relation
// dest[i] = (i, i+1, …, i+7) mod 8 (the real schedule still deflects
// nothing there, so hunt.Cite reproduces the recorded 0), the P_0 skew
// fires at every step: P_0 sends to P_(t+1) when P_1 does, two packets for
// one target in one step, which must deflect one. On the real case (the
// identity relation) the skew never fires (P_0 only has packets for P_0).
func TestHuntedDeflCheckCatchesSkewWhereItFires(t *testing.T) {
	var c map[string]any
	if err := json.Unmarshal(huntedScheduledDeflCase, &c); err != nil {
		t.Fatal(err)
	}
	in := c["instance"].(map[string]any)
	dest := make([][]int32, 8)
	for i := range dest {
		for k := range 8 {
			dest[i] = append(dest[i], int32((i+k)%8))
		}
	}
	in["dest"] = dest
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	env := props.Env{Budget: props.Small}
	if got := sotHuntedDeflCheck(huntedScheduledDeflFile, raw, nil)(env); got.Verdict != props.Holds {
		t.Fatalf("real router on the full relation: %v: %s", got.Verdict, got.Evidence)
	}
	if got := sotHuntedDeflCheck(huntedScheduledDeflFile, raw, sotSkewP0)(env); got.Verdict != props.Violated {
		t.Fatalf("skewed P_0 on the full relation: %v: %s", got.Verdict, got.Evidence)
	}
	if got := sotHuntedDeflCheck(huntedScheduledDeflFile, huntedScheduledDeflCase, sotSkewP0)(env); got.Verdict != props.Holds {
		t.Fatalf("skewed P_0 on the hunted identity relation: %v (the notes say it never fires there): %s", got.Verdict, got.Evidence)
	}
}

// TestHuntedClaimsJudgeTheReplay: the hunted SOT claims judge the value the
// replay measures (for the deflections, the real router's run, which must
// give it), not the recorded one. The Greedy-a case (replay 2.625
// deflections per packet) recorded as 0 is violated with the replayed and
// the recorded value; the scheduled cases recorded otherwise than their
// replays (0 deflections as 0.5; 71 steps = 8.875·h as 8.75·h) are stale,
// inconclusive saying they no longer reproduce — but the time case recorded
// as 8·h, within the fault's n·h, is violated there on its replayed 71
// steps.
func TestHuntedClaimsJudgeTheReplay(t *testing.T) {
	env := props.Env{Budget: props.Small}
	hunttest.Judged(t, "Greedy-a recorded 0", sotHuntedDeflCheck(huntedGreedyADeflFile, hunttest.Revalue(t, huntedGreedyADeflCase, 0), nil)(env), props.Violated,
		"did NOT reproduce: its replay gives mean deflections / packet = 2.625 where it records 0", map[string]any{"deflections_per_packet": 2.625, "recorded": 0.0, "replayed": 2.625})
	hunttest.Judged(t, "scheduled recorded 0.5", sotHuntedDeflCheck(huntedScheduledDeflFile, hunttest.Revalue(t, huntedScheduledDeflCase, 0.5), nil)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives mean deflections / packet = 0 where it records 0.5", nil)

	saved := huntedScheduledTimeCase
	t.Cleanup(func() { huntedScheduledTimeCase = saved })
	huntedScheduledTimeCase = hunttest.Revalue(t, saved, 8.75)
	hunttest.Judged(t, "time recorded 8.75", sotHuntedTimeCheck(true)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives mean steps / h = 8.875 where it records 8.75", nil)
	huntedScheduledTimeCase = hunttest.Revalue(t, saved, 8)
	hunttest.Judged(t, "time recorded 8, bound n·h", sotHuntedTimeCheck(false)(env), props.Violated,
		"did NOT reproduce: its replay gives mean steps / h = 8.875 where it records 8", map[string]any{"steps": 71.0, "recorded": 8.0, "replayed": 8.875})
}
