package sot

import (
	"slices"
	"strings"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// The curve claims read runs 0 … 19 from the approaches-fresh claim's cell
// and 20 … 39 from a cell of their own (sotCostRange); the joined costs must
// be the runs a single 40-run loop gives, recomputed here on the step model
// (asot.Route) with the relations and coins of sotCostRuns — a range that
// restarted at run 0, or a memo keyed without the range's start, would
// repeat runs.
func TestSotCurveCostsAreOneLoop(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 11}
	n, h, runs, shared := 4, 8, 6, 2
	var want []float64
	for r := range runs {
		rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0xf45, uint64(n), uint64(h), uint64(r)))
		res, _, err := asot.Route(asot.GreedyA, n, rel, seeds.Rand(env.Seed, 0xf45, uint64(n), uint64(h), uint64(r), 1), asot.Options{})
		if err != nil || !res.Complete {
			t.Fatalf("run %d: %v %+v", r, err, res)
		}
		want = append(want, float64(res.Steps)/float64(h))
	}
	for range 2 { // the second call is served from the memo
		got, msg := sotCurveCosts(env, asot.GreedyA, n, h, runs, shared)
		if msg != "" || !slices.Equal(got, want) {
			t.Fatalf("got %v (%q), want %v", got, msg, want)
		}
	}
	if c := sotCostRange(env, asot.GreedyA, n, h, shared, runs); len(c.eff) != runs-shared {
		t.Errorf("range [%d, %d) holds %d runs", shared, runs, len(c.eff))
	}
}

// The check's verdict follows the per-doubling statistics: the real curve
// (which falls) is consistent at the small budget; the planted fault, the
// router backing off with the load (3 of 4 rounds idle at h = 8n, 7 of 8
// at 16n, so its time there is at least about 4 and 8 times h's worth of
// injections), is inconsistent; the evidence names all five slacknesses
// and labels the false-alarm rates truthfully (stats.T is two-sided).
func TestSotCurveCheckBothWays(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	claimtest.Says(t, "real", sotCurveCheck(asot.Scheduled, false)(env), props.Consistent,
		"h=1n", "h=2n", "h=4n", "h=8n", "h=16n", "mean cost T/h", "two-sided at α = 2.5e-10 per doubling, so one-sided α = 1.3e-10")
	if r := sotCurveCheck(asot.Scheduled, true)(env); r.Verdict != props.Inconsistent || !strings.Contains(r.Evidence, "backing off with the load") {
		t.Errorf("backing-off router: %s: %s", r.Verdict, r.Evidence)
	}
}
