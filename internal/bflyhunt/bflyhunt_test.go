package bflyhunt

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
)

// Every target's case survives save, load and replay (engine and step
// model agree), reports the random baseline, and a tampered value is not
// reproduced.
func TestHuntReplayRoundTrip(t *testing.T) {
	for _, tc := range []struct{ name, rename string }{{"bfly-latency", "true"}, {"bfly-latency", "false"}, {"bfly-queue", "false"}} {
		t.Run(tc.name+"/rename="+tc.rename, func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: 3, Iters: 60}, "--logn", "4", "--r", "1", "--samples", "8", "--evals", "2", "--rename="+tc.rename)
			if !strings.Contains(c.FoundBy, "random permutations") {
				t.Errorf("no random baseline in found_by: %q", c.FoundBy)
			}
			if rep := hunttest.RoundTrip(t, c); strings.Contains(rep, "agree false") {
				t.Fatalf("engine and step model disagree:\n%s", rep)
			}
		})
	}
}

// The saved cases replay.
func TestSavedCases(t *testing.T) {
	hunttest.ReplaySaved(t, filepath.Join("..", "..", "testdata", "hunt", "bfly-*.json"))
}

// Instances that are not permutations are refused with the reason.
func TestReplayRejectsBadInstances(t *testing.T) {
	in := Instance{LogN: 2, Perm: []int32{0, 1, 1, 3}, Seeds: []uint64{1}}
	raw, _ := json.Marshal(in)
	if _, _, err := hunt.Replay(hunt.Case{Kind: "bfly-perm", Metric: "mean largest queue", Instance: raw}); err == nil {
		t.Errorf("a repeated target was accepted")
	}
	in.Perm = []int32{0, 1, 2}
	raw, _ = json.Marshal(in)
	if _, _, err := hunt.Replay(hunt.Case{Kind: "bfly-perm", Metric: "mean largest queue", Instance: raw}); err == nil || !strings.Contains(err.Error(), "N = 4") {
		t.Errorf("error %v, want the size", err)
	}
}

// Bad flags get an error naming the flag.
func TestBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "bfly-latency", []string{"--logn", "1"}, []string{"--r", "9"}, []string{"--evals", "0"}, []string{"--samples", "-1"}, []string{"--shrink-evals", "-2"})
}

// Each target shrinks its best permutation: the saved one is a permutation
// whose metric, recomputed here from the engine, is at least the case's
// value, and no fixing swap keeps it there (N = 16, r = 1, 2 seeds).
func TestHuntShrinksToLocallyMinimal(t *testing.T) {
	for _, tc := range []struct{ name, rename string }{{"bfly-latency", "false"}, {"bfly-queue", "true"}} {
		t.Run(tc.name, func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: 5, Iters: 60}, "--logn", "4", "--r", "1", "--samples", "8", "--evals", "2", "--rename="+tc.rename)
			hunttest.Shrunk(t, c)
			var in Instance
			if err := json.Unmarshal(c.Instance, &in); err != nil {
				t.Fatal(err)
			}
			o := options(in.LogN, in.R)
			var e ab.Engine
			eval := func(p []int32) float64 {
				s := 0.0
				for _, sd := range in.Seeds {
					ps, err := packets(o, p, in.Rename, sd)
					if err != nil {
						t.Fatal(err)
					}
					r, err := e.Run(o, ps, maxSteps(in.LogN, in.R))
					if err != nil {
						t.Fatal(err)
					}
					if tc.name == "bfly-queue" {
						s += float64(r.MaxQueue)
					} else {
						s += float64(r.Steps) / float64(in.LogN)
					}
				}
				return s / float64(len(in.Seeds))
			}
			mv := hunttest.LocallyMinimalPerm(t, in.Perm, eval, hunttest.Floor(t, c))
			t.Logf("%s: %d packets not fixed points; %s", tc.name, mv, c.FoundBy)
		})
	}
}

// Instance.Run is one seed of the replay: over the saved cases' own seeds
// its steps (or largest queues) average to the recorded value, and an
// invalid instance is refused.
func TestInstanceRunIsTheReplay(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hunt", "bfly-*.json"))
	if len(files) == 0 {
		t.Fatal("no saved bfly cases")
	}
	for _, f := range files {
		c, err := hunt.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		var in Instance
		if err := json.Unmarshal(c.Instance, &in); err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, sd := range in.Seeds {
			r, err := in.Run(sd)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if c.Metric == "mean largest queue" {
				sum += float64(r.MaxQueue)
			} else {
				sum += float64(r.Steps) / float64(in.LogN)
			}
		}
		if got := sum / float64(len(in.Seeds)); got != c.Value {
			t.Errorf("%s: Run over the case's seeds gives %g, recorded %g", f, got, c.Value)
		}
	}
	if _, err := (Instance{LogN: 2, Perm: []int32{0, 1, 1, 3}, Seeds: []uint64{1}}).Run(1); err == nil {
		t.Error("a non-permutation ran")
	}
}

// Both targets re-run the hunted best and the random-sampling best on
// fresh seeds; the fresh mean of the saved (shrunk) case is what the
// replay, on the engine and the step model, gives on those seeds.
func TestFreshReevaluation(t *testing.T) {
	for _, name := range []string{"bfly-latency", "bfly-queue"} {
		c := hunttest.Run(t, name, hunt.Options{Seed: 2, Iters: 60}, "--logn", "4", "--samples", "8", "--evals", "4", "--fresh-runs", "30")
		if c.Fresh == nil || c.Fresh.Runs != 30 || c.Fresh.Hunted == nil || c.Fresh.Random == nil || c.Fresh.Saved == nil {
			t.Fatalf("%s: fresh %+v", name, c.Fresh)
		}
		if c.Fresh.Saved.Search != c.Value || c.Fresh.Random.Search != *c.RandomBest || c.Fresh.Hunted.Search != *c.ShrinkFloor {
			t.Errorf("%s: search values %+v; case %g, random best %g, floor %g", name, c.Fresh, c.Value, *c.RandomBest, *c.ShrinkFloor)
		}
		hunttest.FreshByReplay(t, c, 1)
	}
}
