package bflyexp

import (
	"bytes"
	"context"
	"testing"

	"routecheck/internal/experiment"
)

// cheap picks the cells of bfly-fit at N = 1K with p ≤ 10 and r ∈ {0, 5, 10}.
func cheap(t *testing.T) (experiment.Experiment, []experiment.Cell) {
	t.Helper()
	e, err := experiment.Lookup("bfly-fit")
	if err != nil {
		t.Fatal(err)
	}
	cells, skipped := e.Cells(1 << 10)
	if len(skipped) != 3 {
		t.Errorf("skipped %v, want N = 2^11, 2^12, 2^13", skipped)
	}
	var out []experiment.Cell
	for _, c := range cells {
		d := Decode(c)
		if d.N == 10 && d.P <= 10 && d.R%5 == 0 {
			out = append(out, c)
		}
	}
	if len(out) != 6 {
		t.Fatalf("%d cheap cells", len(out))
	}
	return e, out
}

// Every run meets the §4.1 model's physics: with strict buffers a packet
// needs 2 steps per node, so latency ≥ 2(n + r) − 1; with r = 0 an input's
// p packets share one link that carries one packet per two steps, so the
// last leaves after ≥ 2p − 1 steps and arrives ≥ 2(p − 1) + 2n − 1.
func TestRunsMeetPhysics(t *testing.T) {
	e, cells := cheap(t)
	o, err := experiment.Execute(context.Background(), experiment.Plan{Exp: e, Cells: cells, Runs: 2, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, cs := range o.Samples {
		c := Decode(cells[i])
		for _, s := range cs.Samples {
			if min := float64(2*(c.N+c.R) - 1); s.Values["avg"] < min {
				t.Errorf("%s: average latency %v < %v", cells[i].Key(), s.Values["avg"], min)
			}
			if c.R == 0 {
				if min := float64(2*(c.P-1) + 2*c.N - 1); s.Values["max"] < min {
					t.Errorf("%s: max latency %v < %v", cells[i].Key(), s.Values["max"], min)
				}
			}
		}
	}
	rows := experiment.Rows(e, o)
	if len(rows) != len(cells) || rows[0].Paper == nil {
		t.Fatalf("rows %v", rows)
	}
	if ch := e.Charts(rows); len(ch) != 4 {
		t.Errorf("%d charts, want 4 (average and maximum for N = 1K, each also against the fit)", len(ch))
	}
}

// Shards merged give exactly the rows of the whole run.
func TestShardMergeEqualsWhole(t *testing.T) {
	e, cells := cheap(t)
	whole, err := experiment.Execute(context.Background(), experiment.Plan{Exp: e, Cells: cells, Runs: 3, Seed: 9, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var parts []experiment.Output
	for i := 1; i <= 2; i++ {
		p, err := experiment.Execute(context.Background(), experiment.Plan{Exp: e, Cells: cells, Runs: 3, Seed: 9, Workers: 2, Shard: experiment.Shard{I: i, K: 2}})
		if err != nil {
			t.Fatal(err)
		}
		// Merge rebuilds the cell list from --max-n; keep only our cells.
		parts = append(parts, p)
	}
	var a, b bytes.Buffer
	if err := experiment.WriteJSON(&a, experiment.Rows(e, whole)); err != nil {
		t.Fatal(err)
	}
	merged := experiment.Output{Cells: cells}
	for i := range cells {
		cs := experiment.CellSamples{Params: whole.Samples[i].Params}
		for _, p := range parts {
			cs.Samples = append(cs.Samples, p.Samples[i].Samples...)
		}
		// runs are interleaved across shards: order them
		for x := 1; x < len(cs.Samples); x++ {
			for y := x; y > 0 && cs.Samples[y].Run < cs.Samples[y-1].Run; y-- {
				cs.Samples[y], cs.Samples[y-1] = cs.Samples[y-1], cs.Samples[y]
			}
		}
		merged.Samples = append(merged.Samples, cs)
	}
	if err := experiment.WriteJSON(&b, experiment.Rows(e, merged)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("shards differ from the whole run:\n%s\nvs\n%s", a.Bytes(), b.Bytes())
	}
}

// Every experiment lists its cells; bfly-figs has 6 × 13 cells at N = 4K.
func TestCells(t *testing.T) {
	want := map[string]int{"bfly-figs": 78, "bfly-fit": 6*11 + 6*12 + 6*13 + 6*13, "bfly-fit-pipelined": 6*11 + 6*12 + 6*13 + 6*13, "bfly-readings": 3 * 4 * 3 * 2}
	for name, n := range want {
		e, err := experiment.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cells, _ := e.Cells(1 << 13)
		if len(cells) != n {
			t.Errorf("%s: %d cells, want %d", name, len(cells), n)
		}
		for _, c := range cells {
			Decode(c) // panics on a malformed cell
		}
	}
}
