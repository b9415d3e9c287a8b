package multibutterfly

import (
	"reflect"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflynaive"
)

// Differential test: the routing on the step model and the naive oracle
// (node-by-node scan, no model) put every packet at the same node after
// every iteration, on random networks, permutations and batch counts.
func TestAgreesWithNaive(t *testing.T) {
	for r := range 40 {
		rng := seeds.Rand(11, uint64(r))
		n := 1 << (1 + rng.IntN(5)) // 2…32
		d, L := 1+rng.IntN(3), 1+rng.IntN(5)
		net, err := mb.Build(n, d, rng)
		if err != nil {
			t.Fatal(err)
		}
		p := perm.Random(n, rng)
		if r%4 == 3 {
			for i := range p {
				if rng.IntN(3) == 0 {
					p[i] = perm.None
				}
			}
		}
		s, _ := mb.Init(net, L, p)
		var got [][]int32
		res, _, err := Run(s, Options{Check: true, AfterIteration: func(t int, x *mb.State) {
			got = append(got, append([]int32(nil), x.Pos...))
		}})
		if err != nil || !res.Complete {
			t.Fatalf("case %d: %+v %v", r, res, err)
		}
		want := mbflynaive.Run(net, L, s.Pos, s.Dest, 10000)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d (N=%d d=%d L=%d perm %v): trajectories differ (%d vs %d iterations)", r, n, d, L, p, len(got)-1, len(want)-1)
		}
	}
}
