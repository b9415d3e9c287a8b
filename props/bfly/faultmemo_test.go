package bfly

import (
	"sync/atomic"
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// The claims whose planted fault judges the claim's own runs (the bound
// or threshold scaled by a factor fixed before running) simulate once for
// the check and its faults: with the memo entry dropped, running the check
// and every fault computes it exactly once, and the check reaches its
// recorded verdict from the shared runs (that the faults' outcomes are
// unchanged is the ledger's: cmpjson of the ledger before and after).
func TestFaultsShareRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	k := statRunsKey{env.Seed, env.Budget}
	for _, c := range []struct {
		id       string
		computed *atomic.Int64
		forget   func(statRunsKey)
	}{
		{"bfly/cor-5/printed-constant", &cor5Memo.computed, cor5Memo.forget},
		{"bfly/thm-1/time-O-congestion", &thm1Memo.computed, thm1Memo.forget},
		{"bfly/thm-2/time-renamed", &thm2TimeMemo.computed, thm2TimeMemo.forget},
		{"bfly/thm-8/time-and-congestion", &thm8Memo.computed, thm8Memo.forget},
	} {
		t.Run(c.id, func(t *testing.T) { claimtest.SharesRuns(t, c.id, env, c.computed, func() { c.forget(k) }) })
	}
}
