package sot

import (
	"math"
	"math/big"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// sotTwoLinesBound by hand: on SOT(4) P0 sends 5 packets (to P1, P1, P2,
// P3, P3) and P2 receives 3 (from P0 and twice from P1), so L = 5 and the
// bound is n − 1 + ⌈5/2⌉ = 6 with two lines, n − 1 + 5 = 8 with one.
func TestSotTwoLinesBoundByHand(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 1}, {Src: 0, Dst: 2}, {Src: 0, Dst: 3}, {Src: 0, Dst: 3}, {Src: 1, Dst: 2}, {Src: 1, Dst: 2}}
	if L := sotLoad(4, rel); L != 5 {
		t.Errorf("L = %d, want 5", L)
	}
	if b := sotTwoLinesBound(4, rel, 2); b != 6 {
		t.Errorf("two lines: %d, want 6", b)
	}
	if b := sotTwoLinesBound(4, rel, 1); b != 8 {
		t.Errorf("one line: %d, want 8", b)
	}
	if b := sotTwoLinesBound(4, nil, 2); b != 0 {
		t.Errorf("no packets: %d, want 0", b)
	}
}

// The bound is attained: on SOT(2), P1 with two packets for P0 under
// greedy-b-edge-first injects both at step 0 (no packet passes) and both
// arrive after n = 2 hops: T = 2 = n − 1 + ⌈2/2⌉.
func TestSotTwoLinesBoundAttained(t *testing.T) {
	rel := []perm.Pair{{Src: 1, Dst: 0}, {Src: 1, Dst: 0}}
	res, _, err := asot.Route(asot.GreedyBEdgeFirst, 2, rel, seeds.Rand(1), asot.Options{})
	if err != nil || !res.Complete {
		t.Fatalf("%v %+v", err, res)
	}
	if res.Steps != 2 || sotTwoLinesBound(2, rel, 2) != 2 {
		t.Errorf("steps %d, bound %d; want 2 and 2", res.Steps, sotTwoLinesBound(2, rel, 2))
	}
}

// §2.3 by hand: 512 bit × 299 792 458 m/s / 10^10 bit/s = 15.349 m in
// vacuum; ÷ 1.5 = 10.233 m; × 1.5 = 23.024 m.
func TestSotPacketLengthByHand(t *testing.T) {
	o := sotPaperOptics()
	for _, c := range []struct {
		n       *big.Rat
		printed bool
		want    float64
	}{{big.NewRat(1, 1), true, 15.349373}, {big.NewRat(3, 2), false, 10.232915}, {big.NewRat(3, 2), true, 23.024060}} {
		if got := sotRatF(sotPacketLength(o, c.n, c.printed)); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("n = %s printed = %v: %.6f m, want %.6f", c.n.RatString(), c.printed, got, c.want)
		}
	}
	if !sotAbout(big.NewRat(11, 1), 10) || sotAbout(big.NewRat(111, 10), 10) || !sotAbout(big.NewRat(9, 1), 10) {
		t.Error("sotAbout is not the closed band ±10%")
	}
}

// ln 16 / ln ln 16 = 2.7726 / 1.0198 = 2.7188.
func TestSotWLogLogF(t *testing.T) {
	if got := sotWLogLogF(16); math.Abs(got-2.7188) > 1e-3 {
		t.Errorf("f(16) = %.4f, want 2.7188", got)
	}
}
