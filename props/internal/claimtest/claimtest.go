// Package claimtest holds test helpers the network claim packages share.
// It knows no network.
package claimtest

import (
	"regexp"
	"sync/atomic"
	"testing"

	"routecheck/props"
)

// SharesRuns checks a claim whose planted faults judge the claim's own
// runs (a bound or an expectation changed, fixed before running) through
// a memo: with the memo entry dropped (forget), running the check and
// every fault computes it exactly once (computed counts the memo's
// computations), and the check reaches the claim's recorded verdict from
// the shared runs. That the faults' outcomes are unchanged is the
// ledger's to show (its JSON before and after).
func SharesRuns(t testing.TB, id string, env props.Env, computed *atomic.Int64, forget func()) {
	t.Helper()
	cs, err := props.Claims("^" + regexp.QuoteMeta(id) + "$")
	if err != nil || len(cs) != 1 {
		t.Fatalf("claim %s: %d found, %v", id, len(cs), err)
	}
	cl := cs[0]
	forget()
	before := computed.Load()
	o := cl.Check(env)
	for _, f := range cl.Faults {
		f.Check(env)
	}
	if got := computed.Load() - before; got != 1 {
		t.Fatalf("the check and %d faults computed the runs %d times, want once", len(cl.Faults), got)
	}
	if o.Verdict != cl.RecordedFor(env.Budget) {
		t.Fatalf("verdict %s from the shared runs, recorded %s: %s", o.Verdict, cl.RecordedFor(env.Budget), o.Evidence)
	}
}
