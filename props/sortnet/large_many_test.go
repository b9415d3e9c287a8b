package sortnet

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	msn "routecheck/models/sortnet"
)

// largeTestNets are the networks the SortnetLarge tests run: the AKS
// expander-halver network on 2^12 wires (8 matchings a halver), which
// misplaces items now and then, and Batcher's odd-even network on 300
// wires (to delete comparators from).
func largeTestNets(t *testing.T) (exp, bat msn.Network) {
	res, err := aks.ExpanderNet(1<<12, 8, 20261122)
	if err != nil {
		t.Fatal(err)
	}
	bat, err = asn.OddEvenMergeSort(300)
	if err != nil {
		t.Fatal(err)
	}
	return res.Net, bat
}

// largeInputsOneByOne is what sortnetLarge reports of its random
// permutations and structured inputs, computed the simple way: each
// permutation drawn from PCG(seed, stream) and run alone, in order, then
// each structured input (by name); judged as sortnetLarge judges them.
func largeInputsOneByOne(nw msn.Network, seed, stream uint64, perms int) *SortnetLargeReport {
	r := rand.New(rand.NewPCG(seed, stream))
	rep := &SortnetLargeReport{N: nw.N}
	for p := range perms {
		xs := snPerm(r, nw.N)
		out := slices.Clone(xs)
		msn.Apply(nw, out)
		rep.judgePerm(p, xs, out, seed, stream)
	}
	st := asn.StructuredInputs(nw.N)
	for _, name := range slices.Sorted(maps.Keys(st)) {
		out := slices.Clone(st[name])
		msn.Apply(nw, out)
		rep.judgeStructured(name, st[name], out)
	}
	return rep
}

// sortnetLarge runs its permutations and structured inputs in groups
// (largeEngine.applyMany: msn.Packed.ApplyMany on the packed engine) and
// reports what running them one by one reports (largeInputsOneByOne),
// witness and its text included: on an AKS expander-halver network on
// 2^12 wires (of the first 21 permutations of PCG(5, 6) it leaves only
// the 8th unsorted: the last of the first group) and on Batcher's
// odd-even network on 300 wires with the first comparator of its last
// stage deleted (it leaves organ-pipe unsorted and 2 of the first 16
// permutations: with 0 or 3 permutations the witness is the structured
// input's, with 16 the 6th permutation's), with numbers of permutations
// below, at and beyond whole groups. The comparison sees a planted fault: an applyMany
// that leaves the last input of each group unrun.
func TestSortnetLargeGroupsAsOneByOne(t *testing.T) {
	exp, bat := largeTestNets(t)
	del := bat.Clone()
	last := len(del.Stages) - 1
	del.Stages[last] = slices.Delete(del.Stages[last], 0, 1)
	inputsOnly := func(rep *SortnetLargeReport) *SortnetLargeReport {
		return &SortnetLargeReport{N: rep.N, Perms: rep.Perms, PermsUnsorted: rep.PermsUnsorted, PermsWorst: rep.PermsWorst, PermsMisTotal: rep.PermsMisTotal,
			Structured: rep.Structured, StructBad: rep.StructBad, Witness: rep.Witness, How: rep.How}
	}
	for _, c := range []struct {
		name  string
		nw    msn.Network
		perms []int
	}{{"expander 2^12", exp, []int{1, 7, 8, 9, 21}}, {"odd-even 300 minus one", del, []int{0, 3, 16}}} {
		p, err := msn.Pack(c.nw, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, perms := range c.perms {
			want := largeInputsOneByOne(c.nw, 5, 6, perms)
			got := inputsOnly(SortnetLargePacked(p, 5, 6, SortnetLargePlan{Perms: perms}))
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%s, %d permutations: one by one %s (%s), in groups %s (%s)", c.name, perms, want.Summary(), want.How, got.Summary(), got.How)
			}
			if perms == c.perms[len(c.perms)-1] && want.Witness == nil {
				t.Fatalf("%s, %d permutations: no failure to compare (%s)", c.name, perms, want.Summary())
			}
		}
	}
	p, err := msn.Pack(exp, false)
	if err != nil {
		t.Fatal(err)
	}
	skipLast := packedEngine(p)
	skipLast.applyMany = func(xss [][]int32) { p.ApplyMany(xss[:len(xss)-1]) }
	want := largeInputsOneByOne(exp, 5, 6, 21)
	if reflect.DeepEqual(want, inputsOnly(sortnetLarge(skipLast, 5, 6, SortnetLargePlan{Perms: 21}))) {
		t.Fatal("an applyMany that skips the last input of each group went unnoticed")
	}
}
