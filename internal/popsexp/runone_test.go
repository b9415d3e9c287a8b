package popsexp

import (
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// RunOne (which routes with Engine.RunPCG on the run's PCG) reports what the
// plain way reports: run r's stream Rand(seed, sh, v, r), perm.RandomInto
// and Engine.Run with the experiment's options, for d = g and d > g, both
// variants, and g = 1 (livelocks). Planted difference: the plain way on the
// stream of run r + 1 must differ somewhere.
func TestRunOneMatchesPlainRun(t *testing.T) {
	var e ap.Engine
	caught := 0
	for _, sh := range []pops.Shape{{D: 16, G: 16}, {D: 64, G: 16}, {D: 40, G: 5}, {D: 8, G: 1}, {D: 32, G: 2}} {
		dst := make([]int32, sh.N())
		for _, v := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
			plain := func(r int) Sample {
				rng := Rand(7, sh, v, r)
				perm.RandomInto(dst, rng)
				k := ap.Stage1Steps(sh, ap.DefaultCEps)
				res, err := e.Run(sh, dst, rng, ap.Options{Variant: v, MaxSteps: StepLimit(sh, ap.DefaultCEps), MaxTrace: k + 1})
				if err != nil {
					t.Fatal(err)
				}
				s := Sample{Run: r, Steps: res.Steps, Slots: res.Slots(v, sh), Completed: res.Completed, Lost: res.Lost, DegreeAfterStage1: -1,
					Censored: !res.Completed && sh.G > 1, Livelocked: !res.Completed && sh.G == 1}
				if k < len(res.MaxDegree) {
					s.DegreeAfterStage1 = int(res.MaxDegree[k])
				}
				return s
			}
			for r := range 20 {
				got, err := RunOne(&e, dst, sh, v, 0, 7, r)
				if err != nil {
					t.Fatal(err)
				}
				if want := plain(r); got != want {
					t.Fatalf("%v %v run %d: RunOne %+v, plain %+v", sh, v, r, got, want)
				}
				if next := plain(r + 1); next.Steps != got.Steps || next.Lost != got.Lost || next.DegreeAfterStage1 != got.DegreeAfterStage1 {
					caught++
				}
			}
		}
	}
	if caught == 0 {
		t.Fatal("planted fault (the stream of the next run) not caught")
	}
}
