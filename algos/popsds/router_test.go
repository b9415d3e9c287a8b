package popsds

import (
	"math/rand/v2"
	"testing"

	"routecheck/algos/aks"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

func shapes() []pops.Shape {
	return []pops.Shape{{D: 2, G: 2}, {D: 4, G: 2}, {D: 8, G: 2}, {D: 32, G: 2}, {D: 4, G: 4}, {D: 16, G: 4}, {D: 64, G: 4}, {D: 8, G: 8}, {D: 32, G: 8}, {D: 16, G: 16}}
}

// Every packet is delivered by the model, no coupler ever has two senders,
// nothing is lost or duplicated, and the slot count is the closed form.
func TestRoutesRandomPermutations(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes() {
		for range 3 {
			dst := perm.Random(sh.N(), r)
			res, err := Route(sh, dst, None)
			if err != nil {
				t.Fatalf("%v: %v", sh, err)
			}
			if !res.Completed || res.Conflicts != 0 || res.Lost != 0 || res.Duplicated != 0 || res.Misheard != 0 {
				t.Fatalf("%v: %+v", sh, res)
			}
			if res.Slots != Slots(sh) || res.SortSlots != (sh.D/sh.G)*SortSlots(sh.G) {
				t.Fatalf("%v: %d slots (sort %d), want %d", sh, res.Slots, res.SortSlots, Slots(sh))
			}
		}
	}
}

// worstWaves gives sub-network 0 as many packets of one temporary group as
// exist (min(g², d)), so the wave budget min(g, d/g) is used in full.
func worstWaves(sh pops.Shape) []int32 {
	n, d, g := sh.N(), sh.D, sh.G
	var hot, cold []int32 // destinations ≡ 0 (mod g), the others
	for y := range n {
		if y%g == 0 {
			hot = append(hot, int32(y))
		} else {
			cold = append(cold, int32(y))
		}
	}
	dst := make([]int32, n)
	for p := range n {
		inSub0 := p%d < g
		if inSub0 && len(hot) > 0 {
			dst[p], hot = hot[0], hot[1:]
		} else if len(cold) > 0 {
			dst[p], cold = cold[0], cold[1:]
		} else {
			dst[p], hot = hot[0], hot[1:]
		}
	}
	return dst
}

func TestStructuredPermutations(t *testing.T) {
	for _, sh := range shapes() {
		n := sh.N()
		rev := make([]int32, n)
		for p := range n {
			rev[p] = int32(n - 1 - p)
		}
		for name, dst := range map[string][]int32{"identity": perm.Identity(n), "reverse": rev, "worst-waves": worstWaves(sh)} {
			if err := perm.Validate(dst, true); err != nil {
				t.Fatal(err)
			}
			res, err := Route(sh, dst, None)
			if err != nil {
				t.Fatalf("%v %s: %v", sh, name, err)
			}
			if !res.Completed || res.Conflicts != 0 || res.Lost != 0 || res.Misheard != 0 || res.Slots != Slots(sh) {
				t.Fatalf("%v %s: %+v", sh, name, res)
			}
		}
	}
}

// The sort term is (2 log g)(2 log g + 1) = 4 log²g + 2 log g, counted
// independently here from Batcher's depth L(L+1)/2 for L = 2 log g.
func TestSortSlots(t *testing.T) {
	for lgG, want := range []int{0, 6, 20, 42, 72, 110} {
		if got := SortSlots(1 << lgG); lgG > 0 && got != want {
			t.Errorf("g = %d: %d, want %d", 1<<lgG, got, want)
		}
	}
}

// Every planted fault breaks delivery (or conflicts) on some instance.
func TestMutantsCaught(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []Mutant{SkipStage, FlipComparator, FewerWaves, SharedRelay} {
		caught := false
		for _, sh := range shapes() {
			for range 3 {
				res, err := Route(sh, perm.Random(sh.N(), r), m)
				if err != nil {
					t.Fatalf("%v %v: %v", m, sh, err)
				}
				if !res.Completed || res.Conflicts > 0 || res.Lost > 0 {
					caught = true
				}
			}
		}
		if !caught {
			t.Errorf("mutant %v never caught", m)
		}
	}
}

func TestCheckShape(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 3, G: 3}, {D: 6, G: 4}, {D: 1, G: 1}, {D: 2, G: 1}} {
		if CheckShape(sh) == nil {
			t.Errorf("%v accepted", sh)
		}
	}
}

// Corollary 2.4's plug-in: the [8] scheme with an AKS-family sorter on the
// g² wires routes too, in SlotsWithDepth slots.
func TestAKSSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 8, G: 2}, {D: 4, G: 4}, {D: 16, G: 4}} {
		res0, err := aks.Construct(sh.G*sh.G, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			t.Fatal(err)
		}
		nw := res0.Net
		res, err := RouteWith(sh, perm.Random(sh.N(), r), Options{Sorter: &nw})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Completed || res.Conflicts != 0 || res.Slots != SlotsWithDepth(sh, nw.Depth()) {
			t.Fatalf("%v: %+v, want %d slots", sh, res, SlotsWithDepth(sh, nw.Depth()))
		}
	}
}
