package sot

import (
	"math"
	"testing"

	"routecheck/internal/stats"
	"routecheck/props"
)

// sot/sec4.3/far-above-nlogn's constants are the smallest multiples of 1/4
// whose union bound n²·P(Bin(h, 1/n) > c·h/n) is at most Alpha/48 at every
// n. The expected 3.5 and 2.25 were computed independently (exact
// rational binomial tails in Python, 2026-11-25): at m = 4 the bound is
// 6.2e-9 for c = 3 and 3.7e-13 for c = 3.5 (3.25 fails too); at m = 16 it
// is 5.2e-10 for c = 2 and 5.7e-15 for c = 2.25.
func TestSotFarAboveC(t *testing.T) {
	bound := func(m int, c float64) float64 {
		worst := 0.0
		for _, n := range sotFarAboveNs {
			h := m * n * sotLog2(n)
			thr := int(math.Floor(c*float64(h)/float64(n)+1/float64(n))) + 1 // W > c·h/n + 1/n
			worst = math.Max(worst, float64(n*n)*stats.BinomAtLeast(thr, h, 1/float64(n)))
		}
		return worst
	}
	alpha := props.Alpha / 48
	for _, tc := range []struct {
		m    int
		want float64
	}{{4, 3.5}, {16, 2.25}} {
		if got := sotFarAboveC(tc.m); got != tc.want {
			t.Errorf("c(%d) = %g, want %g", tc.m, got, tc.want)
		}
		if b := bound(tc.m, tc.want); b > alpha {
			t.Errorf("m = %d, c = %g: union bound %.3g > %.3g", tc.m, tc.want, b, alpha)
		}
		if b := bound(tc.m, tc.want-0.25); b <= alpha {
			t.Errorf("m = %d: c = %g already meets the bound (%.3g): not the smallest", tc.m, tc.want-0.25, b)
		}
	}
}
