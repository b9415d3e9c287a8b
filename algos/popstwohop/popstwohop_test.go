package popstwohop

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"

	"pgregory.net/rapid"
)

// partial returns the partial permutation of n sources with only the given
// (source, destination) pairs present.
func partial(n int, pairs ...int32) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = perm.None
	}
	for k := 0; k < len(pairs); k += 2 {
		p[pairs[k]] = pairs[k+1]
	}
	return p
}

// Hand-computed runs (slot by slot in the comments).
func TestRunHand(t *testing.T) {
	cases := []struct {
		name      string
		s         Schedule
		dst       []int32
		slots     int
		routedAt  []int // −1: not routed
		conflicts []int
	}{
		// POPS(2,2), Shift, groups swap. Slot 1: 0→c(1,0), 1→c(0,0), 2→c(1,1),
		// 3→c(0,1); listener 0 hears c(0,1) = p3 (dest 1, its group: routed),
		// 1 hears c(0,0) = p1 (B), 2 hears c(1,1) = p2 (B), 3 hears c(1,0) =
		// p0 (routed). Slot 2: 1 sends p1 on c(1,0), 2 sends p2 on c(0,1);
		// listener 1 hears c(0,1) = p2, listener 2 hears c(1,0) = p1.
		{"shift-2x2-swap", Shift(pops.Shape{D: 2, G: 2}), []int32{2, 3, 0, 1}, 2, []int{1, 2, 2, 1}, []int{0, 0}},
		// POPS(4,2), Shift: every coupler has two shooters; nothing moves.
		{"shift-4x2-jam", Shift(pops.Shape{D: 4, G: 2}), []int32{4, 5, 6, 7, 0, 1, 2, 3}, 4, []int{-1, -1, -1, -1, -1, -1, -1, -1}, []int{4, 0, 4, 0}},
		// Identity: every packet starts in its destination group.
		{"shift-identity", Shift(pops.Shape{D: 2, G: 2}), []int32{0, 1, 2, 3}, 2, []int{0, 0, 0, 0}, []int{0, 0}},
		// POPS(6,3), Shift, only p0 → 12 (group 2). Slot 1: p0 on c(1,0);
		// processors 8 and 11 both listen to group 0 and both hold p0 in B.
		// Slot 2: both send on c(2,1): conflict. Slot 3: p0 on c(0,0), heard
		// by 0 and 3; slot 4: both send on c(2,0): conflict again.
		{"shift-6x3-duplicate-relays", Shift(pops.Shape{D: 6, G: 3}), partial(18, 0, 12), 4, append([]int{-1}, make17(-2)...), []int{0, 1, 0, 1}},
		// Same instance with spread listeners: in slot 1 only processor 8
		// (index 2 of group 1) listens to group 0; in slot 2 only processor 14
		// (index 2 of group 2) listens to group 1, and receives p0.
		{"spread-6x3-one-relay", Spread(pops.Shape{D: 6, G: 3}), partial(18, 0, 12), 2, append([]int{2}, make17(-2)...), []int{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(c.s, c.dst, c.slots)
			if err != nil {
				t.Fatal(err)
			}
			for p, want := range c.routedAt {
				switch {
				case want == -2: // absent packet
					if res.Routed[p] {
						t.Errorf("absent packet %d routed", p)
					}
				case want == -1 && res.Routed[p]:
					t.Errorf("packet %d routed at slot %d, want unrouted", p, res.RoutedAt[p])
				case want >= 0 && (!res.Routed[p] || res.RoutedAt[p] != want):
					t.Errorf("packet %d: routed %v at %d, want slot %d", p, res.Routed[p], res.RoutedAt[p], want)
				}
			}
			if !slices.Equal(res.Conflicts, c.conflicts) {
				t.Errorf("conflicts per slot %v, want %v", res.Conflicts, c.conflicts)
			}
		})
	}
}

func make17(v int) []int {
	s := make([]int, 17)
	for i := range s {
		s[i] = v
	}
	return s
}

// Properties 2, 3 and 6 on random instances: a packet routed in an odd slot
// t was shot at its destination group (Out(p, t) = group(dst)); a routed
// packet (except one routed in the last slot, whose source drops it a slot
// later) has no original left; an unrouted packet still has its original at
// its source; the model never reports a loss or rejects an action.
func TestRunProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		d := rapid.IntRange(1, 6).Draw(rt, "d")
		g := rapid.IntRange(1, 6).Draw(rt, "g")
		sh := pops.Shape{D: d, G: g}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		scheds := []Schedule{Shift(sh), Spread(sh), Hashed(sh)}
		s := scheds[rapid.IntRange(0, 2).Draw(rt, "schedule")]
		dst := perm.Random(sh.N(), rng)
		slots := rapid.IntRange(0, 8).Draw(rt, "slots")
		res, err := Run(s, dst, slots)
		if err != nil {
			rt.Fatal(err)
		}
		for p := range sh.N() {
			hasOrig := slices.ContainsFunc(res.Final.Buf[p], func(it pops.Item) bool { return it.Kind == pops.Original })
			switch {
			case !res.Routed[p]:
				if !hasOrig {
					rt.Fatalf("unrouted packet %d lost its A-buffer copy", p)
				}
			case res.RoutedAt[p] == 0:
				if int(dst[p])/d != p/d {
					rt.Fatalf("packet %d routed at slot 0 but starts outside its destination group", p)
				}
			default:
				if res.RoutedAt[p]%2 == 1 && s.Out(p, res.RoutedAt[p]) != int(dst[p])/d {
					rt.Fatalf("packet %d routed in odd slot %d without shooting at its destination group", p, res.RoutedAt[p])
				}
				if hasOrig && res.RoutedAt[p] < slots {
					rt.Fatalf("packet %d routed at %d still in its A-buffer after slot %d", p, res.RoutedAt[p], slots)
				}
			}
		}
	})
}

// Shift on POPS(g, g) has no odd-slot conflicts (each group shoots at g
// distinct groups) — checked on every odd slot of a full run.
func TestShiftConflictFreeOddSlots(t *testing.T) {
	for _, g := range []int{2, 3, 5, 8} {
		sh := pops.Shape{D: g, G: g}
		dst := perm.Random(sh.N(), rand.New(rand.NewPCG(uint64(g), 2)))
		res, err := Run(Shift(sh), dst, 7)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < len(res.Conflicts); k += 2 {
			if res.Conflicts[k] != 0 {
				t.Fatalf("g = %d: %d conflicts in odd slot %d", g, res.Conflicts[k], k+1)
			}
		}
	}
}

// Spread, d ≥ g: exactly one listener per coupler in every slot.
func TestSpreadOneListenerPerCoupler(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 3, G: 3}, {D: 6, G: 3}, {D: 7, G: 3}, {D: 17, G: 17}} {
		in := Spread(sh).In
		for t0 := 1; t0 <= 6; t0++ {
			for a := range sh.G {
				seen := make([]int, sh.G)
				for k := range sh.D {
					if x := in(a*sh.D+k, t0); x >= 0 {
						seen[x]++
					}
				}
				for x, c := range seen {
					if c != 1 {
						t.Fatalf("%v slot %d: group %d has %d listeners on c(%d,%d)", sh, t0, a, c, a, x)
					}
				}
			}
		}
	}
}
