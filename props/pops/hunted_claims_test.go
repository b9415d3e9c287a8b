package pops

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/stats"
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
