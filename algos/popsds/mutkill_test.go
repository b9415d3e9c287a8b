package popsds

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
)

// Tests for the gremlins mutants that survived the first mutation run of
// this package (issue 9 E). Expected values come from the package comment's
// slot formulas, Batcher's odd-even merge sort depth L(L+1)/2 for L = 2 log g,
// and hand traces written out in the comments; none is copied from a run.

// log2 counts halvings, independently of lg.
func log2(g int) int {
	l := 0
	for ; g > 1; g /= 2 {
		l++
	}
	return l
}

// Every phase costs what the package comment says, per sub-network: 2 slots
// for each of Batcher's L(L+1)/2 steps (L = 2 log g), 9 information slots,
// min(g, d/g) wave slots, and one final round per sub-network.
func TestPhaseSlotSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, sh := range shapes() {
		k, g := sh.D/sh.G, sh.G
		l := 2 * log2(g)
		waves := g
		if k < g {
			waves = k
		}
		res, err := Route(sh, perm.Random(sh.N(), r), None)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		want := Result{Slots: k*(l*(l+1)+9+waves) + k, SortSlots: k * l * (l + 1), InfoSlots: 9 * k, WaveSlots: k * waves, FinalSlots: k}
		got := Result{Slots: res.Slots, SortSlots: res.SortSlots, InfoSlots: res.InfoSlots, WaveSlots: res.WaveSlots, FinalSlots: res.FinalSlots}
		if got != want {
			t.Errorf("%v: slots %+v, want %+v", sh, got, want)
		}
	}
}

// SkipStage skips exactly the last merge stage of every sort: 2 slots fewer
// per sub-network, the rest unchanged.
func TestSkipStageSkipsOnlyLastStage(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 8, G: 2}, {D: 8, G: 4}} {
		k, l := sh.D/sh.G, 2*log2(sh.G)
		res, err := Route(sh, perm.Identity(sh.N()), SkipStage)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		if want := k * (l*(l+1) - 2); res.SortSlots != want {
			t.Errorf("%v: SkipStage sort slots %d, want %d", sh, res.SortSlots, want)
		}
	}
}

// The identity permutation is already sorted in wire order: wire r of
// sub-network j is processor (r mod g)·d + j·g + ⌊r/g⌋, whose key is
// (⌊r/g⌋, (r mod g)·d + j·g + ⌊r/g⌋), increasing in r. So no comparator
// swaps, and SharedRelay's only effect is its one conflict in the first
// stage of each sort: on POPS(g,g), g = 4, stage 0 is (0,1),(2,3),...; wires
// 0 and 4 are the first two movers of group 0, so wire 4's packet takes wire
// 0's relay: one conflicting coupler, neither packet reaches the relay
// (2 Misheard in route2's second slot), and the two comparators (0,1) and
// (4,5) each miss one exchange (2 more). Skipping them changes nothing (they
// would not swap), so every packet is still delivered.
func TestSharedRelayOnSortedInput(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 4, G: 4}, {D: 8, G: 4}, {D: 16, G: 4}} {
		k := sh.D / sh.G
		res, err := Route(sh, perm.Identity(sh.N()), SharedRelay)
		if err != nil {
			t.Fatalf("%v: %v", sh, err)
		}
		if res.Conflicts != k || res.Misheard != 4*k || !res.Completed || res.Lost != 0 || res.Duplicated != 0 {
			t.Errorf("%v: %+v, want %d conflicts, %d misheard, all delivered", sh, res, k, 4*k)
		}
	}
}

// FlipComparator on POPS(2,2), identity, traced by hand. Wires 0..3 are
// processors 0, 2, 1, 3 with destinations 0, 2, 1, 3, so temporary groups
// h = 0, 0, 1, 1 (sorted). Batcher's last stage on 4 wires is the single
// comparator (1,2); flipped, the h order becomes 0, 1, 0, 1: every wire
// starts and ends a run. Run starts report to group h: wires 0 and 2 (both
// in group 0, h = 0) share coupler c(0,0), wires 1 and 3 (group 1, h = 1)
// share c(1,1): 2 conflicts, and the same 2 for the run ends. No start is
// heard, so no wire hears where its run starts (4 Misheard) and none sends
// in the wave; nothing is parked, nothing delivered, nothing lost.
func TestFlipComparatorHandTrace(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	res, err := Route(sh, perm.Identity(4), FlipComparator)
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Slots: Slots(sh), SortSlots: 6, InfoSlots: 9, WaveSlots: 1, FinalSlots: 1, Conflicts: 4, Misheard: 4}
	if res != want {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

// FewerWaves on a shape with a budget of one wave leaves no wave at all:
// no packet is parked, none delivered, none lost (they stay on their wires).
func TestFewerWavesNoWave(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 4, G: 4}} {
		res, err := Route(sh, perm.Identity(sh.N()), FewerWaves)
		if err != nil {
			t.Fatal(err)
		}
		if res.WaveSlots != 0 || res.Delivered != 0 || res.Lost != 0 || res.Completed || res.Slots != Slots(sh)-1 {
			t.Errorf("%v: %+v", sh, res)
		}
	}
}

