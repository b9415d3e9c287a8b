package sortnet

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	asn "routecheck/algos/sortnet"
	msn "routecheck/models/sortnet"
)

// SortnetLarge's packed engine gives the plain engine's report, field by
// field (witness included), on networks that sort and networks that do not
// — an AKS expander-halver network that misplaces items and Batcher's
// network with a comparator deleted — for plans with every kind of input;
// and the comparison sees a planted difference (the packed form of a
// network with one more comparator deleted).
func TestSortnetLargePackedSame(t *testing.T) {
	exp, bat := largeTestNets(t)
	del := bat.Clone()
	del.Stages[5] = slices.Delete(del.Stages[5], 0, 1)
	plan := SortnetLargePlan{Perms: 20, Weights01: 100, ClimbEvals: 60, Restarts: 1}
	every := SortnetLargePlan{Perms: 5, Every01: true, ClimbEvals: 30}
	for _, c := range []struct {
		name string
		nw   msn.Network
		plan SortnetLargePlan
	}{{"expander 2^12", exp, plan}, {"batcher 300", bat, every}, {"batcher 300 minus one", del, every}, {"batcher 300 minus one", del, plan}} {
		p, err := msn.Pack(c.nw, false)
		if err != nil {
			t.Fatal(err)
		}
		want := sortnetLarge(plainEngine(c.nw), 5, 6, c.plan)
		got := SortnetLargePacked(p, 5, 6, c.plan)
		if !reflect.DeepEqual(want, got) || !slices.Equal(want.Witness, got.Witness) {
			t.Fatalf("%s: plain %s (witness %v), packed %s", c.name, want.Summary(), want.Witness != nil, got.Summary())
		}
		if c.name == "expander 2^12" && want.Sorted() {
			t.Fatalf("%s: expected failures to compare (%s)", c.name, want.Summary())
		}
	}
	del2 := del.Clone()
	del2.Stages[9] = slices.Delete(del2.Stages[9], 0, 1)
	p, err := msn.Pack(del2, false)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(sortnetLarge(plainEngine(del), 5, 6, every), SortnetLargePacked(p, 5, 6, every)) {
		t.Fatal("a second deleted comparator went unnoticed")
	}
}

// The sorts checks' per-input steps give the same witnesses on the packed
// engine as on the plain one (sortnetCheckKeysOn on random permutations
// and structured inputs, Weight01.UnsortedBy on 0-1 inputs of every weight
// drawn from the same stream), on Batcher's network with a comparator
// deleted; a second deleted comparator changes them.
func TestSortsStepsPackedSame(t *testing.T) {
	bat, err := asn.OddEvenMergeSort(100)
	if err != nil {
		t.Fatal(err)
	}
	del := bat.Clone()
	del.Stages[4] = slices.Delete(del.Stages[4], 2, 3)
	del2 := del.Clone()
	del2.Stages[8] = slices.Delete(del2.Stages[8], 0, 1)
	run := func(e largeEngine) (out [][]int) {
		r := rand.New(rand.NewPCG(9, 9))
		for range 40 {
			xs := make([]int32, 100)
			for i, v := range r.Perm(100) {
				xs[i] = int32(v)
			}
			out = append(out, sortnetCheckKeysOn(e, xs))
		}
		st := asn.StructuredInputs(100)
		for _, name := range slices.Sorted(maps.Keys(st)) {
			out = append(out, sortnetCheckKeysOn(e, st[name]))
		}
		gen := asn.NewWeight01(100)
		for k := range 101 {
			_, z := gen.UnsortedBy(e.eval01, k, 101, r)
			out = append(out, z)
		}
		return out
	}
	p, err := msn.Pack(del, false)
	if err != nil {
		t.Fatal(err)
	}
	want, got := run(plainEngine(del)), run(packedEngine(p))
	if !reflect.DeepEqual(want, got) {
		t.Fatal("packed and plain witnesses differ")
	}
	found := 0
	for _, z := range want {
		if z != nil {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no witness to compare: the deletion was not seen")
	}
	p2, err := msn.Pack(del2, false)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(want, run(packedEngine(p2))) {
		t.Fatal("a second deleted comparator went unnoticed")
	}
}
