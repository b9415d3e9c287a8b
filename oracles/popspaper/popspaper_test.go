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
