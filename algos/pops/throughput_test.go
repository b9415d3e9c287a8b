package pops

import (
	"fmt"
	"math/rand/v2"
	"routecheck/internal/benchutil"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// benchDst is the workload of the throughput benchmarks: a random full
// permutation on POPS(d, g), routed by the randomized router with the
// default options; every run draws from a fresh generator with one seed,
// so every iteration does the same work.
func benchDst(sh pops.Shape) []int32 {
	return perm.Random(sh.N(), rand.New(rand.NewPCG(uint64(sh.D), uint64(sh.G))))
}

func benchRNG() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// packetSteps is the run's work in packet-steps: the packets still unacked
// at the start of each step, N at step 1 and Remaining[s−1] at step s + 1
// (BenchmarkEngine's count). The run must be complete, with the whole trace.
func packetSteps(b *testing.B, sh pops.Shape, r Result) int {
	if !r.Completed || len(r.Remaining) != r.Steps {
		b.Fatalf("%v: completed %v, %d steps, %d traced", sh, r.Completed, r.Steps, len(r.Remaining))
	}
	ps := sh.N()
	for _, x := range r.Remaining {
		ps += int(x)
	}
	return ps
}

// BenchmarkEngineThroughput is the fast engine (Engine.Run, reused between
// runs) in packet-steps per second on one core, and its memory in bytes
// allocated per packet by one run of a fresh Engine (B/packet: its buffers
// and the Result, not the caller's destination array):
// go test ./algos/pops -run '^$' -bench 'EngineThroughput|ModelThroughput' -cpu 1 -benchtime 3x
func BenchmarkEngineThroughput(b *testing.B) {
	for _, c := range []struct{ d, g int }{{64, 64}, {1024, 1024}, {4096, 4096}} {
		sh := pops.Shape{D: c.d, G: c.g}
		dst := benchDst(sh)
		b.Run(fmt.Sprintf("d=%d,g=%d", c.d, c.g), func(b *testing.B) {
			var e Engine
			steps := 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				r, err := e.Run(sh, dst, benchRNG(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				steps += packetSteps(b, sh, r)
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "packet-steps/s")
			if cpu > 0 {
				b.ReportMetric(float64(steps)/cpu, "packet-steps/cpu-s")
			}
			b.ReportMetric(benchutil.AllocPerPacket(func() {
				var fresh Engine
				if _, err := fresh.Run(sh, dst, benchRNG(), Options{}); err != nil {
					b.Fatal(err)
				}
			}, sh.N()), "B/packet")
		})
	}
}

// BenchmarkModelThroughput is the same workload on the slot model
// (RunOnModel), for the engine's speed-up. Before timing it checks that
// the engine and the model, given the same generator, take the same steps
// and leave the same packets unacked after each step.
func BenchmarkModelThroughput(b *testing.B) {
	for _, c := range []struct{ d, g int }{{64, 64}} {
		sh := pops.Shape{D: c.d, G: c.g}
		dst := benchDst(sh)
		b.Run(fmt.Sprintf("d=%d,g=%d", c.d, c.g), func(b *testing.B) {
			var e Engine
			fast, err := e.Run(sh, dst, benchRNG(), Options{})
			if err != nil {
				b.Fatal(err)
			}
			model, err := RunOnModel(sh, dst, benchRNG(), Options{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			if fast.Steps != model.Steps || !slices.Equal(fast.Remaining, model.Remaining) {
				b.Fatalf("%v: engine %d steps %v, model %d steps %v", sh, fast.Steps, fast.Remaining, model.Steps, model.Remaining)
			}
			steps := 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				r, err := RunOnModel(sh, dst, benchRNG(), Options{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				steps += packetSteps(b, sh, r)
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "packet-steps/s")
			if cpu > 0 {
				b.ReportMetric(float64(steps)/cpu, "packet-steps/cpu-s")
			}
		})
	}
}