// Lost is a count of the model's lost packets: never negative, never more
// than the undelivered ones. With the sort broken (SkipStage,
// FlipComparator), wave senders drop packets that no listener takes, so
// some runs do lose packets (else this test would have no teeth).
func TestLostCounted(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	anyLost := false
	for _, m := range []Mutant{SkipStage, FlipComparator} {
		for _, sh := range []pops.Shape{{D: 4, G: 2}, {D: 4, G: 4}, {D: 8, G: 4}} {
			for range 4 {
				res, err := Route(sh, perm.Random(sh.N(), r), m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Lost < 0 || res.Lost > sh.N()-res.Delivered {
					t.Errorf("%v %v: lost %d with %d of %d delivered", m, sh, res.Lost, res.Delivered, sh.N())
				}
				anyLost = anyLost || res.Lost > 0
			}
		}
	}
	if !anyLost {
		t.Error("no run lost a packet")
	}
}

// mustRouter is the router RouteWith would run (the production newRouter),
// for white-box tests.
func mustRouter(t *testing.T, sh pops.Shape, dst []int32, m Mutant) *router {
	t.Helper()
	rt, err := newRouter(sh, dst, Options{Mutant: m})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// After each sub-network's sort, its wires hold the packets in the order
// of the package comment's key (y mod g, y), wire r at processor
// (r mod g)·d + j·g + ⌊r/g⌋; with FlipComparator, the same order with the
// two wires of the last stage's first comparator exchanged.
func TestSortOrderWhiteBox(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, m := range []Mutant{None, FlipComparator} {
		for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 8, G: 2}, {D: 4, G: 4}, {D: 8, G: 4}} {
			d, g := sh.D, sh.G
			dst := perm.Random(sh.N(), r)
			rt := mustRouter(t, sh, dst, m)
			for j := range d / g {
				wireProc := func(w int) int { return (w%g)*d + j*g + w/g }
				var want []int32 // packets of sub-network j, sorted by (y mod g, y)
				for w := range g * g {
					want = append(want, int32(wireProc(w)))
				}
				slices.SortFunc(want, func(a, b int32) int {
					ya, yb := int(dst[a]), int(dst[b])
					if ya%g != yb%g {
						return ya%g - yb%g
					}
					return ya - yb
				})
				if m == FlipComparator {
					last := rt.nw.Stages[len(rt.nw.Stages)-1][0]
					want[last.I], want[last.J] = want[last.J], want[last.I]
				}
				if err := rt.sort(j); err != nil {
					t.Fatal(err)
				}
				for w := range g * g {
					if got := rt.cur[wireProc(w)]; got != want[w] {
						t.Fatalf("%v %v sub-network %d wire %d: packet %d, want %d", m, sh, j, w, got, want[w])
					}
				}
			}
		}
	}
}

// After a whole run every processor holds only delivered packets: no
// packet left on a wire, parked or in transit, and no stale copy kept
// (step drops what a processor no longer needs).
func TestEndStateClean(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 8, G: 2}, {D: 4, G: 4}, {D: 16, G: 4}} {
		rt := mustRouter(t, sh, perm.Random(sh.N(), r), None)
		for j := range rt.k {
			if err := rt.sort(j); err != nil {
				t.Fatal(err)
			}
			if err := rt.info(j); err != nil {
				t.Fatal(err)
			}
		}
		for tt := range rt.k {
			if err := rt.final(tt); err != nil {
				t.Fatal(err)
			}
		}
		for p := range rt.n {
			if rt.cur[p] != -1 || rt.park[p] != -1 || rt.transit[p] != -1 {
				t.Fatalf("%v: processor %d: cur %d park %d transit %d, want all −1", sh, p, rt.cur[p], rt.park[p], rt.transit[p])
			}
			for _, it := range rt.st.Buf[p] {
				if it.Kind != pops.Delivered {
					t.Fatalf("%v: processor %d still holds packet %d as %v", sh, p, it.Packet, it.Kind)
				}
			}
			if !rt.st.Delivered[p] {
				t.Fatalf("%v: packet %d not delivered", sh, p)
			}
		}
	}
}

