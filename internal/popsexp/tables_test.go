package popsexp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/algos/popsdet"
	asn "routecheck/algos/sortnet"
	"routecheck/internal/experiment"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/oracles/popspaper"
)

func fakeSamples(runs int) []experiment.Sample {
	out := make([]experiment.Sample, runs)
	for i := range out {
		out[i] = experiment.Sample{Run: i, Values: map[string]float64{"steps": 7, "slots": 35, "lost": 0, "completed": 1, "degree_after_stage1": 1}}
	}
	return out
}

// pops-table1 rows carry the deterministic routers' columns beside ours,
// the paper's A and the §IV baseline; pops-table2 rows do not.
func TestTable1Columns(t *testing.T) {
	want := []string{"baseline_B", ColDet8StyleAKS, ColDetDirectAKS, ColDetDirectBatcher, "formula_20d_over_g", "incomplete_runs", "lost_fraction", "lost_per_run"}
	for _, name := range []string{"pops-table1", "pops-table2"} {
		exp, err := experiment.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cells, _ := exp.Cells(1 << 24)
		if len(cells) != 35 { // 36 cells, less n = 4 with d = 16g (no POPS has g = 1/2)
			t.Fatalf("%s: %d cells", name, len(cells))
		}
		for _, c := range cells {
			row := exp.Summarize(c, fakeSamples(3))
			for _, k := range want {
				_, ok := row.Extra[k]
				isDet := strings.HasPrefix(k, "det_") || k == "baseline_B"
				if ok != (name == "pops-table1" || !isDet) {
					t.Errorf("%s %s: column %s present = %v", name, c.Key(), k, ok)
				}
			}
			if name == "pops-table1" && row.Extra["paper_B"] == 0 && row.Paper != nil {
				t.Errorf("%s: paper_B missing", c.Key())
			}
		}
	}
}

// The direct Batcher column is what the sort-based router really takes: for
// the small cells the network is built, compiled for POPS(d, g) and a random
// permutation is routed on the slot model — every packet delivered, no
// conflict, and exactly the column's number of slots. For every cell it is
// the built network's depth times 2⌈d/g⌉ up to n = 2^16.
func TestDetDirectBatcherIsTheRouter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, pc := range popspaper.Cells() {
		g, ok := pc.G()
		if !ok || pc.N > 1<<16 {
			continue
		}
		sh := pops.Shape{D: pc.D(), G: g}
		col := DetColumns(sh)[ColDetDirectBatcher]
		nw, err := asn.OddEvenMergeSort(sh.N())
		if err != nil {
			t.Fatal(err)
		}
		if want := float64(nw.Depth() * 2 * ((sh.D + sh.G - 1) / sh.G)); col != want {
			t.Errorf("%v: column %v, built depth %d × 2⌈d/g⌉ = %v", sh, col, nw.Depth(), want)
		}
		if sh.N() > 256 {
			continue
		}
		sr, err := popsdet.NewSortRouter(sh, nw)
		if err != nil {
			t.Fatal(err)
		}
		dst := perm.Identity(sh.N())
		r.Shuffle(len(dst), func(i, j int) { dst[i], dst[j] = dst[j], dst[i] })
		res, err := sr.Route(dst)
		if err != nil {
			t.Fatal(err)
		}
		if res.Delivered != sh.N() || res.Conflicts != 0 || res.Lost != 0 || float64(res.Slots) != col {
			t.Errorf("%v: routed in %d slots (column %v), %d/%d delivered, %d conflicts, %d lost", sh, res.Slots, col, res.Delivered, sh.N(), res.Conflicts, res.Lost)
		}
	}
}

