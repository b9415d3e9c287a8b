package pops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
	"routecheck/props/popstest"
)

// The POPS router claims judge conflicts, conservation and memory from
// popstest's per-slot checks (RunPops' Slots) since issue 10; before, they
// read algos/pops.RunOnModel's own counters. The two are independent
// computations over the same model events (the counters are the router
// package's; SlotCheck recomputes held packets from the state after each
// slot), so they must agree on every run: the memory peaks under each of
// the three accountings exactly, and whether a declared conflict-free slot
// had a conflict and whether a packet was lost or delivered twice. Runs
// cover both variants, every planted mutant, d = g and d > g, full and
// partial permutations.
func TestSlotCheckAgreesWithRouterCounters(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	shapes := [][2]int{{2, 2}, {3, 3}, {4, 2}, {4, 4}, {6, 3}, {8, 2}, {8, 4}}
	compared := map[ap.Mutant]int{}
	seen := map[string]int{} // how often each check was seen broken / unbroken: both must occur
	for _, v := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
		for m := ap.NoMutant; m <= ap.MutantRelayKeeps; m++ {
			for _, s := range shapes {
				for run := range 6 {
					n := s[0] * s[1]
					p := perm.Random(n, rng)
					if run%2 == 1 { // a partial permutation
						for i := range p {
							if rng.IntN(3) == 0 {
								p[i] = perm.None
							}
						}
					}
					in := PopsInstance{D: s[0], G: s[1], Perm: p, Algorithm: v.String(), Seed: rng.Uint64(), Mutant: m}
					rep := RunPops(in)
					if rep.ModelErr != nil {
						continue // the run stopped inside a slot: counters and checks saw different prefixes
					}
					compared[m]++
					for mem := popstest.MemoryAll; mem <= popstest.MemoryFeedingLine; mem++ {
						if got, want := rep.Slots.Peaks[mem].Held, rep.Result.MaxMem[mem]; got != want {
							t.Errorf("%s %v d=%d g=%d run %d: memory accounting %d: SlotCheck peak %d, router counter %d", v, m, s[0], s[1], run, mem, got, want)
						}
					}
					conflicts := 0
					for k := 2; k < len(rep.Result.Conflicts); k++ {
						conflicts += rep.Result.Conflicts[k]
					}
					_, broke := rep.Slots.Broke("conflicts")
					seen[fmt.Sprint("conflicts ", broke)]++
					if broke != (conflicts > 0) {
						t.Errorf("%s %v d=%d g=%d run %d: SlotCheck conflicts %v, router counts %d in slots 3+", v, m, s[0], s[1], run, broke, conflicts)
					}
					lostOrDup := rep.Result.Lost > 0 || rep.Result.Duplicated > 0
					_, broke = rep.Slots.Broke("conservation")
					seen[fmt.Sprint("conservation ", broke)]++
					if broke != lostOrDup {
						t.Errorf("%s %v d=%d g=%d run %d: SlotCheck conservation broken %v, router lost %d duplicated %d", v, m, s[0], s[1], run, broke, rep.Result.Lost, rep.Result.Duplicated)
					}
				}
			}
		}
	}
	for m := ap.NoMutant; m <= ap.MutantRelayKeeps; m++ {
		if compared[m] < 20 {
			t.Errorf("mutant %v: only %d runs compared", m, compared[m])
		}
	}
	for _, k := range []string{"conflicts true", "conflicts false", "conservation true", "conservation false"} {
		if seen[k] == 0 {
			t.Errorf("no run with %s: the agreement on that check is untested", k)
		}
	}
	t.Logf("runs compared per mutant %v; checks seen %v", compared, seen)
}
