package sortnettest_test

import (
	"fmt"
	"math/bits"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/models/sortnet"
	"routecheck/props/sortnettest"
)

// A deliberately broken toy sorter — one round of odd-even transposition,
// which only compares neighbours once — is caught at once: on 3 wires the
// 0-1 input 1,0,0 stays unsorted.
func Example() {
	oneRound := func(n int) (sortnet.Network, error) {
		var st sortnet.Stage
		for i := 0; i+1 < n; i += 2 {
			st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + 1)})
		}
		return sortnet.Network{N: n, Stages: []sortnet.Stage{st}}, nil
	}
	fs := sortnettest.Check(oneRound, sortnettest.Options{Sizes: []int{3}, ReplayDir: "-"})
	fmt.Println(fs[0].Property, fs[0].N, fs[0].Input)
	// Output: sorts-01 3 [1 0 0]
}

// Our own networks go through the same door: Batcher's two sorters, with
// the depth bound ⌈lg n⌉(⌈lg n⌉+1)/2 (Batcher 1968), and the AKS-family
// network with exact separators.
func TestOurNetworks(t *testing.T) {
	batcherDepth := func(n int) int {
		k := bits.Len(uint(max(n, 1) - 1))
		return k * (k + 1) / 2
	}
	sortnettest.Run(t, asn.OddEvenMergeSort, sortnettest.Options{MaxDepth: batcherDepth})
	sortnettest.Run(t, asn.BitonicSort, sortnettest.Options{MaxDepth: batcherDepth})
	sortnettest.Run(t, func(n int) (sortnet.Network, error) {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			return sortnet.Network{}, err
		}
		return res.Net, nil
	}, sortnettest.Options{Sizes: []int{0, 1, 2, 3, 5, 8, 13, 24, 40}})
}

// The suite catches each kind of fault it claims to: a network on the
// wrong number of wires, one over its declared depth, one with a comparator
// deleted, one that errors.
func TestSuiteCatches(t *testing.T) {
	good := func(n int) (sortnet.Network, error) { return asn.OddEvenMergeSort(n) }
	cases := []struct {
		name  string
		build sortnettest.Builder
		o     sortnettest.Options
		want  string
	}{
		{"wrong wires", func(n int) (sortnet.Network, error) { nw, err := good(n); nw.N++; return nw, err }, sortnettest.Options{Sizes: []int{8}}, "valid"},
		{"too deep", good, sortnettest.Options{Sizes: []int{16}, MaxDepth: func(int) int { return 3 }}, "bounds"},
		{"comparator deleted", func(n int) (sortnet.Network, error) {
			nw, err := good(n)
			last := len(nw.Stages) - 1
			nw.Stages[last] = nw.Stages[last][1:]
			return nw, err
		}, sortnettest.Options{Sizes: []int{40}}, "sorts-01"},
		{"build error", func(n int) (sortnet.Network, error) { return sortnet.Network{}, fmt.Errorf("no") }, sortnettest.Options{Sizes: []int{4}}, "build"},
	}
	for _, c := range cases {
		c.o.ReplayDir = t.TempDir()
		fs := sortnettest.Check(c.build, c.o)
		if len(fs) == 0 || fs[0].Property != c.want {
			t.Errorf("%s: failures %v, want the first to be %s", c.name, fs, c.want)
		}
	}
}

func FuzzOddEvenMergeSort(f *testing.F) { sortnettest.Fuzz(f, asn.OddEvenMergeSort) }
