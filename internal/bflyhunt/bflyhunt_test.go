package bflyhunt

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

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
	for _, args := range [][]string{{"--logn", "1"}, {"--r", "9"}, {"--evals", "0"}, {"--samples", "-1"}} {
		tg, _ := hunt.LookupTarget("bfly-latency")
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		tg.DefineFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		if _, err := tg.Hunt(context.Background(), hunt.Options{Seed: 1, Iters: 1}); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: error %v", args, err)
		}
	}
}
