package sot

// Property bodies and generators for the sparse optical torus
// (002_59e118519f43b14a.txt; models/sot, algos/sot). Exported identifiers
// carry the Sot prefix; fuzz/sot_fuzz_test.go drives the same bodies.

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props/sottest"
)

const seed002 = "002_59e118519f43b14a.txt"

// SotInstance is a replayable run: SOT(N), the relation as [src, dst]
// pairs (packet k is Rel[k]), the algorithm and the seed of its random
// stream (seeds.Rand(Seed); unused by deterministic algorithms).
type SotInstance struct {
	N    int        `json:"n"`
	Alg  string     `json:"algorithm,omitempty"`
	Seed uint64     `json:"seed,omitempty"`
	Rel  [][2]int32 `json:"rel"`
}

// Pairs returns the relation.
func (in SotInstance) Pairs() []perm.Pair { return sottest.Instance{N: in.N, Rel: in.Rel}.Pairs() }

// sotInstance is the suite's instance of the run (props/sottest), with the
// algorithm in place of the family.
func sotInstance(n int, alg asot.Algorithm, seed uint64, rel []perm.Pair) SotInstance {
	return SotInstance{N: n, Alg: string(alg), Seed: seed, Rel: sottest.NewInstance(string(alg), n, seed, rel).Rel}
}

// GenSotRelation draws SOT(n) with 2 ≤ n ≤ maxN and an arbitrary relation of
// at most maxPer packets per processor (self-addressed packets when self is
// set; processors may receive any number).
func GenSotRelation(t *rapid.T, maxN, maxPer int, self bool) (int, []perm.Pair) {
	n := rapid.IntRange(2, maxN).Draw(t, "n")
	var rel []perm.Pair
	for src := range n {
		for range rapid.IntRange(0, maxPer).Draw(t, "packets") {
			var d int
			if self {
				d = rapid.IntRange(0, n-1).Draw(t, "dst")
			} else {
				d = rapid.IntRange(0, n-2).Draw(t, "dst")
				if d >= src {
					d++
				}
			}
			rel = append(rel, perm.Pair{Src: int32(src), Dst: int32(d)})
		}
	}
	return n, rel
}

// SotRunReport is what SotCheckedRun saw.
type SotRunReport struct {
	Result asot.Result
	// Problem is empty when every check passed.
	Problem string
	// Deflections lists every deflection with the injection steps of the
	// deflected packet and of the packet on the other output (−1: none).
	Deflections []SotDeflection
	// Final is the last state.
	Final msot.State
}

// SotDeflection is a deflection event with the injection steps involved.
type SotDeflection struct {
	Step     int    `json:"step"`
	ID       int32  `json:"id"`
	Born     int    `json:"born"`
	By       int32  `json:"by"`
	ByBorn   int    `json:"by_born"`
	Node     [2]int `json:"node"`
	Vertical bool   `json:"came_from_up"`
}

// SotCheckedRun runs alg on rel for at most maxSteps steps with every check
// routecheck makes on every run: each step is legal on the model (hot
// potato, one packet per link, only own packets injected), the model's
// invariants hold after each step (conservation: no packet lost or
// duplicated), and — independently of the model's bookkeeping — every
// delivery is at the packet's target, happens once, after exactly
// n·(1 + deflections) hops. With keepDefl it records every deflection.
func SotCheckedRun(alg asot.Algorithm, n int, rel []perm.Pair, rng *rand.Rand, maxSteps int, keepDefl bool) SotRunReport {
	return sotCheckedRun(alg, n, rel, rng, maxSteps, keepDefl, nil)
}

