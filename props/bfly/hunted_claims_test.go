package bfly

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt/hunttest"
	"routecheck/props"
)

// TestHuntedCasesAreCopies: the cases the hunted claims cite are copies of
// the saved ones under testdata/hunt/ (see hunttest.CitedCopies).
func TestHuntedCasesAreCopies(t *testing.T) {
	hunttest.CitedCopies(t, filepath.Join("..", ".."), huntedLatencyFile, huntedQueueFile)
}

// The hunted queue case meets Theorem 8's assumption whatever its
// permutation: at N = 2^6 with r = 3 a node of stage s is reached from ≤ 2^s
// inputs and reaches ≤ 2^{n+r−s} outputs, so |M| ≤ 2^⌊(n+r)/2⌋ = 16 < c·2^r
// = 56 (c = 7).
func TestHuntedQueueCaseInPsi(t *testing.T) {
	if m := bflyMaxM(6, 3); m > 16 || m >= 7<<3 {
		t.Errorf("bflyMaxM(6, 3) = %d, want ≤ 2^⌊9/2⌋ = 16 < 56", m)
	}
}

// TestHuntedClaimsJudgeTheReplay: the queue case recorded as 2 (its
// replay gives 3, far within 6c·log N) is stale: inconclusive, saying it no
// longer reproduces. The latency claim rests on fresh runs of the hunted
// permutation, which a recorded mean of 1.5 (replay 1.6875) does not stop:
// the claim, whose fresh runs keep a·log N, is inconclusive (stale); its
// fault "a halved", whose fresh runs break it, is violated with the
// recorded and the replayed value.
func TestHuntedClaimsJudgeTheReplay(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 1}
	savedQ, savedL := huntedQueueCase, huntedLatencyCase
	t.Cleanup(func() { huntedQueueCase, huntedLatencyCase = savedQ, savedL })
	hunttest.Judged(t, "latency, the saved case", bflyHuntedLatencyCheck(3)(env), props.Holds, "mean steps / log N = 1.6875", nil)
	huntedQueueCase, huntedLatencyCase = hunttest.Revalue(t, savedQ, 2), hunttest.Revalue(t, savedL, 1.5)
	hunttest.Judged(t, "queue recorded 2", bflyHuntedQueueCheck(1)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives mean largest queue = 3 where it records 2", nil)
	hunttest.Judged(t, "latency recorded 1.5", bflyHuntedLatencyCheck(3)(env), props.Inconclusive,
		"no longer reproduces (a stale case): its replay gives mean steps / log N = 1.6875 where it records 1.5", nil)
	hunttest.Judged(t, "latency recorded 1.5, a halved", bflyHuntedLatencyCheck(1.5)(env), props.Violated,
		"did NOT reproduce: its replay gives mean steps / log N = 1.6875 where it records 1.5", map[string]any{"recorded": 1.5, "replayed": 1.6875})
}
