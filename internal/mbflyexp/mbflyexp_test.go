package mbflyexp

import (
	"context"
	"path/filepath"
	"testing"

	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
)

// mbfly-time at N ≤ 64: every cell runs, every run needs at least
// log₂ N + 1 iterations (stage s sends only in iterations of parity s and
// iteration 1 is odd, so stage 0 first sends in iteration 2 and the last
// transition happens in iteration log₂ N + 1 at the earliest), no buffer
// exceeds L, and at d = 32 no run
// exceeds Theorem 3.1's bound; the same seed gives the same rows whatever
// the worker count.
func TestTimeSmall(t *testing.T) {
	e, err := experiment.Lookup("mbfly-time")
	if err != nil {
		t.Fatal(err)
	}
	cells, skipped := e.Cells(64)
	if len(cells) != 2*(len(Ds)+1) || len(skipped) != 2 {
		t.Fatalf("%d cells, %d skipped", len(cells), len(skipped))
	}
	run := func(workers int) []experiment.Row {
		o, err := experiment.Execute(context.Background(), experiment.Plan{Exp: e, Cells: cells, Runs: 3, Seed: 5, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return experiment.Rows(e, o)
	}
	rows := run(1)
	for _, r := range rows {
		n := param(r.Cell, "n")
		lb := L
		if explicit(r.Cell) {
			lb = LExplicit
		}
		if r.Extra["iter_minus_logn"] < 1 || r.Extra["max_buffer"] > float64(lb) {
			t.Errorf("%s: %v", r.Cell.Key(), r.Extra)
		}
		if r.Paper != nil && *r.Ours.Max > *r.Paper.Max {
			t.Errorf("N=%d: %v steps/log N over the bound %v", n, *r.Ours.Max, *r.Paper.Max)
		}
	}
	rows2 := run(2)
	for i := range rows {
		if *rows[i].Ours.Mean != *rows2[i].Ours.Mean {
			t.Fatal("rows depend on the worker count")
		}
	}
	ch := e.Charts(rows)
	if len(ch) != 1 {
		t.Fatalf("%d charts", len(ch))
	}
	if err := plotting.Write(filepath.Join(t.TempDir(), ch[0].File), ch[0].Chart); err != nil {
		t.Fatal(err)
	}
}
