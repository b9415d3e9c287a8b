package sot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// placed is a packet put on an input of a node for a protocol test.
type placed struct {
	i, j   int
	fromUp bool
	id     int32
}

// stateWith builds SOT(n) at step t with rel, the given packets on links
// (marked injected) and every other packet pending.
func stateWith(t *testing.T, n, step int, rel []perm.Pair, ps []placed) msot.State {
	t.Helper()
	s, err := msot.NewState(n, rel)
	if err != nil {
		t.Fatal(err)
	}
	s.T = step
	for _, p := range ps {
		f := msot.Flight{ID: p.id, Born: int32(step - 1)}
		v := s.Node(p.i, p.j)
		if p.fromUp {
			s.InV[v] = f
		} else {
			s.InH[v] = f
		}
		s.Injected[p.id>>6] |= 1 << (p.id & 63)
		s.NInjected++
	}
	return s
}

// Each protocol's decision at one node, against the rule as §3.1 prints it
// (directions: right = (i, j+1), down = (i+1, j)). On SOT(4) P_x sits at
// (x, 3−x); a packet for P_x has target row x and target column 3−x.
func TestProtocolDecisions(t *testing.T) {
	L, U := msot.FromLeft, msot.FromUp
	cases := []struct {
		name string
		alg  Algorithm
		step int
		rel  []perm.Pair
		ps   []placed
		i, j int
		want msot.Action
	}{
		{"a: from up keeps going down, the other is deflected right", GreedyA, 1,
			[]perm.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 2}}, []placed{{1, 1, true, 0}, {1, 1, false, 1}}, 1, 1, msot.Action{Down: U, Right: L}},
		{"a: in its target column a packet turns down", GreedyA, 1,
			[]perm.Pair{{Src: 0, Dst: 2}}, []placed{{0, 1, false, 0}}, 0, 1, msot.Action{Down: L}},
		{"a: elsewhere it goes right", GreedyA, 1,
			[]perm.Pair{{Src: 0, Dst: 3}}, []placed{{0, 1, false, 0}}, 0, 1, msot.Action{Right: L}},
		{"a: an idle processor injects one packet, to the right", GreedyA, 0,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 1, Dst: 0}}, nil, 1, 2, msot.Action{Right: msot.Inject(0)}},
		{"a: a processor with a passing packet injects nothing", GreedyA, 1,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 0, Dst: 3}}, []placed{{1, 2, false, 1}}, 1, 2, msot.Action{Right: L}},
		{"a: a processor with one own packet and nothing passing injects it", GreedyA, 1,
			[]perm.Pair{{Src: 1, Dst: 3}}, nil, 1, 2, msot.Action{Right: msot.Inject(0)}},
		{"a-literal: an idle processor adds two, the second goes down", GreedyALiteral, 0,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 1, Dst: 0}}, nil, 1, 2, msot.Action{Right: msot.Inject(0), Down: msot.Inject(1)}},
		{"a-literal: a processor with one passing packet adds one, sent down", GreedyALiteral, 1,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 0, Dst: 3}}, []placed{{1, 2, false, 1}}, 1, 2, msot.Action{Right: L, Down: msot.Inject(0)}},
		// Algorithm 1 adds 2 − |S| = 1 packet even when more are waiting
		// (adding more would leave |S| > 2, which no link pair can carry).
		{"a-literal: with one passing packet and two own, still adds one", GreedyALiteral, 1,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 0, Dst: 3}, {Src: 1, Dst: 0}}, []placed{{1, 2, false, 1}}, 1, 2, msot.Action{Right: L, Down: msot.Inject(0)}},
		{"scheduled-literal: with one passing packet and two own for P3 at step 2, adds one", ScheduledLiteral, 2,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 0, Dst: 3}, {Src: 1, Dst: 3}}, []placed{{1, 2, false, 1}}, 1, 2, msot.Action{Right: L, Down: msot.Inject(0)}},
		{"b: in its target row a packet goes right", GreedyB, 1,
			[]perm.Pair{{Src: 0, Dst: 2}}, []placed{{2, 2, true, 0}}, 2, 2, msot.Action{Right: U}},
		{"b: in its target column a packet goes down", GreedyB, 1,
			[]perm.Pair{{Src: 0, Dst: 2}}, []placed{{0, 1, false, 0}}, 0, 1, msot.Action{Down: L}},
		{"c: farther in columns than in rows: right", GreedyC, 1,
			[]perm.Pair{{Src: 0, Dst: 1}}, []placed{{0, 0, false, 0}}, 0, 0, msot.Action{Right: L}},
		{"c: equal distances: down", GreedyC, 1,
			[]perm.Pair{{Src: 0, Dst: 2}}, []placed{{0, 3, false, 0}}, 0, 3, msot.Action{Down: L}},
		{"scheduled: at step 2, P1 sends only to P3", Scheduled, 2,
			[]perm.Pair{{Src: 1, Dst: 0}, {Src: 1, Dst: 3}, {Src: 1, Dst: 3}}, nil, 1, 2, msot.Action{Right: msot.Inject(1)}},
		{"scheduled: at step 1, P1 has nothing for P2", Scheduled, 1,
			[]perm.Pair{{Src: 1, Dst: 0}, {Src: 1, Dst: 3}}, nil, 1, 2, msot.Action{}},
		{"scheduled-literal: two packets for P3 at step 2, the second down", ScheduledLiteral, 2,
			[]perm.Pair{{Src: 1, Dst: 3}, {Src: 1, Dst: 0}, {Src: 1, Dst: 3}}, nil, 1, 2, msot.Action{Right: msot.Inject(0), Down: msot.Inject(2)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := stateWith(t, 4, c.step, c.rel, c.ps)
			r, err := New(c.alg, &s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			a := make([]msot.Action, 16)
			r.Actions(&s, a)
			if got := a[s.Node(c.i, c.j)]; got != c.want {
				t.Fatalf("node (%d,%d): %+v, want %+v", c.i, c.j, got, c.want)
			}
			if _, _, err := msot.Step(s, a); err != nil {
				t.Fatalf("the model rejects the router's actions: %v", err)
			}
		})
	}
}

