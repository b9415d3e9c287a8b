package multibutterfly

import (
	"fmt"
	"math/rand/v2"
	"routecheck/internal/benchutil"
	"testing"

	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// benchState is the workload of the throughput benchmarks: a random
// permutation on a random (N, 3)-multi-butterfly with L = 4 batches (the
// package example's parameters). The network is built outside the timing.
func benchState(b *testing.B, logN int) mb.State {
	rng := rand.New(rand.NewPCG(uint64(logN), 3))
	net, err := mb.Build(1<<logN, 3, rng)
	if err != nil {
		b.Fatal(err)
	}
	s, err := mb.Init(net, 4, perm.Random(1<<logN, rng))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// Every edge leads from stage s to stage s + 1, so a complete run moves
// each of the N packets exactly log N times: the hop count is N·log N,
// computed here independently of the run and compared with the model's
// move count.
func checkHops(b *testing.B, logN int, complete bool, moves int) int {
	want := (1 << logN) * logN
	if !complete || moves != want {
		b.Fatalf("N = 2^%d: complete %v, %d moves, want %d", logN, complete, moves, want)
	}
	return moves
}

// BenchmarkEngineThroughput is the fast engine (Run: a fresh Engine per
// run, its tables built inside the timing) in packet-hops per second on one
// core, and its memory in bytes allocated per packet by one run (B/packet):
// go test ./algos/multibutterfly -run '^$' -bench 'Engine|ModelThroughput' -cpu 1 -benchtime 3x
func BenchmarkEngineThroughput(b *testing.B) {
	for _, logN := range []int{10, 12, 14} {
		s := benchState(b, logN)
		b.Run(fmt.Sprintf("N=2^%d", logN), func(b *testing.B) {
			hops := 0
			run := func() {
				res, _, err := Run(s, Options{})
				if err != nil {
					b.Fatal(err)
				}
				hops += checkHops(b, logN, res.Complete, res.Moves)
			}
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				run()
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
			}
			b.ReportMetric(benchutil.AllocPerPacket(run, 1<<logN), "B/packet")
		})
	}
}

// BenchmarkEngineReused is the engine as a claim uses it: one Engine per
// network, its tables and buffers kept between runs (B/packet: what one
// more run allocates — its returned state).
// go test ./algos/multibutterfly -run '^$' -bench 'Engine' -cpu 1 -benchtime 3x
func BenchmarkEngineReused(b *testing.B) {
	for _, logN := range []int{10, 12, 14} {
		s := benchState(b, logN)
		e := NewEngine(s.Net)
		b.Run(fmt.Sprintf("N=2^%d", logN), func(b *testing.B) {
			hops := 0
			run := func() {
				res, _, err := e.Run(s, Options{})
				if err != nil {
					b.Fatal(err)
				}
				hops += checkHops(b, logN, res.Complete, res.Moves)
			}
			run() // the tables and buffers, outside the timing
			hops = 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				run()
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
			}
			b.ReportMetric(benchutil.AllocPerPacket(run, 1<<logN), "B/packet")
		})
	}
}

// BenchmarkModelThroughput is the same workload with Priority, node by
// node, through the model's Router interface (mb.RunRouter), for the
// engine's speed-up.
func BenchmarkModelThroughput(b *testing.B) {
	for _, logN := range []int{10, 12, 14} {
		s := benchState(b, logN)
		b.Run(fmt.Sprintf("N=2^%d", logN), func(b *testing.B) {
			hops := 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				res, _, err := mb.RunRouter(s, &Priority{}, nil, mb.RouterOptions{MaxSteps: PriorityMaxSteps(logN, s.Net.D, s.L)})
				if err != nil {
					b.Fatal(err)
				}
				hops += checkHops(b, logN, res.Complete, res.Moves)
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
			}
		})
	}
}
