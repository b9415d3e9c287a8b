package mbflyhunt

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// Every target's case survives save, load and replay (engine and router
// agree), carries the random baseline, and a tampered value is not
// reproduced.
func TestHuntReplayRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"mbfly-buffer", []string{"--logn", "4", "--d", "1", "--l", "2", "--samples", "8"}},
		{"mbfly-buffer", []string{"--logn", "5", "--d", "2", "--l", "3", "--samples", "4", "--restarts", "2", "--families=false"}},
		{"mbfly-steps", []string{"--logn", "4", "--samples", "4"}},
	} {
		t.Run(tc.name+"/"+strings.Join(tc.args, " "), func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: 3, Iters: 40}, tc.args...)
			if c.RandomBest == nil || c.Evaluations < 40 || !strings.Contains(c.FoundBy, "random permutations") {
				t.Errorf("no random baseline: random %v, evaluations %d, found_by %q", c.RandomBest, c.Evaluations, c.FoundBy)
			}
			if c.Value > 1 {
				t.Errorf("%s = %g > 1: the claim is broken (or the metric is)", c.Metric, c.Value)
			}
			if rep := hunttest.RoundTrip(t, c); !strings.Contains(rep, "agree true") {
				t.Fatalf("engine and router disagree:\n%s", rep)
			}
		})
	}
}

// The search's objective adds a guide below the metric's resolution: its
// integer part is the largest buffer (resp. the iterations) of a separate
// checked run of the engine, on random permutations of two networks.
func TestObjectiveKeepsTheMetric(t *testing.T) {
	for _, tc := range []struct {
		in     Instance
		metric string
	}{{Instance{LogN: 5, D: 1, L: 3, NetSeed: 2}, metricBuffer}, {Instance{LogN: 5, D: 32, L: 4, NetSeed: 1}, metricSteps}} {
		e, _, err := newEvaluator(tc.in, tc.metric)
		if err != nil {
			t.Fatal(err)
		}
		rng := seeds.Rand(5)
		for range 20 {
			p := perm.Random(e.net.N, rng)
			obj, err := e.objective(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.run(p, true)
			if err != nil {
				t.Fatal(err)
			}
			want := r.MaxBuffer
			if tc.metric == metricSteps {
				want = r.Iterations
			}
			if int(math.Floor(obj)) != want || e.metricOf(obj) != e.value(r) {
				t.Fatalf("%s on %v: objective %g, metric %g; engine %d, value %g", tc.metric, p, obj, e.metricOf(obj), want, e.value(r))
			}
		}
	}
}

// The saved cases replay.
func TestSavedCases(t *testing.T) {
	hunttest.ReplaySaved(t, filepath.Join("..", "..", "testdata", "hunt", "mbfly-*.json"))
}

// The small saved cases are what their commands give (the hunt is
// deterministic in its seed), and on those seeds the hunted value is at
// least random sampling's at the same number of evaluations. Observed, not
// guaranteed: here they tie (N = 32: a buffer of 3 of L = 4 and 9
// iterations are what random permutations reach too), and elsewhere the
// hunt can lose (see the package comment).
func TestSavedCasesRerun(t *testing.T) {
	for _, tc := range []struct {
		file, target string
		seed         uint64
		iters        int
		args         []string
	}{
		// Saved before the hunt shrank its best: --shrink-evals -1.
		{"mbfly-buffer-n5-d1-l4-small.json", "mbfly-buffer", 1, 300, []string{"--logn", "5", "--d", "1", "--l", "4", "--shrink-evals", "-1"}},
		{"mbfly-steps-n5-small.json", "mbfly-steps", 1, 300, []string{"--logn", "5", "--shrink-evals", "-1"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, _ := hunttest.Rerun(t, tc.file, tc.target, hunt.Options{Seed: tc.seed, Iters: tc.iters}, tc.args...)
			if c.RandomBest == nil || c.Value < *c.RandomBest {
				t.Errorf("hunted %g below random sampling %v", c.Value, c.RandomBest)
			}
		})
	}
}

// Instances that are not permutations, or outside the theorem's design,
// are refused with the reason; a good instance with a wrong value is not
// reproduced.
func TestReplayRejectsBadInstances(t *testing.T) {
	for _, tc := range []struct {
		in     Instance
		metric string
		want   string
	}{
		{Instance{LogN: 2, D: 1, L: 2, Perm: []int32{0, 1, 1, 3}}, metricBuffer, "perm"},
		{Instance{LogN: 2, D: 1, L: 2, Perm: []int32{0, 1, 2}}, metricBuffer, "N = 4"},
		{Instance{LogN: 2, D: 2, L: 4, Perm: []int32{0, 1, 2, 3}}, metricSteps, "design"},
		{Instance{LogN: 2, D: 1, L: 2, Perm: []int32{0, 1, 2, 3}}, "largest queue", "metric"},
	} {
		raw, _ := json.Marshal(tc.in)
		if _, _, err := hunt.Replay(hunt.Case{Kind: "mbfly-perm", Metric: tc.metric, Instance: raw}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %s: error %v, want %q", tc.in, tc.metric, err, tc.want)
		}
	}
	raw, _ := json.Marshal(Instance{LogN: 2, D: 1, L: 2, Perm: []int32{3, 2, 1, 0}})
	if _, ok, err := hunt.Replay(hunt.Case{Kind: "mbfly-perm", Metric: metricBuffer, Value: 7, Instance: raw}); err != nil || ok {
		t.Errorf("a buffer of 7·L reproduced: ok %v, err %v", ok, err)
	}
}

// Bad flags get an error naming the flag.
func TestBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "mbfly-buffer", []string{"--logn", "1"}, []string{"--logn", "9"}, []string{"--d", "0"}, []string{"--l", "33"},
		[]string{"--samples", "-1"}, []string{"--restarts", "-1"})
	hunttest.BadFlags(t, "mbfly-steps", []string{"--logn", "7"})
}

// mbfly-buffer and mbfly-steps shrink their best permutation: the saved
// one is a permutation whose metric, recomputed by a checked engine run
// (not the search's objective), is at least the shrink's floor, and no
// fixing swap keeps it there. The parameters are ones where packets stay
// moved (so the fixing swaps are tried): with L = 2 mbfly-buffer's best
// shrinks to the identity, which tests no move.
func TestHuntShrinksToLocallyMinimal(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		args []string
	}{
		{"mbfly-buffer", 1, []string{"--logn", "4", "--d", "1", "--l", "8", "--samples", "8"}},
		{"mbfly-steps", 3, []string{"--logn", "4", "--samples", "4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: tc.seed, Iters: 40}, tc.args...)
			hunttest.Shrunk(t, c)
			var in Instance
			if err := json.Unmarshal(c.Instance, &in); err != nil {
				t.Fatal(err)
			}
			e, _, err := newEvaluator(in, c.Metric)
			if err != nil {
				t.Fatal(err)
			}
			eval := func(p []int32) float64 {
				r, err := e.run(p, true)
				if err != nil {
					t.Fatal(err)
				}
				return e.value(r)
			}
			mv := hunttest.LocallyMinimalPerm(t, in.Perm, eval, hunttest.Floor(t, c))
			if mv == 0 {
				t.Errorf("shrunk to the identity: no fixing swap was checked (%s)", c.FoundBy)
			}
			t.Logf("%d packets not fixed points; %s", mv, c.FoundBy)
		})
	}
}
