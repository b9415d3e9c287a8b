package sortnet

import (
	"sync"

	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// sameNetwork reports that a and b are the same network value: the same
// stages, not merely equal ones (a fault's Mutate returns its input itself
// when it finds nothing to mutate, and a copy otherwise).
func sameNetwork(a, b msn.Network) bool {
	return a.N == b.N && len(a.Stages) == len(b.Stages) && (len(a.Stages) == 0 || &a.Stages[0] == &b.Stages[0])
}

// aksExactKey names one size of sortnet/aks/exact-halver/sorts-large's
// check on the real exact-separator network: its report depends on nothing
// else (the network is determined by n; the inputs by seed, n and plan).
type aksExactKey struct {
	seed uint64
	c    aksLargeCase
}

type aksExactEntry struct {
	once sync.Once
	rep  *SortnetLargeReport
}

var aksExactReports sync.Map // aksExactKey → *aksExactEntry

// aksExactLargeReport is SortnetLarge on nw — the real exact-separator
// network for c.n, which the caller has just built — computed once per
// process for (seed, case). Callers must not modify the report.
func aksExactLargeReport(env props.Env, c aksLargeCase, nw msn.Network) *SortnetLargeReport {
	v, _ := aksExactReports.LoadOrStore(aksExactKey{env.Seed, c}, &aksExactEntry{})
	e := v.(*aksExactEntry)
	e.once.Do(func() { e.rep = SortnetLarge(nw, env.Seed, uint64(c.n), c.plan) })
	return e.rep
}
