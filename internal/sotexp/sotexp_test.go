package sotexp

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
)

func plan(t *testing.T, name string, maxN, runs, workers int, sh experiment.Shard) experiment.Plan {
	t.Helper()
	e, err := experiment.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := e.Cells(maxN)
	return experiment.Plan{Exp: e, Cells: cells, Runs: runs, Seed: 11, Workers: workers, Shard: sh}
}

func execute(t *testing.T, p experiment.Plan) experiment.Output {
	t.Helper()
	o, err := experiment.Execute(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// sot-fig3 at n ≤ 16: every cell runs; Greedy-a's throughput is at most one
// packet per processor and time unit (a processor injects one a step), the
// others' at most two; rows and a chart come out and can be drawn.
func TestFig3Small(t *testing.T) {
	p := plan(t, "sot-fig3", 16, 3, 2, experiment.Shard{I: 1, K: 1})
	if len(p.Cells) != 3*len(Fig3Algorithms) {
		t.Fatalf("%d cells", len(p.Cells))
	}
	o := execute(t, p)
	for i, cs := range o.Samples {
		alg := algOf(p.Cells[i], Fig3Algorithms)
		limit := 2.0
		if alg == asot.GreedyA {
			limit = 1
		}
		for _, s := range cs.Samples {
			if x := s.Values["throughput"]; x <= 0 || x > limit {
				t.Errorf("cell %s: throughput %v outside (0, %v]", p.Cells[i].Key(), x, limit)
			}
		}
	}
	rows := experiment.Rows(p.Exp, o)
	charts := p.Exp.Charts(rows)
	if len(rows) != len(p.Cells) || len(charts) != 1 {
		t.Fatalf("%d rows, %d charts", len(rows), len(charts))
	}
	if err := plotting.Write(filepath.Join(t.TempDir(), charts[0].File), charts[0].Chart); err != nil {
		t.Fatal(err)
	}
}

// sot-fig4 at n = 16: Algorithm 2 never deflects (§3.2); Greedy-a and
// Algorithm 2 send at most one packet per processor a step and a packet
// needs n hops, so their time is at least h + n − 1; every run completes.
func TestFig4Small(t *testing.T) {
	p := plan(t, "sot-fig4", 16, 2, 2, experiment.Shard{I: 1, K: 1})
	o := execute(t, p)
	for i, cs := range o.Samples {
		c := p.Cells[i]
		n, h, alg := param(c, "n"), param(c, "h"), algOf(c, CostAlgorithms)
		for _, s := range cs.Samples {
			if s.Values["incomplete"] != 0 {
				t.Errorf("cell %s: run %d hit the step cap", c.Key(), s.Run)
			}
			if alg == asot.Scheduled && s.Values["deflections"] != 0 {
				t.Errorf("cell %s: Algorithm 2 deflected", c.Key())
			}
			if (alg == asot.Scheduled || alg == asot.GreedyA) && s.Values["steps"] < float64(h+n-1) {
				t.Errorf("cell %s: %v steps < h + n − 1", c.Key(), s.Values["steps"])
			}
		}
	}
	if ch := p.Exp.Charts(experiment.Rows(p.Exp, o)); len(ch) != 1 {
		t.Fatalf("%d charts", len(ch))
	}
}

// Shards merged give exactly the whole run's rows, whatever the workers.
func TestFig5ShardMerge(t *testing.T) {
	whole := plan(t, "sot-fig5", 16, 3, 1, experiment.Shard{I: 1, K: 1})
	o := execute(t, whole)
	var parts []experiment.Output
	for i := 1; i <= 3; i++ {
		parts = append(parts, execute(t, plan(t, "sot-fig5", 16, 3, 2, experiment.Shard{I: i, K: 3})))
	}
	m, err := experiment.Merge(whole.Exp, parts, 16)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := experiment.WriteJSON(&a, experiment.Rows(whole.Exp, o)); err != nil {
		t.Fatal(err)
	}
	if err := experiment.WriteJSON(&b, experiment.Rows(whole.Exp, m)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("merged shards differ from the whole run:\n%s\nvs\n%s", a.Bytes(), b.Bytes())
	}
}

// sot-fig5 skips greedy-b above n = 128 and names the reason.
func TestFig5Skips(t *testing.T) {
	e, _ := experiment.Lookup("sot-fig5")
	cells, skipped := e.Cells(1 << 20)
	if len(cells) != 7*len(CostAlgorithms)-1 || len(skipped) != 1 {
		t.Fatalf("%d cells, skipped %v", len(cells), skipped)
	}
}

// The fresh-efficiency extras: 1 for Algorithm 2, in (0, 1] for Greedy-a
// (one injection a step) and (0, 2] for the others; efficiency_over_fresh
// is mean(h/T) over mean(fresh), and h/T is 1/cost run by run.
func TestCostFreshExtras(t *testing.T) {
	p := plan(t, "sot-fig5", 8, 3, 2, experiment.Shard{I: 1, K: 1})
	o := execute(t, p)
	rows := experiment.Rows(p.Exp, o)
	for i, cs := range o.Samples {
		alg := algOf(p.Cells[i], CostAlgorithms)
		limit := 2.0
		if alg == asot.GreedyA {
			limit = 1
		}
		effSum, freshSum := 0.0, 0.0
		for _, s := range cs.Samples {
			f := s.Values["fresh"]
			if (alg == asot.Scheduled && f != 1) || f <= 0 || f > limit {
				t.Errorf("cell %s run %d: fresh %v", p.Cells[i].Key(), s.Run, f)
			}
			if e, c := s.Values["efficiency"], s.Values["cost"]; math.Abs(e*c-1) > 1e-12 {
				t.Errorf("cell %s run %d: efficiency %v × cost %v ≠ 1", p.Cells[i].Key(), s.Run, e, c)
			}
			effSum += s.Values["efficiency"]
			freshSum += f
		}
		if got, want := rows[i].Extra["efficiency_over_fresh"], effSum/freshSum; math.Abs(got-want) > 1e-12 {
			t.Errorf("cell %s: efficiency_over_fresh %v, want %v", p.Cells[i].Key(), got, want)
		}
	}
}
