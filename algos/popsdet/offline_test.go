package popsdet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"

	"pgregory.net/rapid"
)

// paperSlots is Theorem 2.1's slot count, written from the statement.
func paperSlots(d, g int) int {
	if d == 1 {
		return 1
	}
	return 2 * ((d + g - 1) / g)
}

func TestSlotsTable(t *testing.T) {
	for _, c := range []struct{ d, g, want int }{
		{1, 1, 1}, {1, 7, 1}, {2, 1, 4}, {2, 2, 2}, {2, 3, 2}, {3, 2, 4},
		{4, 2, 4}, {5, 2, 6}, {8, 1, 16}, {32, 32, 2}, {33, 32, 4}, {64, 8, 16},
	} {
		if got := Slots(pops.Shape{D: c.d, G: c.g}); got != c.want {
			t.Errorf("Slots(POPS(%d,%d)) = %d, want %d", c.d, c.g, got, c.want)
		}
	}
}

// checkRun runs dst on POPS(d,g) through the slot model and asserts what
// Theorem 2.1 promises: exactly paperSlots slots, no conflicting coupler in
// any slot, no packet lost or duplicated, and every processor j holding the
// packet of source π⁻¹(j) as delivered at the end.
func checkRun(sh pops.Shape, dst []int32) error {
	pl, err := NewPlan(sh, dst)
	if err != nil {
		return err
	}
	perSlot := []int{}
	res, st, err := Run(pl, func(_ int, _ []pops.Action, _, _ pops.State, ev pops.Events) {
		perSlot = append(perSlot, len(ev.Conflicts))
	})
	if err != nil {
		return err
	}
	want := paperSlots(sh.D, sh.G)
	if res.Slots != want || len(perSlot) != want {
		return fmt.Errorf("%v π=%v: %d slots, Theorem 2.1 says %d", sh, dst, res.Slots, want)
	}
	if res.Conflicts != 0 || res.Lost != 0 || res.Duplicated != 0 || !res.Completed {
		return fmt.Errorf("%v π=%v: conflicts per slot %v, lost %d, duplicated %d, delivered %d/%d", sh, dst, perSlot, res.Lost, res.Duplicated, res.Delivered, sh.N())
	}
	for p, q := range dst {
		found := false
		for _, it := range st.Buf[q] {
			found = found || it.Packet == int32(p) && it.Kind == pops.Delivered
		}
		if !found {
			return fmt.Errorf("%v π=%v: processor %d does not hold packet %d as delivered", sh, dst, q, p)
		}
	}
	return nil
}

// Every shape with dg ≤ 8 (≤ 7 in -short) and every permutation.
func TestOfflineExhaustive(t *testing.T) {
	maxN := 8
	if short() {
		maxN = 7
	}
	cases := 0
	for n := 1; n <= maxN; n++ {
		for d := 1; d <= n; d++ {
			if n%d != 0 {
				continue
			}
			sh := pops.Shape{D: d, G: n / d}
			perm.Each(n, func(p []int32) bool {
				cases++
				if err := checkRun(sh, p); err != nil {
					t.Fatal(err)
				}
				return true
			})
		}
	}
	t.Logf("%d (shape, permutation) cases", cases)
}

func TestOfflineRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 32).Draw(t, "d")
		g := rapid.IntRange(1, 32).Draw(t, "g")
		dst := genPerm(t, d*g)
		if err := checkRun(pops.Shape{D: d, G: g}, dst); err != nil {
			t.Fatal(err)
		}
	})
}

// d < g is the case the hint leaves open: every shape with 2 ≤ d < g ≤ 12.
func TestOfflineDLessThanG(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.IntRange(3, 12).Draw(t, "g")
		d := rapid.IntRange(2, g-1).Draw(t, "d")
		if err := checkRun(pops.Shape{D: d, G: g}, genPerm(t, d*g)); err != nil {
			t.Fatal(err)
		}
	})
}

