package popsds

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// nextLex advances p to the next permutation in lexicographic order.
func nextLex(p []int32) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// TestRankDst: the packet of global rank w in the key order (y mod g, y) has
// destination rankDst(w) — checked against sorting the destinations.
func TestRankDst(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 4, G: 2}, {D: 8, G: 4}, {D: 12, G: 4}} {
		ys := make([]int, sh.N())
		for y := range ys {
			ys[y] = y
		}
		slices.SortFunc(ys, func(a, b int) int {
			if a%sh.G != b%sh.G {
				return a%sh.G - b%sh.G
			}
			return a - b
		})
		for w, y := range ys {
			if got := rankDst(sh, w); got != y {
				t.Fatalf("%v: rankDst(%d) = %d, sorted order says %d", sh, w, got, y)
			}
		}
	}
}

// rigidShapes: every permutation at n ≤ 8 where all flag says so, else
// the given number of random ones.
var rigidShapes = []struct {
	sh     pops.Shape
	all    bool
	random int
}{
	{pops.Shape{D: 2, G: 2}, true, 0},
	{pops.Shape{D: 4, G: 2}, true, 0},
	{pops.Shape{D: 8, G: 2}, false, 40},
	{pops.Shape{D: 4, G: 4}, false, 20},
	{pops.Shape{D: 8, G: 4}, false, 20},
	{pops.Shape{D: 12, G: 4}, false, 10},
	{pops.Shape{D: 16, G: 4}, false, 5},
}

func forRigidPerms(t *testing.T, f func(sh pops.Shape, dst []int32)) {
	r := rand.New(rand.NewPCG(12, 0x8))
	for _, s := range rigidShapes {
		if s.all {
			p := perm.Identity(s.sh.N())
			for ok := true; ok; ok = nextLex(p) {
				f(s.sh, p)
			}
		}
		for range s.random {
			f(s.sh, perm.Random(s.sh.N(), r))
		}
	}
}

// TestRigidDeliversWithOnePattern: the rigid variant delivers every packet
// with no conflict, no missed reception and the closed slot count, and every
// processor's send groups, listen group and heard sender are the same, slot
// by slot, as on the identity — on every permutation of POPS(2,2) and
// POPS(4,2) and random ones beyond (d/g = 1 … 4, including d/g = 3, not a
// power of two). One Schedule run per permutation checks both.
func TestRigidDeliversWithOnePattern(t *testing.T) {
	type ref struct {
		sched      []SlotSchedule
		want, comp int
	}
	refs := map[pops.Shape]ref{}
	forRigidPerms(t, func(sh pops.Shape, dst []int32) {
		rf, ok := refs[sh]
		if !ok {
			var err error
			if rf.sched, _, err = Schedule(sh, perm.Identity(sh.N()), Options{Rigid: true}); err != nil {
				t.Fatal(err)
			}
			if rf.want, rf.comp, err = RigidSlots(sh); err != nil {
				t.Fatal(err)
			}
			refs[sh] = rf
		}
		sc, res, err := Schedule(sh, dst, Options{Rigid: true})
		if err != nil {
			t.Fatalf("%v %v: %v", sh, dst, err)
		}
		if !res.Completed || res.Conflicts != 0 || res.Misheard != 0 || res.Lost != 0 || res.Duplicated != 0 ||
			res.Slots != rf.want || res.SortSlots+res.MergeSlots+res.FinalSlots != res.Slots || res.MergeSlots+res.FinalSlots != rf.comp {
			t.Fatalf("%v %v: %+v, want every packet delivered cleanly in %d slots (%d after the sorts)", sh, dst, res, rf.want, rf.comp)
		}
		if d, ok := FirstDiff(rf.sched, sc, nil); ok {
			t.Fatalf("%v %v: the rigid variant's pattern differs from the identity's: %v", sh, dst, d)
		}
	})
}

