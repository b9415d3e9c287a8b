package hunt

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"routecheck/internal/seeds"
)

// Fresh seeds are disjoint from the seeds to avoid (a planted collision,
// the first fresh seed itself, is skipped), distinct, as many as asked and
// the same for the same arguments.
func TestFreshSeedsDisjoint(t *testing.T) {
	search := make([]uint64, 16)
	for i := range search {
		search[i] = seeds.Derive(1, 0x5eed, uint64(i))
	}
	first := FreshSeeds(1, 1, nil)[0]
	avoid := append(slices.Clone(search), first)
	fs := FreshSeeds(1, 500, avoid)
	if len(fs) != 500 {
		t.Fatalf("%d seeds, want 500", len(fs))
	}
	seen := map[uint64]bool{}
	for _, s := range fs {
		if slices.Contains(avoid, s) || seen[s] {
			t.Fatalf("seed %d repeated or among the avoided", s)
		}
		seen[s] = true
	}
	if !slices.Equal(fs, FreshSeeds(1, 500, avoid)) {
		t.Error("not deterministic")
	}
	if slices.Equal(fs[:10], FreshSeeds(2, 10, avoid)) {
		t.Error("--seed does not change the fresh seeds")
	}
}

// MeanSE against values worked by hand: 1, 2, 3, 4 have mean 2.5, sample
// variance 5/3, standard error √(5/3)/2 ≈ 0.6455; one value has SE 0.
func TestMeanSE(t *testing.T) {
	m, se := MeanSE([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(se-0.6454972243679028) > 1e-12 {
		t.Errorf("mean %g, se %g", m, se)
	}
	if m, se := MeanSE([]float64{7}); m != 7 || se != 0 {
		t.Errorf("one value: %g ± %g", m, se)
	}
	// 400 equal values that a plain sum would not give back exactly
	// (400 · 13/6 / 400 ≠ 13/6 in floating point).
	same := make([]float64, 400)
	for i := range same {
		same[i] = 13.0 / 6
	}
	if m, se := MeanSE(same); m != 13.0/6 || se != 0 {
		t.Errorf("equal values: %v ± %v", m, se)
	}
}

// noise is a planted metric that is pure noise: one run's value is a hash
// of the permutation and the seed, uniform in [0, 1), so every permutation
// has the same true mean 1/2 and whatever a search selects on its seeds is
// noise.
func noise(p []int32, seed uint64) float64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, x := range p {
		binary.LittleEndian.PutUint32(b[:4], uint32(x))
		h.Write(b[:4])
	}
	return float64(seeds.Derive(h.Sum64())>>11) / (1 << 53)
}

// On a pure-noise metric the search and the random baseline both report
// values far above the true mean (the best of ~1000 means of 4 uniforms),
// and on fresh seeds both fall back to it: each fresh mean is within 5
// standard errors of 1/2, they agree with each other within 5 combined
// standard errors, and each search value is more than 5 standard errors
// above its fresh mean. Under the planted model each 5-SE bound fails
// with probability < 6e-7 (normal tails; 400 runs of a uniform); the
// seeds are fixed, so the test is deterministic.
func TestFreshPureNoise(t *testing.T) {
	sds := []uint64{11, 12, 13, 14}
	mean := func(p []int32) float64 {
		s := 0.0
		for _, sd := range sds {
			s += noise(p, sd)
		}
		return s / float64(len(sds))
	}
	s := PermSearch{N: 16, Samples: 16, Eval: func(p []int32) (float64, error) { return mean(p), nil }}
	o := Options{Seed: 3, Iters: 1000}
	r, err := s.Run(context.Background(), o, 9)
	if err != nil {
		t.Fatal(err)
	}
	if r.RandomPerm == nil || mean(r.RandomPerm) != r.RandomBest {
		t.Fatalf("random best %g not the value of its permutation %v", r.RandomBest, r.RandomPerm)
	}
	run := func(p []int32) func(uint64) (float64, error) {
		return func(sd uint64) (float64, error) { return noise(p, sd), nil }
	}
	f, err := Reevaluations(o, 400, sds, FreshInstance{Search: r.Value, Run: run(r.Best)}, FreshInstance{Search: r.RandomBest, Run: run(r.RandomPerm)}, FreshInstance{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Runs != 400 || f.Random == nil || f.Saved != nil {
		t.Fatalf("fresh %+v", f)
	}
	for name, v := range map[string]FreshValue{"hunted": *f.Hunted, "random": *f.Random} {
		// SE of a mean of 400 uniforms: (1/√12)/20 ≈ 0.0144.
		if v.SE < 0.01 || v.SE > 0.02 {
			t.Errorf("%s: SE %g, want ≈ 0.0144", name, v.SE)
		}
		if math.Abs(v.Fresh-0.5) > 5*v.SE {
			t.Errorf("%s: fresh %g ± %g, true mean 0.5", name, v.Fresh, v.SE)
		}
		if !(v.Search > v.Fresh+5*v.SE) {
			t.Errorf("%s: search %g not above fresh %g ± %g: no overfit seen", name, v.Search, v.Fresh, v.SE)
		}
	}
	if d := math.Abs(f.Hunted.Fresh - f.Random.Fresh); d > 5*math.Hypot(f.Hunted.SE, f.Random.SE) {
		t.Errorf("fresh hunted %g and random %g differ by %g > 5 combined SE", f.Hunted.Fresh, f.Random.Fresh, d)
	}
	t.Logf("%v", f)
}

// A deterministic metric (fixed points, no coins) has the same value on
// every fresh seed: fresh equals search exactly, SE 0. With runs 0 there
// is no re-evaluation.
func TestFreshDeterministic(t *testing.T) {
	s := PermSearch{N: 12, Samples: 8, Eval: fixedPoints}
	o := Options{Seed: 2, Iters: 300}
	r, err := s.Run(context.Background(), o, 5)
	if err != nil {
		t.Fatal(err)
	}
	run := func(p []int32) func(uint64) (float64, error) {
		return func(uint64) (float64, error) { return fixedPoints(p) }
	}
	f, err := Reevaluations(o, 50, nil, FreshInstance{Search: r.Value, Run: run(r.Best)}, FreshInstance{Search: r.RandomBest, Run: run(r.RandomPerm)}, FreshInstance{Search: r.Value, Run: run(r.Best)})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]*FreshValue{"hunted": f.Hunted, "random": f.Random, "saved": f.Saved} {
		if v == nil || v.Fresh != v.Search || v.SE != 0 {
			t.Errorf("%s: %+v, want fresh = search, SE 0", name, v)
		}
	}
	if f, err := Reevaluations(o, 0, nil, FreshInstance{Search: r.Value, Run: run(r.Best)}, FreshInstance{}, FreshInstance{}); f != nil || err != nil {
		t.Errorf("runs 0: %v, %v", f, err)
	}
}
