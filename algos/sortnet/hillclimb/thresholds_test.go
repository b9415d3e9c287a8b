package hillclimb

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	asn "routecheck/algos/sortnet"
	"routecheck/models/sortnet"
)

// The threshold batches change nothing: Climb and ClimbPacked give the same
// Result, field by field, and leave the random stream at the same place,
// with the batches on and off — on sorting networks (every proposal checked
// in batches), on one whose rare failures the walk meets after starting
// sorted (Batcher's with one last-stage comparator deleted: batches that
// meet an unsorted proposal, then full runs), on one that misplaces from
// the start, on 2 and 3 wires, for every kind of guide, with restarts and a
// given start. Both paths of a batch are exercised (counted); and the
// comparison sees a planted bug in the batches (every lane taken as
// sorted).
func TestClimbThresholdsSame(t *testing.T) {
	counting0 := countBatches
	countBatches = true
	defer func() { countBatches = counting0 }()
	var nets []sortnet.Network
	for _, n := range []int{2, 3, 64, 200, 1000} {
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
	rare, err := asn.OddEvenMergeSort(256)
	if err != nil {
		t.Fatal(err)
	}
	last := len(rare.Stages) - 1
	rare.Stages[last] = slices.Delete(slices.Clone(rare.Stages[last]), 3, 4)
	nets = append(nets, rare, withoutLastStage(nets[5]))
	climbBoth := func(nw sortnet.Network, p *sortnet.Packed, opt Options, seed uint64) (Result, Result, uint64, uint64) {
		r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
		a, b := Climb(nw, r1, opt), ClimbPacked(p, r2, opt)
		return a, b, r1.Uint64(), r2.Uint64()
	}
	runs0, misses0 := batchRuns, batchMisses
	plantedSeen := false
	for k, nw := range nets {
		p, err := sortnet.Pack(nw, false)
		if err != nil {
			t.Fatal(err)
		}
		start := make([]int32, nw.N)
		for i := range start {
			start[i] = int32(i)
		}
		for _, opt := range []Options{
			{Evals: 600},
			{Evals: 500, Restarts: 2},
			{Evals: 300, GuideDepth: -1},
			{Evals: 300, GuideDepth: 3},
			{Evals: 300, Restarts: 1, Start: start},
		} {
			name := fmt.Sprintf("net %d (n = %d, size %d), %+v", k, nw.N, nw.Size(), opt)
			noThresholds = true
			wantA, wantB, wantRA, wantRB := climbBoth(nw, p, opt, uint64(k))
			noThresholds = false
			gotA, gotB, gotRA, gotRB := climbBoth(nw, p, opt, uint64(k))
			if !reflect.DeepEqual(gotA, wantA) || gotRA != wantRA {
				t.Fatalf("%s: Climb with batches %+v, without %+v", name, gotA, wantA)
			}
			if !reflect.DeepEqual(gotB, wantB) || gotRB != wantRB {
				t.Fatalf("%s: ClimbPacked with batches %+v, without %+v", name, gotB, wantB)
			}
			plantMissUnsorted = true
			badA, _, _, _ := climbBoth(nw, p, opt, uint64(k))
			plantMissUnsorted = false
			plantedSeen = plantedSeen || !reflect.DeepEqual(badA, wantA)
		}
	}
	if batchRuns == runs0 || batchMisses == misses0 {
		t.Fatalf("batches run %d, of which met an unsorted proposal %d: both paths must be compared", batchRuns-runs0, batchMisses-misses0)
	}
	if !plantedSeen {
		t.Fatal("the comparison missed batches that take every lane as sorted")
	}
}