// Greedy-b's two readings when an edge packet (in its target column, must go
// down) meets a middle packet: the text's (edge first) never deflects the
// edge packet; the pseudo-code's random first choice sometimes does (with
// probability 1/4 per step: the middle packet is drawn and goes down; never
// in 200 draws has probability (3/4)^200 < 1e-24).
func TestGreedyBEdgePacket(t *testing.T) {
	// SOT(4), node (0,1): packet 0 targets P2 (column 1: edge, down),
	// packet 1 targets P1 at (1,2) (middle: both links good).
	rel := []perm.Pair{{Src: 3, Dst: 2}, {Src: 2, Dst: 1}}
	ps := []placed{{0, 1, false, 0}, {0, 1, true, 1}}
	count := map[Algorithm]int{}
	for _, alg := range []Algorithm{GreedyB, GreedyBEdgeFirst} {
		rng := rand.New(rand.NewPCG(7, 7))
		for range 200 {
			s := stateWith(t, 4, 1, rel, ps)
			r, _ := New(alg, &s, rng)
			a := make([]msot.Action, 16)
			r.Actions(&s, a)
			if a[s.Node(0, 1)].Down != msot.FromLeft {
				count[alg]++
			}
		}
	}
	if count[GreedyBEdgeFirst] != 0 || count[GreedyB] == 0 {
		t.Fatalf("edge packet deflected: pseudo-code %d/200, edge-first %d/200", count[GreedyB], count[GreedyBEdgeFirst])
	}
}

