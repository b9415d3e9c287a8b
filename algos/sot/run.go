package sot

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// Observer sees every step of a run: the state before, the actions, the
// state after and the events. It must not modify or retain its arguments
// (they are reused).
type Observer func(before *msot.State, a []msot.Action, after *msot.State, ev *msot.Events)

// Options control Run. The zero value runs until every packet is delivered
// or DefaultMaxSteps steps have passed, without invariant checks.
type Options struct {
	// MaxSteps stops the run (0: DefaultMaxSteps of the instance).
	MaxSteps int
	// Check runs msot.CheckInvariants after every step (O(n² + K) each).
	Check bool
	// Observe, if set, is called after every step.
	Observe Observer
	// Tamper, if set, may rewrite the router's actions before each step is
	// applied. It exists only for planted faults (props' mutant routers,
	// issue 9); no algorithm of this package sets it, and nil leaves Run
	// unchanged.
	Tamper func(s *msot.State, a []msot.Action)
}

// DefaultMaxSteps is the step cap of a run on SOT(n) with K packets:
// 64·n·(K/n + 2), generous for h-relations (every processor absorbs at
// most two packets a step and Algorithm 2 needs about n·max w(i, j)).
func DefaultMaxSteps(n, K int) int { return 64 * n * (K/n + 2) }

// Result summarizes a run.
type Result struct {
	// Steps is the number of steps performed: when Complete, the step
	// count after which the last packet was delivered (0 for no packets).
	Steps       int
	Complete    bool
	Delivered   int
	Injections  int
	Deflections int
	MaxLatency  int
	SumLatency  int64
	// FirstRound counts packets injected at steps 0…n−1 and delivered
	// without a deflection (latency n): the "fresh" packets that succeed.
	FirstRound int
}

// Run routes s's relation with router r on the model until every packet is
// delivered or the step cap is reached, and returns the result and the last
// state. An error means a model violation (an action the hardware rejects:
// a router bug) or, with Check, a broken invariant; it wraps the model's
// error and names the step.
func Run(s msot.State, r *Router, o Options) (Result, msot.State, error) {
	maxSteps := o.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps(s.N, s.K())
	}
	n := s.N
	cur, next := s.Clone(), msot.State{}
	a := make([]msot.Action, n*n)
	var ev msot.Events
	var res Result
	for !cur.Done() && res.Steps < maxSteps {
		r.Actions(&cur, a)
		if o.Tamper != nil {
			o.Tamper(&cur, a)
		}
		if err := msot.StepInto(&next, &cur, a, &ev); err != nil {
			return res, cur, fmt.Errorf("%s, step %d: %w", r.alg, cur.T, err)
		}
		if o.Check {
			if err := msot.CheckInvariants(next); err != nil {
				return res, next, fmt.Errorf("%s, after step %d: %w", r.alg, cur.T, err)
			}
		}
		res.Steps++
		res.Injections += len(ev.Injected)
		res.Deflections += len(ev.Deflected)
		for _, d := range ev.Delivered {
			res.Delivered++
			res.SumLatency += int64(d.Latency)
			res.MaxLatency = max(res.MaxLatency, int(d.Latency))
			if d.Defl == 0 && int(cur.T)+1-int(d.Latency) < n {
				res.FirstRound++
			}
		}
		if o.Observe != nil {
			o.Observe(&cur, a, &next, &ev)
		}
		cur, next = next, cur
	}
	res.Complete = cur.Done()
	return res, cur, nil
}

// Route builds the state for rel on SOT(n), a router for alg and runs it.
// Without an observer, a tamper hook or invariant checks (o.Observe,
// o.Tamper, o.Check all unset) it runs on the fast engine (RouteFast's
// compact state, not msot.StepInto) and converts its last state: the same
// result, the same last state and the same random numbers drawn as New +
// Run (TestRouteMatchesRun). With any of them set it is New + Run on the
// step model.
func Route(alg Algorithm, n int, rel []perm.Pair, rng *rand.Rand, o Options) (Result, msot.State, error) {
	s, err := msot.NewState(n, rel)
	if err != nil {
		return Result{}, msot.State{}, err
	}
	if o.Observe == nil && o.Tamper == nil && !o.Check {
		f, err := newFast(alg, n, rel, rng)
		if err != nil {
			return Result{}, msot.State{}, err
		}
		res := f.run(o.MaxSteps)
		return res, f.state(&s), nil
	}
	r, err := New(alg, &s, rng)
	if err != nil {
		return Result{}, msot.State{}, err
	}
	return Run(s, r, o)
}

// RandomRelation is a random h-relation on n processors: the union of h
// independent uniformly random permutations (every processor sends and
// receives exactly h packets; each packet's target is uniform over all n
// processors, itself included), after which every processor's h packets are
// put in an independent uniformly random order (its first-in-first-out
// order). Without that shuffle the packets every processor would send k-th
// would form a permutation, and greedy waves would never compete for a
// target. Ids go round by round: packet r·n + i is the r-th of processor i.
func RandomRelation(n, h int, rng *rand.Rand) []perm.Pair {
	targets := make([][]int32, n)
	for i := range targets {
		targets[i] = make([]int32, h)
	}
	p := make([]int32, n)
	for r := range h {
		perm.RandomInto(p, rng)
		for i, d := range p {
			targets[i][r] = d
		}
	}
	for _, t := range targets {
		rng.Shuffle(len(t), func(a, b int) { t[a], t[b] = t[b], t[a] })
	}
	rel := make([]perm.Pair, 0, n*h)
	for r := range h {
		for i := range n {
			rel = append(rel, perm.Pair{Src: int32(i), Dst: targets[i][r]})
		}
	}
	return rel
}

// RandomTargets gives every processor h packets with independent uniform
// targets — over the other n − 1 processors when others is set (§3.3:
// "processors send randomly addressed packets to each other"), over all n
// otherwise. A processor may then receive more than h packets. Ids go round
// by round as in RandomRelation.
func RandomTargets(n, h int, others bool, rng *rand.Rand) []perm.Pair {
	rel := make([]perm.Pair, 0, n*h)
	for range h {
		for i := range n {
			var d int
			if others {
				d = rng.IntN(n - 1)
				if d >= i {
					d++
				}
			} else {
				d = rng.IntN(n)
			}
			rel = append(rel, perm.Pair{Src: int32(i), Dst: int32(d)})
		}
	}
	return rel
}

// FreshWaves measures the first round of fresh packets (§3.3, Figure 3; §4
// "when routing begins"): every processor gets 2n packets with targets
// uniform over the other processors (RandomTargets with others), the router
// runs 2n − 1 steps, and the result's entry τ (0 ≤ τ < n) is the number of
// packets injected at step τ that were delivered without a deflection. In
// the first n steps no processor has a packet passing through (a packet is
// at a processor only every n hops), so every processor sends at full rate
// — one packet a step under Greedy-a, two under Algorithm 1 — and the waves
// of different steps never meet (they travel on different anti-diagonals):
// the n entries are independent samples. Divided by n, an entry is the
// throughput per processor and time unit that Figure 3 plots. It runs on
// the fast engine (RouteFast's), which makes the same decisions and draws
// as Route (TestFreshWavesMatchesModel).
func FreshWaves(alg Algorithm, n int, rng *rand.Rand) ([]int, error) {
	rel := RandomTargets(n, 2*n, true, rng)
	f, err := newFast(alg, n, rel, rng)
	if err != nil {
		return nil, err
	}
	f.waves = make([]int, n)
	f.run(2*n - 1)
	return f.waves, nil
}
