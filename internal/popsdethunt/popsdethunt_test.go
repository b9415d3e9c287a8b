package popsdethunt

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/models/perm"
)

// On sorting networks (Batcher's, by the 0-1 principle; odd-even
// transposition) Corollary 2.4 gives exactly 1 for every permutation, so
// the hunt and the random baseline both find 1; on an AKS-family network
// with one matching per halver, which does not sort, packets are left
// undelivered (> 1). Every case survives save, load and replay, where the
// router's placement is compared with the network's own output.
func TestHuntReplayRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		sorts bool
	}{
		{[]string{"--d", "3", "--g", "4", "--network", "oddeven"}, true},
		{[]string{"--d", "1", "--g", "8", "--network", "bitonic"}, true},
		{[]string{"--d", "5", "--g", "2", "--network", "oddeven-transposition"}, true},
		{[]string{"--d", "4", "--g", "4", "--network", "aks-expander", "--halver-d", "1"}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c := hunttest.Run(t, "pops-sort-slots", hunt.Options{Seed: 4, Iters: 30}, append(tc.args, "--samples", "8")...)
			if c.RandomBest == nil {
				t.Fatal("no random baseline")
			}
			if tc.sorts && (c.Value != 1 || *c.RandomBest != 1) {
				t.Errorf("a sorting network: hunted %g, random %g, want 1 and 1", c.Value, *c.RandomBest)
			}
			if !tc.sorts && !(c.Value > 1) {
				t.Errorf("a network that does not sort: hunted %g, want > 1", c.Value)
			}
			if rep := hunttest.RoundTrip(t, c); !strings.Contains(rep, "equals the network's output: true") {
				t.Errorf("router and network disagree:\n%s", rep)
			}
		})
	}
}

// The saved cases replay.
func TestSavedCases(t *testing.T) {
	hunttest.ReplaySaved(t, filepath.Join("..", "..", "testdata", "hunt", "pops-sort-slots-*.json"))
}

// The small saved case is what its command gives, and there the hunt
// beats random sampling at the same evaluations (observed: 25 against 23,
// i.e. 24 undelivered packets of 32 against 22).
func TestSavedCaseRerun(t *testing.T) {
	c, _ := hunttest.Rerun(t, "pops-sort-slots-d4-g8-aks-expander-small.json", "pops-sort-slots", hunt.Options{Seed: 1, Iters: 300}, "--network", "aks-expander", "--halver-d", "2", "--d", "4", "--g", "8", "--shrink-evals", "-1") // saved before the hunt shrank
	if !(c.Value > *c.RandomBest) {
		t.Errorf("hunted %g, random %g", c.Value, *c.RandomBest)
	}
}

// Bad instances are refused with the reason.
func TestReplayRejectsBadInstances(t *testing.T) {
	for _, tc := range []struct {
		in   Instance
		want string
	}{
		{Instance{D: 2, G: 2, Network: "oddeven", Perm: []int32{0, 1, 1, 3}}, "perm"},
		{Instance{D: 2, G: 2, Network: "oddeven", Perm: []int32{0, 1, 2}}, "n = d·g = 4"},
		{Instance{D: 2, G: 2, Network: "shell", Perm: perm.Identity(4)}, "unknown"},
		{Instance{D: 0, G: 2, Network: "oddeven", Perm: nil}, "d = 0"},
	} {
		raw, _ := json.Marshal(tc.in)
		if _, _, err := hunt.Replay(hunt.Case{Kind: "pops-sort-perm", Metric: metric, Instance: raw}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Bad flags get an error naming the flag.
func TestBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "pops-sort-slots", []string{"--d", "0"}, []string{"--g", "0"}, []string{"--g", "1000"}, []string{"--network", "shell"}, []string{"--samples", "-1"})
	hunttest.BadFlags(t, "pops-sort-slots", []string{"--network", "aks-expander", "--halver-d", "0"})
}

// The hunt shrinks its best permutation. On a sorting network every
// permutation has value 1 (Corollary 2.4), so every fixing swap keeps it
// and the shrunk case is the identity — the core known by hand. On an
// AKS-family network that does not sort, the shrunk permutation's value,
// recomputed through the router, is at least the case's and no fixing swap
// keeps it.
func TestHuntShrinksToLocallyMinimal(t *testing.T) {
	c := hunttest.Run(t, "pops-sort-slots", hunt.Options{Seed: 4, Iters: 30}, "--d", "3", "--g", "4", "--network", "oddeven", "--samples", "8")
	hunttest.Shrunk(t, c)
	var in Instance
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.Perm, perm.Identity(12)) || c.Value != 1 {
		t.Errorf("sorting network: shrunk to %v (value %g), want the identity (1)", in.Perm, c.Value)
	}
	c = hunttest.Run(t, "pops-sort-slots", hunt.Options{Seed: 4, Iters: 30}, "--d", "4", "--g", "4", "--network", "aks-expander", "--halver-d", "1", "--samples", "8")
	hunttest.Shrunk(t, c)
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		t.Fatal(err)
	}
	ro, err := newRouter(in)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(p []int32) float64 {
		v, _, err := ro.value(p)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	mv := hunttest.LocallyMinimalPerm(t, in.Perm, eval, hunttest.Floor(t, c))
	if !(c.Value > 1) {
		t.Errorf("aks-expander, one matching per halver: value %g, want > 1 after shrinking too", c.Value)
	}
	t.Logf("aks-expander: %d packets not fixed points; %s", mv, c.FoundBy)
}
