package aks

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// shuffleJ permutes the J ends exactly as rand.Rand.Shuffle does from the
// same PCG, and leaves the PCG at the same place, for lengths that are and
// are not powers of two; an off-by-one in the draw (j from 0..i−1, a
// planted difference) changes the permutation.
func TestShuffleJSame(t *testing.T) {
	stage := func(h int) sortnet.Stage {
		st := make(sortnet.Stage, h)
		for i := range st {
			st[i] = sortnet.Comparator{I: int32(i), J: int32(h + i)}
		}
		return st
	}
	ref := func(h int, src *rand.PCG) sortnet.Stage {
		st := stage(h)
		rand.New(src).Shuffle(h, func(i, j int) { st[i].J, st[j].J = st[j].J, st[i].J })
		return st
	}
	offByOne := func(h int, src *rand.PCG) sortnet.Stage {
		st := stage(h)
		r := rand.New(src)
		for i := h - 1; i > 1; i-- {
			j := r.IntN(i)
			st[i].J, st[j].J = st[j].J, st[i].J
		}
		return st
	}
	for _, h := range []int{1, 2, 3, 7, 8, 64, 100, 1 << 12, 1<<12 + 3} {
		a, b := rand.NewPCG(5, uint64(h)), rand.NewPCG(5, uint64(h))
		got := stage(h)
		shuffleJ(got, a)
		if want := ref(h, b); !slices.Equal(got, want) {
			t.Fatalf("h = %d: shuffleJ differs from rand.Rand.Shuffle", h)
		}
		if a.Uint64() != b.Uint64() {
			t.Fatalf("h = %d: the streams are left at different places", h)
		}
	}
	if slices.Equal(ref(100, rand.NewPCG(5, 100)), offByOne(100, rand.NewPCG(5, 100))) {
		t.Fatal("an off-by-one shuffle gives the same permutation: the comparison cannot tell")
	}
}

// shuffleJ's draw (first draw, then lemireReject when its low word is
// below m) is math/rand/v2's Uint64N, checked where the rejection runs
// (m = 2^62 + 1 rejects about a quarter of the draws); returning the first
// draw's high word without rejecting (a planted difference) is not.
func TestLemireRejectSame(t *testing.T) {
	draw := func(src *rand.PCG, m uint64, reject bool) uint64 {
		x := src.Uint64()
		hi, lo := bits.Mul64(x, m)
		if lo < m && reject {
			hi = lemireReject(src, m, x)
		}
		return hi
	}
	for _, m := range []uint64{3, 1000, 1<<62 + 1, 3 << 61, 1<<63 + 5} {
		a, b := rand.NewPCG(9, m), rand.NewPCG(9, m)
		rb := rand.New(b)
		for k := range 400 {
			if got, want := draw(a, m, true), rb.Uint64N(m); got != want {
				t.Fatalf("m = %d, draw %d: %d, want %d", m, k, got, want)
			}
		}
	}
	a, b := rand.NewPCG(9, 1), rand.NewPCG(9, 1)
	rb := rand.New(b)
	same := true
	for range 400 {
		if draw(a, 1<<62+1, false) != rb.Uint64N(1<<62+1) {
			same = false
		}
	}
	if same {
		t.Fatal("draws without rejection match Uint64N at m = 2^62 + 1: the comparison cannot tell")
	}
}

// sameResult reports whether two constructions agree in everything
// Construct returns.
func sameResult(a, b *Result) bool { return reflect.DeepEqual(a, b) }

// The construction's faster paths (applyAllPhysical where n is a power of
// two, shuffleJ for the expander's matchings) give the same Result —
// network, stage depths, schedule and traces — as the plain paths, on
// expander-halver networks (ExpanderNet and ExpanderSeparator against
// FromHalver(ExpanderHalver(d, rand.New(PCG)))) and exact ones, at powers
// of two and not; a network with one comparator deleted (a planted
// difference) is told apart.
func TestConstructFastPathsSame(t *testing.T) {
	perm := func(n int, seed uint64) []int32 {
		xs := make([]int32, n)
		for i, x := range rand.New(rand.NewPCG(seed, 7)).Perm(n) {
			xs[i] = int32(x)
		}
		return xs
	}
	build := func(plain bool, n, d int, exact bool) *Result {
		t.Helper()
		old := plainPaths
		plainPaths = plain
		defer func() { plainPaths = old }()
		var sep Separator = Exact()
		if !exact {
			if plain {
				sep = FromHalver(ExpanderHalver(d, rand.New(rand.NewPCG(11, uint64(n)))))
			} else {
				sep = ExpanderSeparator(n, d, 11)
			}
		}
		res, err := Construct(n, SeiferasParams(), sep, perm(n, 1), perm(n, 2))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cases := []struct {
		n, d  int
		exact bool
	}{{256, 8, false}, {1024, 4, false}, {1024, 16, false}, {300, 8, false}, {512, 0, true}, {1000, 0, true}}
	for _, c := range cases {
		fast, plain := build(false, c.n, c.d, c.exact), build(true, c.n, c.d, c.exact)
		if !sameResult(fast, plain) {
			t.Fatalf("n = %d, d = %d, exact %v: the fast paths' Result differs from the plain paths'", c.n, c.d, c.exact)
		}
	}
	fast := build(false, 1024, 8, false)
	if res, err := ExpanderNet(1024, 8, 11); err != nil || !reflect.DeepEqual(res.Net, fast.Net) {
		t.Fatalf("ExpanderNet(1024, 8, 11) differs from Construct with ExpanderSeparator (err %v)", err)
	}
	mut := build(true, 1024, 8, false)
	s := len(mut.Net.Stages) / 2
	mut.Net.Stages[s] = slices.Delete(slices.Clone(mut.Net.Stages[s]), 0, 1)
	if sameResult(fast, mut) {
		t.Fatal("a network with one comparator deleted compares equal: the comparison cannot tell")
	}
}
