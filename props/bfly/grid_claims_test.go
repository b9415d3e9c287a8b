package bfly

import (
	"math"
	"testing"

	"routecheck/internal/bflyexp"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
)

// The grid claims' cells: at large the paper's grid (§4.2–4.3: N = 1K, 2K,
// 4K, 8K, p ∈ {1, 10, 20, 50, 100, 200}, r = 0…12 where r ≤ n: 294 cells);
// below it two N, so that all six terms are identifiable; and their
// N = 2^10 cells are exactly the §4 fit claims' cells (simGridP × simGridR),
// which the grid claims find in simCell's cache.
func TestGridCells(t *testing.T) {
	large := gridCells(props.Large)
	if len(large) != 6*(11+12+13+13) {
		t.Errorf("large: %d cells, want 294", len(large))
	}
	seen := map[gridCell]bool{}
	for _, c := range large {
		if c.n < 10 || c.n > 13 || c.r > min(12, c.n) || seen[c] {
			t.Errorf("large: cell %+v out of the paper's grid or repeated", c)
		}
		seen[c] = true
	}
	for _, b := range []props.Budget{props.Small, props.Default} {
		cs := gridCells(b)
		ns := map[int]bool{}
		at10 := map[gridCell]bool{}
		for _, c := range cs {
			ns[c.n] = true
			if c.n == 10 {
				at10[c] = true
			}
		}
		if len(ns) < 2 {
			t.Errorf("%s: one N only", b)
		}
		for _, p := range simGridP(b) {
			for _, r := range simGridR {
				if !at10[gridCell{10, r, p}] {
					t.Errorf("%s: the fit claims' cell r = %d, p = %d is not in the grid", b, r, p)
				}
			}
		}
		if len(at10) != len(simGridP(b))*len(simGridR) {
			t.Errorf("%s: %d cells at N = 2^10, the fit claims have %d", b, len(at10), len(simGridP(b))*len(simGridR))
		}
	}
}

// On every budget's grid the six terms are identifiable: cell means that
// are §4.3's printed L_avg (evaluated by oracles/bflyforms, not by the
// coefficient vector under test) give back the printed coefficients, with
// no lack of fit; the same grid cut to N = 2^10 cannot be refitted.
func TestGridIdentifiesSixTerms(t *testing.T) {
	for _, b := range []props.Budget{props.Small, props.Default, props.Large} {
		var cells, one []bflyexp.CellMean
		for i, c := range gridCells(b) {
			cm := bflyexp.CellMean{X: bflyexp.Regress(c.n, c.r, c.p), Mean: bflyforms.FitAvg(c.n, c.r, c.p), SD: 1 + float64(i%3)}
			cells = append(cells, cm)
			if c.n == 10 {
				one = append(one, cm)
			}
		}
		f, err := bflyexp.PrintedTest(cells, 10, bflyexp.PrintedAvg)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		want := []float64{-12.90, 3.18, 0.75, 0.69, 0.07, 3.20}
		for j := range want {
			if math.Abs(f.Fit.Coef[j]-want[j]) > 1e-7 {
				t.Errorf("%s: %s = %v, printed %v", b, bflyexp.Regressors[j], f.Fit.Coef[j], want[j])
			}
		}
		if f.LP < 0.999 || f.LPC < 0.999 {
			t.Errorf("%s: exact printed means show a lack of fit (p = %g, %g)", b, f.LP, f.LPC)
		}
		if _, err := bflyexp.PrintedTest(one, 10, bflyexp.PrintedAvg); err == nil {
			t.Errorf("%s: the six terms refitted on N = 2^10 alone", b)
		}
	}
}

// The lack-of-fit claims' planted fault (a curvature 5 % of the mean cell
// latency × (r/r_max)²) lies outside the form's span on every budget's
// grid: added to exact printed means with a small pure error (SD 0.01 a
// run, 10 runs) it is a lack of fit by the conservative test at Alpha.
// (Most of it is absorbed by the r and p/2^r terms: on the small grid the
// refit's residual SD is ≈ 0.21 for a curvature of ≈ 2.2 at r_max, so
// with SD 0.05 a run it is only just short of Alpha.)
func TestGridFaultCurvatureOutsideSpan(t *testing.T) {
	for _, b := range []props.Budget{props.Small, props.Default, props.Large} {
		cs := gridCells(b)
		var cells []bflyexp.CellMean
		rmax := 0
		for _, c := range cs {
			rmax = max(rmax, c.r)
			cells = append(cells, bflyexp.CellMean{X: bflyexp.Regress(c.n, c.r, c.p), Mean: bflyforms.FitAvg(c.n, c.r, c.p), SD: 0.01})
		}
		m := meanOf(cells)
		for i, c := range cs {
			x := float64(c.r) / float64(rmax)
			cells[i].Mean += 0.05 * m * x * x
		}
		f, err := bflyexp.PrintedTest(cells, 10, bflyexp.PrintedAvg)
		if err != nil {
			t.Fatal(err)
		}
		if f.LPC > props.Alpha {
			t.Errorf("%s: the curvature fault is not a lack of fit (conservative p = %g, residual SD %g)", b, f.LPC, f.Fit.ResidSD())
		}
	}
}

// TestGridNotSimulatedAtDefault: at the default budget the eight grid
// claims return gridNotAtDefault without simulating (the grid would cost
// CPU for a verdict that is not drawn there), and their recorded verdict
// there is inconclusive.
func TestGridNotSimulatedAtDefault(t *testing.T) {
	cs, err := props.Claims("^bfly/sec4/(grid-refit|lack-of-fit)/")
	if err != nil || len(cs) != 8 {
		t.Fatalf("%d grid claims, %v; want 8", len(cs), err)
	}
	for _, c := range cs {
		o := c.Check(props.Env{Budget: props.Default, Seed: 1})
		if o.Verdict != props.Inconclusive || o.Evidence != gridNotAtDefault.Evidence {
			t.Errorf("%s at default: %s %q, want gridNotAtDefault", c.ID, o.Verdict, o.Evidence)
		}
		if v := c.RecordedFor(props.Default); v != props.Inconclusive {
			t.Errorf("%s: recorded %s at default, want inconclusive", c.ID, v)
		}
	}
}
