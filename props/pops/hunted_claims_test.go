package pops

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/stats"
	"routecheck/props"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedStepsFile, huntedSortFile, huntedSortAKSFile)
}

// huntedRouterSteps reproduces the saved case's mean on its seeds and
// refuses a case whose recorded mean or seeds were changed.
func TestHuntedRouterStepsRefusesTampering(t *testing.T) {
	c, _, steps, err := huntedRouterSteps(huntedStepsFile, huntedStepsCase)
	if err != nil || len(steps) != 16 {
		t.Fatalf("the saved case: %d runs, %v", len(steps), err)
	}
	sum := 0
	for _, s := range steps {
		sum += s
	}
	if float64(sum)/16 != c.Value {
		t.Errorf("runs average %g, recorded %g", float64(sum)/16, c.Value)
	}
	raw := string(huntedStepsCase)
	for name, bad := range map[string]string{
		"value": strings.Replace(raw, `"value": 23.5625`, `"value": 23.5`, 1),
		"seed":  strings.Replace(raw, `"seeds": [`, `"seeds": [7, `, 1),
	} {
		if bad == raw {
			t.Fatalf("%s: the tampering did not apply", name)
		}
		if _, _, _, err := huntedRouterSteps("tampered.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "the replay gives mean steps") {
			t.Errorf("%s tampered: error %v, want a replay mismatch", name, err)
		}
	}
}

// TestHuntedSeedsTail: the tail pops/cor-3.9/hunted-steps states in its
// notes for the hunt's own seeds, P(Bin(16, 1/4) ≥ 7) = 0.0796 (computed
// independently; the power at fresh seeds, 38 / 90 / 336 of 60 / 200 /
// 1000 runs, is internal/stats TestBinomMinCount's).
func TestHuntedSeedsTail(t *testing.T) {
	if p := stats.BinomAtLeast(7, 16, 0.25); math.Abs(p-0.0796) > 5e-4 {
		t.Errorf("P(Bin(16, 1/4) ≥ 7) = %g, want 0.0796", p)
	}
}

// TestHuntedSortJudgesTheReplay: pops/cor-2.4/hunted-sort-slots judges the
// value the replay measures, not the recorded one. The AKS (d = 2) case
// (replay 25) recorded as 0.5 is violated with the replayed 25, the
// recorded 0.5 and the replay command; the odd–even case (replay 1)
// recorded as 0.75 or 2 is a stale case, inconclusive saying it no longer
// reproduces — but against the fault's halved s its replayed 1 doubles to
// 2 and is violated. The unmodified cases keep their verdicts.
func TestHuntedSortJudgesTheReplay(t *testing.T) {
	aksStale, oddevenStale := hunttest.Revalue(t, huntedSortAKSCase, 0.5), hunttest.Revalue(t, huntedSortCase, 0.75)
	const metric = "slots / (Depth·s) + undelivered + conflicts + lost + duplicated"
	for _, tc := range []struct {
		name   string
		file   string
		raw    []byte
		sScale float64
		want   props.Verdict
		has    string
		cx     map[string]any // members the counterexample must hold
	}{
		{"odd–even", huntedSortFile, huntedSortCase, 1, props.Holds, "failures = 1 against 1", nil},
		{"AKS", huntedSortAKSFile, huntedSortAKSCase, 1, props.Violated, "failures = 25 against 1", map[string]any{"value": 25.0}},
		{"AKS recorded 0.5", huntedSortAKSFile, aksStale, 1, props.Violated, "did NOT reproduce: its replay gives " + metric + " = 25 where it records 0.5",
			map[string]any{"value": 25.0, "recorded": 0.5, "replayed": 25.0, "replay": "go run ./cmd/routecheck replay testdata/hunt/pops-sort-slots-d4-g8-aks-expander-small.json"}},
		{"odd–even recorded 0.75", huntedSortFile, oddevenStale, 1, props.Inconclusive, "no longer reproduces (a stale case): its replay gives " + metric + " = 1 where it records 0.75", nil},
		{"odd–even recorded 2", huntedSortFile, hunttest.Revalue(t, huntedSortCase, 2), 1, props.Inconclusive, "no longer reproduces (a stale case): its replay gives " + metric + " = 1 where it records 2", nil},
		{"odd–even recorded 0.75, s halved", huntedSortFile, oddevenStale, 0.5, props.Violated, "failures = 2 against 1", map[string]any{"value": 1.0, "recorded": 0.75, "replayed": 1.0}},
	} {
		hunttest.Judged(t, tc.name, huntedSortCheck(tc.file, tc.raw, tc.sScale)(props.Env{Budget: props.Small}), tc.want, tc.has, tc.cx)
	}
}

// TestHuntedStepsJudgesTheFreshRuns: pops/cor-3.9/hunted-steps rests its
// verdict on fresh runs of the hunted permutation, so its case recorded
// with another mean (23.5 for the replayed 23.5625) is still routed fresh:
// the claim, whose fresh runs keep B (it holds on the saved case), is
// inconclusive saying the case no longer reproduces; its fault "B halved",
// whose fresh runs break it, is violated with the recorded and the
// replayed mean.
func TestHuntedStepsJudgesTheFreshRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 1}
	hunttest.Judged(t, "claim, the saved case", huntedStepsCheck(1, 0)(env), props.Holds, "mean 23.5625", nil)
	saved := huntedStepsCase
	t.Cleanup(func() { huntedStepsCase = saved })
	huntedStepsCase = hunttest.Revalue(t, saved, 23.5)
	hunttest.Judged(t, "claim", huntedStepsCheck(1, 0)(env), props.Inconclusive, "no longer reproduces (a stale case): its replay gives mean steps = 23.5625 where it records 23.5", nil)
	hunttest.Judged(t, "B halved", huntedStepsCheck(0.5, 0)(env), props.Violated, "did NOT reproduce: its replay gives mean steps = 23.5625 where it records 23.5",
		map[string]any{"recorded": 23.5, "replayed": 23.5625})
}
