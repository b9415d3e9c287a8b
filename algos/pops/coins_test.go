package pops

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/internal/pcgstate"
)

// TestDrawCoinsMatchesChoose: drawCoins (RunPCG's coin draws, the
// generator's state in registers and the exponential's first try inline)
// returns choose's participants and intermediate groups — choose draws
// through rand.Rand.ExpFloat64 and IntN — and leaves the stream where
// choose leaves it, for g a power of two and not, participation from
// 1/64 to 0.9 and m from 1 to 10^5 (about 10^6 exponential draws, so
// the ziggurat's slow cases, about 1 % of the draws, occur thousands of
// times). Planted difference: drawCoins keeping the ziggurat's first try
// when it fails (coinsFastOnly) must make some case differ.
func TestDrawCoinsMatchesChoose(t *testing.T) {
	type tc struct {
		g, m int
		p    float64
	}
	var cases []tc
	for _, g := range []int{1, 2, 3, 32, 100, 1024} {
		for _, m := range []int{1, 7, 1000, 100000} {
			for _, p := range []float64{1.0 / 64, 0.3, 0.9} {
				cases = append(cases, tc{g, m, p})
			}
		}
	}
	run := func(c tc, seed uint64) (same bool, where string) {
		ref := rand.NewPCG(seed, 3)
		wantK, wantG := choose(rand.New(ref), c.g, c.p, c.m, nil, nil)
		src := rand.NewPCG(seed, 3)
		ps := pcgstate.Load(src)
		var e Engine
		gotK, gotG := e.drawCoins(&ps, c.g, c.p, c.m)
		ps.Store(src)
		switch {
		case !slices.Equal(gotK, wantK):
			return false, "participants"
		case !slices.Equal(gotG, wantG):
			return false, "groups"
		case src.Uint64() != ref.Uint64():
			return false, "stream position"
		}
		return true, ""
	}
	for i, c := range cases {
		if same, where := run(c, uint64(i)); !same {
			t.Fatalf("g = %d, m = %d, p = %v: drawCoins and choose differ in %s", c.g, c.m, c.p, where)
		}
	}
	defer func() { coinsFastOnly = false }()
	coinsFastOnly = true // the planted fault
	caught := 0
	for i, c := range cases {
		if same, _ := run(c, uint64(i)); !same {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("planted fault (the ziggurat's failed first try kept) not caught")
	}
	t.Logf("planted fault caught in %d of %d cases", caught, len(cases))
}