// The [8]-style column substitutes AKS for Batcher in the §IV formula. The
// substitution is exact: the formula's sorting terms (4d/g)·log²g +
// (2d/g)·log g are (2d/g) times Batcher's depth on g² items, so undoing it
// with Batcher's depth gives the formula back. Hand values for d = g = 4
// (n = 16): the analytic AKS depth on 16 wires is 12 stages × 7 halvers ×
// 10564 + 6 = 887382 (g² = 16 too), times 2 slots for the direct version;
// the [8]-style value is B = 54 − 2·10 + 2·887382.
func TestDetAKSColumns(t *testing.T) {
	for _, pc := range popspaper.Cells() {
		g, ok := pc.G()
		if !ok {
			continue
		}
		d := pc.D()
		lg := math.Log2(float64(g))
		batcherG2 := 2 * lg * (2*lg + 1) / 2
		if got, want := 2*float64(d)/float64(g)*batcherG2, 4*float64(d)/float64(g)*lg*lg+2*float64(d)/float64(g)*lg; math.Abs(got-want) > 1e-9*want {
			t.Errorf("d=%d g=%d: (2d/g)·Batcher(g²) = %v, formula's sort terms %v", d, g, got, want)
		}
		// AKS's iterations start at k = 3 (n = 8); below, its network is
		// the final Batcher sorter alone, so the columns coincide.
		c := DetColumns(pops.Shape{D: d, G: g})
		direct, style8 := c[ColDetDirectAKS]-c[ColDetDirectBatcher], c[ColDet8StyleAKS]-popspaper.Baseline(d, g)
		if direct < 0 || style8 < 0 || (direct == 0) != (pc.N < 8) || (style8 == 0) != (g*g < 8) {
			t.Errorf("d=%d g=%d: AKS columns %v against Batcher's: direct +%v, [8]-style +%v", d, g, c, direct, style8)
		}
	}
	c := DetColumns(pops.Shape{D: 4, G: 4})
	if c[ColDetDirectAKS] != 2*887382 || c[ColDet8StyleAKS] != 54-2*10+2*887382 {
		t.Errorf("d = g = 4: %v", c)
	}
	// g = 1: sorting one item takes nothing, the [8]-style value is B.
	if c := DetColumns(pops.Shape{D: 4, G: 1}); c[ColDet8StyleAKS] != popspaper.Baseline(4, 1) {
		t.Errorf("g = 1: %v, B = %v", c, popspaper.Baseline(4, 1))
	}
	var b strings.Builder
	for _, pc := range popspaper.Cells() {
		if g, ok := pc.G(); ok {
			c := DetColumns(pops.Shape{D: pc.D(), G: g})
			fmt.Fprintf(&b, "\nn=%8d d=%5d g=%5d  B=%6.0f  direct Batcher %6.0f  direct AKS(c) %.4g  [8]-style AKS(c) %.4g", pc.N, pc.D(), g, popspaper.Baseline(pc.D(), g), c[ColDetDirectBatcher], c[ColDetDirectAKS], c[ColDet8StyleAKS])
		}
	}
	t.Log(b.String())
}

// Figures 4–6 show the direct Batcher router beside ours, the paper and the
// baseline.
func TestTable1ChartsShowDeterministicRouter(t *testing.T) {
	exp, err := experiment.Lookup("pops-table1")
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := exp.Cells(1 << 12)
	var rows []experiment.Row
	for _, c := range cells {
		rows = append(rows, exp.Summarize(c, fakeSamples(2)))
	}
	charts := exp.Charts(rows)
	if len(charts) != 3 {
		t.Fatalf("%d charts", len(charts))
	}
	for _, ch := range charts {
		found := false
		for _, s := range ch.Chart.Series {
			if strings.Contains(s.Name, "deterministic, direct") {
				found = len(s.X) == len(s.Y) && len(s.Y) > 0
			}
		}
		if !found {
			t.Errorf("%s: no deterministic series", ch.File)
		}
	}
}

// For g = 1 the step limit is exact: a run not finished one step after
// stage 1 has two or more packets left, all of which use the one coupler
// c(0,0) in every later step, so running it 1000 steps longer changes
// nothing. Runs that finish do so within the limit.
func TestStepLimitExactForG1(t *testing.T) {
	var e ap.Engine
	for _, d := range []int{2, 4, 16} {
		sh := pops.Shape{D: d, G: 1}
		limit := StepLimit(sh, ap.DefaultCEps)
		if limit != ap.Stage1Steps(sh, ap.DefaultCEps)+1 {
			t.Fatalf("%v: limit %d", sh, limit)
		}
		stuck := 0
		dst := make([]int32, sh.N())
		for r := range 200 {
			s, err := RunOne(&e, dst, sh, ap.Faithful, 0, 5, r)
			if err != nil {
				t.Fatal(err)
			}
			rng := Rand(5, sh, ap.Faithful, r)
			perm.RandomInto(dst, rng)
			long, err := e.Run(sh, dst, rng, ap.Options{MaxSteps: limit + 1000})
			if err != nil {
				t.Fatal(err)
			}
			if s.Livelocked != !long.Completed || s.Censored || (long.Completed && long.Steps != s.Steps) {
				t.Fatalf("%v run %d: at the limit %+v; with 1000 more steps completed=%v steps=%d", sh, r, s, long.Completed, long.Steps)
			}
			if s.Livelocked {
				stuck++
				if left := long.Remaining[len(long.Remaining)-1]; left < 2 || long.Remaining[limit-1] != left {
					t.Fatalf("%v run %d: %d packets left at the limit, %d after 1000 more steps", sh, r, long.Remaining[limit-1], left)
				}
			}
		}
		t.Logf("%v: %d of 200 runs livelock", sh, stuck)
		if d >= 4 && stuck == 0 {
			t.Errorf("%v: no run livelocked; the test does not exercise the limit", sh)
		}
	}
}

