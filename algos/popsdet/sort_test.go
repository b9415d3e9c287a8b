package popsdet

import (
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"

	"pgregory.net/rapid"
)

// genStage draws a random comparator stage on n wires: a random matching on
// a random subset of the wires.
func genStage(t *rapid.T, n int) sortnet.Stage {
	wires := make([]int32, n)
	for i := range wires {
		wires[i] = int32(i)
	}
	wires = rapid.Permutation(wires).Draw(t, "wires")
	pairs := rapid.IntRange(0, n/2).Draw(t, "pairs")
	st := make(sortnet.Stage, pairs)
	for k := range st {
		a, b := wires[2*k], wires[2*k+1]
		st[k] = sortnet.Comparator{I: min(a, b), J: max(a, b)}
	}
	return st
}

// Lemma 2.2: simulating a stage on the slot model gives what
// sortnet.ApplyStage gives, in 1 or 2⌈d/g⌉ slots, without conflicts — with
// the fixed-point extension and with a random extension of the exchange.
func TestStageMatchesApplyStage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 8).Draw(t, "d")
		g := rapid.IntRange(1, 8).Draw(t, "g")
		sh := pops.Shape{D: d, G: g}
		n := sh.N()
		st := genStage(t, n)
		vals := rapid.SliceOfN(rapid.IntRange(-5, 5), n, n).Draw(t, "vals")
		want := slices.Clone(vals)
		sortnet.ApplyStage(st, want)

		sp, err := CompileStage(sh, st)
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "random extension") {
			// Exchange on the comparator wires, a random permutation of the rest.
			pi, _ := Exchange(n, st)
			var rest []int32
			for i := range n {
				if pi[i] == int32(i) {
					rest = append(rest, int32(i))
				}
			}
			img := rapid.Permutation(rest).Draw(t, "extension")
			for k, i := range rest {
				pi[i] = img[k]
			}
			if sp, err = CompileStageWith(sh, st, pi); err != nil {
				t.Fatal(err)
			}
		}
		in := slices.Clone(vals)
		got, res, err := Simulate(sp, vals)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(vals, in) {
			t.Fatal("Simulate modified its input")
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%v stage %v on %v: simulated %v, ApplyStage %v", sh, st, vals, got, want)
		}
		if res.Slots != paperSlots(d, g) || res.Conflicts != 0 || res.Lost != 0 || !res.Completed {
			t.Fatalf("%v stage %v: %+v, want %d slots without conflict", sh, st, res, paperSlots(d, g))
		}
	})
}

func TestCompileStageWithRejects(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	st := sortnet.Stage{{I: 0, J: 2}}
	if _, err := CompileStageWith(sh, st, []int32{2, 1, 0, 3}); err != nil {
		t.Fatalf("valid exchange rejected: %v", err)
	}
	if _, err := CompileStageWith(sh, st, []int32{1, 0, 2, 3}); err == nil {
		t.Fatal("permutation that does not exchange 0 and 2 accepted")
	}
	if _, err := CompileStage(sh, sortnet.Stage{{I: 0, J: 1}, {I: 1, J: 2}}); err == nil {
		t.Fatal("stage using wire 1 twice accepted")
	}
}

func TestOddEvenTranspositionSorts(t *testing.T) {
	for n := range 21 {
		nw := OddEvenTransposition(n)
		if err := nw.Validate(); err != nil {
			t.Fatal(err)
		}
		if nw.Depth() != n {
			t.Fatalf("n = %d: depth %d", n, nw.Depth())
		}
		if bad, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
			t.Fatalf("n = %d: input %b not sorted (%v)", n, bad, err)
		}
	}
}

// checkSortRoute asserts Corollary 2.4's direct version: every processor j
// ends with the packet of source π⁻¹(j), after depth · (1 or 2⌈d/g⌉) slots,
// with no conflict, loss or duplicate in any stage routing.
func checkSortRoute(t interface{ Fatalf(string, ...any) }, r *SortRouter, sh pops.Shape, depth int, dst []int32) {
	res, err := r.Route(dst)
	if err != nil {
		t.Fatalf("%v π=%v: %v", sh, dst, err)
	}
	if res.Stages != depth || res.Slots != depth*paperSlots(sh.D, sh.G) || r.Slots() != res.Slots {
		t.Fatalf("%v: %d stages, %d slots (router says %d), want %d stages × %d", sh, res.Stages, res.Slots, r.Slots(), depth, paperSlots(sh.D, sh.G))
	}
	if res.Conflicts != 0 || res.Lost != 0 || res.Duplicated != 0 {
		t.Fatalf("%v π=%v: %+v", sh, dst, res)
	}
	for j, p := range res.Holder {
		if dst[p] != int32(j) {
			t.Fatalf("%v π=%v: processor %d holds packet %d, destined to %d", sh, dst, j, p, dst[p])
		}
	}
	if res.Delivered != sh.N() {
		t.Fatalf("%v π=%v: Delivered = %d", sh, dst, res.Delivered)
	}
}

// Every shape with dg ≤ 6 (≤ 5 in -short), every permutation, with the
// odd-even transposition network.
func TestSortRouterExhaustive(t *testing.T) {
	maxN := 6
	if short() {
		maxN = 5
	}
	for n := 1; n <= maxN; n++ {
		for d := 1; d <= n; d++ {
			if n%d != 0 {
				continue
			}
			sh := pops.Shape{D: d, G: n / d}
			r, err := NewSortRouter(sh, OddEvenTransposition(n))
			if err != nil {
				t.Fatal(err)
			}
			perm.Each(n, func(p []int32) bool {
				checkSortRoute(t, r, sh, n, p)
				return true
			})
		}
	}
}

func TestSortRouterRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 8).Draw(t, "d")
		g := rapid.IntRange(1, 8).Draw(t, "g")
		sh := pops.Shape{D: d, G: g}
		r, err := NewSortRouter(sh, OddEvenTransposition(sh.N()))
		if err != nil {
			t.Fatal(err)
		}
		checkSortRoute(t, r, sh, sh.N(), genPerm(t, sh.N()))
	})
}

// A network that does not sort leaves packets at the wrong processor, and
// Route says so (the delivery check can fail).
func TestSortRouterNonSortingNetwork(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	nw := OddEvenTransposition(4)
	nw.Stages = nw.Stages[:1]
	r, err := NewSortRouter(sh, nw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Route([]int32{3, 2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	// One stage [0:1][2:3] turns keys 3 2 1 0 into 2 3 0 1: nothing delivered.
	if res.Delivered != 0 || !slices.Equal(res.Holder, []int32{1, 0, 3, 2}) {
		t.Fatalf("%+v, want holders [1 0 3 2] and 0 delivered", res)
	}
	if _, err := NewSortRouter(sh, OddEvenTransposition(5)); err == nil {
		t.Fatal("network on 5 wires accepted for n = 4")
	}
}
