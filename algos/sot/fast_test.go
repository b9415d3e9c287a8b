package sot

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/internal/benchutil"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// modelTrace runs rel on the step model (Router + Run: every step checked
// and performed by msot.StepInto) and returns the result and, per packet,
// its delivery step (0: not delivered) and its deflections at delivery.
func modelTrace(alg Algorithm, n int, rel []perm.Pair, seed uint64, maxSteps int, tamper func(*msot.State, []msot.Action)) (Result, []int32, []int32, error) {
	arrive := make([]int32, len(rel))
	defl := make([]int32, len(rel))
	obs := func(before *msot.State, _ []msot.Action, _ *msot.State, ev *msot.Events) {
		for _, d := range ev.Delivered {
			arrive[d.ID], defl[d.ID] = int32(before.T)+1, d.Defl
		}
	}
	res, _, err := Route(alg, n, rel, rand.New(rand.NewPCG(seed, 7)), Options{MaxSteps: maxSteps, Observe: obs, Tamper: tamper})
	return res, arrive, defl, err
}

// fastTrace is modelTrace on the fast engine (Trace), with deflections
// kept only for delivered packets as modelTrace does.
func fastTrace(alg Algorithm, n int, rel []perm.Pair, seed uint64, maxSteps int) (Result, []int32, []int32, error) {
	res, arrive, d, err := Trace(alg, n, rel, rand.New(rand.NewPCG(seed, 7)), maxSteps)
	if err != nil {
		return Result{}, nil, nil, err
	}
	defl := make([]int32, len(rel))
	for id, a := range arrive {
		if a > 0 {
			defl[id] = d[id]
		}
	}
	return res, arrive, defl, nil
}

// diffTraces names the first difference between two runs' results and
// per-packet traces, or returns "".
func diffTraces(r1, r2 Result, a1, a2, d1, d2 []int32) string {
	if r1 != r2 {
		return fmt.Sprintf("results differ: model %+v, fast %+v", r1, r2)
	}
	for id := range a1 {
		if a1[id] != a2[id] || d1[id] != d2[id] {
			return fmt.Sprintf("packet %d: model delivers at step %d with %d deflections, fast at %d with %d", id, a1[id], d1[id], a2[id], d2[id])
		}
	}
	return ""
}

// fastCases are the differential workloads: random h-relations (every
// processor sends and receives h, in random order) and random targets
// (hot spots), complete runs and runs cut short.
//
// The claims run n up to 64–256 with h up to 16·n·log₂n, so the cases
// also hold n ∈ {32, 64} with h = n·log₂n (every algorithm) and
// h = 16·n·log₂n (Scheduled only). With -short the large cases stop at
// n = 32.
func fastCases() []fastCase {
	type c = fastCase
	var out []c
	rng := rand.New(rand.NewPCG(14, 2))
	for _, n := range []int{2, 3, 5, 8, 13} {
		for _, h := range []int{1, 3, 2 * n} {
			out = append(out, c{name: fmt.Sprintf("relation n=%d h=%d", n, h), n: n, rel: RandomRelation(n, h, rng)})
		}
		out = append(out, c{name: fmt.Sprintf("targets n=%d", n), n: n, rel: RandomTargets(n, 3, false, rng)})
		out = append(out, c{name: fmt.Sprintf("cut n=%d", n), n: n, rel: RandomRelation(n, n, rng), maxSteps: 2 * n})
	}
	large := []int{32, 64}
	if testing.Short() {
		large = large[:1]
	}
	for _, n := range large {
		lg := bits.Len(uint(n)) - 1 // log₂n, n a power of two
		out = append(out, c{name: fmt.Sprintf("relation n=%d h=n·log₂n=%d", n, n*lg), n: n, rel: RandomRelation(n, n*lg, rng)})
		out = append(out, c{name: fmt.Sprintf("relation n=%d h=16·n·log₂n=%d", n, 16*n*lg), n: n, rel: RandomRelation(n, 16*n*lg, rng), only: []Algorithm{Scheduled}})
	}
	return out
}

