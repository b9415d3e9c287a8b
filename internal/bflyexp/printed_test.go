package bflyexp

import (
	"math"
	"strings"
	"testing"

	"routecheck/internal/experiment"
	"routecheck/oracles/bflyforms"

	"gonum.org/v1/gonum/stat/distuv"
)

// The coefficient vectors are the formulas oracles/bflyforms evaluates
// (two transcriptions of §4.3's printed fits that must agree).
func TestPrintedCoefficients(t *testing.T) {
	dot := func(b, x []float64) float64 {
		s := 0.0
		for j := range b {
			s += b[j] * x[j]
		}
		return s
	}
	for n := 10; n <= 13; n++ {
		for _, p := range Ps {
			for r := 0; r <= 12; r++ {
				x := Regress(n, r, p)
				if a, b := dot(PrintedAvg, x), bflyforms.FitAvg(n, r, p); math.Abs(a-b) > 1e-9 {
					t.Errorf("avg n=%d r=%d p=%d: %v vs bflyforms %v", n, r, p, a, b)
				}
				if a, b := dot(PrintedMax, x), bflyforms.FitMax(n, r, p); math.Abs(a-b) > 1e-9 {
					t.Errorf("max n=%d r=%d p=%d: %v vs bflyforms %v", n, r, p, a, b)
				}
			}
		}
	}
}

// fitRows are synthetic bfly-fit rows: each cell's mean is the printed
// formula plus shift, every cell's SD is sd, runs runs.
func fitRows(t *testing.T, reading int, shift, sd float64, runs int) []experiment.Row {
	t.Helper()
	var rows []experiment.Row
	for _, c := range fitGrid(reading) {
		a := bflyforms.FitAvg(c.N, c.R, c.P) + shift
		m := bflyforms.FitMax(c.N, c.R, c.P) + shift
		rows = append(rows, experiment.Row{Cell: c.cell(), Runs: runs, Ours: experiment.Stat{Mean: experiment.F(a), SD: experiment.F(sd)},
			Extra: map[string]float64{"max_mean": m, "max_sd": sd}})
	}
	return rows
}

// On means that are the printed formula the refit returns the printed
// coefficients and F = 0 (p = 1); shifted by δ everywhere (inside the
// model: the intercept moves by δ), RSS(printed) − RSS(refit) = m·δ², so
// F = (m·δ²/6)/(sd²/runs) — computed here by hand, its p-value by gonum's
// F distribution (not the incomplete-beta code under test).
func TestPrintedTestExact(t *testing.T) {
	const sd, runs, delta = 2.0, 10, 0.3
	for _, shift := range []float64{0, delta} {
		rows := fitRows(t, 0, shift, sd, runs)
		cells := make([]CellMean, len(rows))
		for i, r := range rows {
			c := Decode(r.Cell)
			cells[i] = CellMean{X: Regress(c.N, c.R, c.P), Mean: *r.Ours.Mean, SD: sd}
		}
		got, err := PrintedTest(cells, runs, PrintedAvg)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]float64(nil), PrintedAvg...)
		want[0] += shift
		for j := range want {
			if math.Abs(got.Fit.Coef[j]-want[j]) > 1e-8 {
				t.Errorf("shift %v: %s = %v, want %v", shift, Regressors[j], got.Fit.Coef[j], want[j])
			}
		}
		m := float64(len(cells))
		wantF := m * shift * shift / 6 / (sd * sd / runs)
		if math.Abs(got.F-wantF) > 1e-6*math.Max(1, wantF) {
			t.Errorf("shift %v: F = %v, want %v", shift, got.F, wantF)
		}
		df := float64(len(cells) * (runs - 1))
		if shift > 0 {
			wantP := distuv.F{D1: 6, D2: df}.Survival(wantF)
			if math.Abs(got.P-wantP) > 1e-9+1e-6*wantP {
				t.Errorf("shift %v: p = %v, want %v", shift, got.P, wantP)
			}
			wantPC := distuv.F{D1: 6, D2: runs - 1}.Survival(wantF)
			if math.Abs(got.PC-wantPC) > 1e-9+1e-6*wantPC {
				t.Errorf("shift %v: conservative p = %v, want %v", shift, got.PC, wantPC)
			}
		} else if got.P != 1 || got.PC != 1 {
			t.Errorf("no shift: p = %v, %v, want 1", got.P, got.PC)
		}
		if got.DFPure != int(df) || got.MaxSD != sd || got.MinSD != sd {
			t.Errorf("df %d, SDs %v–%v", got.DFPure, got.MinSD, got.MaxSD)
		}
	}
	if _, err := PrintedTest([]CellMean{{X: []float64{1}, Mean: 1, SD: 1}}, 1, []float64{1}); err == nil {
		t.Error("one run per cell: no error")
	}
}

// RefitLines refuses rows it cannot refit and, on rows of the grid, names
// both formulas with the printed coefficients beside the refit.
func TestRefitLines(t *testing.T) {
	rows := fitRows(t, 1, 0.5, 1, 4)
	lines := RefitLines(rows)
	if len(lines) != 4 || !strings.Contains(lines[0], "average latency, pipelined buffers") || !strings.Contains(lines[0], "printed -12.90") || !strings.Contains(lines[2], "maximum latency") || !strings.Contains(lines[2], "printed -29.69") {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}
	var one []experiment.Row
	for _, r := range rows {
		if Decode(r.Cell).N == 10 {
			one = append(one, r)
		}
	}
	if l := RefitLines(one); len(l) != 1 || !strings.Contains(l[0], "two or more N") {
		t.Errorf("one N: %v", l)
	}
	mixed := append([]experiment.Row(nil), rows...)
	mixed[3].Runs = 5
	if l := RefitLines(mixed); len(l) != 1 || !strings.Contains(l[0], "different run counts") {
		t.Errorf("mixed runs: %v", l)
	}
	mixed = append(fitRows(t, 0, 0, 1, 4)[:1], rows...)
	if l := RefitLines(mixed); len(l) != 1 || !strings.Contains(l[0], "mix node-model readings") {
		t.Errorf("mixed readings: %v", l)
	}
}
