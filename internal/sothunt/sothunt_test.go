package sothunt

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
)

// Every target's case survives save, load and replay (engine and local
// router agree), reports the random baseline, and a tampered value is not
// reproduced.
func TestHuntReplayRoundTrip(t *testing.T) {
	for _, tc := range []struct{ name, alg string }{{"sot-time", "greedy-a"}, {"sot-time", "greedy-c"}, {"sot-deflections", "greedy-b"}, {"sot-time", "scheduled"}} {
		t.Run(tc.name+"/"+tc.alg, func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: 3, Iters: 60}, "--n", "4", "--h", "4", "--samples", "8", "--evals", "2", "--algorithm", tc.alg)
			if !strings.Contains(c.FoundBy, "random h-relations") {
				t.Errorf("no random baseline in found_by: %q", c.FoundBy)
			}
			if rep := hunttest.RoundTrip(t, c); strings.Contains(rep, "agree false") {
				t.Fatalf("engine and local router disagree:\n%s", rep)
			}
		})
	}
}

// The saved cases replay; the hunted value is at least the random
// baseline recorded beside it.
func TestSavedCases(t *testing.T) {
	hunttest.ReplaySaved(t, filepath.Join("..", "..", "testdata", "hunt", "sot-*.json"))
}

// Instances that are not h-relations, or use a livelocking reading, are
// refused with the reason.
func TestReplayRejectsBadInstances(t *testing.T) {
	good := Instance{Algorithm: "greedy-a", N: 4, H: 2, Dest: [][]int32{{1, 2}, {2, 3}, {3, 0}, {0, 1}}, Seeds: []uint64{1}}
	bad := good
	bad.Dest = [][]int32{{1, 1}, {2, 3}, {3, 0}, {0, 0}} // 0 receives 3, 2 receives 1
	lit := good
	lit.Algorithm = "greedy-a-literal"
	long := good
	long.Dest = [][]int32{{1, 2, 0}, {2, 3}, {3}, {0, 1}} // 0 sends 3 > h
	for _, tc := range []struct {
		in   Instance
		want string
	}{{bad, "not an h-relation"}, {lit, "livelock"}, {long, "not an h-relation"}} {
		raw, _ := json.Marshal(tc.in)
		_, _, err := hunt.Replay(hunt.Case{Kind: "sot-relation", Metric: "mean steps / h", Instance: raw})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	raw, _ := json.Marshal(good)
	if _, ok, err := hunt.Replay(hunt.Case{Kind: "sot-relation", Metric: "mean steps / h", Value: 0, Instance: raw}); err != nil || ok {
		t.Errorf("good instance with a wrong value: ok %v err %v", ok, err)
	}
	// At most h (the paper's h-relation): a shrunk relation with fewer
	// packets replays.
	part := good
	part.Dest = [][]int32{{1}, {}, {3, 0}, {0}}
	raw, _ = json.Marshal(part)
	if _, _, err := hunt.Replay(hunt.Case{Kind: "sot-relation", Metric: "mean deflections / packet", Instance: raw}); err != nil {
		t.Errorf("a relation with fewer than h packets per processor: %v", err)
	}
}

// Bad flags get an error naming the flag.
func TestBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "sot-time", []string{"--n", "1"}, []string{"--h", "0"}, []string{"--algorithm", "scheduled-literal"}, []string{"--algorithm", "nope"}, []string{"--evals", "0"})
}

