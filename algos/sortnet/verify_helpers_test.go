package sortnet

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// Bits01 by hand: wire i holds bit i.
func TestBits01(t *testing.T) {
	if got := Bits01(5, 0b00110); !slices.Equal(got, []int{0, 1, 1, 0, 0}) {
		t.Errorf("Bits01(5, 0b00110) = %v", got)
	}
	if got := Bits01(3, 0b111); !slices.Equal(got, []int{1, 1, 1}) {
		t.Errorf("Bits01(3, 0b111) = %v", got)
	}
}

// Witness is nil exactly when the network sorts the keys (checked by
// applying the network independently), and otherwise a 0-1 input the
// network leaves unsorted; the keys are not modified.
func TestWitnessIsUnsortedThreshold(t *testing.T) {
	nw, err := OddEvenMergeSort(16)
	if err != nil {
		t.Fatal(err)
	}
	bad := verifyDropLast(nw)
	r := rand.New(rand.NewPCG(3, 4))
	seen := 0
	for range 200 {
		xs := make([]int32, 16)
		for i, x := range r.Perm(16) {
			xs[i] = int32(x)
		}
		keep := slices.Clone(xs)
		out := slices.Clone(xs)
		sortnet.Apply(bad, out)
		z := Witness(bad, xs)
		if !slices.Equal(xs, keep) {
			t.Fatal("Witness modified its input")
		}
		if (z == nil) != sortnet.Sorted(out) {
			t.Fatalf("input %v: witness %v, output sorted %v", xs, z, sortnet.Sorted(out))
		}
		if z == nil {
			continue
		}
		seen++
		zo := slices.Clone(z)
		sortnet.Apply(bad, zo)
		if len(z) != 16 || sortnet.Sorted(zo) {
			t.Fatalf("input %v: witness %v is left sorted", xs, z)
		}
	}
	if seen == 0 {
		t.Fatal("no permutation exposed the broken network: the test checked nothing")
	}
}

// The structured inputs by hand at n = 6 and n = 10.
func TestStructuredInputs(t *testing.T) {
	want6 := map[string][]int32{
		"reversed":   {5, 4, 3, 2, 1, 0},
		"interleave": {0, 2, 4, 1, 3, 5},
		"shuffle":    {0, 3, 1, 4, 2, 5},
		"organ-pipe": {0, 1, 2, 2, 1, 0},
		"inverted":   {5, 4, 3, 3, 4, 5},
		"blocks-8":   {0, 1, 2, 3, 4, 5},
		"3-values":   {0, 1, 2, 0, 1, 2},
	}
	got := StructuredInputs(6)
	if len(got) != len(want6) {
		t.Fatalf("%d inputs, want %d", len(got), len(want6))
	}
	for name, w := range want6 {
		if !slices.Equal(got[name], w) {
			t.Errorf("n = 6, %s: %v, want %v", name, got[name], w)
		}
	}
	if b := StructuredInputs(10)["blocks-8"]; !slices.Equal(b, []int32{8, 9, 10, 11, 12, 13, 14, 15, 0, 1}) {
		t.Errorf("n = 10, blocks-8: %v", b)
	}
}

// Weight01 draws inputs of exactly the stated weight k·n/(of−1): on the
// empty network (which leaves every input as it is) the returned input has
// that many ones and is itself unsorted; weights 0 and n are sorted inputs,
// and a sorting network leaves none unsorted.
func TestWeight01(t *testing.T) {
	const n, of = 20, 5
	empty := sortnet.Network{N: n}
	sorter, err := OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	g := NewWeight01(n)
	r := rand.New(rand.NewPCG(5, 6))
	for k := range of {
		want := k * n / (of - 1)
		weight, z := g.Unsorted(empty, k, of, r)
		if weight != want {
			t.Fatalf("k = %d: weight %d, want %d", k, weight, want)
		}
		if want == 0 || want == n {
			if z != nil {
				t.Errorf("k = %d: weight %d input %v reported unsorted", k, want, z)
			}
			continue
		}
		ones := 0
		for _, b := range z {
			ones += b
		}
		if z == nil || ones != want || sortnet.Sorted(z) {
			t.Errorf("k = %d: input %v, %d ones, want an unsorted input with %d", k, z, ones, want)
		}
		if _, z := g.Unsorted(sorter, k, of, r); z != nil {
			t.Errorf("k = %d: Batcher's network leaves %v unsorted", k, z)
		}
	}
}
