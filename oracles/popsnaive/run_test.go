package popsnaive_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/oracles/popsnaive"
)

// Whole router runs on the naive model and on the real one agree exactly:
// same random choices (same seed), same result, for both variants and a
// spread of shapes including d > g.
func TestRouterOnNaiveModel(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 1, G: 1}, {D: 2, G: 2}, {D: 3, G: 2}, {D: 4, G: 4}, {D: 8, G: 2}, {D: 6, G: 3}} {
		for _, v := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
			for seed := range uint64(5) {
				dst := perm.Random(sh.N(), rand.New(rand.NewPCG(seed, 1)))
				a, errA := ap.RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 2)), ap.Options{Variant: v}, nil)
				b, errB := ap.RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 2)), ap.Options{Variant: v, Step: popsnaive.Step}, nil)
				if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
					t.Fatalf("%v %v seed %d: model %+v (%v) vs naive %+v (%v)", sh, v, seed, a, errA, b, errB)
				}
			}
		}
	}
}

// BenchmarkNaiveRun and BenchmarkFastRun measure the same routing problems
// per packet-step on the naive reference simulator and on the fast engine;
// the target is fast ≥ 5× naive. Run:
//
//	go test ./oracles/popsnaive -run='^$' -bench=Run -benchtime=3x
func BenchmarkNaiveRun(b *testing.B) { benchRun(b, true) }

// BenchmarkFastRun: see BenchmarkNaiveRun.
func BenchmarkFastRun(b *testing.B) { benchRun(b, false) }

func benchRun(b *testing.B, naive bool) {
	for _, sh := range []pops.Shape{{D: 8, G: 8}, {D: 16, G: 16}, {D: 32, G: 8}} {
		b.Run(fmt.Sprintf("d=%d,g=%d", sh.D, sh.G), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			dst := perm.Random(sh.N(), rng)
			var e ap.Engine
			packetSteps := 0
			for range b.N {
				var r ap.Result
				var err error
				if naive {
					r, err = ap.RunOnModel(sh, dst, rng, ap.Options{Step: popsnaive.Step}, nil)
				} else {
					r, err = e.Run(sh, dst, rng, ap.Options{})
				}
				if err != nil {
					b.Fatal(err)
				}
				packetSteps += sh.N()
				for _, x := range r.Remaining {
					packetSteps += int(x)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(packetSteps), "ns/packet-step")
		})
	}
}
