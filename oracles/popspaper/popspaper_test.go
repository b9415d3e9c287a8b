package popspaper

import (
	"math"
	"testing"
)

// Table I column B is the §IV formula: every printed cell must match it
// exactly (a check of our transcription and of the formula).
func TestTableIBIsBaselineFormula(t *testing.T) {
	cells := 0
	for _, c := range Cells() {
		if !c.HasPaper() {
			continue
		}
		g, ok := c.G()
		if !ok {
			t.Fatalf("cell %+v has no integer g", c)
		}
		if got := Baseline(c.D(), g); math.Abs(got-float64(c.B)) > 1e-9 {
			t.Errorf("n=%d d=%dg: baseline %v, Table I B = %d", c.N, c.Ratio, got, c.B)
		}
		cells++
	}
	if cells != 33 {
		t.Errorf("%d printed cells, want 33", cells)
	}
}

func TestBlankCellsAreTheImpossibleOrG1Ones(t *testing.T) {
	for _, c := range Cells() {
		g, ok := c.G()
		if !c.HasPaper() && ok && g > 1 {
			t.Errorf("blank cell n=%d ratio=%d has g=%d > 1", c.N, c.Ratio, g)
		}
	}
	if len(Cells()) != 36 {
		t.Errorf("%d cells, want 36", len(Cells()))
	}
}

func TestConstant(t *testing.T) {
	// c = e^{1+1/e} ≈ 3.927 (Theorem 3.8) and ε ≈ 0.073 for c+ε = 4.
	if math.Abs(C()-3.927) > 5e-4 || math.Abs(4-C()-0.073) > 5e-4 {
		t.Errorf("c = %v", C())
	}
}

// Every Table I A value is the mean of TableIRunsAssumed runs whose slot
// counts are multiples of 5 (whole 5-slot steps): A·runs ≡ 0 (mod 5).
func TestTableIAIsAMeanOfWholeSteps(t *testing.T) {
	for _, c := range Cells() {
		if !c.HasPaper() {
			continue
		}
		total := math.Round(c.A * TableIRunsAssumed)
		if math.Abs(total-c.A*TableIRunsAssumed) > 1e-6 || int(total)%5 != 0 {
			t.Errorf("n=%d d=%dg: A·%d = %v is not a multiple of 5", c.N, c.Ratio, TableIRunsAssumed, c.A*TableIRunsAssumed)
		}
	}
}

// The sort term is the hypercube count log m(1+log m)/2 for m = g², two
// slots a step, d/g times; it and the rest add up to Baseline.
func TestBaselineSplit(t *testing.T) {
	for _, c := range Cells() {
		g, ok := c.G()
		if !ok {
			continue
		}
		d := c.D()
		lm := 2 * math.Log2(float64(g))
		if want := float64(d/g) * 2 * lm * (1 + lm) / 2; math.Abs(BaselineSortTerm(d, g)-want) > 1e-9 {
			t.Errorf("n=%d d=%dg: sort term %v, want %v", c.N, c.Ratio, BaselineSortTerm(d, g), want)
		}
		if s := BaselineSortTerm(d, g) + BaselineRest(d, g); math.Abs(s-Baseline(d, g)) > 1e-9 {
			t.Errorf("n=%d d=%dg: split sums to %v, Baseline %v", c.N, c.Ratio, s, Baseline(d, g))
		}
	}
}
