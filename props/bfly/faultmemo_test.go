package bfly

import (
	"regexp"
	"sync/atomic"
	"testing"

	"routecheck/props"
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
		t.Run(c.id, func(t *testing.T) {
			cs, err := props.Claims("^" + regexp.QuoteMeta(c.id) + "$")
			if err != nil || len(cs) != 1 {
				t.Fatalf("claim %s: %d found, %v", c.id, len(cs), err)
			}
			cl := cs[0]
			c.forget(k)
			before := c.computed.Load()
			o := cl.Check(env)
			for _, f := range cl.Faults {
				f.Check(env)
			}
			if got := c.computed.Load() - before; got != 1 {
				t.Fatalf("the check and %d faults computed the runs %d times, want once", len(cl.Faults), got)
			}
			if o.Verdict != cl.RecordedFor(env.Budget) {
				t.Fatalf("verdict %s from the shared runs, recorded %s: %s", o.Verdict, cl.RecordedFor(env.Budget), o.Evidence)
			}
		})
	}
}
