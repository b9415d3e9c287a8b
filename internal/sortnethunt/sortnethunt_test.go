package sortnethunt

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/models/perm"
)

// A hunt on a network that does not sort (AKS family, one matching per
// halver: it misplaces on most inputs) saves a case that replays through
// the model's Apply and the plain loop alike; a tampered value is not
// reproduced. On Batcher's network, which sorts, the hunt finds nothing
// (the 0-1 principle: Batcher's networks sort every input).
func TestHuntReplayRoundTrip(t *testing.T) {
	c := hunttest.Run(t, "sortnet-unsorted", hunt.Options{Seed: 2, Iters: 60}, "--n", "64", "--d", "1")
	if c.Value == 0 || c.RandomBest == nil || c.Evaluations != 60 {
		t.Fatalf("aks-expander d = 1: value %g, random %v, evaluations %d", c.Value, c.RandomBest, c.Evaluations)
	}
	if rep := hunttest.RoundTrip(t, c); !strings.Contains(rep, "model Apply leaves") {
		t.Errorf("report %q", rep)
	}
	for _, nw := range []string{"oddeven", "bitonic"} {
		c := hunttest.Run(t, "sortnet-unsorted", hunt.Options{Seed: 2, Iters: 60}, "--network", nw, "--n", "48")
		if c.Value != 0 || c.RandomBest == nil || *c.RandomBest != 0 {
			t.Errorf("%s sorts, yet the hunt reports %g misplaced (random %v)", nw, c.Value, c.RandomBest)
		}
		hunttest.RoundTrip(t, c)
	}
}

// The target runs `sortnet --climb`'s climb: same stream, same input
// (climbing by hand here with Climb, as sortnet.go does).
func TestSameClimbAsSortnet(t *testing.T) {
	nw, err := Build("aks-expander", 128, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := Climb(nw, 9, 80)
	c := hunttest.Run(t, "sortnet-unsorted", hunt.Options{Seed: 9, Iters: 80}, "--n", "128", "--d", "2", "--net-seed", "5")
	var in Instance
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		t.Fatal(err)
	}
	if c.Value != float64(want.Misplaced) || !slices.Equal(in.Input, want.Input) {
		t.Errorf("hunt %g misplaced, climb %d", c.Value, want.Misplaced)
	}
}

// With a deadline the climb runs in chunks until it passes; it still
// returns a valid case, and the baseline matches the evaluations made.
func TestDeadline(t *testing.T) {
	c := hunttest.Run(t, "sortnet-unsorted", hunt.Options{Seed: 1, Iters: 100_000_000, Deadline: time.Now().Add(200 * time.Millisecond)}, "--n", "64", "--d", "1")
	if c.Evaluations < 256 || c.Evaluations >= 100_000_000 || c.RandomBest == nil {
		t.Errorf("evaluations %d, random %v", c.Evaluations, c.RandomBest)
	}
	hunttest.RoundTrip(t, c)
}

// The saved cases replay.
func TestSavedCases(t *testing.T) {
	hunttest.ReplaySaved(t, filepath.Join("..", "..", "testdata", "hunt", "sortnet-*.json"))
}

// The small saved case is what its command gives, and there the climb
// beats random sampling at the same evaluations (observed: 47 misplaced
// against 43 at n = 1024, d = 4, 500 evaluations; the climb piles up the
// failures of a network that misplaces now and then, see hillclimb's
// package comment).
func TestSavedCaseRerun(t *testing.T) {
	c, _ := hunttest.Rerun(t, "sortnet-unsorted-aks-expander-n1024-d4-small.json", "sortnet-unsorted", hunt.Options{Seed: 1, Iters: 500}, "--n", "1024", "--d", "4")
	if c.RandomBest == nil {
		t.Fatalf("no random baseline: %+v", c)
	}
	if !(c.Value > *c.RandomBest) {
		t.Errorf("hunted %g, random %g", c.Value, *c.RandomBest)
	}
}

// Bad instances and metrics are refused with the reason.
func TestReplayRejectsBadInstances(t *testing.T) {
	for _, tc := range []struct {
		in     Instance
		metric string
		want   string
	}{
		{Instance{Network: "oddeven", N: 4, Input: []int32{0, 1, 1, 3}}, metric, "input"},
		{Instance{Network: "oddeven", N: 4, Input: []int32{0, 1, 2}}, metric, "n = 4"},
		{Instance{Network: "shell", N: 4, Input: perm.Identity(4)}, metric, "unknown"},
		{Instance{Network: "aks-expander", N: 4, D: 0, Input: perm.Identity(4)}, metric, "d = 0"},
		{Instance{Network: "oddeven", N: 4, Input: perm.Identity(4)}, "steps", "metric"},
	} {
		raw, _ := json.Marshal(tc.in)
		if _, _, err := hunt.Replay(hunt.Case{Kind: "sortnet-input", Metric: tc.metric, Instance: raw}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Bad flags get an error naming the flag.
func TestBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "sortnet-unsorted", []string{"--network", "shell"}, []string{"--n", "1"}, []string{"--n", "8192"}, []string{"--d", "0"}, []string{"--d", "65"})
	if _, err := hunttest.Hunt(t, "sortnet-unsorted", hunt.Options{Seed: 1, Iters: 0}); err == nil || !strings.HasPrefix(err.Error(), "--iters") {
		t.Errorf("--iters 0: error %v", err)
	}
}
