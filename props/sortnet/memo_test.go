package sortnet

import (
	"reflect"
	"testing"

	"routecheck/algos/aks"
	"routecheck/props"
)

// The memoized exact-network report is SortnetLarge's on that network, per
// seed; and sameNetwork tells the network a fault left alone from the copy
// it returns after a deletion.
func TestAKSExactLargeReportMemo(t *testing.T) {
	const n = 300
	res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
	if err != nil {
		t.Fatal(err)
	}
	c := aksLargeCase{n, SortnetLargePlan{Perms: 3, Weights01: 8, ClimbEvals: 10}}
	for _, seed := range []uint64{props.DefaultSeed, 5} {
		want := SortnetLarge(res.Net, seed, n, c.plan)
		for range 2 { // the second call is served from the cache
			if got := aksExactLargeReport(props.Env{Seed: seed}, c, res.Net); !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d: memoized report %+v, want %+v", seed, got, want)
			}
		}
	}
	if !sameNetwork(res.Net, res.Net) {
		t.Error("a network is not the same as itself")
	}
	if del, ok := snDropExchanging(res.Net); ok && sameNetwork(del, res.Net) {
		t.Error("the network with a comparator deleted counts as the same network")
	}
	if sameNetwork(res.Net.Clone(), res.Net) {
		t.Error("a copy counts as the same network")
	}
}
