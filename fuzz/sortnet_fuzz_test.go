package fuzz

import (
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// sortnetEvalSeeds are f.Add seeds for FuzzSortnetEval01, decoded as
// described at runSortnetEval01. More are in
// testdata/fuzz/FuzzSortnetEval01/.
var sortnetEvalSeeds = [][]byte{
	{},                                   // one wire, no comparator
	{3, 5, 0, 1, 2, 3, 0, 2, 1, 3, 1, 2}, // 4 wires, a sorting network
	{7, 40, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
	[]byte("routecheck comparator networks: bit-parallel against plain evaluation"),
}

// FuzzSortnetEval01 checks models/sortnet's bit-parallel evaluation
// against the plain one on byte-decoded comparator networks: for decoded
// 0-1 inputs packed with Pack01, Eval01's output lanes equal Apply on each
// input, Unsorted01 marks exactly the lanes whose output Sorted rejects,
// FailsOn01 returns the first of them, Apply on integer inputs equals the
// network run by hand comparator by comparator, and for n ≤ 10,
// Sorts01Exhaustive agrees with Apply on every 0-1 input.
func FuzzSortnetEval01(f *testing.F) {
	for _, seed := range sortnetEvalSeeds {
		f.Add(seed)
	}
	f.Fuzz(runSortnetEval01)
}

// runSortnetEval01 decodes data as: n (1–24), the number of comparators
// (0–48) and for each two wires (swapped into i < j; a comparator on one
// wire is dropped), the number of 0-1 inputs (1–100) and each as n bits,
// then n integer inputs (bytes).
func runSortnetEval01(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	n := c.intn(1, 24)
	var cs []sortnet.Comparator
	for k := c.intn(0, 48); k > 0; k-- {
		i, j := int32(c.intn(0, n-1)), int32(c.intn(0, n-1))
		if i == j {
			continue
		}
		cs = append(cs, sortnet.Comparator{I: min(i, j), J: max(i, j)})
	}
	nw := sortnet.Layer(n, cs)
	if err := nw.Validate(); err != nil {
		t.Fatalf("Layer(%d, %v): %v", n, cs, err)
	}
	if nw.Size() != len(cs) {
		t.Fatalf("Layer kept %d of %d comparators", nw.Size(), len(cs))
	}
	inputs := make([]uint64, c.intn(1, 100))
	for k := range inputs {
		for i := 0; i < n; i++ {
			if c.bool() {
				inputs[k] |= 1 << i
			}
		}
	}
	// plain: each input through Apply, and through cs by hand
	plain := func(in uint64) (uint64, bool) {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = int(in >> i & 1)
		}
		ys := slices.Clone(xs)
		sortnet.Apply(nw, xs)
		for _, cmp := range cs {
			if ys[cmp.I] > ys[cmp.J] {
				ys[cmp.I], ys[cmp.J] = ys[cmp.J], ys[cmp.I]
			}
		}
		if !slices.Equal(xs, ys) {
			t.Fatalf("Apply(%v) = %v, comparator by comparator %v", in, xs, ys)
		}
		var out uint64
		for i, x := range xs {
			out |= uint64(x) << i
		}
		return out, sortnet.Sorted(xs)
	}
	words, masks := sortnet.Pack01(n, inputs)
	firstBad, anyBad := uint64(0), false
	for k, w := range words {
		w = slices.Clone(w)
		sortnet.Eval01(nw, w)
		unsorted := sortnet.Unsorted01(w) & masks[k]
		for b := 0; b < 64; b++ {
			if masks[k]>>b&1 == 0 {
				continue
			}
			in := inputs[64*k+b]
			want, sorted := plain(in)
			var got uint64
			for i := 0; i < n; i++ {
				got |= (w[i] >> b & 1) << i
			}
			if got != want {
				t.Fatalf("input %0*b: Eval01 gives %0*b, Apply %0*b (network %v)", n, in, n, got, n, want, nw.Stages)
			}
			if (unsorted>>b&1 == 1) == sorted {
				t.Fatalf("input %0*b: Unsorted01 says %v, Sorted says %v", n, in, unsorted>>b&1 == 1, sorted)
			}
			if !sorted && !anyBad {
				firstBad, anyBad = in, true
			}
		}
	}
	if bad, found := sortnet.FailsOn01(nw, words, masks); found != anyBad || (found && bad != firstBad) {
		t.Fatalf("FailsOn01 = %b, %v; first unsorted input by Apply %b, %v", bad, found, firstBad, anyBad)
	}
	// integer inputs: Apply sorts a permutation of the input, as the
	// comparators do one by one
	xs := make([]int, n)
	for i := range xs {
		xs[i] = c.intn(0, 255)
	}
	ys := slices.Clone(xs)
	sortnet.Apply(nw, xs)
	for _, cmp := range cs {
		if ys[cmp.I] > ys[cmp.J] {
			ys[cmp.I], ys[cmp.J] = ys[cmp.J], ys[cmp.I]
		}
	}
	if !slices.Equal(xs, ys) {
		t.Fatalf("Apply on integers gives %v, comparator by comparator %v", xs, ys)
	}
	if n <= 10 {
		bad, ok, err := sortnet.Sorts01Exhaustive(nw)
		if err != nil {
			t.Fatalf("Sorts01Exhaustive: %v", err)
		}
		wantOK, wantBad := true, uint64(0)
		for in := uint64(0); in < 1<<n; in++ {
			if _, sorted := plain(in); !sorted {
				wantOK, wantBad = false, in
				break
			}
		}
		if ok != wantOK || (!ok && bad != wantBad) {
			t.Fatalf("Sorts01Exhaustive = %b, %v; by Apply %b, %v (network %v)", bad, ok, wantBad, wantOK, nw.Stages)
		}
	}
}
