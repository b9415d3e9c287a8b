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

// TestHuntedMinOver: the power pops/cor-3.9/hunted-steps states in its
// notes, against exact binomial tails computed independently (Python,
// exact fractions): at q = 1/4 and α = 1e-9 the least c with
// P(Bin(n, q) ≥ c) ≤ α is 38 for n = 60 (tail 4.10e-10; at 37, 2.07e-9),
// 90 for n = 200 (6.54e-10; 1.61e-9), 336 for n = 1000 (7.30e-10;
// 1.12e-9). The hunt's own seeds: P(Bin(16, 1/4) ≥ 7) = 0.0796.
func TestHuntedMinOver(t *testing.T) {
	for _, c := range []struct{ runs, want int }{{60, 38}, {200, 90}, {1000, 336}} {
		if got := huntedMinOver(c.runs, 0.25); got != c.want {
			t.Errorf("huntedMinOver(%d, 1/4) = %d, want %d", c.runs, got, c.want)
		}
	}
	if got := huntedMinOver(3, 0.25); got != 4 {
		t.Errorf("huntedMinOver(3, 1/4) = %d, want 4 (no count reaches α)", got)
	}
	if p := stats.BinomAtLeast(7, 16, 0.25); math.Abs(p-0.0796) > 5e-4 {
		t.Errorf("P(Bin(16, 1/4) ≥ 7) = %g, want 0.0796", p)
	}
}
