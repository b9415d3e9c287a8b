package expander

import (
	"math"
	"testing"
)

// TestSpectrumCertSmallest: NA = 2 is allowed. K_{2,2} has M = all-ones
// 2×2, so M·Mᵀ = [[2, 2], [2, 2]] with eigenvalues 0 and 4 (by hand).
func TestSpectrumCertSmallest(t *testing.T) {
	g := Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0, 1}}}
	c, v, err := SpectrumCert(g)
	if err != nil {
		t.Fatalf("SpectrumCert(K_{2,2}): %v", err)
	}
	if len(v) != 2 || math.Abs(v[0]) > 1e-9 || math.Abs(v[1]-4) > 1e-9 || math.Abs(c.Lambda2) > 1e-9 {
		t.Fatalf("SpectrumCert(K_{2,2}) = %+v, %v; want Lambda2 0, values [0 4]", c, v)
	}
}

// TestMinMultiplicityEdges: a gap exactly equal to tol joins a run ("at
// most tol apart"), and of two runs of equal size the first wins (hand
// computed: after dropping the largest value 9, [0 1 3 3] with tol 1 is
// runs {0,1}, {3,3}; [0 0 5 5] with tol 0.5 is runs {0,0}, {5,5}).
func TestMinMultiplicityEdges(t *testing.T) {
	if m, at := MinMultiplicity([]float64{0, 1, 3, 3, 9}, 1); m != 2 || at != 0 {
		t.Errorf("MinMultiplicity([0 1 3 3 9], 1) = %d, %v; want 2, 0", m, at)
	}
	if m, at := MinMultiplicity([]float64{0, 0, 5, 5, 9}, 0.5); m != 2 || at != 0 {
		t.Errorf("MinMultiplicity([0 0 5 5 9], 0.5) = %d, %v; want 2, 0", m, at)
	}
}