// Every target shrinks its best relation by removing packets: the saved
// relation is in scope (at most h to send and receive per processor), what
// the shrink keeps (steps / h; for deflections the total, not the
// per-packet mean, whose divisor falls as packets go), recomputed here on
// the engine, is at least the case's shrink_floor, and removing any one
// packet brings it below. For sot-deflections the floor is the hunted
// relation's total (the hunted mean times its n·h packets).
func TestHuntShrinksToLocallyMinimal(t *testing.T) {
	for _, tc := range []struct{ name, alg string }{{"sot-time", "greedy-a"}, {"sot-time", "scheduled"}, {"sot-deflections", "greedy-c"}} {
		t.Run(tc.name+"/"+tc.alg, func(t *testing.T) {
			c := hunttest.Run(t, tc.name, hunt.Options{Seed: 3, Iters: 60}, "--n", "4", "--h", "4", "--samples", "8", "--evals", "2", "--algorithm", tc.alg)
			hunttest.Shrunk(t, c)
			var in Instance
			if err := json.Unmarshal(c.Instance, &in); err != nil {
				t.Fatal(err)
			}
			alg, err := in.validate()
			if err != nil {
				t.Fatal(err)
			}
			eval := func(d [][]int32) float64 {
				s := 0.0
				for _, sd := range in.Seeds {
					r, err := runEngine(alg, in.N, in.H, d, sd, true)
					if err != nil {
						t.Fatal(err)
					}
					if c.Metric == "mean steps / h" {
						s += float64(r.Steps) / float64(in.H)
					} else {
						s += float64(r.Deflections)
					}
				}
				return s / float64(len(in.Seeds))
			}
			fl := hunttest.Floor(t, c)
			if c.Metric != "mean steps / h" {
				if hunted := fl / float64(in.N*in.H); !strings.Contains(c.FoundBy, fmt.Sprintf("hunted %.6g vs", hunted)) {
					t.Errorf("shrink_floor %g is not the hunted mean × %d packets: found_by %q", fl, in.N*in.H, c.FoundBy)
				}
				if got := eval(in.Dest) / float64(hunt.PacketsLists(in.Dest)); math.Abs(got-c.Value) > 1e-9 {
					t.Errorf("value %g, want the shrunk relation's deflections per packet %g", c.Value, got)
				}
			}
			k := hunttest.LocallyMinimalSublists(t, in.Dest, eval, fl)
			t.Logf("%d packets; %s", k, c.FoundBy)
		})
	}
}

// The saved shrunk case is what the default sot-time hunt gives (seed 1,
// 2000 iterations): a relation with fewer than n·h packets (processor 7
// sends none) that still takes the hunted 63 steps, replayed by
// TestSavedCases on the engine and the local router.
func TestSavedShrunkCaseRerun(t *testing.T) {
	c, saved := hunttest.Rerun(t, "sot-time-greedy-a-n8-h8-shrunk.json", "sot-time", hunt.Options{Seed: 1, Iters: 2000})
	if c.FoundBy != saved.FoundBy {
		t.Fatalf("rerun found_by %s, saved %s", c.FoundBy, saved.FoundBy)
	}
	a, err := hunt.DecodeInstance[Instance](saved)
	if err != nil {
		t.Fatal(err)
	}
	if k := hunt.PacketsLists(a.Dest); k >= a.N*a.H || c.Value != 63.0/8 {
		t.Errorf("saved case: %d packets of %d, value %g (want 63/8)", k, a.N*a.H, c.Value)
	}
}

// A deterministic algorithm (greedy-a, scheduled) gives on fresh seeds
// exactly its value on the search's seed, with standard error 0; a
// randomized protocol's fresh mean of the saved case is what the replay
// (engine and local router) gives on those seeds.
func TestFreshReevaluation(t *testing.T) {
	for _, alg := range []string{"greedy-a", "scheduled"} {
		c := hunttest.Run(t, "sot-time", hunt.Options{Seed: 3, Iters: 40}, "--n", "4", "--h", "4", "--samples", "8", "--algorithm", alg, "--fresh-runs", "20")
		if c.Fresh == nil || c.Fresh.Hunted == nil || c.Fresh.Random == nil || c.Fresh.Saved == nil {
			t.Fatalf("%s: fresh %+v", alg, c.Fresh)
		}
		for name, v := range map[string]hunt.FreshValue{"hunted": *c.Fresh.Hunted, "random": *c.Fresh.Random, "saved": *c.Fresh.Saved} {
			if v.Fresh != v.Search || v.SE != 0 {
				t.Errorf("%s %s: %+v, want fresh = search, SE 0", alg, name, v)
			}
		}
	}
	c := hunttest.Run(t, "sot-deflections", hunt.Options{Seed: 3, Iters: 40}, "--n", "4", "--h", "4", "--samples", "8", "--evals", "2", "--algorithm", "greedy-c", "--fresh-runs", "20")
	if c.Fresh == nil || c.Fresh.Random == nil || c.Fresh.Random.Search != *c.RandomBest {
		t.Fatalf("greedy-c: fresh %+v", c.Fresh)
	}
	hunttest.FreshByReplay(t, c, 1)
}
