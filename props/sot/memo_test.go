package sot

import (
	"slices"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// The memoized cost cells are the runs the cost claim used to simulate in
// its own loop: recomputed here directly for two seeds and two cells (a
// cache keyed on too little would hand one cell's runs to another).
func TestGreedyACostsMemo(t *testing.T) {
	for _, seed := range []uint64{props.DefaultSeed, 7} {
		for _, m := range []int{4, 16} {
			n, runs := 8, 3
			env := props.Env{Budget: props.Small, Seed: seed}
			var want []float64
			for r := range runs {
				rel := asot.RandomRelation(n, m*n, seeds.Rand(seed, 0xc05, uint64(n), uint64(m), uint64(r)))
				res, _, err := asot.Route(asot.GreedyA, n, rel, nil, asot.Options{})
				if err != nil || !res.Complete {
					t.Fatalf("seed %d m %d run %d: %v %+v", seed, m, r, err, res)
				}
				want = append(want, float64(res.Steps)/float64(m*n))
			}
			for range 2 { // the second call is served from the cache
				c := greedyACosts(env, n, m, runs)
				if c.failed || !slices.Equal(c.xs, want) {
					t.Errorf("seed %d, h/n = %d: got %v (failed %v), want %v", seed, m, c.xs, c.failed, want)
				}
			}
		}
	}
}

// The memoized fresh statistics equal sotFreshPlain's for every part of
// the key; the keys are chosen so that each pair differs in one field and
// their plain statistics differ (checked), so a cache that ignored a field
// would hand one key's statistic to the other and fail here.
func TestSotFreshMemo(t *testing.T) {
	type key struct {
		seed, tag uint64
		alg       asot.Algorithm
		n, runs   int
	}
	base := key{props.DefaultSeed, 1, asot.GreedyA, 8, 3}
	keys := []key{base}
	for _, f := range []func(*key){
		func(k *key) { k.seed = 7 },
		func(k *key) { k.tag = 2 },
		func(k *key) { k.alg = asot.GreedyC },
		func(k *key) { k.n = 16 },
		func(k *key) { k.runs = 4 },
	} {
		k := base
		f(&k)
		keys = append(keys, k)
	}
	plain := make([]sotFreshStat, len(keys))
	for i, k := range keys {
		st, err := sotFreshPlain(props.Env{Seed: k.seed}, k.tag, k.alg, k.n, k.runs)
		if err != nil {
			t.Fatal(err)
		}
		plain[i] = st
		if i > 0 && st == plain[0] {
			t.Fatalf("key %+v: same statistic as %+v, the test could not tell them apart", k, base)
		}
	}
	for range 2 { // the second pass is served from the cache
		for i, k := range keys {
			got, err := sotFresh(props.Env{Budget: props.Small, Seed: k.seed}, k.tag, k.alg, k.n, k.runs)
			if err != nil || got != plain[i] {
				t.Errorf("key %+v: got %+v (%v), want %+v", k, got, err, plain[i])
			}
		}
	}
}
