package mbfly

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/mbflyhunt"
	mb "routecheck/models/multibutterfly"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedBufferFile, huntedStepsFile)
}

// The hunted steps case in the units of Theorem 3.1: T0 = 76 at N = 64
// (checked by hand in mbfly/thm-3.1/time-bound's notes), and the recorded
// ratio is a whole number of iterations of 2d = 64 steps: 11 (704 steps).
func TestHuntedStepsCaseUnits(t *testing.T) {
	T0, _, _, ok := mbflyforms.BestT0(6, 4, 7)
	if !ok || T0 != 76 {
		t.Fatalf("BestT0(6, 4, 7) = %d, %v; want 76", T0, ok)
	}
	c, err := hunt.Parse(huntedStepsFile, huntedStepsCase)
	if err != nil {
		t.Fatal(err)
	}
	if steps := c.Value * 2 * 32 * 76; math.Abs(steps-11*64) > 1e-9 {
		t.Errorf("recorded %g = %g steps, want 11 iterations = 704", c.Value, steps)
	}
}

// TestHuntedBufferOverLIsViolated: a buffer over L is the hunted-buffer
// claim failing, not an inconclusive replay. The router that ignores the
// batch rule (amb.FaultIgnoreBatch) on the hunted permutation with L = 2
// puts 3 packets into one node (a scratch run found the model rejecting
// it at step 6), so the judge must say violated with the model's
// ErrCapacity in its evidence; the real router on the real case holds.
func TestHuntedBufferOverLIsViolated(t *testing.T) {
	c, in, err := hunt.CiteInstance[mbflyhunt.Instance](huntedBufferFile, huntedBufferCase)
	if err != nil {
		t.Fatal(err)
	}
	if got := mbflyHuntedBufferJudge(c, nil, in, amb.NoFault, 1); got.Verdict != props.Holds {
		t.Fatalf("real router, real case: %v: %s", got.Verdict, got.Evidence)
	}
	in.L = 2
	// The real router keeps L = 2 on the same permutation (so the planted
	// fault "batch-ignoring router at L = 2" is caught for its rule, not
	// for the smaller L).
	if buf, err := mbflyHuntedRoute(in, amb.NoFault); err != nil || buf > 2 {
		t.Fatalf("real router at L = 2: largest buffer %d, err %v", buf, err)
	}
	got := mbflyHuntedBufferJudge(c, nil, in, amb.FaultIgnoreBatch, 1)
	if got.Verdict != props.Violated || !strings.Contains(got.Evidence, mb.ErrCapacity.Error()) {
		t.Fatalf("batch-ignoring router at L = 2: %v: %s", got.Verdict, got.Evidence)
	}
}

// TestHuntedClaimsJudgeTheReplay: the buffer case recorded as 0.75 (its
// replay, and the real router routing it again, give 4 packets = 1·L) is
// stale: inconclusive for the claim, saying it no longer reproduces, and
// violated for the fault "L halved" on the replayed 1; the steps case
// recorded as 0.1 (replay 0.1447) is stale: inconclusive.
func TestHuntedClaimsJudgeTheReplay(t *testing.T) {
	savedB, savedS := huntedBufferCase, huntedStepsCase
	t.Cleanup(func() { huntedBufferCase, huntedStepsCase = savedB, savedS })
	huntedBufferCase, huntedStepsCase = hunttest.Revalue(t, savedB, 0.75), hunttest.Revalue(t, savedS, 0.1)
	env := props.Env{Budget: props.Small}
	hunttest.Judged(t, "buffer recorded 0.75", mbflyHuntedBufferCheck(amb.NoFault, 1)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives largest buffer / L = 1 where it records 0.75", nil)
	hunttest.Judged(t, "buffer recorded 0.75, L halved", mbflyHuntedBufferCheck(amb.NoFault, 0.5)(env), props.Violated,
		"did NOT reproduce: its replay gives largest buffer / L = 1 where it records 0.75", map[string]any{"value": 1.0, "recorded": 0.75, "replayed": 1.0})
	hunttest.Judged(t, "steps recorded 0.1", mbflyHuntedStepsCheck(1)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives steps / (2d·T0) = 0.144737 where it records 0.1", nil)
}
