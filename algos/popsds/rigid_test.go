package popsds

import (
	"flag"
	"fmt"
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

// rigidLong runs TestRigidDeliversWithOnePattern on all 40320 permutations
// of POPS(4,2) (≈ 3 s CPU; the default is a subset, see rigidShapes). It is a
// flag, as -aks.long, because `go test ./...` does not pass -short.
var rigidLong = flag.Bool("popsds.long", false, "TestRigidDeliversWithOnePattern: every permutation of POPS(4,2), not the first 500 and 500 random")

// rigidShapes: the first lex permutations in lexicographic order (all of
// them at lex < 0) and then the given number of random ones.
var rigidShapes = []struct {
	sh          pops.Shape
	lex, random int
}{
	{pops.Shape{D: 2, G: 2}, -1, 0},
	{pops.Shape{D: 4, G: 2}, 500, 500}, // all 40320 with -popsds.long
	{pops.Shape{D: 8, G: 2}, 0, 40},
	{pops.Shape{D: 4, G: 4}, 0, 20},
	{pops.Shape{D: 8, G: 4}, 0, 20},
	{pops.Shape{D: 12, G: 4}, 0, 10},
	{pops.Shape{D: 16, G: 4}, 0, 5},
}

// forRigidPerms calls f on the permutations of rigidShapes until it
// returns false.
func forRigidPerms(f func(sh pops.Shape, dst []int32) bool) {
	r := rand.New(rand.NewPCG(12, 0x8))
	for _, s := range rigidShapes {
		lex, random := s.lex, s.random
		if *rigidLong && s.sh == (pops.Shape{D: 4, G: 2}) {
			lex, random = -1, 0
		}
		if lex != 0 {
			p := perm.Identity(s.sh.N())
			for k, ok := 0, true; ok && (lex < 0 || k < lex); k, ok = k+1, nextLex(p) {
				if !f(s.sh, p) {
					return
				}
			}
		}
		for range random {
			if !f(s.sh, perm.Random(s.sh.N(), r)) {
				return
			}
		}
	}
}

// rigidOnePattern checks one run of router o on dst against the rigid
// variant's identity schedule and closed slot count: every packet
// delivered with no conflict, no missed reception, RigidSlots(sh) slots,
// and the same pattern, slot by slot, as the identity. refs caches the
// identity's schedule per shape. With patternOnly the reference is o's own
// run on the identity and only the pattern is compared (so a planted
// pattern fault is caught by the pattern, not by its slot count).
func rigidOnePattern(sh pops.Shape, dst []int32, o Options, refs map[pops.Shape]rigidRef, patternOnly bool) error {
	rf, ok := refs[sh]
	if !ok {
		ro := Options{Rigid: true}
		if patternOnly {
			ro = o
		}
		var err error
		if rf.sched, _, err = Schedule(sh, perm.Identity(sh.N()), ro); err != nil {
			return err
		}
		if rf.want, rf.comp, err = RigidSlots(sh); err != nil {
			return err
		}
		refs[sh] = rf
	}
	sc, res, err := Schedule(sh, dst, o)
	if err != nil {
		return fmt.Errorf("%v %v: %v", sh, dst, err)
	}
	if !patternOnly && (!res.Completed || res.Conflicts != 0 || res.Misheard != 0 || res.Lost != 0 || res.Duplicated != 0 ||
		res.Slots != rf.want || res.SortSlots+res.MergeSlots+res.FinalSlots != res.Slots || res.MergeSlots+res.FinalSlots != rf.comp) {
		return fmt.Errorf("%v %v: %+v, want every packet delivered cleanly in %d slots (%d after the sorts)", sh, dst, res, rf.want, rf.comp)
	}
	if d, ok := FirstDiff(rf.sched, sc, nil); ok {
		return fmt.Errorf("%v %v: the pattern differs from the reference run on the identity: %v", sh, dst, d)
	}
	return nil
}

type rigidRef struct {
	sched      []SlotSchedule
	want, comp int
}

// TestRigidDeliversWithOnePattern: the rigid variant delivers every packet
// with no conflict, no missed reception and the closed slot count, and every
// processor's send groups, listen group and heard sender are the same, slot
// by slot, as on the identity — on every permutation of POPS(2,2), the first
// 500 and 500 random ones of POPS(4,2) (all 40320 with -popsds.long) and
// random ones beyond (d/g = 1 … 4, including d/g = 3, not a power of two).
// One Schedule run per permutation checks both.
func TestRigidDeliversWithOnePattern(t *testing.T) {
	refs := map[pops.Shape]rigidRef{}
	forRigidPerms(func(sh pops.Shape, dst []int32) bool {
		if err := rigidOnePattern(sh, dst, Options{Rigid: true}, refs, false); err != nil {
			t.Fatal(err)
		}
		return true
	})
}

// TestRigidOnePatternCatchesFaults: the same per-permutation check on the
// same default permutations fails for each planted fault: by the pattern
// alone (against the fault's own run on the identity) for a data-dependent
// merge relay and the faithful completion, by delivery for a no-op last
// merge stage and a flipped sort comparator.
func TestRigidOnePatternCatchesFaults(t *testing.T) {
	for _, c := range []struct {
		o           Options
		patternOnly bool
	}{
		{Options{Rigid: true, Mutant: MergeDataRelay}, true},
		{Options{}, true},
		{Options{Rigid: true, Mutant: MergeKeepOwn}, false},
		{Options{Rigid: true, Mutant: FlipComparator}, false},
	} {
		refs := map[pops.Shape]rigidRef{}
		var caught error
		forRigidPerms(func(sh pops.Shape, dst []int32) bool {
			caught = rigidOnePattern(sh, dst, c.o, refs, c.patternOnly)
			return caught == nil
		})
		if caught == nil {
			t.Errorf("%+v: no permutation fails the check", c.o)
		} else {
			t.Logf("%+v caught: %v", c.o, caught)
		}
	}
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
