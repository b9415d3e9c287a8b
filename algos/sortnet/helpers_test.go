package sortnet

import (
	"testing"

	"routecheck/models/sortnet"
)

// build is a construction under test.
type build struct {
	name string
	f    func(int) (sortnet.Network, error)
}

var builds = []build{{"odd-even", OddEvenMergeSort}, {"bitonic", BitonicSort}}

func mustBuild(t testing.TB, b build, n int) sortnet.Network {
	t.Helper()
	nw, err := b.f(n)
	if err != nil {
		t.Fatalf("%s(%d): %v", b.name, n, err)
	}
	if err := nw.Validate(); err != nil {
		t.Fatalf("%s(%d): invalid network: %v", b.name, n, err)
	}
	if nw.N != n {
		t.Fatalf("%s(%d): network has %d wires", b.name, n, nw.N)
	}
	return nw
}

// refComp is a comparator of the recursive reference, at its stage in the
// 2^k schedule; noop marks the comparators of a sub-merge whose upper half
// lies entirely on padding wires.
type refComp struct {
	stage, i, j int
	noop        bool
}

// refOddEven is Batcher's odd-even merge sort written from the recursive
// definition (sort both halves, merge the even- and odd-indexed
// subsequences, compare neighbours 2i−1, 2i), pruned to n wires. It is a
// second implementation for the structural test and the source of the
// "redundant by construction" set.
//
// Why noop comparators never exchange anything: a sub-merge works on a list
// of l wires (every r-th wire of a block) whose two halves hold sorted
// sequences; real wires form a prefix of the list because padding is the top
// of the whole network. If at most l/2 are real, the upper half is all +∞,
// the input is already sorted, and by induction on l neither the two
// recursive sub-merges (same situation) nor the neighbour comparators
// (which see a sorted list) move anything.
func refOddEven(n int) []refComp {
	if n <= 1 {
		return nil
	}
	N, m := 1, 0
	for N < n {
		N, m = 2*N, m+1
	}
	var out []refComp
	var merge func(lo, l, r, c, s0 int, noop bool)
	merge = func(lo, l, r, c, s0 int, noop bool) {
		noop = noop || c <= l/2
		if l == 2 {
			if c == 2 {
				out = append(out, refComp{s0, lo, lo + r, noop})
			}
			return
		}
		lg := 0
		for 1<<lg < l {
			lg++
		}
		merge(lo, l/2, 2*r, (c+1)/2, s0, noop)
		merge(lo+r, l/2, 2*r, c/2, s0, noop)
		for i := 1; i+1 < l && i+1 < c; i += 2 {
			out = append(out, refComp{s0 + lg - 1, lo + r*i, lo + r*(i+1), noop})
		}
	}
	var sortRec func(lo, l, lg, c, s0 int)
	sortRec = func(lo, l, lg, c, s0 int) {
		if l == 1 {
			return
		}
		h := l / 2
		sortRec(lo, h, lg-1, min(c, h), s0)
		sortRec(lo+h, h, lg-1, max(0, c-h), s0)
		merge(lo, l, 1, c, s0+(lg-1)*lg/2, false)
	}
	sortRec(0, N, m, n, 0)
	return out
}

// short reports whether the tests run at their reduced sizes: under
// -short, or in a build with the tag "mutation" (gremlins cannot pass
// -short to the tests it runs, but it passes build tags). The reduced sizes
// run the same assertions on smaller n.
func short() bool { return testing.Short() || mutationBuild }