// find reports a missing packet as −1 and ignores delivered items; send
// of a packet the processor does not hold is refused and counted.
func TestFindAndSendMissing(t *testing.T) {
	buf := []pops.Item{{Packet: 5, Kind: pops.Original}, {Packet: 7, Kind: pops.Delivered}, {Packet: 7, Kind: pops.Copy}}
	for _, c := range []struct{ p, want int32 }{{5, 0}, {7, 2}, {9, -1}, {1, -1}} {
		if got := find(buf, c.p); got != c.want {
			t.Errorf("find(%d) = %d, want %d", c.p, got, c.want)
		}
	}
	rt := mustRouter(t, pops.Shape{D: 2, G: 2}, perm.Identity(4), None)
	rt.begin()
	if rt.send(0, 1, []int32{1}, false) {
		t.Error("processor 0 sent packet 1, which it does not hold")
	}
	if rt.res.Misheard != 1 || rt.acts[0].Send != pops.Idle().Send {
		t.Errorf("misheard %d, action %+v after a refused send", rt.res.Misheard, rt.acts[0])
	}
}

// A rejected action or a broken invariant is an error naming the slot
// being stepped (slots count from 1).
func TestStepErrorNamesSlot(t *testing.T) {
	rt := mustRouter(t, pops.Shape{D: 2, G: 2}, perm.Identity(4), None)
	rt.begin()
	rt.acts[0].Send = 3 // processor 0 holds one item
	rt.acts[0].To = []int32{1}
	if _, err := rt.step(); err == nil || !strings.Contains(err.Error(), "popsds: slot 1:") {
		t.Errorf("bad action: err = %v, want one naming slot 1", err)
	}
	rt = mustRouter(t, pops.Shape{D: 2, G: 2}, perm.Identity(4), None)
	rt.begin()
	rt.st.Lost[0] = true // packet 0 is still held: the invariants break
	if _, err := rt.step(); err == nil || !strings.Contains(err.Error(), "after slot 1:") {
		t.Errorf("broken invariant: err = %v, want one naming slot 1", err)
	}
}

