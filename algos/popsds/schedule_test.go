package popsds

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// An observer sees every slot once, in order, and changes nothing the
// router reports.
func TestObserveChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range shapes()[:8] {
		dst := perm.Random(sh.N(), r)
		plain, err := Route(sh, dst, None)
		if err != nil {
			t.Fatal(err)
		}
		next := 1
		seen, err := RouteWith(sh, dst, Options{Observe: func(slot int, _ Phase, _ pops.State, acts []pops.Action) {
			if slot != next || len(acts) != sh.N() {
				t.Fatalf("%v: slot %d (want %d), %d actions", sh, slot, next, len(acts))
			}
			next++
		}})
		if err != nil {
			t.Fatal(err)
		}
		if plain != seen || next-1 != plain.Slots {
			t.Fatalf("%v: %+v without observer, %+v with (%d slots observed)", sh, plain, seen, next-1)
		}
		sched, res, err := Schedule(sh, dst, Options{})
		if err != nil || res != plain || len(sched) != plain.Slots {
			t.Fatalf("%v: Schedule: %v %+v, %d slots", sh, err, res, len(sched))
		}
		// The phases come in the order of the package comment: per
		// sub-network sort, shift, info, wave; then the final rounds.
		k := sh.D / sh.G
		var want []Phase
		for range k {
			for range SortSlots(sh.G) {
				want = append(want, PhaseSort)
			}
			want = append(want, PhaseShift, PhaseShift, PhaseShift, PhaseShift, PhaseInfo, PhaseInfo, PhaseInfo, PhaseInfo, PhaseInfo)
			for range WaveBudget(sh) {
				want = append(want, PhaseWave)
			}
		}
		for range k {
			want = append(want, PhaseFinal)
		}
		var got []Phase
		for _, s := range sched {
			got = append(got, s.Phase)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%v: phases %v, want %v", sh, got, want)
		}
	}
}

// The counterexample to rigidity, traced by hand. POPS(4,2): n = 8, two
// sub-networks; sub-network 0 is processors 0, 1 (group 0) and 4, 5
// (group 1). Under the identity it holds destinations 0, 1, 4, 5, keys
// (y mod 2, y) = (0,0), (1,1), (0,4), (1,5), sorted (0,0), (0,4), (1,1),
// (1,5): the runs of keys 0 and 1 start at ranks 0 and 2. Under π = the
// swap of 5 and 6 it holds 0, 1, 4, 6: sorted (0,0), (0,4), (0,6), (1,1),
// runs start at ranks 0 and 3. Rank r sits at local processor
// (r mod 2)·2 + ⌊r/2⌋, i.e. rank 2 at local 1 = processor 1. The sort
// takes SortSlots(2) = 6 slots, the shifts 4, so slot 11 is the run-start
// report: under the identity processor 1 sends an ack to group 1 (the
// start of key 1's run); under π it sends nothing. It listens to group 1
// in both (it is listener offset 1 of group 0 for the reports).
func TestNonRigidCounterexample(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	pi := perm.Identity(8)
	pi[5], pi[6] = 6, 5
	a, _, err := Schedule(sh, perm.Identity(8), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Schedule(sh, pi, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := FirstDiff(a, b, nil)
	if !ok || d.Slot != 11 || d.Proc != 1 || d.Phase != PhaseInfo || !slices.Equal(d.ToA, []int32{1}) || d.ToB != nil || d.LisA != 1 || d.LisB != 1 {
		t.Fatalf("first difference %v (found %v), want slot 11 (info), processor 1: [1] / [], listens 1 / 1", d, ok)
	}
	// The sorts and shifts agree (they are compiled from the network).
	if d, ok := FirstDiff(a, b, func(p Phase) bool { return p == PhaseSort || p == PhaseShift }); ok {
		t.Fatalf("sort/shift slots differ: %v", d)
	}
}

// At d = g the one sub-network holds all n packets and every key y mod g
// has exactly g of them, so the run structure, and with it every slot's
// pattern, is the same for every permutation: all 24 of POPS(2,2).
func TestRigidAtDEqualsG(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	ref, _, err := Schedule(sh, perm.Identity(4), Options{})
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	var rec func(p []int32, k int)
	rec = func(p []int32, k int) {
		if k == len(p) {
			count++
			s, _, err := Schedule(sh, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := FirstDiff(ref, s, nil); ok {
				t.Fatalf("π = %v: %v", p, d)
			}
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			rec(p, k+1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(perm.Identity(4), 0)
	if count != 24 {
		t.Fatalf("%d permutations", count)
	}
}

// SkipHome is not rigid: under the identity every packet is home, so in
// slot 1 (the first sort stage) no processor sends; under any permutation
// that moves a packet of the first stage's wires some processor does.
func TestSkipHomeNotRigid(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	id, _, err := Schedule(sh, perm.Identity(4), Options{Mutant: SkipHome})
	if err != nil {
		t.Fatal(err)
	}
	for i, to := range id[0].To {
		if to != nil {
			t.Fatalf("identity under SkipHome: processor %d sends to %v in slot 1", i, to)
		}
	}
	rev := []int32{3, 2, 1, 0}
	s, _, err := Schedule(sh, rev, Options{Mutant: SkipHome})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := FirstDiff(id, s, nil); !ok || d.Slot != 1 {
		t.Fatalf("SkipHome: first difference %v (%v), want one in slot 1", d, ok)
	}
	// The router as written sends in slot 1 on both.
	a, _, _ := Schedule(sh, perm.Identity(4), Options{})
	b, _, _ := Schedule(sh, rev, Options{})
	if d, ok := FirstDiff(a, b, nil); ok {
		t.Fatalf("router as written: %v", d)
	}
}

func TestFirstDiffEdges(t *testing.T) {
	mk := func(ph Phase, to []int32, lis int32) SlotSchedule {
		return SlotSchedule{Phase: ph, To: [][]int32{to}, Listen: []int32{lis}}
	}
	a := []SlotSchedule{mk(PhaseSort, []int32{0}, -1), mk(PhaseInfo, nil, 1)}
	if _, ok := FirstDiff(a, a, nil); ok {
		t.Fatal("a schedule differs from itself")
	}
	if d, ok := FirstDiff(a, a[:1], nil); !ok || d.Slot != 2 || d.Proc != -1 {
		t.Fatalf("length difference: %v %v", d, ok)
	}
	b := []SlotSchedule{mk(PhaseSort, []int32{0}, -1), mk(PhaseInfo, []int32{1}, 1)}
	if d, ok := FirstDiff(a, b, nil); !ok || d.Slot != 2 || d.Proc != 0 {
		t.Fatalf("send difference: %v %v", d, ok)
	}
	if _, ok := FirstDiff(a, b, func(p Phase) bool { return p == PhaseSort }); ok {
		t.Fatal("an info slot was compared with only sort slots kept")
	}
	c := []SlotSchedule{mk(PhaseSort, []int32{0}, 0), mk(PhaseInfo, nil, 1)}
	if d, ok := FirstDiff(a, c, nil); !ok || d.Slot != 1 {
		t.Fatalf("listen difference: %v %v", d, ok)
	}
	if _, _, err := Schedule(pops.Shape{D: 2, G: 2}, perm.Identity(4), Options{Observe: func(int, Phase, pops.State, []pops.Action) {}}); err == nil {
		t.Fatal("Schedule accepted an observer")
	}
}