// RandomRelation is an h-relation (everyone sends and receives exactly h)
// whose rounds are not aligned permutations; RandomTargets with others never
// addresses the sender.
func TestGenerators(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, h := 16, 16
	rel := RandomRelation(n, h, rng)
	out, in := make([]int, n), make([]int, n)
	for k, p := range rel {
		if int(p.Src) != k%n {
			t.Fatalf("packet %d starts at P%d, want P%d", k, p.Src, k%n)
		}
		out[p.Src]++
		in[p.Dst]++
	}
	for x := range n {
		if out[x] != h || in[x] != h {
			t.Fatalf("P%d sends %d, receives %d, want %d", x, out[x], in[x], h)
		}
	}
	aligned := 0
	for r := range h {
		if perm.Validate(func() []int32 {
			p := make([]int32, n)
			for i := range n {
				p[i] = rel[r*n+i].Dst
			}
			return p
		}(), true) == nil {
			aligned++
		}
	}
	if aligned == h {
		t.Fatal("every round is a permutation: the per-processor shuffle is missing")
	}
	for _, p := range RandomTargets(5, 50, true, rng) {
		if p.Src == p.Dst {
			t.Fatal("RandomTargets(others) addressed the sender")
		}
	}
}

// New rejects unknown algorithms and a missing generator for randomized ones.
func TestNewErrors(t *testing.T) {
	s, _ := msot.NewState(3, nil)
	if _, err := New("greedy-z", &s, nil); err == nil {
		t.Error("unknown algorithm accepted")
	}
	if _, err := New(GreedyC, &s, nil); err == nil {
		t.Error("greedy-c without a *rand.Rand accepted")
	}
	if _, err := ParseAlgorithm("scheduled"); err != nil {
		t.Error(err)
	}
}

// Two packets for P2 on SOT(3) under Greedy-a, worked by hand: P0's packet
// turns down at (0,0) and arrives after 3 steps; P1's reaches (1,0) when
// P0's comes from up, is deflected right, circles row 1 through P1 and turns
// down on its second try: 2n = 6 hops.
func ExampleRoute() {
	rel := []perm.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 2}}
	res, _, err := Route(GreedyA, 3, rel, nil, Options{Check: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("steps:", res.Steps, "deflections:", res.Deflections, "max latency:", res.MaxLatency)
	// Output: steps: 6 deflections: 1 max latency: 6
}

// BenchmarkGreedyA measures model steps per second (Step with Greedy-a's
// decisions and no invariant checks) on random n·log₂ n-relations.
func BenchmarkGreedyA(b *testing.B) {
	for _, n := range []int{64, 128} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			lg := 0
			for 1<<(lg+1) <= n {
				lg++
			}
			rel := RandomRelation(n, n*lg, rand.New(rand.NewPCG(1, 1)))
			steps := 0
			for b.Loop() {
				res, _, err := Route(GreedyA, n, rel, nil, Options{})
				if err != nil || !res.Complete {
					b.Fatal(err)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(steps)*float64(n*n)/b.Elapsed().Seconds(), "node-steps/s")
		})
	}
}

// Options.Tamper sees the router's actions before the step and what it
// writes is what the model applies: clearing every output after the first
// injection keeps a packet at a node, which the model rejects; a Tamper
// that changes nothing leaves the run as it was.
func TestRunTamper(t *testing.T) {
	rel := []perm.Pair{{Src: 1, Dst: 0}}
	calls := 0
	keep := func(s *msot.State, a []msot.Action) {
		calls++
		if s.T > 0 {
			clear(a)
		}
	}
	_, _, err := Route(GreedyA, 3, rel, nil, Options{Tamper: keep})
	if !errors.Is(err, msot.ErrAction) || calls != 2 {
		t.Fatalf("after %d calls: error %v, want one wrapping ErrAction at step 1", calls, err)
	}
	res, _, err := Route(GreedyA, 3, rel, nil, Options{Tamper: func(*msot.State, []msot.Action) {}})
	if err != nil || !res.Complete || res.Steps != 3 {
		t.Fatalf("no-op tamper: %+v, %v", res, err)
	}
}
