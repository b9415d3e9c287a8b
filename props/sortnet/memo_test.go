package sortnet

import (
	"reflect"
	"slices"
	"testing"

	"routecheck/algos/aks"
	msn "routecheck/models/sortnet"
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
	size := res.Net.Size()
	if size == 0 {
		t.Fatal("the AKS network has no comparators")
	}
	// aksExactLargeReport consumes the network it is given (it packs it stage
	// by stage), so every call gets its own copy; res.Net stays whole for
	// the comparisons below.
	for _, seed := range []uint64{props.DefaultSeed, 5} {
		want := SortnetLarge(res.Net.Clone(), seed, n, c.plan)
		for range 2 { // the second call is served from the cache
			if got := aksExactLargeReport(props.Env{Seed: seed}, c, res.Net.Clone(), aksExactShape{}); !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d: memoized report %+v, want %+v", seed, got, want)
			}
		}
	}
	if res.Net.Size() != size {
		t.Fatalf("the network lost comparators (%d → %d): the calls above did not get copies", size, res.Net.Size())
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

// A fault that finds nothing to mutate at the sizes it applies to is served
// the real run (no rerun of those sizes) with the same evidence and the
// same record of unmutated sizes as its resumed run; a fault that mutates
// is not, and still reaches its resumed run's failure.
func TestSortnetSortsUnchangedSame(t *testing.T) {
	plan := snSortsPlan{MaxExh: [3]int{6, 6, 6}, MaxN: [3]int{1 << 9, 1 << 9, 1 << 9}, Perms: [3]int{2, 2, 2}}
	env := props.Env{Budget: props.Small, Seed: 13}
	_, maxN, _ := plan.at(env.Budget)
	idle := snFault{Name: "test: nothing to mutate", At: func(_ props.Env, n int) bool { return n >= maxN-1 },
		Mutate: func(nw msn.Network) (msn.Network, bool) { return nw, false }}
	del := snDeleteFault("test", func(_ props.Env, n int) bool { return n >= maxN-1 })
	for _, b := range SortnetBuilds {
		for _, f := range []snFault{idle, del} {
			run := func(off bool) (string, *SortnetFailure, string) {
				g, missed := f.tracked()
				snSortsNoUnchanged = off
				defer func() { snSortsNoUnchanged = false }()
				ev, bad := sortnetSortsShared(plan, b, g, env)
				return ev, bad, missed()
			}
			before := snSortsUnchangedRuns.Load()
			ev, bad, missed := run(false)
			served := snSortsUnchangedRuns.Load() > before
			wantEv, wantBad, wantMissed := run(true)
			if ev != wantEv || !reflect.DeepEqual(bad, wantBad) || missed != wantMissed {
				t.Errorf("%s, %s: served %q %+v %q; resumed run %q %+v %q", b.Name, f.Name, ev, bad, missed, wantEv, wantBad, wantMissed)
			}
			if served != (f.Name == idle.Name) {
				t.Errorf("%s, %s: served from the real run: %v", b.Name, f.Name, served)
			}
			if f.Name == idle.Name && (bad != nil || missed == "") {
				t.Errorf("%s: the idle fault: failure %+v, misses %q", b.Name, bad, missed)
			}
			if f.Name == del.Name && bad == nil {
				t.Errorf("%s: the deletion (known to matter) not caught", b.Name)
			}
		}
	}
}

// sortnetSortsRun with its random permutations run snSortsGroup at a time
// against one at a time (the run as it was before the passes): the same
// evidence and the same failure, for both of Batcher's networks, real and
// with a comparator deleted from different sizes on, 11 permutations a
// size (a whole pass and a ragged one). The faults must be caught (by
// random permutations, here); a run that judged a pass's permutations
// last first was seen to fail this test.
func TestSortnetSortsGroupSame(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 17}
	const maxExh, maxN, perms = 4, 1 << 9, 11
	run := func(group int, nw SortnetBuild) (string, *SortnetFailure) {
		old := snSortsGroup
		snSortsGroup = group
		defer func() { snSortsGroup = old }()
		return sortnetSortsRun(nw, env, maxExh, maxN, perms, nil, nil)
	}
	failures := 0
	for _, b := range SortnetBuilds {
		builds := []SortnetBuild{b}
		for _, at := range []int{maxN - 1, 200, 20} {
			g, _ := snDeleteFault("test", func(_ props.Env, n int) bool { return n >= at }).tracked()
			builds = append(builds, g.build(b, env))
		}
		// A last-stage comparator deleted from n = 100 on: a fault only
		// some permutations show.
		builds = append(builds, SortnetBuild{Name: b.Name, Build: func(n int) (msn.Network, error) {
			nw, err := b.Build(n)
			if err != nil || n < 100 {
				return nw, err
			}
			nw = nw.Clone()
			last := len(nw.Stages) - 1
			nw.Stages[last] = slices.Delete(nw.Stages[last], len(nw.Stages[last])/2, len(nw.Stages[last])/2+1)
			return nw, nil
		}})
		for k, nw := range builds {
			ev, bad := run(snSortsGroup, nw)
			wantEv, wantBad := run(1, nw)
			if ev != wantEv || !reflect.DeepEqual(bad, wantBad) {
				t.Fatalf("%s, build %d: in passes %q %+v, one at a time %q %+v", b.Name, k, ev, bad, wantEv, wantBad)
			}
			if bad != nil {
				failures++
			}
		}
	}
	if failures < 2*(len(SortnetBuilds)) {
		t.Fatalf("%d failures found: the comparison needs the faults caught", failures)
	}
}
