package bflyforms

import (
	"math"
	"math/big"
	"testing"

	"routecheck/models/perm"
)

// Hand-computed values of the printed formulas.
func TestFits(t *testing.T) {
	// n = 12, r = 0, p = 1: −12.90 + 38.16 + 0.75 + 0.69 + 0.84 = 27.54.
	if got := FitAvg(12, 0, 1); math.Abs(got-27.54) > 1e-9 {
		t.Errorf("FitAvg(12,0,1) = %v, want 27.54", got)
	}
	// n = 10, r = 2, p = 20: −29.69 + 80.9 + 36.6 + 0.84·5 + 0.76·50 − 2.86 = 127.15.
	if got := FitMax(10, 2, 20); math.Abs(got-127.15) > 1e-9 {
		t.Errorf("FitMax(10,2,20) = %v, want 127.15", got)
	}
}

// M over all suffixes of a stage counts every packet once, and the bound
// of Theorem 6's proof holds and is attained (exhaustively for N = 8).
func TestMBoundExhaustive(t *testing.T) {
	const n = 3
	for r := 0; r <= n; r++ {
		best := make([]int, n+1)
		perm.Each(1<<n, func(p []int32) bool {
			for s, row := range M(p, n, r) {
				sum := 0
				for _, x := range row {
					sum += x
					if x > MBound(n, r, s) {
						t.Fatalf("r=%d s=%d: |M| = %d > bound %d for %v", r, s, x, MBound(n, r, s), p)
					}
					best[s] = max(best[s], x)
				}
				if sum != 1<<n {
					t.Fatalf("stage %d counts %d packets", s, sum)
				}
			}
			return true
		})
		for s := range best {
			if best[s] != MBound(n, r, s) {
				t.Errorf("r=%d s=%d: largest |M| %d, bound %d (not attained)", r, s, best[s], MBound(n, r, s))
			}
		}
	}
}

// The transpose of a 2^n-input butterfly (n even) sends √N packets through
// one middle node: with r = 0 its largest |M| is √N (§1: Ω(√N) steps).
func TestTransposeCongestion(t *testing.T) {
	for _, n := range []int{2, 4, 6, 8} {
		if got := MaxM(Transpose(n), n, 0); got != 1<<(n/2) {
			t.Errorf("n=%d: max |M| = %d, want %d", n, got, 1<<(n/2))
		}
		if err := perm.Validate(Transpose(n), true); err != nil {
			t.Error(err)
		}
		if err := perm.Validate(BitReversal(n+1), true); err != nil {
			t.Error(err)
		}
	}
}

// The union bound with τ above every possible |M| is 0, and one term
// computed by hand: n = 2, r = 0, τ = 2 gives s ∈ {0, 1}; s = 0 allows k ≤ 1
// (no term), s = 1 allows k = 2: (4/1)·C(2,2)·C(2,2)·2!·2! = 16.
func TestUnionBoundByHand(t *testing.T) {
	if got := Thm6UnionBound(2, 0, 2); got.Cmp(big.NewInt(16)) != 0 {
		t.Errorf("U(2, 0, 2) = %v, want 16", got)
	}
	if got := Thm6UnionBound(3, 1, 100); got.Sign() != 0 {
		t.Errorf("U(3, 1, 100) = %v, want 0", got)
	}
}
