package sot

import (
	"math"
	"math/big"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
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

// sotIdleRounds with k = 2 on SOT(4): in round 0 (T < 4) nothing changes;
// in round 1 (T = 4…7) injections on either output are dropped and a
// passing packet's move is kept; k ≤ 1 never changes anything.
func TestSotIdleRoundsByHand(t *testing.T) {
	s, err := msot.NewState(4, []perm.Pair{{Src: 0, Dst: 1}, {Src: 1, Dst: 2}})
	if err != nil {
		t.Fatal(err)
	}
	act := func() []msot.Action {
		a := make([]msot.Action, 16)
		a[s.ProcNode(0)] = msot.Action{Right: msot.Inject(0)}
		a[s.ProcNode(1)] = msot.Action{Down: msot.Inject(1), Right: msot.FromLeft}
		return a
	}
	idle := sotIdleRounds(func(int) int { return 2 })
	for _, c := range []struct {
		T       int
		k       sotTamper
		dropped bool
	}{{0, idle, false}, {3, idle, false}, {4, idle, true}, {7, idle, true}, {8, idle, false}, {5, sotIdleRounds(func(int) int { return 1 }), false}} {
		s.T = c.T
		a := act()
		c.k(&s, a)
		p0, p1 := a[s.ProcNode(0)], a[s.ProcNode(1)]
		if p1.Right != msot.FromLeft {
			t.Errorf("T = %d: passing packet's move changed to %v", c.T, p1.Right)
		}
		if got := p0.Right == msot.None && p1.Down == msot.None; got != c.dropped {
			t.Errorf("T = %d: injections %v, %v; want dropped = %v", c.T, p0.Right, p1.Down, c.dropped)
		}
	}
}

// sotWindowTargets: on SOT(32) every packet of P_i goes to one of
// P_(i+1) … P_(i+4) mod 32 (n/8 = 4), each processor sends per packets,
// and all four offsets occur.
func TestSotWindowTargets(t *testing.T) {
	const n, per = 32, 50
	rel := sotWindowTargets(n, per, seeds.Rand(1, 2))
	if len(rel) != n*per {
		t.Fatalf("%d packets, want %d", len(rel), n*per)
	}
	sent := make([]int, n)
	seen := map[int]bool{}
	for _, p := range rel {
		off := (int(p.Dst) - int(p.Src) + n) % n
		if off < 1 || off > 4 {
			t.Fatalf("P%d → P%d: offset %d outside 1…4", p.Src, p.Dst, off)
		}
		seen[off] = true
		sent[p.Src]++
	}
	for i, k := range sent {
		if k != per {
			t.Errorf("P%d sends %d, want %d", i, k, per)
		}
	}
	if len(seen) != 4 {
		t.Errorf("offsets seen %v, want all of 1…4", seen)
	}
}
