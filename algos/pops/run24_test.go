package pops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"routecheck/internal/benchutil"
	"routecheck/models/pops"
)

// BenchmarkRun2to24 is one run of Table II's largest cell as
// internal/popsexp does it: a uniformly random permutation of n = 2^24
// (ShuffleInto, perm.RandomInto's permutation) drawn from the run's
// stream, then the router (d = g = 4096, Faithful, c+ε = 4,
// Engine.RunPCG) on the same stream, with the engine's buffers reused
// between runs; with one lane, and with Engine.Workers = 2 and both in
// one call (Engine.ShuffleRunPCG: the first step's slot 1 during the
// shuffle). Issue 14's target is ≤ 0.5 s per run; it reports wall and CPU
// seconds per run (getrusage, the whole process) and, with one lane, the
// shuffle's share and the route's:
// go test ./algos/pops -run '^$' -bench Run2to24 -benchtime 3x
func BenchmarkRun2to24(b *testing.B) {
	sh := pops.Shape{D: 4096, G: 4096}
	dst := make([]int32, sh.N())
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			e := Engine{Workers: w}
			var shuffle, route float64
			runs := 0
			for b.Loop() {
				src := rand.NewPCG(24, uint64(runs))
				o := Options{MaxSteps: 1 << 20, MaxTrace: 1}
				c0 := benchutil.CPUSeconds()
				var r Result
				var err error
				c1 := c0
				if w > 1 {
					// Shuffle and route in one call: the shuffle's share is
					// not separable.
					r, err = e.ShuffleRunPCG(sh, dst, src, o)
				} else {
					ShuffleInto(dst, src)
					c1 = benchutil.CPUSeconds()
					r, err = e.RunPCG(sh, dst, src, o)
				}
				c2 := benchutil.CPUSeconds()
				if err != nil {
					b.Fatal(err)
				}
				if !r.Completed {
					b.Fatalf("run %d did not complete in %d steps", runs, r.Steps)
				}
				shuffle += c1 - c0
				route += c2 - c1
				runs++
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(runs), "wall-s/run")
			b.ReportMetric((shuffle+route)/float64(runs), "cpu-s/run")
			if w == 1 {
				b.ReportMetric(shuffle/float64(runs), "shuffle-cpu-s/run")
				b.ReportMetric(route/float64(runs), "route-cpu-s/run")
			}
		})
	}
}

// BenchmarkRunD16G is one run of Table II's d = 16g cell at n = 2^20
// (d = 4096, g = 256), options as internal/popsexp sets them (the trace
// through stage 1): the cells of Table II with d > g take most of its time.
// go test ./algos/pops -run '^$' -bench RunD16G -cpu 1 -benchtime 3x
func BenchmarkRunD16G(b *testing.B) {
	sh := pops.Shape{D: 4096, G: 256}
	dst := make([]int32, sh.N())
	var e Engine
	runs := 0
	c0 := benchutil.CPUSeconds()
	for b.Loop() {
		src := rand.NewPCG(16, uint64(runs))
		ShuffleInto(dst, src)
		r, err := e.RunPCG(sh, dst, src, Options{MaxSteps: 1 << 20, MaxTrace: Stage1Steps(sh, DefaultCEps) + 1})
		if err != nil {
			b.Fatal(err)
		}
		if !r.Completed {
			b.Fatalf("run %d did not complete in %d steps", runs, r.Steps)
		}
		runs++
	}
	b.ReportMetric((benchutil.CPUSeconds()-c0)/float64(runs), "cpu-s/run")
}

// BenchmarkRun2to24Coin is one run of each of Table II's two n = 2^24
// cells with d > g (d = 4g: g = 2048; d = 16g: g = 1024) as
// internal/popsexp does it (ShuffleInto, then Engine.RunPCG with one lane
// and the trace through stage 1): with d = g these cells are most of
// `reproduce pops-table2`'s CPU time. Reports CPU seconds per run
// (getrusage, the whole process) and the shuffle's share:
// go test ./algos/pops -run '^$' -bench Run2to24Coin -benchtime 2x
func BenchmarkRun2to24Coin(b *testing.B) {
	for _, ratio := range []int{4, 16} {
		g := 1 << 12
		if ratio == 4 {
			g = 1 << 11
		} else {
			g = 1 << 10
		}
		sh := pops.Shape{D: ratio * g, G: g}
		b.Run(fmt.Sprintf("d=%dg", ratio), func(b *testing.B) {
			dst := make([]int32, sh.N())
			var e Engine
			var shuffle, route float64
			runs := 0
			for b.Loop() {
				src := rand.NewPCG(uint64(ratio), uint64(runs))
				c0 := benchutil.CPUSeconds()
				ShuffleInto(dst, src)
				c1 := benchutil.CPUSeconds()
				r, err := e.RunPCG(sh, dst, src, Options{MaxSteps: 1 << 20, MaxTrace: Stage1Steps(sh, DefaultCEps) + 1})
				c2 := benchutil.CPUSeconds()
				if err != nil {
					b.Fatal(err)
				}
				if !r.Completed {
					b.Fatalf("run %d did not complete in %d steps", runs, r.Steps)
				}
				shuffle += c1 - c0
				route += c2 - c1
				runs++
			}
			b.ReportMetric((shuffle+route)/float64(runs), "cpu-s/run")
			b.ReportMetric(shuffle/float64(runs), "shuffle-cpu-s/run")
			b.ReportMetric(route/float64(runs), "route-cpu-s/run")
		})
	}
}
