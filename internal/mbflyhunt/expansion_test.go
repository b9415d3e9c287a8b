package mbflyhunt

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/models/expander"
)

// exactWorst is the oracle: max over both concentrators and 1 ≤ x ≤ k of
// β·x / (fewest neighbours of x inputs), by exact enumeration.
func exactWorst(t *testing.T, m, d int, netSeed uint64, k int, beta float64) float64 {
	t.Helper()
	sp := Splitter(m, d, netSeed)
	w := 0.0
	for _, g := range []expander.Graph{sp.Upper, sp.Lower} {
		min, _, err := expander.MinNeighbours(g, k)
		if err != nil {
			t.Fatal(err)
		}
		for x := 1; x <= k; x++ {
			w = math.Max(w, beta*float64(x)/float64(min[x]))
		}
	}
	return w
}

// On splitters small enough to enumerate, the hunted set never claims
// more than the exact worst set allows (it cannot: its |Γ(X)| is real),
// and on these networks and seed it reaches the exact worst (observed:
// with 1000 moves; at 300 moves the greedy start alone fell short on two
// of the four, and annealing without the greedy start can sit on a
// plateau of sets with |Γ(X)| = |X|). The case survives save, load and
// replay.
func TestExpansionAgainstEnumeration(t *testing.T) {
	for _, tc := range []struct{ m, d, inv int }{{64, 3, 16}, {64, 2, 16}, {32, 4, 8}, {64, 4, 32}} {
		c := hunttest.Run(t, "mbfly-expansion", hunt.Options{Seed: 2, Iters: 1000}, "--m", itoa(tc.m), "--d", itoa(tc.d), "--alpha-inv", itoa(tc.inv))
		want := exactWorst(t, tc.m, tc.d, 1, tc.m/tc.inv, 7)
		if c.Value > want+1e-9 {
			t.Errorf("m=%d d=%d: hunted %g beyond the exact worst %g", tc.m, tc.d, c.Value, want)
		} else if c.Value < want-1e-9 {
			t.Errorf("m=%d d=%d: hunted %g, exact worst %g (the search missed it)", tc.m, tc.d, c.Value, want)
		}
		if c.RandomBest == nil || *c.RandomBest > want+1e-9 {
			t.Errorf("random baseline %v beyond the exact worst %g", c.RandomBest, want)
		}
		if rep := hunttest.RoundTrip(t, c); !strings.Contains(rep, "exact: the fewest neighbours") {
			t.Errorf("no exact comparison in the report:\n%s", rep)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The small saved case is what its command gives, and there the hunt
// beats random sets at the same evaluations (observed: 5.25 against 4.2,
// the worst 3-set has 4 neighbours where random 3-sets have 5 or more).
func TestExpansionSavedCaseRerun(t *testing.T) {
	c, _ := hunttest.Rerun(t, "mbfly-expansion-m64-d3-a16-small.json", "mbfly-expansion", hunt.Options{Seed: 1, Iters: 300}, "--m", "64", "--d", "3", "--alpha-inv", "16")
	if !(c.Value > *c.RandomBest) {
		t.Errorf("hunted %g, random %g", c.Value, *c.RandomBest)
	}
}

// Sets outside the definition are refused with the reason.
func TestExpansionRejectsBadInstances(t *testing.T) {
	good := SetInstance{M: 64, D: 3, NetSeed: 1, AlphaInv: 16, Beta: 7, Side: "upper", Set: []int32{1, 2}}
	for _, tc := range []struct {
		mod  func(*SetInstance)
		want string
	}{
		{func(in *SetInstance) { in.Set = []int32{1, 2, 3, 4, 5} }, "⌊m/alpha_inv⌋ = 4"},
		{func(in *SetInstance) { in.Set = []int32{1, 1} }, "repeated"},
		{func(in *SetInstance) { in.Set = nil }, "1 ≤ |X|"},
		{func(in *SetInstance) { in.Side = "left" }, "side"},
		{func(in *SetInstance) { in.M = 63 }, "m = 63"},
		{func(in *SetInstance) { in.AlphaInv = 128 }, "alpha_inv"},
		{func(in *SetInstance) { in.D = 129 }, "d = 129: must be in [1, 128]"},
	} {
		in := good
		tc.mod(&in)
		raw, _ := json.Marshal(in)
		if _, _, err := hunt.Replay(hunt.Case{Kind: "mbfly-splitter-set", Metric: metricExpansion, Instance: raw}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", in, err, tc.want)
		}
	}
}

// TestExpansionHuntsAtDegree102 runs the target at §4.3's explicit degree
// d = 102 (refused while the limit was 64): with m = 256 and |X| ≤ 8 a set
// expands by at most 102 per input into 128 outputs, so the metric
// β|X|/|Γ(X)| is at least β/102 > 0 and the returned value must say so.
func TestExpansionHuntsAtDegree102(t *testing.T) {
	tg, _ := hunt.LookupTarget("mbfly-expansion")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	tg.DefineFlags(fs)
	if err := fs.Parse([]string{"--m", "256", "--d", "102", "--samples", "4", "--starts", "1", "--families=false"}); err != nil {
		t.Fatal(err)
	}
	c, err := tg.Hunt(context.Background(), hunt.Options{Seed: 1, Iters: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !(c.Value >= 7.0/102) || c.Value > 7 {
		t.Errorf("value %g: want in [β/102, β] = [%g, 7]", c.Value, 7.0/102)
	}
}

// Bad flags get an error naming the flag.
func TestExpansionBadFlags(t *testing.T) {
	hunttest.BadFlags(t, "mbfly-expansion", []string{"--m", "7"}, []string{"--m", "8192"}, []string{"--d", "0"}, []string{"--d", "129"}, []string{"--alpha-inv", "512"}, []string{"--beta", "0"}, []string{"--samples", "-1"}, []string{"--starts", "0"})
}
