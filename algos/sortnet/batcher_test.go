package sortnet

import (
	"fmt"
	"slices"
	"testing"

	"routecheck/models/sortnet"
	"routecheck/oracles/sortnetforms"
)

func TestBadN(t *testing.T) {
	for _, b := range builds {
		for _, n := range []int{-1, -1 << 40, MaxN + 1} {
			if _, err := b.f(n); err == nil {
				t.Errorf("%s(%d) accepted", b.name, n)
			}
		}
		for _, n := range []int{0, 1} {
			if nw := mustBuild(t, b, n); nw.Size() != 0 || nw.Depth() != 0 {
				t.Errorf("%s(%d): depth %d size %d, want the empty network", b.name, n, nw.Depth(), nw.Size())
			}
		}
	}
}

// Depth and size against Knuth's closed forms for n = 2^k, k = 0..16.
func TestDepthSizePow2(t *testing.T) {
	maxK := 16
	if short() {
		maxK = 12
	}
	for k := 0; k <= maxK; k++ {
		n := 1 << k
		oe, bi := mustBuild(t, builds[0], n), mustBuild(t, builds[1], n)
		for _, c := range []struct {
			name        string
			nw          sortnet.Network
			depth, size int64
		}{
			{"odd-even", oe, sortnetforms.DepthPow2(k), sortnetforms.OddEvenSizePow2(k)},
			{"bitonic", bi, sortnetforms.DepthPow2(k), sortnetforms.BitonicSizePow2(k)},
		} {
			if int64(c.nw.Depth()) != c.depth || int64(c.nw.Size()) != c.size {
				t.Errorf("%s k=%d: depth %d size %d, closed forms %d and %d", c.name, k, c.nw.Depth(), c.nw.Size(), c.depth, c.size)
			}
		}
	}
}

func stageCounts(nw sortnet.Network) []int64 {
	out := make([]int64, len(nw.Stages))
	for s, st := range nw.Stages {
		out[s] = int64(len(st))
	}
	return out
}

// For general n, the comparators per stage match the independent counts of
// oracles/sortnetforms (Batcher's recursive merge; arithmetic pair counts),
// and the depth is k(k+1)/2 with k = ⌈lg n⌉.
func TestStageProfilesGeneralN(t *testing.T) {
	ns := []int{}
	for n := 0; n <= 600; n++ {
		ns = append(ns, n)
	}
	top := 1 << 16
	if short() {
		top = 1 << 12
	}
	for p := 1024; p <= top; p *= 2 {
		ns = append(ns, p-1, p, p+1, p+p/2+7)
	}
	for _, n := range ns {
		for i, prof := range []func(int) []int64{sortnetforms.OddEvenProfile, sortnetforms.BitonicProfile} {
			nw := mustBuild(t, builds[i], n)
			if got, want := stageCounts(nw), prof(n); !slices.Equal(got, want) {
				t.Fatalf("%s(%d): comparators per stage %v, oracle %v", builds[i].name, n, got, want)
			}
			if int64(nw.Depth()) != sortnetforms.Depth(n) {
				t.Fatalf("%s(%d): depth %d, oracle %d", builds[i].name, n, nw.Depth(), sortnetforms.Depth(n))
			}
		}
	}
}

// The iterative construction and the recursive reference are the same
// network: the same comparators at the same stages.
func TestOddEvenMatchesRecursiveDefinition(t *testing.T) {
	for n := 0; n <= 300; n++ {
		nw := mustBuild(t, builds[0], n)
		var got, want []string
		for s, st := range nw.Stages {
			for _, c := range st {
				got = append(got, fmt.Sprintf("%d:%d:%d", s, c.I, c.J))
			}
		}
		for _, c := range refOddEven(n) {
			want = append(want, fmt.Sprintf("%d:%d:%d", c.stage, c.i, c.j))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: iterative %v\nrecursive %v", n, got, want)
		}
	}
}