// sotCheckedRun is SotCheckedRun with the router's actions rewritten by
// tamper before every step (a planted fault; nil: the real router).
func sotCheckedRun(alg asot.Algorithm, n int, rel []perm.Pair, rng *rand.Rand, maxSteps int, keepDefl bool, tamper sotTamper) SotRunReport {
	var rep SotRunReport
	s, err := msot.NewState(n, rel)
	if err != nil {
		rep.Problem = err.Error()
		return rep
	}
	r, err := asot.New(alg, &s, rng)
	if err != nil {
		rep.Problem = err.Error()
		return rep
	}
	deliveries := sottest.NewDeliveries(n, rel)
	obs := func(before *msot.State, _ []msot.Action, _ *msot.State, ev *msot.Events) {
		if rep.Problem == "" {
			if err := deliveries.Observe(ev.Delivered); err != nil {
				rep.Problem = fmt.Sprintf("step %d: %v", before.T, err)
			}
		}
		if keepDefl {
			for _, df := range ev.Deflected {
				rep.Deflections = append(rep.Deflections, sotDeflection(before, df))
			}
		}
	}
	res, final, err := asot.Run(s, r, asot.Options{MaxSteps: maxSteps, Check: true, Observe: obs, Tamper: tamper})
	rep.Result, rep.Final = res, final
	if err != nil && rep.Problem == "" {
		rep.Problem = err.Error()
	}
	if rep.Problem == "" {
		if err := deliveries.Final(&final); err != nil {
			rep.Problem = err.Error()
		}
	}
	return rep
}

// bornAt is the injection step of packet id at node v in state s (on one of
// v's inputs, or injected there now).
func bornAt(s *msot.State, v int, id int32) int {
	if id < 0 {
		return -1
	}
	for _, f := range [2]msot.Flight{s.InH[v], s.InV[v]} {
		if f.ID == id {
			return int(f.Born)
		}
	}
	return s.T
}

func sotDeflection(s *msot.State, df msot.Deflection) SotDeflection {
	v := int(df.Node)
	i, j := s.Pos(v)
	return SotDeflection{Step: s.T, ID: df.ID, Born: bornAt(s, v, df.ID), By: df.By, ByBorn: bornAt(s, v, df.By),
		Node: [2]int{i, j}, Vertical: s.InV[v].ID == df.ID}
}

// SotRouterProperty draws a small SOT(n), an arbitrary relation (self
// packets included) and any algorithm (the literal readings too), runs it
// for at most 8n + 4K steps with SotCheckedRun and fails on any problem.
// Completion is not required (the literal readings livelock by design).
func SotRouterProperty(t *rapid.T) {
	n, rel := GenSotRelation(t, 6, 4, true)
	alg := rapid.SampledFrom(asot.Algorithms).Draw(t, "algorithm")
	seed := rapid.Uint64().Draw(t, "seed")
	rep := SotCheckedRun(alg, n, rel, seeds.Rand(seed), 8*n+4*len(rel), false)
	if rep.Problem != "" {
		t.Fatalf("%s: %s\ninstance: %+v", alg, rep.Problem, sotInstance(n, alg, seed, rel))
	}
}

// SotLegal is an independent statement of SOT(n)'s physics for one step:
// every packet at a node leaves on exactly one of its two outputs; an
// output carries nothing, a packet that is at the node, or (at a processor
// only) an own packet never injected before; no packet is sent twice.
func SotLegal(s *msot.State, a []msot.Action) bool {
	n := s.N
	if len(a) != n*n {
		return false
	}
	sent := map[int32]int{}
	for v := range a {
		i, j := v/n, v%n
		present := map[msot.Slot]bool{}
		if s.InH[v].ID >= 0 {
			present[msot.FromLeft] = true
		}
		if s.InV[v].ID >= 0 {
			present[msot.FromUp] = true
		}
		used := map[msot.Slot]int{}
		for _, x := range [2]msot.Slot{a[v].Right, a[v].Down} {
			if x == msot.None {
				continue
			}
			used[x]++
			if x == msot.FromLeft || x == msot.FromUp {
				if !present[x] {
					return false
				}
				continue
			}
			id := int32(x) - 3
			if id < 0 || i+j != n-1 || int(id) >= len(s.Rel) || int(s.Rel[id].Src) != i || s.IsInjected(id) {
				return false
			}
			sent[id]++
		}
		for x := range present {
			if used[x] != 1 {
				return false
			}
		}
		for _, c := range used {
			if c > 1 {
				return false
			}
		}
	}
	for _, c := range sent {
		if c > 1 {
			return false
		}
	}
	return true
}