// SharedRelay on POPS(4,2), traced by hand. In every sort the first stage
// (0,1),(2,3) does nothing: wires 0 and 2 (both in group 0) share a relay,
// so neither exchange completes (1 conflict, 4 Misheard, as in
// TestSharedRelayOnSortedInput); the stages (0,2),(1,3) and (1,2) run.
//
// Sub-network 0 (wires 0..3 = processors 0, 4, 1, 5) holds destinations
// 1, 0, 3, 5: keys (1,1), (0,0), (1,3), (1,5), which the two later stages
// leave in place, so h = 1, 0, 1, 1. Run starts are wires 0, 1, 2; wires 0
// and 2 (group 0, h = 1) both report on c(1,0): a conflict, so group 1
// hears no start. Run ends are wires 0, 1, 3, on distinct couplers, so
// group 1 hears ends but no start: 1 Misheard (start/end mismatch), and
// wires 0, 2, 3 hear no run start (3 Misheard) and stay put. Wire 1's
// packet (destination 0) is parked at processor 0.
//
// Sub-network 1 (processors 2, 6, 3, 7) holds destinations 2, 4, 6, 7,
// already sorted (h = 0, 0, 0, 1): its runs report and broadcast cleanly
// and all 4 packets are parked (processors 1, 2, 3 for h = 0 after the one
// parked before, processor 4 for h = 1); the final rounds deliver the 5
// parked packets without conflict.
//
// Totals: 3 conflicts, 12 Misheard, 5 delivered, none lost.
func TestSharedRelayHandTrace(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	dst := []int32{1, 3, 2, 6, 0, 5, 4, 7}
	res, err := Route(sh, dst, SharedRelay)
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Slots: 36, SortSlots: 12, InfoSlots: 18, WaveSlots: 4, FinalSlots: 2, Conflicts: 3, Delivered: 5, Misheard: 12}
	if res != want {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

// With a sorter of depth 0 (Options.Sorter, a network that does not sort)
// the wires keep their packets, so the run information can be traced by
// hand for an arrangement of our choice. POPS(4,4): one sub-network, wire r
// at processor (r mod 4)·4 + ⌊r/4⌋ (group r mod 4), a budget of 1 wave.
// Keys h of wires 0..15: 2 2 2 0 0 1 1 1 1 0 0 3 3 3 3 2, so h = 0 has the
// runs [3,4] and [9,10], h = 2 the runs [0,2] and [15].
//
// Reports go to listener x = sender's group in group h; the model lists
// receptions by processor, so the highest x wins. Starts of h = 0: wire 3
// (group 3) and wire 9 (group 1) → rank 3; ends: wire 4 (group 0) and wire
// 10 (group 2) → rank 10: c = 8 receivers, of which ranks 3+4..3+7 fall
// beyond d = 4 (4 Misheard); the receivers for ranks 5 and 6 listen to
// groups 1 and 2, where no packet of h = 0 is sent (wires 5, 6 are h = 1):
// 2 Misheard. Wires 9 and 10 lie beyond the one wave. h = 2: start and end
// both rank 15 (wire 15, group 3, beats wires 0 and 2), so wires 0..2 (below
// rank 15) never send. h = 1 and h = 3 are clean. No report or wave shares a
// coupler. Parked and delivered: 2 + 4 + 1 + 4 = 11 packets; the 5 on wires
// 0, 1, 2, 9, 10 stay there, none is lost.
func TestZeroDepthSorterHandTrace(t *testing.T) {
	sh := pops.Shape{D: 4, G: 4}
	keys := []int{2, 2, 2, 0, 0, 1, 1, 1, 1, 0, 0, 3, 3, 3, 3, 2}
	next := []int{0, 1, 2, 3} // next destination of each key: h, h+4, h+8, h+12
	dst := make([]int32, 16)
	for r, h := range keys {
		dst[(r%4)*4+r/4] = int32(next[h])
		next[h] += 4
	}
	if err := perm.Validate(dst, true); err != nil {
		t.Fatal(err)
	}
	nw := sortnet.Network{N: 16, Stages: []sortnet.Stage{}}
	res, err := RouteWith(sh, dst, Options{Sorter: &nw})
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Slots: 11, InfoSlots: 9, WaveSlots: 1, FinalSlots: 1, Delivered: 11, Misheard: 6}
	if res != want || res.Slots != SlotsWithDepth(sh, 0) {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

// A depth-0 sorter on POPS(8, 4) (k = 2 sub-networks, budget min(4, 2) = 2
// waves) with permutation 21 (0-based) of perm.Random(32, ·) drawn in turn
// from rand.NewPCG(1, 2) (the first of that stream on which the mutant
// ρ > d of the receiver check indexes past the processors): the unsorted
// wires split some key into several runs, and the receivers counted for
// group 3 reach ρ = d = 8, a processor 3·8 + 8 = 32 that does not exist.
// The router must count that reception as Misheard and go on (Options:
// a sorter that does not sort leaves packets undelivered, which the result
// reports), not index past the n = 32 processors. The slot split follows
// SlotsWithDepth: sort 0, info k·InfoSlots = 18, waves k·2 = 4, final k = 2.
func TestZeroDepthSorterOverflowingGroup(t *testing.T) {
	sh := pops.Shape{D: 8, G: 4}
	dst := []int32{1, 12, 27, 17, 21, 3, 7, 16, 26, 9, 25, 24, 4, 0, 22, 6,
		30, 11, 10, 23, 14, 20, 18, 15, 2, 13, 31, 28, 19, 5, 8, 29}
	if err := perm.Validate(dst, true); err != nil {
		t.Fatal(err)
	}
	nw := sortnet.Network{N: 16, Stages: []sortnet.Stage{}}
	var res Result
	var err error
	func() {
		defer func() {
			if e := recover(); e != nil {
				t.Fatalf("RouteWith panicked: %v", e)
			}
		}()
		res, err = RouteWith(sh, dst, Options{Sorter: &nw})
	}()
	if err != nil {
		t.Fatal(err)
	}
	if res.Slots != SlotsWithDepth(sh, 0) || res.Slots != 24 || res.SortSlots != 0 ||
		res.InfoSlots != 18 || res.WaveSlots != 4 || res.FinalSlots != 2 {
		t.Errorf("slots %+v, want 24 = 0 sort + 18 info + 4 wave + 2 final", res)
	}
	if res.Misheard < 1 {
		t.Errorf("Misheard = %d: the ninth receiver of group 3 must count as misheard", res.Misheard)
	}
	if res.Completed || res.Delivered >= sh.N() || res.Delivered+res.Lost > sh.N() {
		t.Errorf("an unsorted order cannot deliver everything: %+v", res)
	}
}
