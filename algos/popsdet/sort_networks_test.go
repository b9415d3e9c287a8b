package popsdet

import (
	"math/rand/v2"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
)

// The sort-based router with the networks Corollary 2.4 is about: Batcher's
// odd-even merge sort (the network of the paper's reference [8]) and the
// AKS-family network of algos/aks with exact separators (Seiferas's
// schedule; a sorting network for every n, checked here exhaustively by the
// 0-1 principle before it is used). Every packet must be delivered in
// depth · (1 or 2⌈d/g⌉) slots without conflict, on every shape with
// dg ≤ 5 for every permutation and on larger shapes for random ones.
func TestSortRouterBatcherAndAKS(t *testing.T) {
	nets := []struct {
		name  string
		build func(n int) (sortnet.Network, error)
	}{
		{"batcher-odd-even", asn.OddEvenMergeSort},
		{"aks-exact", func(n int) (sortnet.Network, error) {
			res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
			if err != nil {
				return sortnet.Network{}, err
			}
			return res.Net, nil
		}},
	}
	shapes := []pops.Shape{{D: 1, G: 3}, {D: 2, G: 2}, {D: 4, G: 1}, {D: 1, G: 5}, {D: 3, G: 4}, {D: 4, G: 3}, {D: 6, G: 2}, {D: 2, G: 8}, {D: 8, G: 8}}
	r := rand.New(rand.NewPCG(21, 22))
	for _, nb := range nets {
		for _, sh := range shapes {
			n := sh.N()
			nw, err := nb.build(n)
			if err != nil {
				t.Fatal(err)
			}
			if n <= 20 {
				if bad, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
					t.Fatalf("%s on %d wires does not sort 0-1 input %b (%v)", nb.name, n, bad, err)
				}
			}
			router, err := NewSortRouter(sh, nw)
			if err != nil {
				t.Fatal(err)
			}
			if n <= 5 {
				perm.Each(n, func(p []int32) bool {
					checkSortRoute(t, router, sh, nw.Depth(), p)
					return true
				})
				continue
			}
			for range 5 {
				p := make([]int32, n)
				for i, x := range r.Perm(n) {
					p[i] = int32(x)
				}
				checkSortRoute(t, router, sh, nw.Depth(), p)
			}
			t.Logf("%s %v: depth %d, %d slots", nb.name, sh, nw.Depth(), router.Slots())
		}
	}
}
