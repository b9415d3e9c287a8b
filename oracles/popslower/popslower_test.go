package popslower

import (
	"math"
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"

	"pgregory.net/rapid"
)

// direct is the one-hop family, written here so the oracle's tests do not
// depend on algos/.
func direct(a, b int32) []int32 { return []int32{b} }

// Congestion by hand: on POPS(2,2) the permutation sending both processors
// of group 0 to group 1 and back loads couplers c(1,0) and c(0,1) twice.
func TestCongestionHand(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	c, at := Congestion(sh, direct, []int32{2, 3, 0, 1})
	if c != 2 || at < sh.N() {
		t.Fatalf("congestion %d at node %d, want 2 at a coupler", c, at)
	}
	if c, _ := Congestion(sh, direct, []int32{1, 0, 3, 2}); c != 2 { // both within a group: c(0,0) and c(1,1)
		t.Fatalf("within-group swap: congestion %d, want 2", c)
	}
	if c, _ := Congestion(sh, direct, []int32{0, 1, 2, 3}); c != 0 {
		t.Fatalf("identity: congestion %d, want 0", c)
	}
}

// The construction's permutation really has congestion at least its K
// forced paths through the node it names, and K ≥ √g/2.
func TestTheorem25Direct(t *testing.T) {
	for _, g := range []int{2, 4, 9, 16} {
		sh := pops.Shape{D: g, G: g}
		res, err := Theorem25(sh, direct)
		if err != nil {
			t.Fatalf("g = %d: %v", g, err)
		}
		if err := perm.Validate(res.Perm, true); err != nil {
			t.Fatalf("g = %d: %v", g, err)
		}
		c, _ := Congestion(sh, direct, res.Perm)
		if float64(res.K) < math.Sqrt(float64(g))/2 || c < res.K {
			t.Fatalf("g = %d: K = %d, congestion %d", g, res.K, c)
		}
		if float64(res.MinS) < math.Sqrt(float64(g)) {
			t.Fatalf("g = %d: min |S_b| = %d < √g (the proof's counting says ≥ √g)", g, res.MinS)
		}
	}
}

// |P(i, t)| ≤ 2^t under random legal communication patterns, and a pair
// (h, i) reported unseen really is unseen.
func TestReachDoubling(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		d := rapid.IntRange(1, 4).Draw(rt, "d")
		g := rapid.IntRange(1, 4).Draw(rt, "g")
		sh := pops.Shape{D: d, G: g}
		n := sh.N()
		r := NewReach(n)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 0))
		slots := rapid.IntRange(0, 5).Draw(rt, "slots")
		for tt := 1; tt <= slots; tt++ {
			acts := make([]pops.Action, n)
			for i := range acts {
				acts[i] = pops.Idle()
				if rng.IntN(2) == 0 {
					acts[i].Send = 0
					acts[i].To = []int32{int32(rng.IntN(g))}
				}
				if rng.IntN(2) == 0 {
					acts[i].Listen = int32(rng.IntN(g))
				}
			}
			if err := r.Slot(sh, acts); err != nil {
				rt.Fatal(err)
			}
			for i := range n {
				if r.Size(i) > 1<<tt {
					rt.Fatalf("|P(%d,%d)| = %d > 2^%d", i, tt, r.Size(i), tt)
				}
			}
		}
		if h, i, ok := r.Unseen(); ok && r.Has(i, h) {
			rt.Fatalf("Unseen reported (%d,%d) but P(%d) has %d", h, i, i, h)
		}
	})
}

// A broadcast pattern on POPS(1, 4) (one processor per group): in slot 1
// every i listens to i xor 1, in slot 2 to i xor 2; after two slots every
// processor has seen all four packets, after one only two.
func TestReachHand(t *testing.T) {
	sh := pops.Shape{D: 1, G: 4}
	r := NewReach(4)
	for _, bit := range []int{1, 2} {
		acts := make([]pops.Action, 4)
		for i := range acts {
			acts[i] = pops.Action{Send: 0, Ack: -1, To: []int32{int32(i ^ bit)}, Listen: int32(i ^ bit)}
		}
		if err := r.Slot(sh, acts); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if r.Size(i) != 2*bit {
				t.Fatalf("after mask %d: |P(%d)| = %d, want %d", bit, i, r.Size(i), 2*bit)
			}
		}
	}
	if _, _, ok := r.Unseen(); ok {
		t.Fatal("everything seen, yet Unseen found a pair")
	}
	if CeilLog2(4) != 2 || CeilLog2(5) != 3 || CeilLog2(1) != 0 {
		t.Fatal("CeilLog2")
	}
}