// capSteps is the step cap of alg's run on an n-processor case with cap
// maxSteps (0: none): greedy-a-literal livelocks, so its uncapped runs stop
// at 8n steps; scheduled-literal takes hundreds of thousands of steps on
// the large cases (n ≥ 32: 331,776 at n = 32, h = 160), so its uncapped
// runs there stop at 64n steps.
func capSteps(alg Algorithm, n, maxSteps int) int {
	switch {
	case maxSteps != 0:
		return maxSteps
	case alg == GreedyALiteral:
		return 8 * n
	case alg == ScheduledLiteral && n >= 32:
		return 64 * n
	}
	return 0
}

// fastCase is one differential workload; only, if set, names the
// algorithms it is run for (nil: all).
type fastCase struct {
	name     string
	n        int
	rel      []perm.Pair
	maxSteps int
	only     []Algorithm
}

// runs reports whether the case is for alg.
func (c fastCase) runs(alg Algorithm) bool {
	return c.only == nil || slices.Contains(c.only, alg)
}

// The fast engine against the step model: for every algorithm on every
// workload, the same Result (steps, completion, deliveries, injections,
// deflections, latencies, first-round count) and, for every packet, the
// same delivery step and the same number of deflections. Greedy-a-literal
// livelocks (a packet sent down from its processor is never delivered), so
// its runs stop at the step cap, which is compared too.
// RouteFast (Trace without the per-packet arrays) is compared on every case
// with n ≤ 32.
func TestFastMatchesModel(t *testing.T) {
	cases := fastCases()
	for _, alg := range Algorithms {
		for k, c := range cases {
			if !c.runs(alg) {
				continue
			}
			maxSteps := c.maxSteps
			maxSteps = capSteps(alg, c.n, maxSteps)
			seed := uint64(100 + k)
			r1, a1, d1, err := modelTrace(alg, c.n, c.rel, seed, maxSteps, nil)
			if err != nil {
				t.Fatalf("%s %s: model: %v", alg, c.name, err)
			}
			r2, a2, d2, err := fastTrace(alg, c.n, c.rel, seed, maxSteps)
			if err != nil {
				t.Fatalf("%s %s: fast: %v", alg, c.name, err)
			}
			if msg := diffTraces(r1, r2, a1, a2, d1, d2); msg != "" {
				t.Errorf("%s %s: %s", alg, c.name, msg)
			}
			// RouteFast is the same engine (newFast + run, as Trace, whose
			// only difference is the guarded per-packet arrive write), so
			// its comparison stops at n = 32: the n = 64 runs cost about
			// 2 s and exercise no RouteFast-only code.
			if c.n > 32 {
				continue
			}
			if r3, err := RouteFast(alg, c.n, c.rel, rand.New(rand.NewPCG(seed, 7)), maxSteps); err != nil || r3 != r1 {
				t.Errorf("%s %s: RouteFast %+v, %v; model %+v", alg, c.name, r3, err, r1)
			}
		}
	}
}

