package hillclimb

import (
	"math/rand/v2"
	"reflect"
	"testing"

	asn "routecheck/algos/sortnet"
	"routecheck/models/sortnet"
)

// ClimbPacked walks exactly as Climb (same seed, same network: the same
// Result, field by field) for every kind of guide, on a network that
// misplaces items (Batcher's minus its last stage) and on one that sorts;
// and the comparison sees a planted difference (the packed form of the
// network minus one more stage).
func TestClimbPackedMatchesClimb(t *testing.T) {
	full, err := asn.OddEvenMergeSort(200)
	if err != nil {
		t.Fatal(err)
	}
	cut := withoutLastStage(full)
	for _, nw := range []sortnet.Network{full, cut} {
		p, err := sortnet.Pack(nw, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, gd := range []int{0, -1, 5, nw.Depth(), nw.Depth() + 3} {
			opt := Options{Evals: 150, Restarts: 1, GuideDepth: gd}
			a := Climb(nw, rand.New(rand.NewPCG(3, uint64(gd+10))), opt)
			b := ClimbPacked(p, rand.New(rand.NewPCG(3, uint64(gd+10))), opt)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("depth %d, guide depth %d: Climb %+v, ClimbPacked %+v", nw.Depth(), gd, a, b)
			}
		}
	}
	p, err := sortnet.Pack(withoutLastStage(cut), false)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Evals: 150}
	if reflect.DeepEqual(Climb(cut, rand.New(rand.NewPCG(4, 4)), opt), ClimbPacked(p, rand.New(rand.NewPCG(4, 4)), opt)) {
		t.Fatal("a network with one stage fewer climbed identically")
	}
}
