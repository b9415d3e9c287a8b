package sortnet

import (
	"reflect"
	"testing"

	"routecheck/algos/aks"
	"routecheck/props"
)

// The memoized exact-network report is SortnetLarge's on that network, per
// seed; and sameNetwork tells the network a fault left alone from the copy
// it returns after a deletion.
func TestAKSExactLargeReportMemo(t *testing.T) {
	const n = 300
	res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
	if err != nil {
		t.Fatal(err)
	}
	c := aksLargeCase{n, SortnetLargePlan{Perms: 3, Weights01: 8, ClimbEvals: 10}}
	for _, seed := range []uint64{props.DefaultSeed, 5} {
		want := SortnetLarge(res.Net, seed, n, c.plan)
		for range 2 { // the second call is served from the cache
			if got := aksExactLargeReport(props.Env{Seed: seed}, c, res.Net, aksExactShape{}); !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d: memoized report %+v, want %+v", seed, got, want)
			}
		}
	}
	if !sameNetwork(res.Net, res.Net) {
		t.Error("a network is not the same as itself")
	}
	if del, ok := snDropExchanging(res.Net); ok && sameNetwork(del, res.Net) {
		t.Error("the network with a comparator deleted counts as the same network")
	}
	if sameNetwork(res.Net.Clone(), res.Net) {
		t.Error("a copy counts as the same network")
	}
}

// A fault resumed from the real run at its first mutated size reaches the
// same evidence and failure as the fault run from the start, for both of
// Batcher's networks; the memoized real run is SortnetSorts's.
func TestSortnetSortsResume(t *testing.T) {
	plan := snSortsPlan{MaxExh: [3]int{6, 6, 6}, MaxN: [3]int{1 << 9, 1 << 9, 1 << 9}, Perms: [3]int{2, 2, 2}}
	env := props.Env{Budget: props.Small, Seed: 11}
	for _, b := range SortnetBuilds {
		maxExh, maxN, perms := plan.at(env.Budget)
		wantEv, wantBad := SortnetSorts(b, env, maxExh, maxN, perms)
		if ev, bad := sortnetSortsShared(plan, b, nil, env); ev != wantEv || !reflect.DeepEqual(bad, wantBad) {
			t.Errorf("%s: memoized real run %q %+v, want %q %+v", b.Name, ev, bad, wantEv, wantBad)
		}
		for _, at := range []int{maxN - 1, 200, 64} {
			f := snDeleteFault("test", func(_ props.Env, n int) bool { return n >= at })
			g, _ := f.tracked()
			ev, bad := sortnetSortsShared(plan, b, g, env)
			wantEv, wantBad := sortnetSortsRun(g.build(b, env), env, maxExh, maxN, perms, nil, nil)
			if ev != wantEv || !reflect.DeepEqual(bad, wantBad) {
				t.Errorf("%s, fault from n = %d: resumed %q %+v, from the start %q %+v", b.Name, at, ev, bad, wantEv, wantBad)
			}
			if bad == nil {
				t.Errorf("%s, fault from n = %d: not caught (the deletion is known to matter)", b.Name, at)
			}
		}
	}
}