// The comparison has power: a planted difference — the model run with
// the two outputs swapped at every node where two packets meet (a legal
// action: a different node rule) — must be reported, for every protocol,
// on a workload where packets meet. (Algorithm 2 is left out: its
// scheduled packets never meet at a node, so the swap changes nothing.)
func TestFastDiffCatchesPlanted(t *testing.T) {
	swap := func(s *msot.State, a []msot.Action) {
		for v := range a {
			if s.InH[v].ID >= 0 && s.InV[v].ID >= 0 {
				a[v].Right, a[v].Down = a[v].Down, a[v].Right
			}
		}
	}
	rel := RandomRelation(8, 16, rand.New(rand.NewPCG(14, 3)))
	for _, alg := range []Algorithm{GreedyA, GreedyB, GreedyBEdgeFirst, GreedyC} {
		r1, a1, d1, err := modelTrace(alg, 8, rel, 9, 0, swap)
		if err != nil {
			t.Fatalf("%s: planted model: %v", alg, err)
		}
		r2, a2, d2, err := fastTrace(alg, 8, rel, 9, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diffTraces(r1, r2, a1, a2, d1, d2) == "" {
			t.Errorf("%s: the swapped model run was not told apart from the fast engine", alg)
		}
	}
}

// The comparison has power for the scheduled protocols too: a planted
// difference — the model run with one processor's injection at step 2 held
// back for a step (legal: the packet stays pending and is injected later)
// — is reported for Scheduled, whose packets never meet at a node.
func TestFastDiffCatchesHeldInjection(t *testing.T) {
	hold := func(s *msot.State, a []msot.Action) {
		if s.T != 2 {
			return
		}
		for v := range a {
			if _, inj := a[v].Right.Packet(); inj {
				a[v].Right = msot.None
				return
			}
			if _, inj := a[v].Down.Packet(); inj {
				a[v].Down = msot.None
				return
			}
		}
		t.Fatal("no injection at step 2: nothing was held back")
	}
	rel := RandomRelation(8, 16, rand.New(rand.NewPCG(14, 3)))
	r1, a1, d1, err := modelTrace(Scheduled, 8, rel, 9, 0, hold)
	if err != nil {
		t.Fatalf("planted model: %v", err)
	}
	r2, a2, d2, err := fastTrace(Scheduled, 8, rel, 9, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diffTraces(r1, r2, a1, a2, d1, d2) == "" {
		t.Errorf("the model run with a held-back injection was not told apart from the fast engine")
	}
}

// RouteFast rejects what Route rejects, naming the parameter.
func TestRouteFastErrors(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 1}}
	for _, c := range []struct {
		alg Algorithm
		n   int
		rel []perm.Pair
		rng *rand.Rand
	}{
		{"nope", 4, rel, nil},
		{GreedyB, 4, rel, nil},
		{GreedyA, 1, rel, nil},
		{GreedyA, msot.MaxN + 1, rel, nil},
		{GreedyA, 2, []perm.Pair{{Src: 0, Dst: 2}}, nil},
		{GreedyA, 2, []perm.Pair{{Src: -1, Dst: 0}}, nil},
	} {
		if _, err := RouteFast(c.alg, c.n, c.rel, c.rng, 0); err == nil {
			t.Errorf("RouteFast(%s, n = %d, %v) = nil error", c.alg, c.n, c.rel)
		}
	}
}

// FreshWaves (on the fast engine) against the step model's count by
// packet id (undeflectedFresh), for every algorithm at several sizes,
// with the same generator for the relation and the decisions.
func TestFreshWavesMatchesModel(t *testing.T) {
	for _, alg := range Algorithms {
		for _, n := range []int{2, 7, 16} {
			seed := uint64(n)*31 + uint64(len(alg))
			a, b := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
			got, err := FreshWaves(alg, n, a)
			if err != nil {
				t.Fatal(err)
			}
			_, want := undeflectedFresh(t, alg, n, RandomTargets(n, 2*n, true, b), b, 2*n-1)
			sum := 0
			for i := range n {
				sum += want[i]
				if got[i] != want[i] {
					t.Fatalf("%s n=%d: FreshWaves %v, model %v", alg, n, got, want)
				}
			}
			// (Greedy-a-literal's down-sent packets circle every
			// processor's column and deflect the fresh ones there.)
			if sum == 0 && n > 2 && alg != GreedyALiteral {
				t.Fatalf("%s n=%d: no undeflected fresh packet: the comparison is empty", alg, n)
			}
		}
	}
}

// routeFast is the fast engine (RouteFast) on the throughput workload; its
// latency sum is the run's packet-hops (hot potato: one hop per step).
func routeFast(b *testing.B, alg Algorithm, n int, rel []perm.Pair) (steps, hops int) {
	res, err := RouteFast(alg, n, rel, rand.New(rand.NewPCG(1, 2)), 0)
	if err != nil || !res.Complete {
		b.Fatalf("n = %d: complete %v, error %v", n, res.Complete, err)
	}
	return res.Steps, int(res.SumLatency)
}

