package sot

import (
	"fmt"
	"slices"
	"testing"

	asot "routecheck/algos/sot"
	msot "routecheck/models/sot"
	"routecheck/props"
)

// sotNoop is a tamper hook that changes nothing: setting it makes
// algos/sot.Route run the step model instead of the fast engine.
func sotNoop(*msot.State, []msot.Action) {}

// The real checks that Route (or Trace) now runs on the fast engine give
// the same outcome — verdict and evidence, slack, counterexample — when
// forced onto the step model by a no-op tamper hook (which the checks'
// planted faults use): completes, one-winner, far-above-n·log n,
// completes-large and cost-bounded-in-n, at the small budget.
func TestSotChecksSameOnStepModel(t *testing.T) {
	algs := []asot.Algorithm{asot.GreedyA, asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC, asot.Scheduled}
	type check struct {
		name       string
		fast, step func(props.Env) props.Outcome
	}
	cs := []check{
		{"one-winner", sotWinnersCheck(nil), sotWinnersCheck(sotNoop)},
		{"sec4.3/far-above-nlogn", sotFarAboveCheck(1, nil), sotFarAboveCheck(1, sotNoop)},
	}
	for _, alg := range algs {
		cs = append(cs,
			check{string(alg) + "/completes", sotCompletesCheck(alg, nil), sotCompletesCheck(alg, sotNoop)},
			check{string(alg) + "/completes-large", sotCompletesLargeCheck(alg, nil), sotCompletesLargeCheck(alg, sotNoop)},
			check{string(alg) + "/cost-bounded-in-n", sotGrowthCheck(alg, nil, nil), sotGrowthCheck(alg, nil, sotNoop)})
	}
	env := props.Env{Budget: props.Small, Seed: 20261122}
	slack := func(p *float64) string {
		if p == nil {
			return "none"
		}
		return fmt.Sprint(*p)
	}
	for _, c := range cs {
		a, b := c.fast(env), c.step(env)
		if a.Verdict != b.Verdict || a.Evidence != b.Evidence || slack(a.Slack) != slack(b.Slack) || fmt.Sprint(a.Counterexample) != fmt.Sprint(b.Counterexample) {
			t.Errorf("%s: fast engine %v (%s, slack %s); step model %v (%s, slack %s)", c.name, a.Verdict, a.Evidence, slack(a.Slack), b.Verdict, b.Evidence, slack(b.Slack))
		}
		if a.Evidence == "" {
			t.Errorf("%s: empty evidence: nothing compared", c.name)
		}
	}
}

// The planted fault of cost-bounded-in-n runs its idle router on the fast
// engine (asot.RouteIdle); on the step model with the tamper
// sotIdleRounds it gives the same costs, run by run, for every router at
// the fault's smallest sizes (n = 8 and 16, its relations and random
// streams). The comparison has power: the step model idling one round
// more in every block (k = n/4 + 1, a planted difference) changes the
// costs for every router.
func TestSotGrowthIdleSameOnStepModel(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 20261122}
	for _, alg := range []asot.Algorithm{asot.GreedyA, asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC, asot.Scheduled} {
		for _, n := range []int{8, 16} {
			runs := 4
			a, msgA := sotGrowthCosts(env, alg, n, runs, sotGrowthIdle, nil)
			b, msgB := sotGrowthCosts(env, alg, n, runs, nil, sotIdleRounds(sotGrowthIdle))
			if msgA != "" || msgB != "" || len(a) != runs || !slices.Equal(a, b) {
				t.Errorf("%s n=%d: fast engine %v (%q); step model %v (%q)", alg, n, a, msgA, b, msgB)
			}
			p, _ := sotGrowthCosts(env, alg, n, runs, nil, sotIdleRounds(func(n int) int { return n/4 + 1 }))
			if slices.Equal(p, a) {
				t.Errorf("%s n=%d: idling k = n/4 + 1 gave the costs of k = n/4: the comparison cannot tell them apart", alg, n)
			}
		}
	}
}
