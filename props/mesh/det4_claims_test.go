package mesh

import (
	"math"
	"testing"

	"routecheck/internal/stats"
	"routecheck/props"
)

// Lemma 3's terms at hand-computed points: k^{5/6}·n^{2/3} and the printed
// n^{2/3}/k^{1/6} (8^{2/3} = 4, 4096^{1/6} = 4, 4096^{5/6} = 1024;
// 64^{5/6} = 32, 27^{2/3} = 9).
func TestLemma3Terms(t *testing.T) {
	for _, c := range []struct {
		n, k             int
		term, printedTrm float64
	}{
		{8, 4096, 4096, 1},
		{27, 64, 32 * 9, 9.0 / 2},
		{1, 1, 1, 1},
	} {
		if got := Lemma3Term(c.n, c.k); math.Abs(got-c.term) > 1e-9*c.term {
			t.Errorf("Lemma3Term(%d, %d) = %g, want %g", c.n, c.k, got, c.term)
		}
		if got := Lemma3PrintedTerm(c.n, c.k); math.Abs(got-c.printedTrm) > 1e-9 {
			t.Errorf("Lemma3PrintedTerm(%d, %d) = %g, want %g", c.n, c.k, got, c.printedTrm)
		}
	}
}

// The DET_4 sizes are inside the regime the paper names (k ≥ n⁴) and the
// beyond sizes outside it.
func TestDet4SizesRegime(t *testing.T) {
	for _, nk := range det4Sizes(2) {
		if n := nk[0]; nk[1] < n*n*n*n {
			t.Errorf("det4Sizes: k = %d < n⁴ at n = %d", nk[1], n)
		}
	}
	for _, nk := range det4Beyond(2) {
		if n := nk[0]; nk[1] >= n*n*n*n {
			t.Errorf("det4Beyond: k = %d ≥ n⁴ at n = %d", nk[1], n)
		}
	}
}

// Every size of mesh/sec-1/rand4-per-phase (and rand3-is-rand4-merged) can
// be flagged: even if every run exceeded the bound, the binomial tail
// P(Bin(runs, 1/n) ≥ runs) = n^−runs must be at most the per-case alpha.
// At n = 4 and α = 10⁻⁹/20, 4^−17 ≈ 5.8·10⁻¹¹ > α and 4^−18 ≈ 1.5·10⁻¹¹ ≤ α.
func TestRand4RunsCanFlag(t *testing.T) {
	if got := rand4Runs(12, 4, 1e-9/20); got != 18 {
		t.Errorf("rand4Runs(12, 4, 5e-11) = %d, want 18", got)
	}
	for _, b := range []props.Budget{props.Small, props.Default, props.Large} {
		sizes, _, alpha := rand4Plan(b)
		if want := props.Alpha / float64(len(sizes)*4); alpha != want {
			t.Errorf("budget %v: α = %.3g, want Alpha over %d sizes × 4 families = %.3g", b, alpha, len(sizes), want)
		}
		for _, sz := range sizes {
			if tail := stats.BinomAtLeast(sz.runs, sz.runs, 1/float64(sz.n)); tail > alpha {
				t.Errorf("budget %v, n = %d: %d runs can never be flagged (P = %.3g > α = %.3g)", b, sz.n, sz.runs, tail, alpha)
			}
		}
	}
}
