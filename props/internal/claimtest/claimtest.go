// Package claimtest holds test helpers the network claim packages share.
// It knows no network.
package claimtest

import (
	"regexp"
	"strings"
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
	cl := claim(t, id)
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

// SiblingsShareRuns checks sibling claims that judge the same runs through
// a memo and so share one Shares (ids, each claim with its planted
// faults): with the memo emptied (forget), the claims' checks route
// exactly checks runs in all (routed counts the memo's routings: the runs
// the checks read, each once); then running each claim as the ledger does
// (props.Run: the check again, from the memo, and its planted faults)
// routes at most faults more (each run of a fault's mutant once, however
// many siblings judge it) and reaches the claim's recorded verdict. That
// the outcomes are unchanged is the ledger's to show (its JSON before and
// after).
func SiblingsShareRuns(t testing.TB, ids []string, env props.Env, routed *atomic.Int64, forget func(), checks, faults int64) {
	t.Helper()
	var cls []props.Claim
	for _, id := range ids {
		c := claim(t, id)
		if cls = append(cls, c); c.Shares == "" || c.Shares != cls[0].Shares {
			t.Fatalf("claim %s shares %q, %s %q: siblings share one non-empty Shares", id, c.Shares, cls[0].ID, cls[0].Shares)
		}
	}
	forget()
	before := routed.Load()
	for _, cl := range cls {
		cl.Check(env)
	}
	if got := routed.Load() - before; got != checks {
		t.Fatalf("the checks of %d siblings routed %d runs, want %d (each once)", len(cls), got, checks)
	}
	before = routed.Load()
	for _, cl := range cls {
		if r := props.Run(cl, env); !r.Matches {
			t.Fatalf("%s: verdict %s from the shared runs, recorded %s: %s", cl.ID, r.Verdict, r.Recorded, r.Evidence)
		}
	}
	if got := routed.Load() - before; got > faults {
		t.Fatalf("the planted faults of %d siblings routed %d runs, want at most %d (each once)", len(cls), got, faults)
	}
}

// Says checks an outcome's words: it fails t (Errorf, prefixed with name)
// unless o's verdict is want, and once for each of words that o's evidence
// does not contain — for claims whose evidence must carry figures worked
// out by hand (an "inconclusive" that gives its reason, a count the test
// recomputes).
func Says(t testing.TB, name string, o props.Outcome, want props.Verdict, words ...string) {
	t.Helper()
	if o.Verdict != want {
		t.Errorf("%s: verdict %s, want %s: %s", name, o.Verdict, want, o.Evidence)
	}
	for _, w := range words {
		if !strings.Contains(o.Evidence, w) {
			t.Errorf("%s: evidence misses %q: %s", name, w, o.Evidence)
		}
	}
}

// claim is the registered claim id (the test fails if there is none).
func claim(t testing.TB, id string) props.Claim {
	t.Helper()
	cs, err := props.Claims("^" + regexp.QuoteMeta(id) + "$")
	if err != nil || len(cs) != 1 {
		t.Fatalf("claim %s: %d found, %v", id, len(cs), err)
	}
	return cs[0]
}