// The experiments run the router to completion: with the ledger's seed, one
// of the 100 runs the table claims use for POPS(32,2) (n = 64, d = 16g)
// needs more than the library's default cut-off of 64 + 32·16 = 576 steps
// (591, found by the claim pops/table-2/max/n=64/d=16g), at which the
// library stops it unfinished; RunOne finishes it.
func TestRunOneRunsPastTheDefaultCutoff(t *testing.T) {
	sh := pops.Shape{D: 32, G: 2}
	var e ap.Engine
	dst := make([]int32, sh.N())
	long := -1
	for r := range 100 {
		s, err := RunOne(&e, dst, sh, ap.Faithful, 0, 20261122, r)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Completed || s.Censored || s.Livelocked {
			t.Fatalf("run %d: %+v", r, s)
		}
		if s.Steps > 576 {
			long = r
			rng := Rand(20261122, sh, ap.Faithful, r)
			perm.RandomInto(dst, rng)
			cut, err := e.Run(sh, dst, rng, ap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if cut.Completed || cut.Steps != 576 {
				t.Errorf("run %d (%d steps to completion) with the default limit: completed=%v after %d steps", r, s.Steps, cut.Completed, cut.Steps)
			}
		}
	}
	if long < 0 {
		t.Fatal("no run beyond 576 steps among the 100 the table claims use")
	}
}

// Livelocked runs (g = 1) are counted and left out of ours; censored runs
// are counted and kept (as lower bounds).
func TestSummarizeCountsIncompleteRuns(t *testing.T) {
	exp, err := experiment.Lookup("pops-table2")
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := exp.Cells(16)
	var cell experiment.Cell
	for _, c := range cells {
		if shapeOf(c) == (pops.Shape{D: 4, G: 1}) {
			cell = c
		}
	}
	s := fakeSamples(4)
	s[1].Values["steps"], s[1].Values["completed"], s[1].Values["livelocked"] = 13, 0, 1
	s[2].Values["steps"], s[2].Values["completed"], s[2].Values["censored"] = 1000, 0, 1
	row := exp.Summarize(cell, s)
	if row.Extra["incomplete_runs"] != 2 || row.Extra["censored_runs"] != 1 || row.Extra["livelocked_runs"] != 1 {
		t.Errorf("counts: %v", row.Extra)
	}
	if want := (7 + 1000 + 7) / 3.0; math.Abs(*row.Ours.Mean-want) > 1e-9 || *row.Ours.Max != 1000 {
		t.Errorf("ours = mean %v max %v, want mean %v over the three non-livelocked runs", *row.Ours.Mean, *row.Ours.Max, want)
	}
}

// c+ε reaches the runs: with c+ε = 2.5 on POPS(12,3) stage 1 has 8 steps
// (⌈2.5·3⌉), so the degree after stage 1 is MaxDegree[8] of the same run
// with CEps 2.5 — and the run differs from c+ε = 4's on the same stream.
// TableWithCEps refuses c+ε outside [1, 10^6] and other experiments.
func TestCEpsReachesTheRuns(t *testing.T) {
	sh := pops.Shape{D: 12, G: 3}
	var e ap.Engine
	dst := make([]int32, sh.N())
	differ := false
	for r := range 20 {
		s, err := RunOne(&e, dst, sh, ap.Faithful, 2.5, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		rng := Rand(1, sh, ap.Faithful, r)
		perm.RandomInto(dst, rng)
		res, err := e.Run(sh, dst, rng, ap.Options{CEps: 2.5})
		if err != nil {
			t.Fatal(err)
		}
		want := -1
		if len(res.MaxDegree) > 8 {
			want = int(res.MaxDegree[8])
		}
		if s.Steps != res.Steps || s.DegreeAfterStage1 != want {
			t.Fatalf("run %d: %+v, direct run steps %d degree after 8 steps %d", r, s, res.Steps, want)
		}
		s4, err := RunOne(&e, dst, sh, ap.Faithful, 0, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		differ = differ || s4.Steps != s.Steps
	}
	if !differ {
		t.Error("c+ε = 2.5 and 4 gave the same step counts on 20 runs")
	}
	for _, c := range []struct {
		name string
		cEps float64
	}{{"pops-table2", 0.5}, {"pops-table2", math.NaN()}, {"mesh-kk", 4}} {
		if _, err := TableWithCEps(c.name, c.cEps); err == nil {
			t.Errorf("TableWithCEps(%q, %v): no error", c.name, c.cEps)
		}
	}
	exp, err := TableWithCEps("pops-table1", 3)
	if err != nil || !strings.Contains(exp.Title(), "c+ε = 3") {
		t.Errorf("TableWithCEps(pops-table1, 3): %v, %v", exp, err)
	}
}

// TableWith: the CLI's options for the tables, and their errors.
func TestTableWithOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		opts map[string]string
		want string // error substring, "" for none
	}{
		{"pops-table2", map[string]string{"stage2": "keep-coin", "algorithm": "pops-rand-split-delivery", "c-eps": "5"}, ""},
		{"pops-table1", map[string]string{"stage2": "as-written"}, ""},
		{"pops-table2", map[string]string{"stage2": "coin"}, "allowed as-written"},
		{"pops-table2", map[string]string{"algorithm": "magic"}, "unknown"},
		{"pops-table2", map[string]string{"c-eps": "0.5"}, "[1, 1000000]"},
		{"mesh-kk", map[string]string{"stage2": "keep-coin"}, "pops-table1 and pops-table2 only"},
		{"pops-table2", map[string]string{"color": "red"}, "unknown"},
	} {
		exp, err := TableWith(c.name, c.opts)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.name, c.opts, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: error %v, want %q", c.name, c.opts, err, c.want)
		case c.want == "" && c.opts["stage2"] == "keep-coin" && !strings.Contains(exp.Title(), "coin kept"):
			t.Errorf("title does not name the reading: %s", exp.Title())
		}
	}
	// Split delivery on POPS(8,2): a step has 4 + ⌈d/g⌉ = 8 slots, so a run's
	// slots are 8 × its steps; keep-coin and as-written see the same
	// permutation (same stream) and, with c+ε = 4, differ only after stage 1.
	var e ap.Engine
	sh := pops.Shape{D: 8, G: 2}
	dst := make([]int32, sh.N())
	s, err := RunOneReading(&e, dst, sh, ap.SplitDelivery, 0, true, 7, 3)
	if err != nil || s.Slots != 8*s.Steps || s.Lost != 0 {
		t.Errorf("split delivery: %+v, %v", s, err)
	}
}

