package sortnet

import (
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// verifyDropLast returns nw without its last comparator.
func verifyDropLast(nw sortnet.Network) sortnet.Network {
	nw = nw.Clone()
	last := len(nw.Stages) - 1
	nw.Stages[last] = nw.Stages[last][:len(nw.Stages[last])-1]
	return nw.Compact()
}

// Verify accepts Batcher's network and catches the same network with one
// comparator removed, in its exhaustive part (n ≤ maxExh) and in its
// random/structured part (n > maxExh), with a 0-1 witness that the broken
// network really leaves unsorted. (Moved from props/sortnet's
// TestSortnetVerifyCatchesBrokenNetworks.)
func TestVerifyCatchesBrokenNetworks(t *testing.T) {
	for _, c := range []struct{ n, maxExh int }{{12, 16}, {100, 16}, {300, 0}} {
		nw, err := OddEvenMergeSort(c.n)
		if err != nil {
			t.Fatal(err)
		}
		v := Verify(nw, 1, c.maxExh, 4, 1e7)
		if !v.Sorts || v.Failure != nil || v.Exhaustive != (c.n <= c.maxExh) || v.Inputs == 0 || v.Coverage == "" {
			t.Fatalf("n = %d: Batcher's network: %+v", c.n, v)
		}
		bad := verifyDropLast(nw)
		v = Verify(bad, 1, c.maxExh, 4, 1e7)
		if v.Sorts || v.Failure == nil {
			t.Fatalf("n = %d: broken network passed: %s", c.n, v.Coverage)
		}
		out := slices.Clone(v.Failure.Input)
		sortnet.Apply(bad, out)
		if len(out) != c.n || v.Failure.N != c.n || sortnet.Sorted(out) {
			t.Errorf("n = %d: witness %v (%s) is not left unsorted", c.n, v.Failure.Input, v.Failure.How)
		}
	}
}

// The exhaustive part reports the numerically smallest failing input
// (wire i = bit i), checked by brute force over all 2^n inputs.
func TestVerifyExhaustiveReportsSmallest(t *testing.T) {
	for _, n := range []int{5, 9, 12} {
		nw, err := BitonicSort(n)
		if err != nil {
			t.Fatal(err)
		}
		bad := verifyDropLast(nw)
		v := Verify(bad, 1, 24, 0, 0)
		if v.Failure == nil || !v.Exhaustive || v.Inputs != 1<<n {
			t.Fatalf("n = %d: %+v", n, v)
		}
		var want []int
		for x := uint64(0); x < 1<<n && want == nil; x++ {
			in := make([]int, n)
			for i := range in {
				in[i] = int(x>>i) & 1
			}
			out := slices.Clone(in)
			sortnet.Apply(bad, out)
			if !sortnet.Sorted(out) {
				want = in
			}
		}
		if !slices.Equal(v.Failure.Input, want) {
			t.Errorf("n = %d: reported %v, smallest failing input %v", n, v.Failure.Input, want)
		}
	}
}

// The non-exhaustive count: perms permutations + 7 structured inputs + 64
// per weight, where the weights are min(n+1, 256) cut to work/(size+n),
// at least 4.
func TestVerifyInputCount(t *testing.T) {
	nw, err := OddEvenMergeSort(300)
	if err != nil {
		t.Fatal(err)
	}
	cost := int64(nw.Size() + 300)
	for _, c := range []struct {
		work    int64
		weights int64
	}{{1 << 40, 256}, {cost * 10, 10}, {0, 4}} {
		v := Verify(nw, 7, 24, 3, c.work)
		if want := 3 + 7 + 64*c.weights; !v.Sorts || v.Exhaustive || v.Inputs != want {
			t.Errorf("work %d: sorts %v, exhaustive %v, %d inputs, want %d", c.work, v.Sorts, v.Exhaustive, v.Inputs, want)
		}
	}
}
