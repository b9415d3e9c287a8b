package pops

import (
	"math"
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

// TestKeepCoinReading: with c+ε = 4 and d = 4g, stage 1 has S = ⌈4·3⌉ = 12
// steps and its last coin is g/(4g − 11g/4) = 0.8; the reading as written
// sets p = 1 after it, the other keeps 0.8 (hand-computed from §III-B's law).
func TestKeepCoinReading(t *testing.T) {
	sh := pops.Shape{D: 16, G: 4}
	o := Options{}.fill(sh)
	k := o
	k.KeepCoin = true
	if s := Stage1Steps(sh, o.CEps); s != 12 {
		t.Fatalf("stage 1: %d steps, want 12", s)
	}
	for _, c := range []struct {
		step          int
		written, keep float64
	}{{1, 0.25, 0.25}, {12, 0.8, 0.8}, {13, 1, 0.8}, {100, 1, 0.8}} {
		if got := o.participation(sh, c.step); math.Abs(got-c.written) > 1e-12 {
			t.Errorf("as written, step %d: %v, want %v", c.step, got, c.written)
		}
		if got := k.participation(sh, c.step); math.Abs(got-c.keep) > 1e-12 {
			t.Errorf("keep-coin, step %d: %v, want %v", c.step, got, c.keep)
		}
	}
}