func genPerm(t *rapid.T, n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return rapid.Permutation(ids).Draw(t, "π")
}

// The model catches a bad schedule: move a packet to an idle relay in the
// group that relays another packet of its source group in the same round;
// the two then collide on one coupler and are both lost.
func TestTamperedPlanCaught(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 3, G: 2}, {D: 5, G: 3}, {D: 7, G: 4}} {
		dst := perm.Identity(sh.N())
		pl, err := NewPlan(sh, dst)
		if err != nil {
			t.Fatal(err)
		}
		if !tamper(sh, pl) {
			t.Fatalf("%v: no two packets to tamper with", sh)
		}
		res, _, err := Run(pl, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Conflicts == 0 || res.Lost != 2 || res.Completed {
			t.Fatalf("%v tampered plan: %+v, want a conflict and 2 lost packets", sh, res)
		}
	}
}

func tamper(sh pops.Shape, pl Plan) bool {
	busy := map[[2]int32]bool{} // (round, relay)
	for p := range pl.Relay {
		busy[[2]int32{pl.Round[p], pl.Relay[p]}] = true
	}
	for p := range pl.Relay {
		for q := range pl.Relay {
			h := sh.Group(int(pl.Relay[p]))
			if sh.Group(p) != sh.Group(q) || pl.Round[p] != pl.Round[q] || h == sh.Group(int(pl.Relay[q])) {
				continue
			}
			for r := h * sh.D; r < (h+1)*sh.D; r++ {
				if !busy[[2]int32{pl.Round[q], int32(r)}] {
					pl.Relay[q] = int32(r)
					return true
				}
			}
		}
	}
	return false
}

func TestNewPlanRejects(t *testing.T) {
	for _, c := range []struct {
		sh  pops.Shape
		dst []int32
	}{
		{pops.Shape{D: 0, G: 2}, nil},
		{pops.Shape{D: 2, G: 2}, []int32{0, 1, 2}},
		{pops.Shape{D: 2, G: 2}, []int32{0, 1, 1, 3}},
		{pops.Shape{D: 2, G: 2}, []int32{0, 1, perm.None, 3}},
	} {
		if _, err := NewPlan(c.sh, c.dst); err == nil {
			t.Errorf("NewPlan(%v, %v) accepted", c.sh, c.dst)
		}
	}
}

func ExampleRunPerm() {
	// POPS(2,3): d < g, one round of two slots.
	res, err := RunPerm(pops.Shape{D: 2, G: 3}, []int32{5, 4, 3, 2, 1, 0}, nil)
	fmt.Println(res.Slots, res.Conflicts, res.Delivered, res.Completed, err)
	// Output: 2 0 6 true <nil>
}

// Larger shapes than rapid usually draws, with seeded random permutations:
// the extremes d = 1, g = 1, d = g, d = g ± 1, d ≪ g and d ≫ g.
func TestOfflineBigShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 21))
	shapes := []pops.Shape{{D: 1, G: 512}, {D: 512, G: 1}, {D: 32, G: 32}, {D: 31, G: 32}, {D: 33, G: 32},
		{D: 2, G: 256}, {D: 256, G: 2}, {D: 64, G: 64}, {D: 100, G: 7}, {D: 7, G: 100}}
	if !short() {
		shapes = append(shapes, pops.Shape{D: 128, G: 128}, pops.Shape{D: 16, G: 512}, pops.Shape{D: 512, G: 16})
	}
	for _, sh := range shapes {
		for range 3 {
			if err := checkRun(sh, perm.Random(sh.N(), rng)); err != nil {
				t.Fatal(err)
			}
		}
		// Structured permutations: identity and reversal.
		rev := perm.Identity(sh.N())
		slices.Reverse(rev)
		for _, p := range [][]int32{perm.Identity(sh.N()), rev} {
			if err := checkRun(sh, p); err != nil {
				t.Fatal(err)
			}
		}
	}
}
