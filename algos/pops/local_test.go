package pops

import (
	"math"
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// TestLocalRouterMatchesRules: the per-processor router obeys the same
// rules as the bulk one — on POPS(d,g) with d ≥ g it delivers every packet
// of every run when d = g, loses packets only in slot 5 when d > g and the
// variant is Faithful, never with split delivery — and its step counts have
// the same distribution as RunOnModel's (means within 4 standard errors of
// the difference, 300 runs each; a fixed seed, so no flake).
func TestLocalRouterMatchesRules(t *testing.T) {
	for _, c := range []struct {
		sh pops.Shape
		v  Variant
	}{{pops.Shape{D: 4, G: 4}, Faithful}, {pops.Shape{D: 8, G: 2}, Faithful}, {pops.Shape{D: 8, G: 2}, SplitDelivery}, {pops.Shape{D: 6, G: 3}, SplitDelivery}} {
		var local, bulk []float64
		lost := 0
		for run := range 300 {
			rng := rand.New(rand.NewPCG(11, uint64(run)))
			dst := perm.Random(c.sh.N(), rng)
			per := c.v.SlotsPerStep(c.sh)
			st, err := pops.Drive(c.sh, dst, NewLocalRouter(Options{Variant: c.v}), rng, pops.DriveOptions{MaxSlots: 20000 * per})
			if err != nil {
				t.Fatalf("%v %v run %d: %v", c.sh, c.v, run, err)
			}
			if !pops.Quiescent(st) {
				t.Fatalf("%v %v run %d: not finished after %d slots", c.sh, c.v, run, st.Slot)
			}
			if err := pops.CheckInvariants(st); err != nil {
				t.Fatal(err)
			}
			for p := range dst {
				if st.Lost[p] {
					lost++
				}
			}
			local = append(local, float64(st.Slot/per))
			res, err := RunOnModel(c.sh, dst, rand.New(rand.NewPCG(12, uint64(run))), Options{Variant: c.v, MaxSteps: 100000}, nil)
			if err != nil || !res.Completed {
				t.Fatalf("RunOnModel: %v %+v", err, res)
			}
			bulk = append(bulk, float64(res.Steps))
		}
		if (lost > 0) != (c.v == Faithful && c.sh.D > c.sh.G) {
			t.Errorf("%v %v: %d packets lost", c.sh, c.v, lost)
		}
		m1, s1 := meanSE(local)
		m2, s2 := meanSE(bulk)
		if z := (m1 - m2) / math.Hypot(s1, s2); math.Abs(z) > 4 {
			t.Errorf("%v %v: local mean %.2f steps, RunOnModel %.2f (z = %.1f)", c.sh, c.v, m1, m2, z)
		}
	}
}

func meanSE(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	v /= float64(len(xs) - 1)
	return m, math.Sqrt(v / float64(len(xs)))
}
