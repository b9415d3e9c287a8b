package mesh

import (
	"reflect"
	"slices"
	"testing"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// genKKFlat gives GenKK's destinations, PU by PU, for every family at the
// statistical claims' sizes (the largest default one, n = 32, k = 1024,
// once), its buffers reused from call to call as the claims reuse them;
// and the comparison catches a planted difference (the uniform family
// shuffled from the next seed).
func TestGenKKFlatEqualsGenKK(t *testing.T) {
	var r kkRuns
	mismatch := func(f KKFamily, n, k int, seed, flatSeed uint64) bool {
		want := slices.Concat(GenKK(f, n, k, seeds.Rand(seed))...)
		return !slices.Equal(r.genKKFlat(f, n, k, flatSeed), want)
	}
	sizes := [][2]int{{1, 1}, {2, 4}, {3, 6}, {4, 8}, {4, 32}, {4, 128}, {8, 16}, {8, 192}, {16, 32}, {16, 256}, {32, 64}}
	if !testing.Short() {
		sizes = append(sizes, [2]int{32, 1024})
	}
	for _, sz := range sizes {
		for _, f := range KKFamilies {
			for run := range uint64(2) {
				seed := seeds.Derive(props.DefaultSeed, 0x6e6, uint64(sz[0]), uint64(sz[1]), run)
				if mismatch(f, sz[0], sz[1], seed, seed) {
					t.Fatalf("%s n = %d k = %d seed %d: genKKFlat differs from GenKK", f, sz[0], sz[1], seed)
				}
			}
		}
	}
	if !mismatch(KKUniform, 4, 8, 1, 2) {
		t.Error("planted difference (another seed) not caught")
	}
	defer func() {
		if recover() == nil {
			t.Error("row-to-col with k not a multiple of n: GenKK panics, genKKFlat did not")
		}
	}()
	r.genKKFlat(KKRowToCol, 4, 6, 1)
}

// plainAndFast routes c with runKKStatCaseWith(c, nil, nil, timesOnly)
// and fc (c with a field planted or not) with fast, failing t on an error
// of either or a case fast declines.
func plainAndFast(t *testing.T, c, fc KKStatCase, timesOnly bool, fast func(KKStatCase) (amesh.KKResult, bool, error)) (want, got amesh.KKResult) {
	t.Helper()
	want, err1 := runKKStatCaseWith(c, nil, nil, timesOnly)
	got, ok, err2 := fast(fc)
	if err1 != nil || err2 != nil || !ok {
		t.Fatalf("%+v: %v, %v, ok %v", fc, err1, err2, ok)
	}
	return want, got
}

// kkRuns.times gives runKKStatCaseWith's times-only result (GenKK, NewPlan,
// RouteKKTimes) on the statistical claims' algorithms and families, on
// consecutive runs through one kkRuns (buffers and timers reused, sizes
// mixed); it declines DET_3_PHASE_ROUTE with coloring (a claim with
// queues); and the comparison catches a planted difference (the
// algorithm's coins from the distribution's seed).
func TestKKRunsEqualsPlainRuns(t *testing.T) {
	var r kkRuns
	sizes := []statSize{{4, 8, 3}, {4, 128, 2}, {8, 64, 2}, {5, 10, 2}, {16, 256, 1}, {4, 32, 2}}
	if !testing.Short() {
		sizes = append(sizes, statSize{32, 1024, 1})
	}
	type variant struct {
		alg      amesh.Algorithm
		coloring bool
	}
	vs := []variant{{amesh.Rand4, true}, {amesh.Rand3, true}, {amesh.Rand4, false}, {amesh.Rand3, false}, {amesh.Det3, false}}
	differs := func(c KKStatCase, fastSeed uint64) bool {
		fc := c
		fc.AlgSeed = fastSeed
		want, got := plainAndFast(t, c, fc, true, r.times)
		return got.Steps != want.Steps || !slices.Equal(got.PhaseSteps, want.PhaseSteps) || got.MaxQueue != want.MaxQueue
	}
	for _, sz := range sizes {
		for vi, v := range vs {
			for fi, f := range KKFamilies {
				if f == KKRowToCol && sz.k%sz.n != 0 || sz.n == 32 && fi != vi%len(KKFamilies) {
					continue
				}
				for run := range sz.runs {
					c := KKStatCase{Algorithm: v.alg, Coloring: v.coloring, N: sz.n, K: sz.k, Family: f}
					c.DistSeed = seeds.Derive(props.DefaultSeed, 0x7e58, uint64(sz.n), uint64(sz.k), uint64(fi), uint64(run))
					c.AlgSeed = seeds.Derive(c.DistSeed, 1)
					if differs(c, c.AlgSeed) {
						t.Fatalf("%+v: kkRuns.times differs from runKKStatCaseWith", c)
					}
				}
			}
		}
	}
	c := KKStatCase{Algorithm: amesh.Rand4, Coloring: true, N: 8, K: 64, Family: KKUniform, DistSeed: 7, AlgSeed: 8}
	if !differs(c, c.DistSeed) {
		t.Error("planted difference (the coins from the distribution's seed) not caught")
	}
	if _, ok, _ := r.times(KKStatCase{Algorithm: amesh.Det3, Coloring: true, N: 4, K: 8, Family: KKUniform}); ok {
		t.Error("kkRuns.times ran DET_3_PHASE_ROUTE with coloring")
	}
}

// kkRuns.route gives runKKStatCaseWith's full result (GenKK, NewPlan,
// RouteKK: every queue) for DET_3_PHASE_ROUTE with and without coloring on
// every family, one kkRuns reused across sizes (and after times runs);
// it declines the RAND algorithms; and the comparison catches a planted
// difference (another distribution seed).
func TestKKRunsRouteEqualsPlainRuns(t *testing.T) {
	var r kkRuns
	sizes := []statSize{{4, 8, 2}, {4, 256, 1}, {8, 64, 2}, {6, 12, 1}, {16, 256, 1}, {4, 32, 2}}
	differs := func(c KKStatCase, seed uint64) bool {
		fc := c
		fc.DistSeed = seed
		want, got := plainAndFast(t, c, fc, false, r.route)
		return !reflect.DeepEqual(got, want)
	}
	for _, sz := range sizes {
		for _, col := range []bool{false, true} {
			for fi, f := range KKFamilies {
				if f == KKRowToCol && sz.k%sz.n != 0 {
					continue
				}
				for run := range sz.runs {
					c := KKStatCase{Algorithm: amesh.Det3, Coloring: col, N: sz.n, K: sz.k, Family: f}
					c.DistSeed = seeds.Derive(props.DefaultSeed, 0x7e59, uint64(sz.n), uint64(sz.k), uint64(fi), uint64(run))
					if differs(c, c.DistSeed) {
						t.Fatalf("%+v: kkRuns.route differs from runKKStatCaseWith", c)
					}
					if _, _, err := r.times(KKStatCase{Algorithm: amesh.Rand4, Coloring: true, N: sz.n, K: sz.k, Family: f, DistSeed: c.DistSeed, AlgSeed: 1}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	c := KKStatCase{Algorithm: amesh.Det3, Coloring: true, N: 8, K: 64, Family: KKUniform, DistSeed: 7}
	if !differs(c, 8) {
		t.Error("planted difference (another distribution seed) not caught")
	}
	if _, ok, _ := r.route(KKStatCase{Algorithm: amesh.Rand3, N: 4, K: 8, Family: KKUniform}); ok {
		t.Error("kkRuns.route ran RAND_3")
	}
}
