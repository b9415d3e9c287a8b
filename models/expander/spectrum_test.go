package expander

import (
	"math"
	"testing"
)

// TestSpectrumCert: K_{3,3} minus a perfect matching is 2-regular with
// M = J − I, so M·Mᵀ = (J − I)² = J + I has eigenvalues 1, 1, 4 (J has 3,
// 0, 0).
// SpectrumCert agrees with Spectral on Lambda2.
func TestSpectrumCert(t *testing.T) {
	g := Graph{NA: 3, NB: 3, Adj: [][]int32{{1, 2}, {0, 2}, {0, 1}}}
	c, v, err := SpectrumCert(g)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 1, 4}
	for i := range want {
		if math.Abs(v[i]-want[i]) > 1e-9 {
			t.Fatalf("eigenvalues %v, want %v", v, want)
		}
	}
	c2, err := Spectral(g)
	if err != nil || math.Abs(c.Lambda2-c2.Lambda2) > 1e-12 || c.DA != 2 || c.DB != 2 {
		t.Fatalf("SpectrumCert %+v, Spectral %+v %v", c, c2, err)
	}
	if _, _, err := SpectrumCert(Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0}}}); err == nil {
		t.Fatal("irregular graph accepted")
	}
}

// TestMinMultiplicity: runs by hand; the largest value loses one copy.
func TestMinMultiplicity(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		mult int
		at   float64
	}{
		{[]float64{1, 1, 1, 2, 2, 9}, 2, 2},
		{[]float64{1, 1 + 1e-12, 3, 3, 3, 9, 9}, 1, 9},
		{[]float64{0, 0, 5, 5, 5, 9}, 2, 0},
		{[]float64{9}, 0, 0},
	} {
		m, at := MinMultiplicity(c.v, 1e-9)
		if m != c.mult || at != c.at {
			t.Errorf("%v: %d at %g, want %d at %g", c.v, m, at, c.mult, c.at)
		}
	}
}
