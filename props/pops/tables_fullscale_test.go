package pops

import (
	"fmt"
	"strings"
	"testing"

	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// TestFullScaleOnlyCellsHadNoPower guards fullScaleOnly: a cell may be left
// unsimulated below the large budget only if every one of its four claims
// was recorded inconclusive at both the small and the default budget when
// it was simulated there (recordedTable, written from those runs). Lowering
// fullScaleOnly to 2^22 fails here: those cells' Table I A and Table II μ
// and max claims are consistent at the default budget. (Since the cells are
// no longer simulated below large, their recorded verdicts are what the
// not-simulated path gives: this test guards the cut-off, and rests on the
// verdicts recorded when the cells were run, on 2026-11-24.)
func TestFullScaleOnlyCellsHadNoPower(t *testing.T) {
	cells := 0
	for _, c := range popspaper.Cells() {
		if !c.HasPaper() || c.N < fullScaleOnly {
			continue
		}
		cells++
		for _, stat := range []string{"1/A", "2/mu", "2/sigma", "2/max"} {
			key := fmt.Sprintf("%s/n=%d/d=%dg", stat, c.N, c.Ratio)
			v, ok := recordedTable[key]
			if !ok {
				t.Errorf("%s: no recorded verdict", key)
				continue
			}
			if v.Small != props.Inconclusive || v.Default != props.Inconclusive {
				t.Errorf("%s is recorded %s (small) / %s (default): a cell with a claim that has power must be simulated", key, v.Small, v.Default)
			}
		}
	}
	if cells != 3 {
		t.Errorf("%d printed cells at n ≥ %d, want the three of n = 2^24", cells, fullScaleOnly)
	}
}

// TestFullScaleOnlyNotSimulated: below the large budget the claims of those
// cells say why they are inconclusive without simulating (the check would
// take seconds and hundreds of MB otherwise), and the large budget still
// simulates 100 runs.
func TestFullScaleOnlyNotSimulated(t *testing.T) {
	for _, b := range []props.Budget{props.Small, props.Default} {
		if r := TableRuns(b, fullScaleOnly); r != 0 {
			t.Errorf("TableRuns(%s, 2^24) = %d, want 0", b, r)
		}
		cs, err := props.Claims("^pops/table-1/A/n=16777216/d=16g$")
		if err != nil || len(cs) != 1 {
			t.Fatalf("claim pops/table-1/A/n=16777216/d=16g: %d found, %v", len(cs), err)
		}
		o := cs[0].Check(props.Env{Budget: b, Seed: 1})
		if o.Verdict != props.Inconclusive || !strings.HasPrefix(o.Evidence, "not simulated at budget "+b.String()) {
			t.Errorf("budget %s: %s %q, want inconclusive, not simulated", b, o.Verdict, o.Evidence)
		}
	}
	if r := TableRuns(props.Large, fullScaleOnly); r != popspaper.Runs {
		t.Errorf("TableRuns(large, 2^24) = %d, want %d", r, popspaper.Runs)
	}
	if r := TableRuns(props.Default, fullScaleOnly/4); r != 16 {
		t.Errorf("TableRuns(default, 2^22) = %d, want 2^26/2^22 = 16", r)
	}
}
