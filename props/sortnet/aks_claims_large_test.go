package sortnet

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
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
	// A Mutate that records the sizes it is called on and could not
	// mutate, as snFault.tracked does, besides the fault's missed.
	run := func(name string, noShortcut bool, mutate func(res *aks.Result) (msn.Network, bool)) (AKSInvariantFinding, []int, bool) {
		t.Helper()
		var missed []int
		f := &aksNetFault{Name: "test: " + name, missed: func(n int) { missed = append(missed, -n) },
			Mutate: func(res *aks.Result) (msn.Network, bool) {
				nw, ok := mutate(res)
				if !ok {
					missed = append(missed, n)
				}
				return nw, ok
			}}
		aksInvNoShortcut = noShortcut
		defer func() { aksInvNoShortcut = false }()
		before := aksInvShortcuts.Load()
		got, err := AKSExpanderInvariants(n, d, search, failing, random, seed, f)
		if err != nil {
			t.Fatal(err)
		}
		return got, missed, aksInvShortcuts.Load() > before
	}
	idle := func(res *aks.Result) (msn.Network, bool) { return res.Net, false }
	fast, fastMissed, fastCut := run("idle, shortcut", false, idle)
	full, fullMissed, fullCut := run("idle, full run", true, idle)
	if !fastCut || fullCut {
		t.Errorf("shortcut taken: %v (want true), with it off: %v (want false)", fastCut, fullCut)
	}
	if !reflect.DeepEqual(fast, full) || !reflect.DeepEqual(full, real) {
		t.Errorf("findings differ:\nshortcut %v\nfull     %v\nreal     %v", fast, full, real)
	}
	if want := []int{n, -n, n, -n}; !slices.Equal(fastMissed, want) || !slices.Equal(fullMissed, want) {
		t.Errorf("unmutated sizes recorded: %v with the shortcut, %v without, want %v", fastMissed, fullMissed, want)
	}
	cut, cutMissed, cutCut := run("second half dropped", false, func(res *aks.Result) (msn.Network, bool) {
		return msn.Network{N: res.Net.N, Stages: res.Net.Stages[:len(res.Net.Stages)/2]}, true
	})
	if cutCut || len(cutMissed) != 0 {
		t.Errorf("a mutating fault: shortcut taken %v (want false), unmutated sizes %v (want none)", cutCut, cutMissed)
	}
	if reflect.DeepEqual(cut, real) {
		t.Errorf("a network without its second half gave the real finding: %v", cut)
	}
}

// snDropExchangingResumed against snDropExchanging (the plain one) on
// Batcher's networks (where the deletion is found), AKS-family networks
// (exact and expander separators; found or not) and a network that does
// not sort: the same mutant (stage by stage) and the same ok. Both
// outcomes must occur, and the comparison must tell a network from its
// copy without the last comparator.
func TestSnDropExchangingResumedMatchesPlain(t *testing.T) {
	same := func(a, b msn.Network) bool {
		if a.N != b.N || len(a.Stages) != len(b.Stages) {
			return false
		}
		for s := range a.Stages {
			if !slices.Equal(a.Stages[s], b.Stages[s]) {
				return false
			}
		}
		return true
	}
	var nets []msn.Network
	for n := 2; n <= 40; n++ {
		nw, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, nw)
	}
	for _, n := range []int{13, 64, 100, 1000} {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, res.Net)
	}
	for _, c := range [][2]int{{1 << 8, 4}, {1 << 10, 8}, {1 << 12, 16}} {
		res, err := aks.ExpanderNet(c[0], c[1], props.DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, res.Net)
	}
	bubbleHalf, _ := asn.OddEvenMergeSort(32)
	bubbleHalf.Stages = bubbleHalf.Stages[:len(bubbleHalf.Stages)/2]
	nets = append(nets, bubbleHalf)
	found, notFound := 0, 0
	for _, nw := range nets {
		want, wantOK := snDropExchanging(nw)
		got, gotOK := snDropExchangingResumed(nw)
		if gotOK != wantOK || !same(got, want) {
			t.Errorf("n = %d, %d stages: resumed gave ok = %v, size %d; plain ok = %v, size %d", nw.N, len(nw.Stages), gotOK, got.Size(), wantOK, want.Size())
		}
		if wantOK {
			found++
			if same(want, nw) {
				t.Errorf("n = %d: the mutant equals the network", nw.N)
			}
		} else {
			notFound++
		}
	}
	if found == 0 || notFound == 0 {
		t.Errorf("deletions found on %d networks, not on %d: both cases must be exercised", found, notFound)
	}
	nw := nets[10]
	if same(nw, dropLast(nw)) {
		t.Error("the comparison does not tell a network from its copy without the last comparator")
	}
}

