package mbfly

import (
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// mbfly/claim-3.2/stage-bound and mbfly/thm-3.1/time-bound judge the same
// design runs: with the memo emptied, their checks route the runs of the
// router as written once between them, and their planted faults once more
// (the lowest-priority router's; the halved bound judges the real runs);
// each reaches its recorded verdict.
func TestSiblingsShareRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	forget := func() {
		mbflyDesignMemo.Lock()
		defer mbflyDesignMemo.Unlock()
		mbflyDesignMemo.m = nil
	}
	claimtest.SiblingsShareRuns(t, []string{"mbfly/claim-3.2/stage-bound", "mbfly/thm-3.1/time-bound"}, env,
		&mbflyDesignMemo.computed, forget, 1, 1)
}
