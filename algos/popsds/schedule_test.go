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
// in both (it is listener offset 1 of group 0 for the reports). That is a
// send/silence difference only (the literal reading of rigidity). Slot 13
// is group h's broadcast of the run start to the run's wires, each wire
// listening to the group of its key: rank 2 (processor 1) has key 1 under
// the identity and key 0 under π, so it listens to group 1 against group 0
// — the strongest witness, a listen-group difference, and one that breaks
// the proof's use of rigidity (it hears a sender in both). In the same slot
// the broadcaster of key 1's run (a processor of group 1) differs, so a
// processor of group 1 hears a different sender.
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
	if !ok || d.Kind != DiffListen || d.Slot != 13 || d.Proc != 1 || d.Phase != PhaseInfo || d.LisA != 1 || d.LisB != 0 || d.HearA < 0 || d.HearB < 0 || !d.Kind.ProofRelevant() {
		t.Fatalf("strongest difference %v (found %v), want a listen-group difference at slot 13 (info), processor 1: listens 1 / 0, hearing a sender in both", d, ok)
	}
	ds := Diffs(a, b, nil)
	var other, sender *Diff
	for i := range ds {
		switch ds[i].Kind {
		case DiffOther:
			other = &ds[i]
		case DiffSender:
			sender = &ds[i]
		}
	}
	if other == nil || other.Slot != 11 || other.Proc != 1 || !slices.Equal(other.ToA, []int32{1}) || !other.AckA || other.ToB != nil || other.LisA != 1 || other.LisB != 1 {
		t.Fatalf("send/silence difference %v, want slot 11, processor 1: an ack to [1] / nothing, listens 1 / 1", other)
	}
	if sender == nil || sender.Slot != 13 || sender.LisA != 1 || sender.LisB != 1 || sender.HearA == sender.HearB || sender.HearA/4 != 1 || sender.HearB/4 != 1 {
		t.Fatalf("sender difference %v, want one in slot 13 among the listeners to group 1, two senders of group 1", sender)
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
	// One processor per slot; hears is the sender it hears.
	mk := func(ph Phase, to []int32, ack bool, lis, hears int32) SlotSchedule {
		return SlotSchedule{Phase: ph, To: [][]int32{to}, Ack: []bool{ack}, Listen: []int32{lis}, Hears: []int32{hears}}
	}
	a := []SlotSchedule{mk(PhaseSort, []int32{0}, false, -1, -1), mk(PhaseInfo, nil, false, 1, 3)}
	if _, ok := FirstDiff(a, a, nil); ok {
		t.Fatal("a schedule differs from itself")
	}
	if d, ok := FirstDiff(a, a[:1], nil); !ok || d.Slot != 2 || d.Proc != -1 || d.Kind != DiffLength {
		t.Fatalf("length difference: %v %v", d, ok)
	}
	b := []SlotSchedule{mk(PhaseSort, []int32{0}, false, -1, -1), mk(PhaseInfo, []int32{1}, false, 1, 3)}
	if d, ok := FirstDiff(a, b, nil); !ok || d.Slot != 2 || d.Proc != 0 || d.Kind != DiffOther || d.Kind.ProofRelevant() {
		t.Fatalf("send difference: %v %v", d, ok)
	}
	if _, ok := FirstDiff(a, b, func(p Phase) bool { return p == PhaseSort }); ok {
		t.Fatal("an info slot was compared with only sort slots kept")
	}
	// The ranking: a later listen difference beats an earlier sender
	// difference, which beats an earlier target difference, which beats an
	// earlier packet/ack difference.
	x := []SlotSchedule{mk(PhaseSort, []int32{0}, false, -1, -1), mk(PhaseSort, []int32{0}, false, -1, -1), mk(PhaseSort, nil, false, 0, 5), mk(PhaseSort, nil, false, 0, 5)}
	y := []SlotSchedule{mk(PhaseSort, []int32{0}, true, -1, -1), mk(PhaseSort, []int32{1}, false, -1, -1), mk(PhaseSort, nil, false, 0, 6), mk(PhaseSort, nil, false, 1, 6)}
	ds := Diffs(x, y, nil)
	want := []struct {
		k    DiffKind
		slot int
	}{{DiffListen, 4}, {DiffSender, 3}, {DiffTargets, 2}, {DiffOther, 1}}
	if len(ds) != len(want) {
		t.Fatalf("diffs %v", ds)
	}
	for i, w := range want {
		if ds[i].Kind != w.k || ds[i].Slot != w.slot {
			t.Fatalf("diff %d: %v, want %v at slot %d", i, ds[i], w.k, w.slot)
		}
	}
	// Listening against not listening, and one sender against none, are
	// the weak kind (silence leaves the proof intact).
	if d, _ := FirstDiff([]SlotSchedule{mk(PhaseSort, nil, false, -1, -1)}, []SlotSchedule{mk(PhaseSort, nil, false, 0, 2)}, nil); d.Kind != DiffOther {
		t.Fatalf("listen/no listen: %v", d)
	}
	if d, _ := FirstDiff([]SlotSchedule{mk(PhaseSort, nil, false, 0, -1)}, []SlotSchedule{mk(PhaseSort, nil, false, 0, 2)}, nil); d.Kind != DiffOther {
		t.Fatalf("none/one sender: %v", d)
	}
	if _, _, err := Schedule(pops.Shape{D: 2, G: 2}, perm.Identity(4), Options{Observe: func(int, Phase, pops.State, []pops.Action) {}}); err == nil {
		t.Fatal("Schedule accepted an observer")
	}
}