// AKSExpanderInvariants traced from the network built once
// (aksExpanderInvariantsTraced; fault runs resumed from the real run's
// states before the finishing sorters) against the run that builds the
// network a second time with the chosen inputs and runs every input in
// full (aksInvRebuild): the same findings,
// the same misses recorded by the faults (in the evidence), with no fault,
// with the deletion fault (which mutates at some of these sizes and not at
// others) and with the final-merge fault, on networks with and without
// failing inputs. A network without its second half gives a finding that
// differs from the real one, so the comparison can see a difference.
func TestAKSInvariantsTracedSame(t *testing.T) {
	seed := uint64(props.DefaultSeed)
	type result struct {
		f      AKSInvariantFinding
		missed string
	}
	run := func(rebuild bool, n, d, search int, which string) result {
		t.Helper()
		aksInvCache.Clear()
		aksInvStates.Clear()
		aksInvRebuild = rebuild
		defer func() { aksInvRebuild = false; aksInvCache.Clear(); aksInvStates.Clear() }()
		var fault *aksNetFault
		missed := func() string { return "" }
		switch which {
		case "delete":
			g, m := aksFinisherDeleteFault.tracked()
			fault, missed = aksNetFaultOf(g), m
		case "final-merge", "half":
			var ns []int
			g := aksFinalMergeFault
			if which == "half" {
				g = aksNetFault{Name: "second half dropped", Mutate: func(res *aks.Result) (msn.Network, bool) {
					return msn.Network{N: res.Net.N, Stages: res.Net.Stages[:len(res.Net.Stages)/2]}, true
				}}
			}
			g.missed = func(n int) { ns = append(ns, n) }
			fault, missed = &g, func() string { return fmt.Sprint(ns) }
		}
		if fault != nil { // the real finding first, as in the ledger (the shortcut may use it)
			if _, err := AKSExpanderInvariants(n, d, search, 4, 4, seed, nil); err != nil {
				t.Fatal(err)
			}
		}
		f, err := AKSExpanderInvariants(n, d, search, 4, 4, seed, fault)
		if err != nil {
			t.Fatal(err)
		}
		return result{f, missed()}
	}
	failingSeen, mutatedSeen := false, false
	resumed := aksInvResumed.Load()
	for _, c := range []struct{ n, d, search int }{{256, 8, 60}, {1024, 8, 60}, {1024, 4, 40}} {
		for _, which := range []string{"", "delete", "final-merge"} {
			got, want := run(false, c.n, c.d, c.search, which), run(true, c.n, c.d, c.search, which)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("n = %d, d = %d, fault %q: traced %+v\nrebuilt %+v", c.n, c.d, which, got, want)
			}
			failingSeen = failingSeen || got.f.Failing > 0
			mutatedSeen = mutatedSeen || (which == "delete" && got.missed == "")
		}
	}
	if !failingSeen || !mutatedSeen || aksInvResumed.Load() == resumed {
		t.Fatalf("failing inputs traced: %v, deletion applied: %v, fault runs resumed from the real states: %v; the comparison needs all three", failingSeen, mutatedSeen, aksInvResumed.Load() > resumed)
	}
	if real, half := run(false, 1024, 8, 60, ""), run(false, 1024, 8, 60, "half"); reflect.DeepEqual(real.f, half.f) {
		t.Fatal("a network without its second half gives the real finding: the comparison cannot tell")
	}
}

// packedFindsNoDeletion decides as snDropExchanging and
// snDropExchangingResumed do, on networks where the rule finds a comparator
// to delete (Batcher's) and where it finds none (exact-separator AKS
// networks, whose finishing stages never exchange on random inputs; an
// empty network); and the comparison sees a planted difference (a probe
// that resumes without undoing the last exchange).
func TestPackedFindsNoDeletionSame(t *testing.T) {
	brokenProbe := func(p *msn.Packed) bool { // the exchange not undone
		for y := range snFaultDraws(p.N) {
			k := p.ApplyLastExchange(y)
			if k < 0 || !msn.Sorted(y) {
				continue
			}
			p.ApplyFrom(y, k+1)
			if !msn.Sorted(y) {
				return false
			}
		}
		return true
	}
	var nets []msn.Network
	for _, n := range []int{2, 17, 64, 300} {
		nw, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, nw)
		if nw, err = asn.BitonicSort(n); err != nil {
			t.Fatal(err)
		}
		nets = append(nets, nw)
	}
	for _, n := range []int{100, 1000, 3000} {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, res.Net)
	}
	nets = append(nets, msn.Network{N: 5}, msn.Network{N: 1})
	seen := map[bool]int{}
	brokenDiffers := false
	for _, nw := range nets {
		_, found := snDropExchanging(nw)
		_, foundResumed := snDropExchangingResumed(nw)
		p, err := msn.Pack(nw, false)
		if err != nil {
			t.Fatal(err)
		}
		none := packedFindsNoDeletion(p)
		if none == found || none == foundResumed {
			t.Errorf("n = %d, size %d: packed probe finds none %v; snDropExchanging found %v, resumed found %v", nw.N, nw.Size(), none, found, foundResumed)
		}
		seen[none]++
		brokenDiffers = brokenDiffers || brokenProbe(p) != none
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("only one outcome compared: %v", seen)
	}
	if !brokenDiffers {
		t.Error("the comparison missed a probe that does not undo the last exchange")
	}
}

// The deletion fault of sortnet/aks/exact-halver/sorts-large, served from
// the claim's run where the rule is known to find nothing (no rebuild),
// reaches the outcome of the full fault run, evidence included; and it is
// served so at least once.
func TestAKSExactDeleteShortcutSame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the n = 3000 exact network three times")
	}
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	if o := aksLargeCheckExact(nil)(env); o.Verdict != props.Holds {
		t.Fatalf("claim: %s %s", o.Verdict, o.Evidence)
	}
	fault := snFaultCheck(aksLargeDeleteFault, aksLargeCheckExact)
	before := aksExactShortcuts.Load()
	got := fault.Check(env)
	if aksExactShortcuts.Load() == before {
		t.Fatal("the fault run was not served from the claim's run")
	}
	aksExactNoShortcut = true
	want := fault.Check(env)
	aksExactNoShortcut = false
	if !reflect.DeepEqual(got, want) {
		t.Errorf("served: %+v\nfull run: %+v", got, want)
	}
	if !strings.Contains(got.Evidence, "found nothing to mutate at n = [3000]") {
		t.Errorf("the evidence does not say the network ran unchanged: %s", got.Evidence)
	}
}
