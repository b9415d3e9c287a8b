package mbfly

import (
	"math/big"
	"testing"
)

// TestSec4Overloaded: hand-computed batch loads ⌈m/A⌉ against αm for
// m = 2 … 4096. α = 1/25: 25 divides no power of two, so every m is
// overloaded, by ⌈m/25⌉ − m/25 < 1 (largest at m = 2: 1 − 2/25 = 23/25).
// α = 0.042 (A = 24): m ≤ 512 overloaded (m = 512: 22 > 21.504), not 1024
// (43 < 43.008). α = 1/8: only m = 2, 4 (⌈m/8⌉ = 1 > m/8).
func TestSec4Overloaded(t *testing.T) {
	for _, c := range []struct {
		a      *big.Rat
		A      int64
		ms     []int64
		excess *big.Rat
	}{
		{big.NewRat(1, 25), 25, []int64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}, big.NewRat(23, 25)},
		{big.NewRat(42, 1000), 24, []int64{2, 4, 8, 16, 32, 64, 128, 256, 512}, big.NewRat(916, 1000)},
		{big.NewRat(1, 8), 8, []int64{2, 4}, big.NewRat(3, 4)},
	} {
		A, ms, ex := sec4Overloaded(c.a, 12)
		if A != c.A || len(ms) != len(c.ms) || ex.Cmp(c.excess) != 0 {
			t.Fatalf("α = %s: A = %d, overloaded %v, excess %s; want %d, %v, %s", c.a.RatString(), A, ms, ex.RatString(), c.A, c.ms, c.excess.RatString())
		}
		for i := range ms {
			if ms[i] != c.ms[i] {
				t.Fatalf("α = %s: overloaded %v, want %v", c.a.RatString(), ms, c.ms)
			}
		}
	}
}