// DataRelay is non-rigid the way Theorem 2.8's proof cares about: under
// the identity on POPS(2,2) packets 1 and 3 (odd destinations) are relayed
// by their sources, which send to and listen to their own group in slot 1
// (the mutant may put two senders on a coupler: it is only a rigidity
// fault); under the reversal [3 2 1 0] the odd destinations are at
// processors 0 and 2 instead, so the listeners and senders heard in the
// first sort stage change, and the strongest sort-phase difference is a
// listen-group or sender difference, not a mere send/silence difference.
func TestDataRelayNotRigid(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	id, _, err := Schedule(sh, perm.Identity(4), Options{Mutant: DataRelay})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{1, 3} {
		if g := int32(sh.Group(p)); id[0].Listen[p] != g || !slices.Equal(id[0].To[p], []int32{g}) {
			t.Fatalf("identity under DataRelay, slot 1, processor %d: sends to %v, listens to %d; want its own group %d", p, id[0].To[p], id[0].Listen[p], g)
		}
	}
	s, _, err := Schedule(sh, []int32{3, 2, 1, 0}, Options{Mutant: DataRelay})
	if err != nil {
		t.Fatal(err)
	}
	sort := func(p Phase) bool { return p == PhaseSort }
	if d, ok := FirstDiff(id, s, sort); !ok || !d.Kind.ProofRelevant() {
		t.Fatalf("DataRelay: strongest sort-phase difference %v (%v), want a listen or sender difference", d, ok)
	}
	// Under the reversal processor 1 holds packet 1 with destination 2
	// (even): it sends to the plan's relay group, as the router as
	// written does, not to its own group 0 — a packet-target difference
	// in slot 1.
	plain, _, err := Schedule(sh, perm.Identity(4), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(plain[0].To[1], []int32{0}) || !slices.Equal(s[0].To[1], plain[0].To[1]) {
		t.Fatalf("slot 1, processor 1: sends to %v under the reversal, %v as written; want the plan's relay group, not 0", s[0].To[1], plain[0].To[1])
	}
	// SkipHome, by contrast, is non-rigid only under the literal reading:
	// on the same pair its differences are send/silence ones in slot 1.
	a, _, _ := Schedule(sh, perm.Identity(4), Options{Mutant: SkipHome})
	b, _, _ := Schedule(sh, []int32{3, 2, 1, 0}, Options{Mutant: SkipHome})
	if d, ok := FirstDiff(a, b, func(p Phase) bool { return p == PhaseSort }); !ok || d.Slot > 2 {
		t.Fatalf("SkipHome: %v %v", d, ok)
	}
}
