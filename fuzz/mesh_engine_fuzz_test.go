package fuzz

import (
	"math/rand/v2"
	"reflect"
	"testing"

	am "routecheck/algos/mesh"
)

// meshEngineSeeds are f.Add seeds for FuzzMeshEngine, decoded as described
// at runMeshEngine. More are in testdata/fuzz/FuzzMeshEngine/.
var meshEngineSeeds = [][]byte{
	{},                                  // n = 1, k = 1, RAND_4
	{3, 1, 2, 1, 0, 7, 1, 4, 0, 2, 9},   // n = 4, k = 2, DET_3 with coloring
	{4, 3, 1, 0, 1, 200, 3, 17, 5, 250}, // n = 5, k = 4, RAND_3, direct ALLOCATE
	[]byte("routecheck mesh k-k fast phases against the step model"),
}

func FuzzMeshEngine(f *testing.F) {
	for _, seed := range meshEngineSeeds {
		f.Add(seed)
	}
	f.Fuzz(runMeshEngine)
}

// runMeshEngine decodes data as: n (1–6), k (1–4), the algorithm (RAND_4,
// RAND_3, DET_3), coloring, direct ALLOCATE, each packet's destination
// (any PU: the plan need not be a k-k distribution), and the seed of the
// randomized algorithms; then RouteKK's fast phases and the step model
// (Options.Model: models/mesh.StepGrid with farthest-first) must report the
// same phase times and queues — or both refuse the plan.
func runMeshEngine(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	n, k := c.intn(1, 6), c.intn(1, 4)
	alg := []am.Algorithm{am.Rand4, am.Rand3, am.Det3}[c.intn(0, 2)]
	o := am.Options{Coloring: c.bool(), DirectAllocate: c.bool()}
	dst := make([][]am.Dest, n*n)
	for p := range dst {
		dst[p] = make([]am.Dest, k)
		for r := range dst[p] {
			dst[p][r] = am.Dest{Row: int32(c.intn(0, n-1)), Col: int32(c.intn(0, n-1))}
		}
	}
	pl, err := am.NewPlan(alg, n, dst, rand.New(rand.NewPCG(c.seed(), 3)), o)
	if err != nil {
		return // refused with an error (e.g. DET_3 with coloring needs k even): nothing to route
	}
	fast, errF := am.RouteKK(pl, am.Options{})
	model, errM := am.RouteKK(pl, am.Options{Model: true})
	if (errF != nil) != (errM != nil) {
		t.Fatalf("%s n = %d k = %d %+v: fast error %v, model error %v", alg, n, k, o, errF, errM)
	}
	if errF == nil && !reflect.DeepEqual(fast, model) {
		t.Fatalf("%s n = %d k = %d %+v: fast %+v, step model %+v", alg, n, k, o, fast, model)
	}
}
