package sortnet

import (
	"reflect"
	"slices"
	"testing"

	"routecheck/algos/aks"
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
	exp, err := aks.ExpanderNet(1<<12, 8, 20261122)
	if err != nil {
		t.Fatal(err)
	}
	bat, err := asn.OddEvenMergeSort(300)
	if err != nil {
		t.Fatal(err)
	}
	del := bat.Clone()
	del.Stages[5] = slices.Delete(del.Stages[5], 0, 1)
	plan := SortnetLargePlan{Perms: 20, Weights01: 100, ClimbEvals: 60, Restarts: 1}
	every := SortnetLargePlan{Perms: 5, Every01: true, ClimbEvals: 30}
	for _, c := range []struct {
		name string
		nw   msn.Network
		plan SortnetLargePlan
	}{{"expander 2^12", exp.Net, plan}, {"batcher 300", bat, every}, {"batcher 300 minus one", del, every}, {"batcher 300 minus one", del, plan}} {
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
