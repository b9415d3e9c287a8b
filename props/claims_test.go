package props_test

// The ledger runs from an external test package so that it can import
// every network's claims package (each registers its claims in its init
// functions); ledger_imports_test.go lists them.

import (
	"flag"
	"runtime/debug"
	"sync"
	"testing"

	"routecheck/props"
)

var claimFilter = flag.String("claims.filter", "", "regular expression selecting the claims TestClaims checks")

// TestClaims is the ledger as a regression test: every registered claim is
// checked at the small budget (in -short mode claims slower than a few
// seconds are skipped) and must reach the verdict recorded for it — a claim
// recorded as violated must still be found violated. The subtests run in
// parallel (-parallel, default one per core) under a memory budget like
// `routecheck claims`'s (1 GiB of the claims' estimates in flight; a claim
// over it runs alone); no verdict depends on the order.
func TestClaims(t *testing.T) {
	claims, err := props.Claims(*claimFilter)
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) == 0 {
		t.Fatal("no claims registered")
	}
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	mem := &memBudget{limit: 1 << 30}
	mem.cond = sync.NewCond(&mem.mu)
	soft := int64(0)
	for _, c := range claims {
		soft = max(soft, c.MemFor(env.Budget))
	}
	// As `routecheck claims`: the collector keeps the heap near the budget
	// (or the largest claim's estimate) instead of letting garbage double it.
	old := debug.SetMemoryLimit(max(mem.limit-mem.limit/16, soft))
	t.Cleanup(func() { debug.SetMemoryLimit(old) }) // after the parallel subtests
	for _, c := range claims {
		t.Run(c.ID, func(t *testing.T) {
			if testing.Short() && c.SlowInShort {
				t.Skip("slow claim: skipped in -short mode")
			}
			t.Parallel()
			release := mem.acquire(c.MemFor(env.Budget))
			r := props.Run(c, env)
			release()
			if !r.Matches {
				t.Errorf("verdict %s, recorded %s\nevidence: %s\ncounterexample: %v\nreplay: %s", r.Verdict, r.Recorded, r.Evidence, r.Counterexample, r.Replay)
				return
			}
			// A violated claim stays a regression test of the whole finding:
			// the counterexample (shrunk where the check shrinks) and the
			// line that replays it.
			if r.Verdict == props.Violated && r.Counterexample == nil {
				t.Errorf("violated without a counterexample (evidence: %s)", r.Evidence)
			}
			if r.Replay == "" {
				t.Error("no replay command")
			}
			t.Logf("%s (%.2fs): %s", r.Verdict, r.Seconds, r.Evidence)
		})
	}
}

// memBudget admits claims in arrival order while the sum of the estimates
// of those running stays within limit (a claim over it runs when nothing
// else does).
type memBudget struct {
	mu         sync.Mutex
	cond       *sync.Cond
	limit      int64
	held       int64
	next, serv uint64 // tickets: a claim waits for the ones before it
}

func (m *memBudget) acquire(cost int64) (release func()) {
	m.mu.Lock()
	ticket := m.next
	m.next++
	for ticket != m.serv || (m.held > 0 && m.held+cost > m.limit) {
		m.cond.Wait()
	}
	m.serv++
	m.held += cost
	m.mu.Unlock()
	m.cond.Broadcast()
	return func() {
		m.mu.Lock()
		m.held -= cost
		m.mu.Unlock()
		m.cond.Broadcast()
	}
}

// TestRegistryPowerAndClass: every registered claim has a valid scope class,
// and no claim is recorded holds or consistent without a planted fault.
func TestRegistryPowerAndClass(t *testing.T) {
	cs, _ := props.Claims("")
	for _, c := range cs {
		if !props.ValidClass(c.Class) {
			t.Errorf("%s: scope class %q", c.ID, c.Class)
		}
		for _, b := range []props.Budget{props.Small, props.Default, props.Large} {
			if v := c.RecordedFor(b); (v == props.Holds || v == props.Consistent) && len(c.Faults) == 0 {
				t.Errorf("%s: recorded %s at budget %s with no planted fault", c.ID, v, b)
			}
		}
	}
}
