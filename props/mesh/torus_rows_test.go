package mesh

import (
	"errors"
	"testing"

	amesh "routecheck/algos/mesh"
	"routecheck/props"
)

// torusBoundRows judges each case as soon as it is routed: a case that
// ends the check (a found excess) is reported even when routing a later
// family would fail, and that later case is never routed. Before, every
// family of a size was routed first, so the later routing error turned
// the found excess into inconclusive.
func TestTorusBoundRowsJudgesAsRouted(t *testing.T) {
	calls := 0
	route := func(n int, dst [][]amesh.Dest) (amesh.KKResult, error) {
		calls++
		if calls > 1 {
			return amesh.KKResult{}, errors.New("planted routing error")
		}
		return torusRun(n, dst, true, torusOneWay)
	}
	label := func(int, int, float64) string { return "" }
	found := func(n, k int, b float64, c torusCase, _, _ []string) (string, *props.Outcome) {
		return "", &props.Outcome{Verdict: props.Holds, Evidence: "found at the first case"}
	}
	never := func([]string) props.Outcome { return props.Outcome{Verdict: props.Violated} }
	o := torusBoundRowsBy(props.Env{Budget: props.Small, Seed: 1}, route, label, found, never)
	if o.Verdict != props.Holds || calls != 1 {
		t.Errorf("verdict %v (%s) after %d routings, want holds after 1", o.Verdict, o.Evidence, calls)
	}
	// A routing error before anything is found is inconclusive.
	calls = 1
	pass := func(n, k int, b float64, c torusCase, _, _ []string) (string, *props.Outcome) { return "", nil }
	if o := torusBoundRowsBy(props.Env{Budget: props.Small, Seed: 1}, route, label, pass, never); o.Verdict != props.Inconclusive {
		t.Errorf("routing error first: verdict %v (%s), want inconclusive", o.Verdict, o.Evidence)
	}
}
