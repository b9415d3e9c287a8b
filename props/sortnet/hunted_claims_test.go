package sortnet

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt/hunttest"
	"routecheck/props"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedAKSFile, huntedAKSExpanderFile)
}

// TestHuntedUnsortedJudgesTheReplay: the check judges the value the replay
// measures, not the one the file records. The aks-expander case (its
// replay leaves 70 outputs out of place) recorded as 0 — a network that
// "sorted" when hunted and no longer does — is violated, with the replayed
// 70, the recorded 0 and the replay command; the AKS case (its replay
// leaves none) recorded as −1 or 3 is a stale case: inconclusive, saying
// it no longer reproduces, whichever way the recorded value points. The
// unmodified cases keep their verdicts.
func TestHuntedUnsortedJudgesTheReplay(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		raw  []byte
		want props.Verdict
		has  string
		cx   map[string]any // members the counterexample must hold
	}{
		{"AKS", huntedAKSFile, huntedAKSCase, props.Holds, "0 outputs out of place", nil},
		{"aks-expander", huntedAKSExpanderFile, huntedAKSExpanderCase, props.Violated, "70 outputs out of place", map[string]any{"misplaced": 70.0}},
		{"aks-expander recorded 0", huntedAKSExpanderFile, hunttest.Revalue(t, huntedAKSExpanderCase, 0), props.Violated, "did NOT reproduce: its replay gives misplaced outputs = 70 where it records 0",
			map[string]any{"misplaced": 70.0, "recorded": 0.0, "replayed": 70.0, "replay": "go run ./cmd/routecheck replay testdata/hunt/sortnet-unsorted-aks-expander-n1024-d4.json"}},
		{"AKS recorded -1", huntedAKSFile, hunttest.Revalue(t, huntedAKSCase, -1), props.Inconclusive, "no longer reproduces (a stale case): its replay gives misplaced outputs = 0 where it records -1", nil},
		{"AKS recorded 3", huntedAKSFile, hunttest.Revalue(t, huntedAKSCase, 3), props.Inconclusive, "no longer reproduces (a stale case): its replay gives misplaced outputs = 0 where it records 3", nil},
	} {
		hunttest.Judged(t, tc.name, huntedUnsortedCheck(tc.file, tc.raw)(props.Env{Budget: props.Small}), tc.want, tc.has, tc.cx)
	}
}
