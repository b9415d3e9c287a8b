package aks

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"routecheck/models/sortnet"
)

// Our Batcher merge-exchange sort is a valid sorting network for every m ≤
// 16 (exhaustive 0-1 check) and has Batcher's depth k(k+1)/2 for m = 2^k.
func TestBatcherSort(t *testing.T) {
	for m := 0; m <= 16; m++ {
		nw := sortnet.Network{N: m, Stages: BatcherSort(m)}
		if err := nw.Validate(); err != nil {
			t.Fatalf("m = %d: %v", m, err)
		}
		if bad, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
			t.Fatalf("m = %d: does not sort input %b (%v)", m, bad, err)
		}
	}
	for k := 1; k <= 12; k++ {
		if got, want := len(BatcherSort(1<<k)), k*(k+1)/2; got != want {
			t.Errorf("m = 2^%d: depth %d, want %d", k, got, want)
		}
	}
	r := rand.New(rand.NewPCG(3, 3))
	for _, m := range []int{100, 1000, 3000} {
		xs := make([]int, m)
		for i := range xs {
			xs[i] = r.IntN(50)
		}
		sortnet.Apply(sortnet.Network{N: m, Stages: BatcherSort(m)}, xs)
		if !sortnet.Sorted(xs) {
			t.Fatalf("m = %d: random input not sorted", m)
		}
	}
}

// Each expander layer is a perfect matching between the two halves.
func TestExpanderHalverMatchings(t *testing.T) {
	h := ExpanderHalver(5, rand.New(rand.NewPCG(1, 9)))
	for _, m := range []int{2, 4, 10, 64, 1000} {
		layers := h.Halve(m)
		if m > 2 && len(layers) != 5 {
			t.Fatalf("m = %d: %d layers, want 5", m, len(layers))
		}
		for _, st := range layers {
			if len(st) != m/2 {
				t.Fatalf("m = %d: layer of %d comparators", m, len(st))
			}
			for _, c := range st {
				if c.I >= int32(m/2) || c.J < int32(m/2) {
					t.Fatalf("m = %d: comparator %v does not join the halves", m, c)
				}
			}
		}
		if err := (sortnet.Network{N: m, Stages: layers}).Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

// The Lemma 2 separator built from a halver of depth d has at most
// r = ⌈log₂(m/kick)⌉ halvers in sequence (depth ≤ r·d), only its first
// halver crosses the middle, and it is a valid network.
func TestLemma2Structure(t *testing.T) {
	const d = 3
	r := rand.New(rand.NewPCG(5, 5))
	sep := FromHalver(ExpanderHalver(d, rand.New(rand.NewPCG(2, 2))))
	for range 200 {
		m := 2 * (2 + r.IntN(300))
		kick := r.IntN(m / 2) // 2·kick < m
		layers := sep.Separate(m, kick)
		if err := (sortnet.Network{N: m, Stages: layers}).Validate(); err != nil {
			t.Fatalf("m = %d kick = %d: %v", m, kick, err)
		}
		rr := 1
		if kick > 0 {
			rr = 0
			for float64(kick)*float64(int(1)<<rr) < float64(m) {
				rr++
			}
		}
		if len(layers) > rr*d {
			t.Fatalf("m = %d kick = %d: depth %d > %d·%d", m, kick, len(layers), rr, d)
		}
		half := int32(m / 2)
		for l, st := range layers {
			if l < d {
				continue
			}
			for _, c := range st {
				if (c.I < half) != (c.J < half) {
					t.Fatalf("m = %d kick = %d: layer %d comparator %v crosses the middle", m, kick, l, c)
				}
			}
		}
	}
}

// With the exact halver, the Lemma 2 separator sorts (its first halver
// already does), for every m and kick.
func TestLemma2WithSortHalverSorts(t *testing.T) {
	sep := FromHalver(SortHalver())
	for m := 2; m <= 16; m += 2 {
		for kick := 0; 2*kick < m; kick++ {
			nw := sortnet.Network{N: m, Stages: sep.Separate(m, kick)}
			if _, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
				t.Fatalf("m = %d kick = %d: not sorting (%v)", m, kick, err)
			}
		}
	}
}

// The expander halver's matchings are those of r.Perm (i ↦ h + π(i)) drawn
// in turn from the same stream, for several sizes and successive calls;
// a different stream gives different matchings.
func TestExpanderHalveIsPerm(t *testing.T) {
	ref := func(d int, r *rand.Rand, m int) []sortnet.Stage {
		h := m / 2
		if h == 1 {
			return []sortnet.Stage{{{I: 0, J: 1}}}
		}
		var out []sortnet.Stage
		for range d {
			st := make(sortnet.Stage, h)
			for i, j := range r.Perm(h) {
				st[i] = sortnet.Comparator{I: int32(i), J: int32(h + j)}
			}
			out = append(out, st)
		}
		return out
	}
	for _, d := range []int{1, 3, 8} {
		hv := ExpanderHalver(d, rand.New(rand.NewPCG(5, uint64(d))))
		r := rand.New(rand.NewPCG(5, uint64(d)))
		for _, m := range []int{2, 3, 4, 10, 64, 1001, 4096} {
			if got, want := hv.Halve(m), ref(d, r, m); !reflect.DeepEqual(got, want) {
				t.Fatalf("d = %d, m = %d: matchings differ from r.Perm's", d, m)
			}
		}
	}
	other := rand.New(rand.NewPCG(6, 8))
	if reflect.DeepEqual(ExpanderHalver(8, rand.New(rand.NewPCG(5, 8))).Halve(64), ref(8, other, 64)) {
		t.Fatal("another stream gave the same matchings")
	}
}
