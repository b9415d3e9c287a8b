package sortnet

import (
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// The 0-1 principle, exhaustively: both networks sort all 2^n 0-1 inputs,
// hence all inputs, for every n ≤ 24 (n ≤ 20 with -short).
func TestSorts01Exhaustive(t *testing.T) {
	maxN := 24
	if short() {
		maxN = 20
	}
	for _, b := range builds {
		for n := 0; n <= maxN; n++ {
			bad, ok, err := sortnet.Sorts01Exhaustive(mustBuild(t, b, n))
			if err != nil || !ok {
				t.Fatalf("%s(%d) leaves the 0-1 input %0*b unsorted (err %v)", b.name, n, n, bad, err)
			}
		}
	}
}

// structured returns named inputs on n wires: sorted, reversed, interleaved
// (evens then odds, and the perfect shuffle of the two sorted halves),
// organ-pipe (up then down, and down then up), block-reversed (blocks of b
// in reverse order, each sorted or each reversed), few distinct values, and
// all equal.
func structured(n int) map[string][]int32 {
	in := map[string][]int32{}
	mk := func(name string, f func(i int) int) {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(f(i))
		}
		in[name] = xs
	}
	h := (n + 1) / 2
	mk("sorted", func(i int) int { return i })
	mk("reversed", func(i int) int { return n - 1 - i })
	mk("evens-then-odds", func(i int) int {
		if i < h {
			return 2 * i
		}
		return 2*(i-h) + 1
	})
	mk("shuffle-of-halves", func(i int) int {
		if i%2 == 0 {
			return i / 2
		}
		return h + i/2
	})
	mk("organ-pipe", func(i int) int { return min(i, n-1-i) })
	mk("inverted-organ-pipe", func(i int) int { return max(i, n-1-i) })
	for _, b := range []int{2, 3, 8, 64} {
		if b >= n {
			continue
		}
		nb := (n + b - 1) / b
		mk(fmt.Sprintf("blocks-of-%d-reversed", b), func(i int) int { return (nb-1-i/b)*b + i%b })
		mk(fmt.Sprintf("blocks-of-%d-reversed-each-reversed", b), func(i int) int { return (nb-1-i/b)*b + (b - 1 - i%b) })
	}
	mk("three-values", func(i int) int { return (i * 7) % 3 })
	mk("all-equal", func(int) int { return 5 })
	return in
}

func checkSorts(t *testing.T, name string, n int, nw sortnet.Network, label string, xs []int32) {
	t.Helper()
	want := slices.Clone(xs)
	slices.Sort(want)
	got := slices.Clone(xs)
	sortnet.Apply(nw, got)
	if !slices.Equal(got, want) {
		t.Fatalf("%s(%d) on %s: output is not the sorted input", name, n, label)
	}
}

// sizes returns the n checked by the randomized tests: every n ≤ 70, the
// powers of two and their neighbours, and random n, up to top.
func sizes(r *rand.Rand, top int) []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	for p := 128; p <= top; p *= 2 {
		ns = append(ns, p-1, p)
		if p < top {
			ns = append(ns, p+1, p+r.IntN(p))
		}
	}
	return ns
}

// sortnetLong runs the randomized sortedness tests up to n = 2^16 (`make
// test-long` passes it); the default run stops at n = 2^13. The
// constructions have no branch that depends on n beyond the loop bounds
// (every merge level runs the same code), so n ≤ 2^13 — every level up to
// 13, powers of two, their neighbours and random n — reaches every path;
// the planted construction faults of the commit that added the flag are
// all caught at n ≤ 2^13 (most at n ≤ 70). Levels 14–16 stay covered by
// the long run.
var sortnetLong = flag.Bool("sortnet.long", false, "TestSortsRandomAndStructured, TestSortsRandom01EveryWeight: n up to 2^16 (default 2^13)")

// randomTop is the largest n of the randomized tests: 2^16 with
// -sortnet.long, else 2^13, and the given -short size.
func randomTop(shortTop int) int {
	switch {
	case short():
		return shortTop
	case *sortnetLong:
		return 1 << 16
	}
	return 1 << 13
}

// Random permutations, random keys with repeats and the structured inputs,
// up to n = 2^13 (2^16 with -sortnet.long, 2^12 with -short).
func TestSortsRandomAndStructured(t *testing.T) {
	top := randomTop(1 << 12)
	r := rand.New(rand.NewPCG(20261122, 1))
	for _, n := range sizes(r, top) {
		for _, b := range builds {
			nw := mustBuild(t, b, n)
			trials := 4
			if n <= 70 {
				trials = 50
			}
			for trial := range trials {
				p := make([]int32, n)
				for i, v := range r.Perm(n) {
					p[i] = int32(v)
				}
				checkSorts(t, b.name, n, nw, "a random permutation (seed 20261122,1)", p)
				dup := make([]int32, n)
				for i := range dup {
					dup[i] = int32(r.IntN(1 + trial%5))
				}
				checkSorts(t, b.name, n, nw, "random keys with repeats", dup)
			}
			for label, xs := range structured(n) {
				checkSorts(t, b.name, n, nw, label, xs)
			}
		}
	}
}

// Random 0-1 inputs of every weight w = 0..n (64 per word, Eval01), for n up
// to 2^12; above that 512 weights spread over 0..n, including 0, 1, n−1, n.
// n runs up to 2^13 (2^16 with -sortnet.long, 2^11 with -short).
func TestSortsRandom01EveryWeight(t *testing.T) {
	top := randomTop(1 << 11)
	r := rand.New(rand.NewPCG(20261122, 2))
	for _, n := range sizes(r, top) {
		var weights []int
		if n <= 1<<12 {
			for w := 0; w <= n; w++ {
				weights = append(weights, w)
			}
		} else {
			for k := range 512 {
				weights = append(weights, k*n/511)
			}
			weights = append(weights, 1, n-1)
		}
		for _, b := range builds {
			nw := mustBuild(t, b, n)
			wires := make([]uint64, n)
			perm := make([]int, n)
			for i := range perm {
				perm[i] = i
			}
			for start := 0; start < len(weights); start += 64 {
				clear(wires)
				lanes := min(64, len(weights)-start)
				for lane := range lanes {
					// a random set of weights[start+lane] wires gets a 1
					w := weights[start+lane]
					for i := 0; i < w; i++ {
						j := i + r.IntN(n-i)
						perm[i], perm[j] = perm[j], perm[i]
						wires[perm[i]] |= 1 << lane
					}
				}
				sortnet.Eval01(nw, wires)
				var mask uint64 = 1<<lanes - 1
				if lanes == 64 {
					mask = ^uint64(0)
				}
				if bad := sortnet.Unsorted01(wires) & mask; bad != 0 {
					t.Fatalf("%s(%d): a random 0-1 input of weight %d is left unsorted", b.name, n, weights[start+bits.TrailingZeros64(bad)])
				}
				for lane := range lanes { // sorted with the input's weight: 0^(n−w) 1^w
					w := weights[start+lane]
					if (w > 0 && wires[n-w]>>lane&1 == 0) || (w < n && wires[n-w-1]>>lane&1 == 1) {
						t.Fatalf("%s(%d): a 0-1 input of weight %d does not keep its weight", b.name, n, w)
					}
				}
			}
		}
	}
}
