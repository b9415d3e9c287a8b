package mesh

import (
	"math"
	"testing"
)

// Corollary 2's threshold and term at hand-computed points: n = 16, k = 4
// gives f = 4·(4/4)^{1/4} = 4 and 4^{3/4}·4·4^{1/4} = 16; n = 256, k = 1
// gives f = 16·8^{1/4} and 16·8^{1/4}. Theorem 3's terms at n' = 4, n = 16,
// k = 4: k·n' = 16, (256/64)·4 = 16, queue (256/256)·4 = 4.
func TestCor2Values(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if f, c := Cor2Side(16, 4), Cor2Term(16, 4); !near(f, 4) || !near(c, 16) {
		t.Errorf("n = 16, k = 4: f = %g (want 4), term = %g (want 16)", f, c)
	}
	if f, c := Cor2Side(256, 1), Cor2Term(256, 1); !near(f, 16*math.Pow(8, 0.25)) || !near(c, 16*math.Pow(8, 0.25)) {
		t.Errorf("n = 256, k = 1: f = %g, term = %g, want both 16·8^{1/4}", f, c)
	}
	t1, t2, q := thm3Terms(16, 4, 4, 3, false)
	if !near(t1, 16) || !near(t2, 16) || !near(q, 4) {
		t.Errorf("thm3Terms(16, 4, n' = 4) = %g, %g, %g, want 16, 16, 4", t1, t2, q)
	}
	if _, p, _ := thm3Terms(16, 4, 4, 3, true); !near(p, 256.0/4096*4) {
		t.Errorf("printed second term %g, want (256/16³)·4", p)
	}
}
