package mesh

import (
	"fmt"
	"math/rand/v2"
	"routecheck/internal/benchutil"
	"testing"
)

// benchPlan is the workload of the throughput benchmarks: RAND_4_PHASE_ROUTE
// with coloring on a uniformly random k-k distribution (every PU sends k
// packets and receives k), planned outside the timing. It returns the plan
// and its packet-hops: every phase moves each packet along one axis and
// farthest-first on a line never moves a packet away from its target, so a
// packet's hops in a phase are the distance from where it stands to its
// target, computed here from the plan alone.
func benchPlan(b *testing.B, n, k int) (Plan, int) {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	slots := make([]Dest, 0, n*n*k)
	for p := range n * n {
		for range k {
			slots = append(slots, Dest{Row: int32(p / n), Col: int32(p % n)})
		}
	}
	rng.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	dst := make([][]Dest, n*n)
	for p := range dst {
		dst[p] = slots[p*k : (p+1)*k]
	}
	pl, err := NewPlan(Rand4, n, dst, rng, Options{Coloring: true})
	if err != nil {
		b.Fatal(err)
	}
	hops := 0
	pos := append([]int32(nil), pl.Src...)
	for _, tg := range pl.Targets {
		for q := range pos {
			fr, fc, tr, tc := int(pos[q])/n, int(pos[q])%n, int(tg[q])/n, int(tg[q])%n
			hops += abs(fr-tr) + abs(fc-tc)
		}
		copy(pos, tg)
	}
	return pl, hops
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkKKEngineThroughput is the k-k fast phases (RouteKK) in
// packet-hops per second on one core (a hop: a packet crossing one link),
// and their memory in bytes allocated per packet by one run (B/packet):
// go test ./algos/mesh -run '^$' -bench 'KKEngineThroughput|KKModelThroughput' -cpu 1 -benchtime 3x
func BenchmarkKKEngineThroughput(b *testing.B) {
	for _, c := range []struct{ n, k int }{{16, 64}, {32, 64}, {32, 1024}} {
		pl, hops := benchPlan(b, c.n, c.k)
		b.Run(fmt.Sprintf("n=%d,k=%d", c.n, c.k), func(b *testing.B) {
			run := func() {
				if _, err := RouteKK(pl, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				run()
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)*float64(b.N)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)*float64(b.N)/cpu, "packet-hops/cpu-s")
			}
			b.ReportMetric(benchutil.AllocPerPacket(run, len(pl.Src)), "B/packet")
		})
	}
}

// BenchmarkKKModelThroughput is the same plans on the step model
// (Options.Model: models/mesh.StepGrid with farthest-first through
// mesh.Decide), for the engine's speed-up. Before timing it checks that
// the two give the same phase times and queues, and that the model's link
// traversals (modelPhase's moves) equal the hops benchPlan computed.
func BenchmarkKKModelThroughput(b *testing.B) {
	for _, c := range []struct{ n, k int }{{16, 64}, {32, 64}} {
		pl, hops := benchPlan(b, c.n, c.k)
		b.Run(fmt.Sprintf("n=%d,k=%d", c.n, c.k), func(b *testing.B) {
			fast, err := RouteKK(pl, Options{})
			if err != nil {
				b.Fatal(err)
			}
			model, err := RouteKK(pl, Options{Model: true})
			if err != nil {
				b.Fatal(err)
			}
			if fmt.Sprint(fast) != fmt.Sprint(model) {
				b.Fatalf("fast %+v, model %+v", fast, model)
			}
			moves := 0
			pos := append([]int32(nil), pl.Src...)
			for _, tg := range pl.Targets {
				r, err := modelPhase(pl.N, pos, tg, false)
				if err != nil {
					b.Fatal(err)
				}
				moves += r.moves
				copy(pos, tg)
			}
			if moves != hops {
				b.Fatalf("the model moved packets %d times, the plan's distances sum to %d", moves, hops)
			}
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				if _, err := RouteKK(pl, Options{Model: true}); err != nil {
					b.Fatal(err)
				}
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)*float64(b.N)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)*float64(b.N)/cpu, "packet-hops/cpu-s")
			}
		})
	}
}