// TestRigidPlantedCaught: the same comparison catches a planted
// data-dependent merge relay (proof-relevant: a listen group or heard
// sender differs), and the faithful completion, at POPS(4,2).
func TestRigidPlantedCaught(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	for _, o := range []Options{{Rigid: true, Mutant: MergeDataRelay}, {}} {
		ref, _, err := Schedule(sh, perm.Identity(sh.N()), o)
		if err != nil {
			t.Fatal(err)
		}
		p, caught := perm.Identity(sh.N()), false
		for nextLex(p) && !caught {
			sc, _, err := Schedule(sh, p, o)
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := FirstDiff(ref, sc, nil); ok {
				caught = true
				if !d.Kind.ProofRelevant() {
					t.Errorf("%+v: first difference %v is not proof-relevant", o, d)
				}
				if o.Rigid && d.Phase != PhaseMerge {
					t.Errorf("MergeDataRelay caught outside the merge: %v", d)
				}
			}
		}
		if !caught {
			t.Errorf("%+v: no permutation of POPS(4,2) changes the pattern", o)
		}
	}
}

// TestMergeKeepOwnCaught: with the last merge stage a no-op on the data
// the schedule is unchanged but the identity of POPS(4,2) is not delivered:
// sub-network 0 (processors 0, 1, 4, 5) sorts to the keys (y mod g, y) =
// (0,0),(0,4),(1,1),(1,5) and sub-network 1 to (0,2),(0,6),(1,3),(1,7), so
// the blocks interleave and the merge's last stage (the comparators (1,2),
// (3,4), (5,6) of global wires) has work to do — the fault the routes
// claim must catch.
func TestMergeKeepOwnCaught(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	id := perm.Identity(sh.N())
	res, err := RouteWith(sh, id, Options{Rigid: true, Mutant: MergeKeepOwn})
	if err != nil || res.Completed || res.Lost == 0 {
		t.Fatalf("identity under MergeKeepOwn: %+v %v; want packets lost", res, err)
	}
	ref, _, err := Schedule(sh, id, Options{Rigid: true})
	if err != nil {
		t.Fatal(err)
	}
	sc, _, err := Schedule(sh, id, Options{Rigid: true, Mutant: MergeKeepOwn})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := FirstDiff(ref, sc, nil); ok {
		t.Errorf("MergeKeepOwn changed the pattern: %v", d)
	}
}

// TestRigidSlotsClosedForm pins RigidSlots to a count derived without the
// router. Batcher's odd-even merge sort on n wires is the network on
// 2^L wires, L = ⌈log₂ n⌉, cut to n: L(L+1)/2 stages (merge p = 2^0 … 2^(L−1)
// has log₂ p + 1 stages), of which the first L0(L0+1)/2, L0 = 2 log₂ g, are
// the sub-network sorts. Each remaining stage and the delivery permutation
// are routed by Theorem 2.1's schedule in d/g rounds of 2 slots, so the
// completion is 2(d/g)·(1 + L(L+1)/2 − L0(L0+1)/2) and the total adds the
// d/g sorts of 2 slots per stage of the g²-wire network, (d/g)·L0(L0+1).
func TestRigidSlotsClosedForm(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 4, G: 2}, {D: 6, G: 2}, {D: 8, G: 2}, {D: 32, G: 2},
		{D: 4, G: 4}, {D: 12, G: 4}, {D: 16, G: 4}, {D: 20, G: 4}, {D: 8, G: 8}, {D: 24, G: 8}} {
		n, k := sh.N(), sh.D/sh.G
		l, l0 := 0, 0
		for 1<<l < n {
			l++
		}
		for 1<<l0 < sh.G*sh.G {
			l0++
		}
		merges := l*(l+1)/2 - l0*(l0+1)/2
		wantComp := 2 * k * (1 + merges)
		wantTotal := k*l0*(l0+1) + wantComp
		total, comp, err := RigidSlots(sh)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		if total != wantTotal || comp != wantComp {
			t.Errorf("%v: RigidSlots = %d (%d after the sorts), the closed form gives %d (%d): %d merge stages after the sorts", sh, total, comp, wantTotal, wantComp, merges)
		}
	}
}