// BenchmarkFastThroughput is the fast engine (RouteFast) on
// BenchmarkEngineThroughput's workload, Greedy-a and Greedy-c, in
// packet-hops per CPU second (and wall second) on one core and bytes
// allocated per packet. It first checks that it counts the same steps and
// hops as the step model (Route), so the rates are comparable:
// go test ./algos/sot -run '^$' -bench 'FastThroughput|ModelThroughput' -cpu 1 -benchtime 3x
func BenchmarkFastThroughput(b *testing.B) {
	for _, alg := range []Algorithm{GreedyA, GreedyC} {
		for _, n := range []int{32, 64, 128} {
			rel := benchRelation(n)
			b.Run(fmt.Sprintf("%s/n=%d", alg, n), func(b *testing.B) {
				fs, fh := routeFast(b, alg, n, rel)
				res, _, err := Route(alg, n, rel, rand.New(rand.NewPCG(1, 2)), Options{})
				if err != nil || fs != res.Steps || fh != int(res.SumLatency) {
					b.Fatalf("n = %d: fast %d steps %d hops, model %d steps %d hops (%v)", n, fs, fh, res.Steps, res.SumLatency, err)
				}
				hops := 0
				c0 := benchutil.CPUSeconds()
				for b.Loop() {
					_, h := routeFast(b, alg, n, rel)
					hops += h
				}
				cpu := benchutil.CPUSeconds() - c0
				b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "packet-hops/s")
				if cpu > 0 {
					b.ReportMetric(float64(hops)/cpu, "packet-hops/cpu-s")
				}
				b.ReportMetric(benchutil.AllocPerPacket(func() { routeFast(b, alg, n, rel) }, len(rel)), "B/packet")
			})
		}
	}
}

// Route without hooks (the fast engine, its last state converted) against
// New + Run on the step model: the same Result and the same last state
// (msot.State.Equal: links with birth steps and deflections, injected and
// delivered sets and counts, step counter), for every algorithm and
// workload; the converted state also passes the model's invariants.
func TestRouteMatchesRun(t *testing.T) {
	cases, planted := fastCases(), 0
	for _, alg := range Algorithms {
		for k, c := range cases {
			// The n = 64 cases are compared packet by packet with the step
			// model in TestFastMatchesModel; this test adds the final
			// state's conversion, whose bitmaps already span many words at
			// n = 32 (1024 nodes), so it stops there (6.6 → 0.8 s).
			if !c.runs(alg) || c.n > 32 {
				continue
			}
			maxSteps := c.maxSteps
			maxSteps = capSteps(alg, c.n, maxSteps)
			seed := uint64(300 + k)
			s, err := msot.NewState(c.n, c.rel)
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(alg, &s, rand.New(rand.NewPCG(seed, 7)))
			if err != nil {
				t.Fatal(err)
			}
			r1, s1, err := Run(s, r, Options{MaxSteps: maxSteps})
			if err != nil {
				t.Fatalf("%s %s: model: %v", alg, c.name, err)
			}
			r2, s2, err := Route(alg, c.n, c.rel, rand.New(rand.NewPCG(seed, 7)), Options{MaxSteps: maxSteps})
			if err != nil {
				t.Fatalf("%s %s: fast: %v", alg, c.name, err)
			}
			if r1 != r2 || !s1.Equal(s2) {
				t.Errorf("%s %s: model %+v (T %d, %d in flight), fast %+v (T %d, %d in flight)", alg, c.name, r1, s1.T, s1.InFlight(), r2, s2.T, s2.InFlight())
			}
			if err := msot.CheckInvariants(s2); err != nil {
				t.Errorf("%s %s: converted state: %v", alg, c.name, err)
			}
			// The comparison has power: the converted state with its
			// links' deflections zeroed (planted) must differ from the
			// model's wherever a packet in flight has been deflected.
			if zeroed, ok := zeroDefl(s2); ok {
				planted++
				if s1.Equal(zeroed) {
					t.Errorf("%s %s: the state with its deflections zeroed was not told apart", alg, c.name)
				}
			}
		}
	}
	if planted == 0 {
		t.Error("no cut run ended with a deflected packet in flight: the planted difference was never tried")
	}
}

// zeroDefl returns a copy of s with every in-flight packet's deflection
// count zeroed, and whether that changed anything (some packet in flight
// had been deflected).
func zeroDefl(s msot.State) (msot.State, bool) {
	changed := false
	z := s
	for _, links := range []*[]msot.Flight{&z.InH, &z.InV} {
		c := slices.Clone(*links)
		for i := range c {
			if c[i].ID >= 0 && c[i].Defl != 0 {
				c[i].Defl, changed = 0, true
			}
		}
		*links = c
	}
	return z, changed
}
