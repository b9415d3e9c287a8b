package fuzz

import (
	"testing"

	"routecheck/algos/aks"
	amb "routecheck/algos/multibutterfly"
	mb "routecheck/models/multibutterfly"
)

// The body of FuzzMultiButterflyEngine can fail: on a seed input it passes
// with the real engine and catches each planted wrong engine (a counter one
// iteration off, a buffer maximum off by one, the lowest-priority packet
// considered first while the step model runs the algorithm).
func TestFuzzMultiButterflyEngineCatchesPlantedFaults(t *testing.T) {
	seed := multiButterflyEngineSeeds[1] // N = 16, d = 3, L = 2, no fault, default cap
	if err := checkMultiButterflyEngine(seed, amb.Run); err != nil {
		t.Fatalf("the real engine fails on the seed: %v", err)
	}
	for _, c := range []struct {
		name string
		run  mbEngine
	}{
		{"iteration counter one off", func(s mb.State, o amb.Options) (amb.Result, mb.State, error) {
			r, f, err := amb.Run(s, o)
			r.Iterations, r.Steps = r.Iterations+1, r.Steps+2*s.Net.D
			return r, f, err
		}},
		{"max buffer one off", func(s mb.State, o amb.Options) (amb.Result, mb.State, error) {
			r, f, err := amb.Run(s, o)
			r.MaxBuffer++
			return r, f, err
		}},
		{"lowest priority first", func(s mb.State, o amb.Options) (amb.Result, mb.State, error) {
			o.Fault, o.Check = amb.FaultLowestPriority, false
			return amb.Run(s, o)
		}},
	} {
		err := checkMultiButterflyEngine(seed, c.run)
		if err == nil {
			t.Errorf("%s: not caught on seed %v", c.name, seed)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// The body of FuzzAKS can fail: on seed inputs it passes with the real
// construction and catches each planted wrong one: a comparator deleted
// (caught by the 0-1 check on the §5/exact seed n = 8, and by the
// network-against-trace check on the expander seed n = 32), a comparator
// out of range, the stage count and §4's k one off. The deleted
// comparators are ones whose loss matters: the exact-separator network is
// so redundant (the root's separator already sorts everything) that on
// seed 2 (n = 10) no single deletion of its 162 comparators unsorts any
// input, and on seed 1 only 7 of 49 do.
func TestFuzzAKSCatchesPlantedFaults(t *testing.T) {
	for _, si := range []int{1, 2, 3} {
		if err := checkAKS(aksSeeds[si], aks.Construct); err != nil {
			t.Fatalf("the real construction fails on seed %d: %v", si, err)
		}
	}
	for _, c := range []struct {
		name string
		seed int // index in aksSeeds
		fix  func(r *aks.Result)
	}{
		{"stage 3 comparator 1 deleted", 1, func(r *aks.Result) {
			r.Net.Stages[3] = append(r.Net.Stages[3][:1:1], r.Net.Stages[3][2:]...)
		}},
		{"stage 0 comparator 0 deleted", 3, func(r *aks.Result) {
			r.Net.Stages[0] = r.Net.Stages[0][1:]
		}},
		{"comparator out of range", 2, func(r *aks.Result) {
			r.Net.Stages[0][0].J = int32(r.Net.N)
		}},
		{"stage count one off", 2, func(r *aks.Result) { r.Stages++ }},
		{"§4's k one off", 2, func(r *aks.Result) { r.PaperFinalHeight++ }},
		{"final depth one off", 3, func(r *aks.Result) { r.FinalDepth-- }},
	} {
		construct := func(n int, p aks.Params, sep aks.Separator, inputs ...[]int32) (*aks.Result, error) {
			r, err := aks.Construct(n, p, sep, inputs...)
			if err == nil {
				c.fix(r)
			}
			return r, err
		}
		err := checkAKS(aksSeeds[c.seed], construct)
		if err == nil {
			t.Errorf("%s: not caught on seed %d %v", c.name, c.seed, aksSeeds[c.seed])
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}