// pops-table1 carries the simulated [8] beside the formula: measured for
// n ≤ SimBMaxN (equal to the closed form, since the router's slot count does
// not depend on the permutation), closed form for every cell with g ≥ 2, and
// nothing where g = 1 (outside the router's scope). The closed form's sort
// part is the formula's sort term exactly.
func TestTable1SimB(t *testing.T) {
	exp, err := experiment.Lookup("pops-table1")
	if err != nil {
		t.Fatal(err)
	}
	cells, _ := exp.Cells(1 << 24)
	measured := 0
	for _, c := range cells {
		sh := shapeOf(c)
		row := exp.Summarize(c, fakeSamples(3))
		closed, okC := row.Extra[ColSimBClosed]
		sim, okS := row.Extra[ColSimB]
		if sh.G < 2 {
			if okC || okS {
				t.Errorf("%s: g = 1 has sim_B columns", c.Key())
			}
			continue
		}
		if !okC || okS != (sh.N() <= SimBMaxN) {
			t.Fatalf("%s: sim_B_closed present %v, sim_B present %v", c.Key(), okC, okS)
		}
		if okS {
			measured++
			if sim != closed {
				t.Errorf("%s: measured %v, closed form %v", c.Key(), sim, closed)
			}
		}
		k := float64(sh.D / sh.G)
		rest := closed - popspaper.BaselineSortTerm(sh.D, sh.G)
		if want := k*float64(9+min(sh.G, sh.D/sh.G)) + k; math.Abs(rest-want) > 1e-9 {
			t.Errorf("%s: closed form minus the formula's sort term = %v, want %v", c.Key(), rest, want)
		}
	}
	if measured != 15 {
		t.Errorf("%d cells measured, want 15 (n ≤ 4096, g ≥ 2)", measured)
	}
}
