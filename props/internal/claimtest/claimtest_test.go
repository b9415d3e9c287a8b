package claimtest

import (
	"slices"
	"testing"

	"routecheck/internal/tbrecord"
	"routecheck/props"
)

// TestSays: Says passes an outcome with the verdict and every word, and
// fails once for a wrong verdict and once per missing word.
func TestSays(t *testing.T) {
	o := props.Outcome{Verdict: props.Inconclusive, Evidence: "cannot be checked: 10.0 dB, 5 slots"}
	for _, tc := range []struct {
		name  string
		want  props.Verdict
		words []string
		errs  []string
	}{
		{"all there", props.Inconclusive, []string{"cannot be checked", "10.0 dB", "5 slots"}, nil},
		{"wrong verdict", props.Holds, []string{"10.0 dB"}, []string{"c: verdict inconclusive, want holds: " + o.Evidence}},
		{"missing words", props.Inconclusive, []string{"10.0 dB", "6 slots", "ps"}, []string{
			`c: evidence misses "6 slots": ` + o.Evidence, `c: evidence misses "ps": ` + o.Evidence}},
	} {
		r := tbrecord.New(t)
		Says(r, "c", o, tc.want, tc.words...)
		if !slices.Equal(r.Errs, tc.errs) {
			t.Errorf("%s: errors %q, want %q", tc.name, r.Errs, tc.errs)
		}
	}
}
