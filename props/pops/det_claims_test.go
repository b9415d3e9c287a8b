package pops

import (
	"slices"
	"testing"

	"routecheck/algos/popsdet"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/models/sortnet"
)

// The §II-A property bodies can fail: a network one stage short of odd-even
// transposition leaves the reversal unsorted, a stage whose extension breaks
// an exchange is refused, and a non-permutation is refused.
func TestPopsDetPropsCanFail(t *testing.T) {
	sh := mpops.Shape{D: 2, G: 3}
	n := sh.N()
	nw := popsdet.OddEvenTransposition(n)
	nw.Stages = nw.Stages[:n-1]
	r, err := popsdet.NewSortRouter(sh, nw)
	if err != nil {
		t.Fatal(err)
	}
	rev := perm.Identity(n)
	slices.Reverse(rev)
	if why := PopsDetSortRoute(r, sh, n-1, rev); why == "" {
		t.Error("a network of depth n−1 judged to deliver the reversal")
	}
	full, err := popsdet.NewSortRouter(sh, popsdet.OddEvenTransposition(n))
	if err != nil {
		t.Fatal(err)
	}
	if why := PopsDetSortRoute(full, sh, n, rev); why != "" {
		t.Errorf("odd-even transposition on the reversal: %s", why)
	}
	st := sortnet.Stage{{I: 0, J: 1}}
	if why := PopsDetStage(sh, st, make([]int, n), perm.Identity(n)); why == "" {
		t.Error("an extension that does not exchange 0 and 1 accepted")
	}
	if why := PopsDetOffline(sh, []int32{0, 0, 1, 2, 3, 4}); why == "" {
		t.Error("a non-permutation accepted")
	}
}
