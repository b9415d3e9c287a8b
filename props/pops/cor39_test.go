package pops

import "routecheck/props"
import "testing"

// TestUpperQuantile: the empirical (1−q)-quantile leaves at most a
// fraction q of the sample above it (hand-computed cases).
func TestUpperQuantile(t *testing.T) {
	xs := []float64{5, 1, 9, 3, 7, 2, 8, 4, 6, 10} // 1..10
	for _, c := range []struct{ q, want float64 }{{0.5, 5}, {0.25, 8}, {0.1, 9}, {0.05, 10}, {0, 10}, {1.0 / 64, 10}} {
		if got := upperQuantile(xs, c.q); got != c.want {
			t.Errorf("q = %g: %g, want %g", c.q, got, c.want)
		}
	}
}

// TestCor39JudgesRunsNotMeans is issue 9 item 2: at d = 16g, g = 4 the mean
// slot count is above the bound (heavy tail) while the claim is about the
// fraction of runs; the verdict must come from that fraction, with slack
// reported and the halved bound caught.
func TestCor39JudgesRunsNotMeans(t *testing.T) {
	cs, _ := props.Claims("^pops/cor-3.9/slots$")
	r := props.Run(cs[0], props.Env{Budget: props.Small, Seed: props.DefaultSeed})
	if r.Slack == nil || r.Caught() != 1 || r.Verdict != props.Holds {
		t.Fatalf("verdict %s, slack %v, caught %d: %s", r.Verdict, r.Slack, r.Caught(), r.Evidence)
	}
}
