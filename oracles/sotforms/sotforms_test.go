package sotforms

import (
	"math"
	"math/big"
	"testing"

	"routecheck/models/perm"
)

// P(k, l) at p = 3/4 worked by hand from the printed recurrence:
// P(1,0) = 3/4, P(1,1) = P(1,0) = 3/4, P(2,0) = 9/16,
// P(2,1) = 3/4·3/4 + 1/4·9/16 = 45/64 = P(2,2), P(3,0) = 27/64,
// P(3,1) = 3/4·45/64 + 1/4·27/64 = 162/256.
func TestPTableByHand(t *testing.T) {
	P := PTable(3, big.NewRat(3, 4))
	for _, c := range []struct {
		k, l int
		want *big.Rat
	}{
		{0, 0, big.NewRat(1, 1)}, {1, 0, big.NewRat(3, 4)}, {0, 1, big.NewRat(3, 4)}, {1, 1, big.NewRat(3, 4)},
		{2, 0, big.NewRat(9, 16)}, {2, 1, big.NewRat(45, 64)}, {2, 2, big.NewRat(45, 64)},
		{3, 0, big.NewRat(27, 64)}, {3, 1, big.NewRat(162, 256)}, {1, 3, big.NewRat(162, 256)},
	} {
		if P[c.k][c.l].Cmp(c.want) != 0 {
			t.Errorf("P(%d,%d) = %s, want %s", c.k, c.l, P[c.k][c.l].RatString(), c.want.RatString())
		}
	}
}

// The Catalan numbers 1, 1, 2, 5, 14, 42, 132 (OEIS A000108).
func TestCatalan(t *testing.T) {
	want := []int64{1, 1, 2, 5, 14, 42, 132}
	for j, c := range Catalan(6) {
		if c.Int64() != want[j] {
			t.Errorf("C_%d = %v, want %d", j, c, want[j])
		}
	}
}

// √(1 − 4z) = 1 − 2z − 2z² − 4z³ − 10z⁴ − 28z⁵ (= 1 − 2·Σ C_{m−1} z^m).
func TestSqrtSeries(t *testing.T) {
	want := []int64{1, -2, -2, -4, -10, -28}
	for m, s := range SqrtSeries(5, big.NewRat(4, 1)) {
		if s.Cmp(big.NewRat(want[m], 1)) != 0 {
			t.Errorf("coefficient %d = %s, want %d", m, s.RatString(), want[m])
		}
	}
}

// The three computations of Q_k agree (the exact claims check many more p
// and k); the p = 1/2 values are binom(2k, k)/4^k.
func TestQThreeWays(t *testing.T) {
	for _, p := range []*big.Rat{big.NewRat(1, 2), big.NewRat(3, 4), big.NewRat(2, 7)} {
		a, b, c := QRecurrence(12, p), QConvolution(12, p), QGenerating(12, p)
		for k := range a {
			if a[k].Cmp(b[k]) != 0 || a[k].Cmp(c[k]) != 0 {
				t.Fatalf("p = %s, k = %d: %s %s %s", p.RatString(), k, a[k].RatString(), b[k].RatString(), c[k].RatString())
			}
		}
	}
	half := QRecurrence(4, big.NewRat(1, 2))
	for k, want := range []*big.Rat{big.NewRat(1, 1), big.NewRat(1, 2), big.NewRat(3, 8), big.NewRat(5, 16), big.NewRat(35, 128)} {
		if half[k].Cmp(want) != 0 {
			t.Errorf("p = 1/2: Q_%d = %s, want %s", k, half[k].RatString(), want.RatString())
		}
	}
}

// Theorem 3's printed formulas at hand-computed points: 3a gives 2/3 and
// 3b gives 1/3 at p = 3/4; 3a gives 1 at p = 1, 0 at p = 1/2.
func TestLimits(t *testing.T) {
	for _, c := range []struct{ got, want float64 }{
		{Limit3a(0.75), 2.0 / 3}, {Limit3b(0.75), 1.0 / 3}, {Limit3a(1), 1}, {Limit3a(0.5), 0}, {Limit3b(1), 0},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("got %v, want %v", c.got, c.want)
		}
	}
}

// On SOT(3) (P0 at (0,2), P1 at (1,1), P2 at (2,0)) the shortest path from
// P0 to P1 is (0,2) → (1,2) → (1,0) → (1,1) or similar: 3 hops; every other
// pair also 3 (Lemma 1), and P_x to itself 0.
func TestProcDistancesSmall(t *testing.T) {
	D := ProcDistances(3)
	for i := range 3 {
		for j := range 3 {
			want := 3
			if i == j {
				want = 0
			}
			if D[i][j] != want {
				t.Errorf("D[%d][%d] = %d, want %d", i, j, D[i][j], want)
			}
		}
	}
}

// Greedy-a on SOT(3), others: each target has 2 possible senders, so the
// expectation is 1 − (1/2)² = 3/4; the paper's form gives 1 − (2/3)³ = 19/27.
func TestFreshValues(t *testing.T) {
	if got := GreedyAFreshOthers(3); got.Cmp(big.NewRat(3, 4)) != 0 {
		t.Errorf("GreedyAFreshOthers(3) = %s", got.RatString())
	}
	if got := GreedyAFreshPaper(3); got.Cmp(big.NewRat(19, 27)) != 0 {
		t.Errorf("GreedyAFreshPaper(3) = %s", got.RatString())
	}
	// n = 2: 2(1 − (3/4)^4) = 2·175/256 = 175/128.
	if got := GreedyBHeuristic(2); got.Cmp(big.NewRat(175, 128)) != 0 {
		t.Errorf("GreedyBHeuristic(2) = %s", got.RatString())
	}
	// n = 3: k ∈ {1, 2}: P(1, 2) = P(2, 1) = 45/64, so 2·45/64 = 45/32.
	if got := GreedyCAnalysis(3); got.Cmp(big.NewRat(45, 32)) != 0 {
		t.Errorf("GreedyCAnalysis(3) = %s", got.RatString())
	}
}

// Algorithm 2's time on a hand example, SOT(4): P0 has 2 packets for P3
// (x = 3: sent at steps 3 and 7, the last arrives after step 10, so T = 11
// = 4·2 + 3) and one for P1 (x = 1: T = 5).
func TestScheduledTime(t *testing.T) {
	T, W := ScheduledTime(4, []perm.Pair{{Src: 0, Dst: 3}, {Src: 0, Dst: 1}, {Src: 0, Dst: 3}})
	if T != 11 || W != 2 {
		t.Errorf("T, W = %d, %d; want 11, 2", T, W)
	}
	if T, W := ScheduledTime(4, nil); T != 0 || W != 0 {
		t.Errorf("empty relation: %d, %d", T, W)
	}
}
