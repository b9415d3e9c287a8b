package sortnet

import (
	"math/rand/v2"
	"reflect"
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

// UnsortedManyBy gives, for every group of weights, the first failing
// weight and input that successive UnsortedBy calls give from the same
// stream, and leaves the stream where they leave it when none fails; on
// Batcher's network with one comparator deleted (which some weights
// expose) and with a different comparator deleted, which changes the
// answers (the comparison can fail).
func TestWeight01ManySameAsOne(t *testing.T) {
	const n, of = 40, 41
	bat, err := OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	del := bat.Clone()
	del.Stages[5] = slices.Delete(del.Stages[5], 1, 2)
	del2 := bat.Clone()
	del2.Stages[9] = slices.Delete(del2.Stages[9], 0, 1)
	type ans struct {
		k, weight int
		z         []int
		next      uint64
	}
	// one: successive UnsortedBy calls for k0..k1−1, stopping at the first
	// failure (the sorts check's loop before batching).
	one := func(nw sortnet.Network, g *Weight01, k0, k1 int, r *rand.Rand) ans {
		for k := k0; k < k1; k++ {
			w, z := g.UnsortedBy(func(w []uint64) { sortnet.Eval01(nw, w) }, k, of, r)
			if z != nil {
				return ans{k, w, z, 0}
			}
		}
		return ans{k1, 0, nil, r.Uint64()}
	}
	many := func(nw sortnet.Network, g *Weight01, k0, k1 int, r *rand.Rand) ans {
		k, w, z := g.UnsortedManyBy(func(ws [][]uint64) {
			for _, w := range ws {
				sortnet.Eval01(nw, w)
			}
		}, k0, k1, of, r)
		if z != nil {
			return ans{k, w, z, 0}
		}
		return ans{k1, 0, nil, r.Uint64()}
	}
	run := func(f func(sortnet.Network, *Weight01, int, int, *rand.Rand) ans, nw sortnet.Network) []ans {
		var out []ans
		for _, group := range []int{1, 3, 4, 7} {
			g, r := NewWeight01(n), rand.New(rand.NewPCG(3, uint64(group)))
			for k0 := 0; k0 < of; k0 += group {
				a := f(nw, g, k0, min(of, k0+group), r)
				out = append(out, a)
				if a.z != nil { // the sorts check stops here; start afresh
					g, r = NewWeight01(n), rand.New(rand.NewPCG(4, uint64(k0)))
				}
			}
		}
		return out
	}
	want := run(one, del)
	if got := run(many, del); !reflect.DeepEqual(got, want) {
		t.Fatalf("UnsortedManyBy differs from successive UnsortedBy calls:\n got %v\nwant %v", got, want)
	}
	failures, passes := 0, 0
	for _, a := range want {
		if a.z != nil {
			failures++
		} else {
			passes++
		}
	}
	if failures == 0 || passes == 0 {
		t.Fatalf("%d failing and %d passing groups: the comparison needs both", failures, passes)
	}
	if reflect.DeepEqual(run(many, del2), want) {
		t.Fatal("a different deleted comparator gave the same answers")
	}
}