// sotStart builds the state of rel on SOT(n) and alg's router on it,
// seeded from a drawn seed, and an action buffer for one step; an error
// fails t.
func sotStart(t *rapid.T, alg asot.Algorithm, n int, rel []perm.Pair) (msot.State, *asot.Router, []msot.Action) {
	s, err := msot.NewState(n, rel)
	if err != nil {
		t.Fatal(err)
	}
	r, err := asot.New(alg, &s, seeds.Rand(rapid.Uint64().Draw(t, "seed")))
	if err != nil {
		t.Fatal(err)
	}
	return s, r, make([]msot.Action, n*n)
}

// SotStepProperty draws a state reached by a random algorithm on a random
// small relation, then the router's actions for it with up to three random
// changes (any slot on any output), and checks models/sot.Step: it never
// modifies its input, gives the same result twice, accepts exactly what
// SotLegal accepts, wraps ErrAction in every rejection, and keeps
// CheckInvariants after every accepted step.
func SotStepProperty(t *rapid.T) {
	n, rel := GenSotRelation(t, 5, 4, true)
	alg := rapid.SampledFrom(asot.Algorithms).Draw(t, "algorithm")
	s, r, a := sotStart(t, alg, n, rel)
	for range rapid.IntRange(0, 3*n).Draw(t, "warmup") {
		r.Actions(&s, a)
		next, _, err := msot.Step(s, a)
		if err != nil {
			t.Fatalf("%s: router actions rejected: %v", alg, err)
		}
		s = next
	}
	r.Actions(&s, a)
	for range rapid.IntRange(0, 3).Draw(t, "changes") {
		v := rapid.IntRange(0, n*n-1).Draw(t, "node")
		x := msot.Slot(rapid.IntRange(0, 3+len(rel)).Draw(t, "slot"))
		if rapid.Bool().Draw(t, "output") {
			a[v].Right = x
		} else {
			a[v].Down = x
		}
	}
	before := s.Clone()
	next, ev, err := msot.Step(s, a)
	if !s.Equal(before) {
		t.Fatal("Step modified its input state")
	}
	if legal := SotLegal(&s, a); legal != (err == nil) {
		t.Fatalf("SotLegal = %v, Step error = %v", legal, err)
	}
	if err != nil {
		if !errors.Is(err, msot.ErrAction) {
			t.Fatalf("error %v does not wrap ErrAction", err)
		}
		return
	}
	again, ev2, err2 := msot.Step(s, a)
	if err2 != nil || !again.Equal(next) || fmt.Sprint(ev) != fmt.Sprint(ev2) {
		t.Fatal("Step is not deterministic")
	}
	if err := msot.CheckInvariants(next); err != nil {
		t.Fatal(err)
	}
}

// ---------------------------------------------------------------------------
// Planted faults (issue 9): mutant routers, as rewrites of a real router's
// actions before each step (algos/sot.Options.Tamper). Each is fixed before
// it is run and shared by every claim whose checker it is written for.

// sotTamper rewrites the actions a router chose for state s; nil is the
// real router.
type sotTamper = func(s *msot.State, a []msot.Action)

// sotKeepFromUp is a router whose nodes, when two packets arrive, keep the
// one that came from up for a step instead of forwarding it (store and
// forward, which hot-potato routing forbids): that packet's output is
// cleared. It changes nothing at a node with at most one packet.
func sotKeepFromUp(s *msot.State, a []msot.Action) {
	for v := range a {
		if s.InH[v].ID < 0 || s.InV[v].ID < 0 {
			continue
		}
		if a[v].Right == msot.FromUp {
			a[v].Right = msot.None
		}
		if a[v].Down == msot.FromUp {
			a[v].Down = msot.None
		}
	}
}

