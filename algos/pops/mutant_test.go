package pops

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// TestMutantsPlantTheirFault: each planted fault shows the effect it is
// documented to have on some of 200 random runs of POPS(4,4), and the router
// as written shows none (Proposition 3.2, §III-A) — the claims' power rests
// on this.
func TestMutantsPlantTheirFault(t *testing.T) {
	sh := pops.Shape{D: 4, G: 4}
	effect := map[Mutant]func(Result) bool{
		MutantTempByGroup: func(r Result) bool { return r.Conflicts[2]+r.Conflicts[3]+r.Conflicts[4] > 0 },
		MutantNoAckWait:   func(r Result) bool { return r.Lost > 0 },
		MutantRelayKeeps:  func(r Result) bool { return r.MaxMem[0] > 3 },
	}
	for _, m := range []Mutant{NoMutant, MutantTempByGroup, MutantNoAckWait, MutantRelayKeeps} {
		seen := 0
		for run := range 200 {
			rng := rand.New(rand.NewPCG(7, uint64(run)))
			dst := make([]int32, sh.N())
			perm.RandomInto(dst, rng)
			r, err := RunOnModel(sh, dst, rng, Options{Mutant: m, MaxSteps: 50}, nil)
			if err != nil {
				t.Fatalf("%v: %v", m, err)
			}
			if m == NoMutant {
				for _, f := range effect {
					if f(r) {
						t.Fatalf("the router as written shows a planted fault's effect (run %d)", run)
					}
				}
				continue
			}
			if effect[m](r) {
				seen++
			}
		}
		if m != NoMutant && seen == 0 {
			t.Errorf("%v: no run shows its effect", m)
		}
	}
	var e Engine
	if _, err := e.Run(sh, perm.Identity(sh.N()), rand.New(rand.NewPCG(1, 1)), Options{Mutant: MutantNoAckWait}); err == nil {
		t.Error("the fast engine accepted a mutant")
	}
}
