package pops

import (
	"math"
	"reflect"
	"sync/atomic"
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// forgetOnce drops key from o (a test recomputes a value).
func forgetOnce[K comparable, V any](o *onceMap[K, V], key K) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.m, key)
}

// The claims whose planted faults judge the claim's own runs (a bound or
// an expectation changed, fixed before running) simulate once for the
// check and all of its faults: with the memo entry dropped, running the
// check and every fault computes it exactly once, and the check reaches
// its recorded verdict from the shared runs (that the faults' outcomes are
// unchanged is the ledger's: cmpjson of the ledger before and after).
func TestFaultsShareRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	for _, c := range []struct {
		id       string
		computed *atomic.Int64
		forget   func()
	}{
		{"pops/sec3-b/slot1-g-over-e", &slot1Runs.computed, func() { forgetOnce(&slot1Runs, envKeyOf(env)) }},
		{"pops/sec3-b/delivered-g-over-c", &deliveredRuns.computed, func() { forgetOnce(&deliveredRuns, envKeyOf(env)) }},
		{"pops/sec3-b/p-g-over-d-best/both-slots", &bestPRuns.computed, func() { forgetOnce(&bestPRuns, envKeyOf(env)) }},
		{"pops/sec2b/randomized-two-hops-loglog", &twoHopsRuns.computed, func() { forgetOnce(&twoHopsRuns, envKeyOf(env)) }},
		{"pops/thm-3.7/eq9-survivors", &eq9Left.computed, func() { forgetOnce(&eq9Left, env.Budget) }},
	} {
		t.Run(c.id, func(t *testing.T) { claimtest.SharesRuns(t, c.id, env, c.computed, c.forget) })
	}
}

// Judging only each (g, δ) block's running minima of the left side finds
// the smallest ratio, at the same case, that judging every case finds
// (the outcome, evidence and slack are equal), for the claim's right side,
// its two planted faults and two other scalings.
func TestEq9SurvivorsMinimaJudgeAsAll(t *testing.T) {
	minima, every := eq9Sides(props.Small, false), eq9Sides(props.Small, true)
	for _, rs := range [][2]float64{{math.E * math.E, 1}, {math.E * math.E, 2}, {1, 1}, {math.E * math.E, 0.5}, {3, 1.7}} {
		got, want := judgeEq9(minima, rs[0], rs[1]), judgeEq9(every, rs[0], rs[1])
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ePow %g, scale %g: the minima give\n%+v\nevery case gives\n%+v", rs[0], rs[1], got, want)
		}
	}
}