// sotNoTurnToP0 is a router that never turns a packet for P_0 into P_0's
// column (column n − 1): a packet for P_0 arriving there from the left and
// sent down is sent right instead (the node's two outputs are swapped, a
// legal deflection), so it circles its row for ever. Relations without a
// packet for P_0 from another processor are routed as before.
func sotNoTurnToP0(s *msot.State, a []msot.Action) {
	n := s.N
	for v := n - 1; v < n*n; v += n {
		if f := s.InH[v]; f.ID >= 0 && s.Rel[f.ID].Dst == 0 && a[v].Down == msot.FromLeft {
			a[v].Right, a[v].Down = a[v].Down, a[v].Right
		}
	}
}

// sotLeftFirst is protocol a with the priority at the target column
// reversed: where a packet from the left reaches its target column while
// another arrives from up and the router sends the one from up down, the
// outputs are swapped — the packet from the left turns down and the one
// from up is deflected right.
func sotLeftFirst(s *msot.State, a []msot.Action) {
	n := s.N
	for v := range a {
		h, u := s.InH[v], s.InV[v]
		if h.ID >= 0 && u.ID >= 0 && n-1-int(s.Rel[h.ID].Dst) == v%n && a[v].Down == msot.FromUp && a[v].Right == msot.FromLeft {
			a[v].Right, a[v].Down = msot.FromUp, msot.FromLeft
		}
	}
}

// sotSkewP0 is Algorithm 2 with an off-by-one schedule at one processor:
// P_0 sends at step t its next packet for P_(t+1) mod n instead of
// P_t (every other processor keeps the schedule). It decides P_0's
// injection alone (whatever the router chose is replaced) and injects only
// onto a free Right output, as the real rule does.
func sotSkewP0(s *msot.State, a []msot.Action) {
	v := s.ProcNode(0)
	if _, inj := a[v].Right.Packet(); !inj && a[v].Right != msot.None {
		return
	}
	a[v].Right = msot.None
	y := int32((s.T + 1) % s.N)
	for _, id := range s.Own[0] {
		if s.Rel[id].Dst == y && !s.IsInjected(id) {
			a[v].Right = msot.Inject(id)
			return
		}
	}
}

// sotResendInFlight is a router whose processors forget what they sent: a
// processor with a free Right output sends its first own packet that is
// still in flight again (a duplicate). Added after sotKeepFromUp turned
// out to be no fault of Algorithm 2 (no node ever holds two packets there).
func sotResendInFlight(s *msot.State, a []msot.Action) {
	for x := range s.N {
		v := s.ProcNode(x)
		if a[v].Right != msot.None {
			continue
		}
		for _, id := range s.Own[x] {
			if s.IsInjected(id) && !s.IsDelivered(id) {
				a[v].Right = msot.Inject(id)
				break
			}
		}
	}
}

// sotShutP0 is a router whose two nodes in front of P_0 — (0, n−2), whose
// Right output enters P_0, and (n−1, n−1), whose Down output does — never
// forward a packet for P_0 into it: they swap their outputs (a legal
// deflection), unless the other packet is for P_0 too. So the last packet
// for P_0 is never delivered. Added after sotNoTurnToP0 turned out to be
// no fault of protocols b and c (their packets also reach P_0 along row 0).
func sotShutP0(s *msot.State, a []msot.Action) {
	n := s.N
	forP0 := func(v int, x msot.Slot) bool {
		switch x {
		case msot.FromLeft:
			return s.InH[v].ID >= 0 && s.Rel[s.InH[v].ID].Dst == 0
		case msot.FromUp:
			return s.InV[v].ID >= 0 && s.Rel[s.InV[v].ID].Dst == 0
		}
		return false
	}
	if v := s.Node(0, n-2); forP0(v, a[v].Right) && !forP0(v, a[v].Down) {
		a[v].Right, a[v].Down = a[v].Down, a[v].Right
	}
	if v := s.Node(n-1, n-1); forP0(v, a[v].Down) && !forP0(v, a[v].Right) {
		a[v].Right, a[v].Down = a[v].Down, a[v].Right
	}
}
