package sortnet

import (
	"reflect"
	"slices"
	"testing"

	"routecheck/algos/aks"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// AKSExpanderInvariants with a fault that finds nothing to mutate reuses the
// real finding; differential test against the full run (shortcut off): the
// same finding and the same record of unmutated sizes, and the shortcut
// taken (one Mutate call instead of two). A fault that does mutate (the
// second half of the stages dropped) must not take it, and its finding
// must differ from the real one, so the comparison can see a difference.
func TestAKSExpanderInvariantsIdleFaultShortcut(t *testing.T) {
	const n, d, search, failing, random = 1 << 10, 8, 50, 4, 4
	seed := uint64(props.DefaultSeed)
	real, err := AKSExpanderInvariants(n, d, search, failing, random, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, noShortcut bool, mutate func(res *aks.Result) (msn.Network, bool)) (AKSInvariantFinding, []int, int) {
		t.Helper()
		calls := 0
		var missed []int
		f := &aksNetFault{Name: "test: " + name, missed: func(n int) { missed = append(missed, n) },
			Mutate: func(res *aks.Result) (msn.Network, bool) { calls++; return mutate(res) }}
		aksInvNoShortcut = noShortcut
		defer func() { aksInvNoShortcut = false }()
		got, err := AKSExpanderInvariants(n, d, search, failing, random, seed, f)
		if err != nil {
			t.Fatal(err)
		}
		return got, missed, calls
	}
	idle := func(res *aks.Result) (msn.Network, bool) { return res.Net, false }
	fast, fastMissed, fastCalls := run("idle, shortcut", false, idle)
	full, fullMissed, fullCalls := run("idle, full run", true, idle)
	if fastCalls != 1 || fullCalls != 2 {
		t.Errorf("Mutate calls: %d with the shortcut (want 1), %d without (want 2)", fastCalls, fullCalls)
	}
	if !reflect.DeepEqual(fast, full) || !reflect.DeepEqual(full, real) {
		t.Errorf("findings differ:\nshortcut %v\nfull     %v\nreal     %v", fast, full, real)
	}
	if want := []int{n, n}; !slices.Equal(fastMissed, want) || !slices.Equal(fullMissed, want) {
		t.Errorf("unmutated sizes recorded: %v with the shortcut, %v without, want %v", fastMissed, fullMissed, want)
	}
	cut, cutMissed, cutCalls := run("second half dropped", false, func(res *aks.Result) (msn.Network, bool) {
		return msn.Network{N: res.Net.N, Stages: res.Net.Stages[:len(res.Net.Stages)/2]}, true
	})
	if cutCalls != 2 || len(cutMissed) != 0 {
		t.Errorf("a mutating fault: %d Mutate calls (want 2), unmutated sizes %v (want none)", cutCalls, cutMissed)
	}
	if reflect.DeepEqual(cut, real) {
		t.Errorf("a network without its second half gave the real finding: %v", cut)
	}
}
