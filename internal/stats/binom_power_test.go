package stats

import "testing"

// TestBinomMinCount against exact binomial tails computed independently
// (Python, exact fractions) at α = 1e-9, the ledger's Alpha — the powers
// bfly/thm-2/hunted-latency (q = 1/64) and pops/cor-3.9/hunted-steps
// (q = 1/4) state in their notes. q = 1/64: 12 of 60 (tail 1.48e-10; at
// 11, 2.29e-9), 19 of 200 (5.79e-10; 3.84e-9), 45 of 1000 (7.04e-10;
// 2.11e-9). q = 1/4: 38 of 60 (4.10e-10; at 37, 2.07e-9), 90 of 200
// (6.54e-10; 1.61e-9), 336 of 1000 (7.30e-10; 1.12e-9); at n = 3 no count
// reaches α ((1/4)³ ≈ 0.016), so 4.
func TestBinomMinCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		q    float64
		want int
	}{
		{60, 1.0 / 64, 12}, {200, 1.0 / 64, 19}, {1000, 1.0 / 64, 45},
		{60, 0.25, 38}, {200, 0.25, 90}, {1000, 0.25, 336},
		{3, 0.25, 4},
	} {
		if got := BinomMinCount(c.n, c.q, 1e-9); got != c.want {
			t.Errorf("BinomMinCount(%d, %g, 1e-9) = %d, want %d", c.n, c.q, got, c.want)
		}
	}
}
