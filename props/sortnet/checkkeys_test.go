package sortnet

import (
	"math/rand/v2"
	"slices"
	"testing"

	msn "routecheck/models/sortnet"
)

// sortnetCheckKeys returns exactly the witness of the threshold-by-threshold
// search (the smallest key whose threshold input is left unsorted), or nil
// exactly when it does: on random comparator networks (most of which do not
// sort) and on Batcher's networks with one random comparator deleted, for
// random permutations and keys with many repeats.
func TestSortnetCheckKeysMatchesThresholds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var nets []msn.Network
	for range 40 {
		n := 2 + r.IntN(30)
		nw := msn.Network{N: n}
		for range 1 + r.IntN(3*n) {
			i, j := r.IntN(n), r.IntN(n)
			if i == j {
				continue
			}
			nw.Stages = append(nw.Stages, msn.Stage{{I: int32(min(i, j)), J: int32(max(i, j))}})
		}
		nets = append(nets, nw)
	}
	for _, b := range SortnetBuilds {
		for _, n := range []int{8, 13, 32, 100} {
			nw, err := b.Build(n)
			if err != nil {
				t.Fatal(err)
			}
			nets = append(nets, nw) // sorts: nil from both
			for range 5 {
				cut := nw.Clone()
				s := r.IntN(len(cut.Stages))
				k := r.IntN(len(cut.Stages[s]))
				cut.Stages[s] = slices.Delete(cut.Stages[s], k, k+1)
				nets = append(nets, cut.Compact())
			}
		}
	}
	fails := 0
	for ni, nw := range nets {
		for trial := range 6 {
			xs := make([]int32, nw.N)
			for i, v := range r.Perm(nw.N) {
				xs[i] = int32(v)
			}
			if trial%2 == 1 { // repeated keys
				for i := range xs {
					xs[i] = int32(r.IntN(1 + trial))
				}
			}
			got, want := sortnetCheckKeys(nw, xs), sortnetCheckKeysByThreshold(nw, xs)
			if (got == nil) != (want == nil) || !slices.Equal(got, want) {
				t.Fatalf("network %d (n = %d), keys %v: witness %v, by thresholds %v", ni, nw.N, xs, got, want)
			}
			if got != nil {
				fails++
			}
		}
	}
	if fails < 50 {
		t.Fatalf("only %d inputs left unsorted: the comparison is nearly vacuous", fails)
	}
}
