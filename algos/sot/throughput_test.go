package sot

import (
	"fmt"
	"math/rand/v2"
	"routecheck/internal/benchutil"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// benchRelation is the workload of the throughput benchmarks: a random
// n·log₂ n-relation on SOT(n) (BenchmarkGreedyA's), routed by Greedy-a.
func benchRelation(n int) []perm.Pair {
	lg := 0
	for 1<<(lg+1) <= n {
		lg++
	}
	return RandomRelation(n, n*lg, rand.New(rand.NewPCG(uint64(n), 1)))
}

// routeLocal is the step model's own path: every node decides from its
// View through the Router interface (Local, msot.Decide) and msot.StepInto
// performs the step. It returns the steps and the link traversals the model
// counted (Events.Moves).
func routeLocal(b *testing.B, alg Algorithm, n int, rel []perm.Pair) (steps, hops int) {
	s, err := msot.NewState(n, rel)
	if err != nil {
		b.Fatal(err)
	}
	loc, err := Local(alg)
	if err != nil {
		b.Fatal(err)
	}
	cur, next := s, msot.State{}
	a := make([]msot.Action, n*n)
	var ev msot.Events
	for maxSteps := DefaultMaxSteps(n, len(rel)); !cur.Done() && steps < maxSteps; steps++ {
		msot.Decide(&cur, loc, nil, a)
		if err := msot.StepInto(&next, &cur, a, &ev); err != nil {
			b.Fatal(err)
		}
		hops += ev.Moves
		cur, next = next, cur
	}
	if !cur.Done() {
		b.Fatalf("n = %d: the step model did not deliver every packet in %d steps", n, steps)
	}
	return steps, hops
}

// routeEngine is the fast path (Route without hooks: the fast engine of
// fast.go, its last state converted to msot.State). A packet moves one link
// every step from its injection to its delivery (hot potato), so its
// latency is its hop count and SumLatency is the run's packet-hops.
func routeEngine(b *testing.B, alg Algorithm, n int, rel []perm.Pair) (steps, hops int) {
	res, _, err := Route(alg, n, rel, nil, Options{})
	if err != nil || !res.Complete {
		b.Fatalf("n = %d: complete %v, error %v", n, res.Complete, err)
	}
	return res.Steps, int(res.SumLatency)
}

// BenchmarkEngineThroughput is Greedy-a's engine (Route) in packet-hops per
// second on one core, and its memory in bytes allocated per packet by one
// run (B/packet):
// go test ./algos/sot -run '^$' -bench 'EngineThroughput|ModelThroughput' -cpu 1 -benchtime 3x
func BenchmarkEngineThroughput(b *testing.B) {
	for _, n := range []int{32, 64, 128} {
		rel := benchRelation(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			hops := 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				_, h := routeEngine(b, GreedyA, n, rel)
				hops += h
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
			}
			b.ReportMetric(benchutil.AllocPerPacket(func() { routeEngine(b, GreedyA, n, rel) }, len(rel)), "B/packet")
		})
	}
}

// BenchmarkModelThroughput is the same workload on the step model through
// the Router interface (Local + msot.Decide), for the engine's speed-up.
// Before timing, it checks that both paths take the same number of steps
// and that the engine's latency sum equals the model's link-traversal
// count, so the two rates count the same hops.
func BenchmarkModelThroughput(b *testing.B) {
	for _, n := range []int{32, 64} {
		rel := benchRelation(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			es, eh := routeEngine(b, GreedyA, n, rel)
			ms, mh := routeLocal(b, GreedyA, n, rel)
			if es != ms || eh != mh {
				b.Fatalf("n = %d: engine %d steps %d hops, model %d steps %d hops", n, es, eh, ms, mh)
			}
			hops := 0
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				_, h := routeLocal(b, GreedyA, n, rel)
				hops += h
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
			}
		})
	}
}
