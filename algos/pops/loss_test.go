package pops

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// The faithful router's slot-5 losses at d > g (pops/sec3/no-loss-no-dup/
// d-gt-g) do not rest on a copy that is already at its destination and is
// still transmitted (the claim's shrunk witness is such a case, and a
// router could deliver it locally): two copies held away from their
// destinations can meet on one coupler and both vanish, as a reviewer
// derived by hand for POPS(3,2). The test searches the first 1000 seeds
// (a random permutation and the router's coins each) for a slot in which
// every lost packet's copy was held by a processor other than its
// destination, and fails if there is none; it also requires losses that
// are degenerate to exist, so the distinction it draws is a real one.
func TestFaithfulLosesAwayFromDestination(t *testing.T) {
	sh := pops.Shape{D: 3, G: 2}
	away, atDst := 0, 0
	for seed := uint64(0); seed < 1000; seed++ {
		dst := perm.Random(sh.N(), rand.New(rand.NewPCG(seed, 7)))
		obs := func(step, slot int, _ []pops.Action, before, _ pops.State, ev pops.Events) {
			if len(ev.Lost) == 0 {
				return
			}
			degenerate := false
			for _, p := range ev.Lost {
				for i, buf := range before.Buf {
					for _, it := range buf {
						if it.Packet == p && it.Kind == pops.Copy && int32(i) == before.Dst[p] {
							degenerate = true
						}
					}
				}
			}
			if degenerate {
				atDst++
			} else {
				away++
				if away == 1 {
					t.Logf("seed %d, π = %v, step %d, slot %d: packets %v lost on %v, their copies away from their destinations", seed, dst, step, slot, ev.Lost, ev.Conflicts)
				}
			}
		}
		if _, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 8)), Options{MaxSteps: 100}, obs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if away == 0 {
		t.Fatalf("no loss with both copies away from their destinations in 1000 runs (%d losses involved a copy at its destination)", atDst)
	}
	if atDst == 0 {
		t.Fatalf("no loss involving a copy at its destination in 1000 runs: the distinction this test draws did not arise")
	}
	t.Logf("slots with losses: %d with every copy away from its destination, %d with a copy at it", away, atDst)
}
