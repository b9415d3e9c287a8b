package butterfly

import (
	"fmt"
	"math/rand/v2"
	"routecheck/internal/benchutil"
	"testing"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// benchPackets is §4.2's workload: p pipelined copies of one random
// permutation, the first r transitions random, the paper's priority.
func benchPackets(b *testing.B, sh mb.Shape, p int) (Options, []mb.Packet) {
	o := Options{Shape: sh, Priority: PaperPriority}
	rng := rand.New(rand.NewPCG(uint64(sh.LogN), 7))
	sigma := perm.Random(sh.N(), rng)
	perms := make([][]int32, p)
	for i := range perms {
		perms[i] = sigma
	}
	ps, err := Packets(o, perms, rng)
	if err != nil {
		b.Fatal(err)
	}
	return o, ps
}

var benchShapes = []struct {
	name string
	mode mb.Mode
	st   bool
}{{"node-queue", mb.NodeQueue, false}, {"buffered-strict", mb.Buffered, true}}

// BenchmarkEngineThroughput is the fast engine's speed in packet-hops per
// second (a packet crossing one link is one hop: n + r per packet), on one
// core: go test ./algos/butterfly -run '^$' -bench EngineThroughput -cpu 1
func BenchmarkEngineThroughput(b *testing.B) {
	for _, m := range benchShapes {
		for _, logN := range []int{10, 12, 14, 16} {
			sh := mb.Shape{LogN: logN, R: 2, Mode: m.mode, StrictBuffers: m.st}
			o, ps := benchPackets(b, sh, 4)
			b.Run(fmt.Sprintf("%s/N=2^%d", m.name, logN), func(b *testing.B) {
				var e Engine
				cpu0 := benchutil.CPUSeconds()
				for b.Loop() {
					if _, err := e.Run(o, ps, 1<<26); err != nil {
						b.Fatal(err)
					}
				}
				hops := float64(len(ps)) * float64(sh.Stages()) * float64(b.N)
				b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
				if cpu := benchutil.CPUSeconds() - cpu0; cpu > 0 {
					b.ReportMetric(hops/cpu, "packet-hops/cpu-s")
				}
			})
		}
	}
}

// BenchmarkModelThroughput is the step model (RunOnModel) on the same
// workload, for the engine's speed-up over it.
func BenchmarkModelThroughput(b *testing.B) {
	for _, m := range benchShapes {
		sh := mb.Shape{LogN: 12, R: 2, Mode: m.mode, StrictBuffers: m.st}
		o, ps := benchPackets(b, sh, 4)
		b.Run(fmt.Sprintf("%s/N=2^12", m.name), func(b *testing.B) {
			cpu0 := benchutil.CPUSeconds()
			for b.Loop() {
				if _, err := RunOnModel(o, ps, 1<<26); err != nil {
					b.Fatal(err)
				}
			}
			hops := float64(len(ps)) * float64(sh.Stages()) * float64(b.N)
			b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu := benchutil.CPUSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(hops/cpu, "packet-hops/cpu-s")
			}
		})
	}
}
