package mesh

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/mesh"
)

// By hand: on the 4×4 torus PU (0,0) holds two packets for (0,2), n/2 = 2
// away both ways. The shorter-way stand-in sends both rightward (2 + 1 = 3
// steps); splitting the tie sends one each way (2 steps).
func TestTorusSplitHand(t *testing.T) {
	pl := Plan{N: 4, Src: []int32{0, 0}, Targets: [][]int32{{2, 2}}}
	split, err := RouteKKTorusSplit(pl)
	if err != nil {
		t.Fatal(err)
	}
	one, err := RouteKK(pl, Options{Model: true, Torus: true})
	if err != nil {
		t.Fatal(err)
	}
	if split.Steps != 2 || one.Steps != 3 {
		t.Errorf("split %d steps (want 2), shorter-way %d (want 3)", split.Steps, one.Steps)
	}
}

// Off the torus TorusSplitTies is GridFarthestFirst.
func TestTorusSplitOnMesh(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		n := 2 + r.IntN(5)
		var q []mesh.Item
		for range r.IntN(8) {
			q = append(q, mesh.Item{ID: int32(len(q)), Target: int32(r.IntN(n * n))})
		}
		v := mesh.View{N: n, PU: r.IntN(n * n), Queue: q}
		if a, b := TorusSplitTies.Route(v, nil), GridFarthestFirst.Route(v, nil); a != b {
			t.Fatalf("%+v: split %v, farthest-first %v", v, a, b)
		}
	}
}

// Phase 1 of DET_3_PHASE_ROUTE (every PU sends c packets to every PU of its
// ring) takes c·n·(n−2)/8 + ⌈c/2⌉·n/2 steps with the ties split: a link
// carries c·(1 + … + (n/2 − 1)) packets that have a shorter way and
// ⌈c/2⌉·n/2 of the ties; for even c that is c·n²/8, the least any ring
// routing needs (total distance c·n·n²/4 over 2n directed links).
func TestTorusSplitPhase1(t *testing.T) {
	for _, c := range []struct{ n, k int }{{4, 8}, {4, 16}, {4, 4}, {8, 8}, {8, 16}, {8, 64}} {
		dst := randomKK(rand.New(rand.NewPCG(uint64(c.n), uint64(c.k))), c.n, c.k)
		pl, err := NewPlan(Det3, c.n, dst, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := RouteKKTorusSplit(pl)
		if err != nil {
			t.Fatal(err)
		}
		per := c.k / c.n
		want := per*c.n*(c.n-2)/8 + (per+1)/2*c.n/2
		if res.PhaseSteps[0] != want {
			t.Errorf("n = %d, k = %d: Phase 1 takes %d steps, want %d", c.n, c.k, res.PhaseSteps[0], want)
		}
	}
}
