package bfly

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
)

// The adversary of the few-stages claims is a permutation, is the
// transpose for r = 0, and puts 2^{(n+r)/2} packets through one set
// B((n+r)/2, a) (counted by oracles/bflyforms.M, not by the claim).
func TestPartialTranspose(t *testing.T) {
	for r := 0; r <= 3; r++ {
		for n := r + 2; n <= 10; n += 2 {
			p := partialTranspose(n, r)
			if err := perm.Validate(p, true); err != nil {
				t.Fatalf("n=%d r=%d: %v", n, r, err)
			}
			if r == 0 && !slices.Equal(p, bflyforms.Transpose(n)) {
				t.Fatalf("n=%d: r = 0 is not the transpose", n)
			}
			s := (n + r) / 2
			if got, want := slices.Max(bflyforms.M(p, n, r)[s]), 1<<s; got != want {
				t.Errorf("n=%d r=%d: max |M(π, %d, a)| = %d, want 2^{(n+r)/2} = %d", n, r, s, got, want)
			}
		}
	}
}

// bfly/lemma-9/load-law/as-printed's counterexample, by brute force over
// every joint choice of the random transitions (not by the claim's
// factorization): N = 4, r = 2, the identity, node (1, 0). Its load is
// B(2, 1/2) (P(0) = 1/4), not the printed B(4, 1/4) (P(0) = 81/256).
func TestLemma9PrintedLawCounterexample(t *testing.T) {
	sh := mb.Shape{LogN: 2, R: 2}
	hist := map[int]int{}
	for joint := range 1 << 8 { // four packets, X ∈ [0, 4) each
		load := 0
		for src := range 4 {
			x := int32(joint >> (2 * src) & 3)
			if sh.RowAt(mb.Packet{Src: int32(src), Dst: int32(src), X: x}, 1) == 0 {
				load++
			}
		}
		hist[load]++
	}
	// B(2, 1/2) scaled by 256: 64, 128, 64.
	if hist[0] != 64 || hist[1] != 128 || hist[2] != 64 || len(hist) != 3 {
		t.Fatalf("load law ×256 = %v, want B(2, 1/2) = {0: 64, 1: 128, 2: 64}", hist)
	}
}

// lnHGTail against exact big-rational hypergeometric tails.
func TestLnHGTail(t *testing.T) {
	for _, c := range []struct{ pop, k, d, tau int }{{16, 4, 4, 2}, {64, 16, 8, 5}, {256, 32, 64, 20}, {1024, 64, 128, 30}} {
		num := new(big.Int)
		for j := c.tau; j <= min(c.k, c.d); j++ {
			term := new(big.Int).Binomial(int64(c.k), int64(j))
			term.Mul(term, new(big.Int).Binomial(int64(c.pop-c.k), int64(c.d-j)))
			num.Add(num, term)
		}
		exact, _ := new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(c.pop), int64(c.d))).Float64()
		if got := math.Exp(lnHGTail(c.pop, c.k, c.d, c.tau)); math.Abs(got-exact) > 1e-9*exact {
			t.Errorf("%+v: tail %.12g, exact %.12g", c, got, exact)
		}
	}
	if !math.IsInf(lnHGTail(16, 4, 4, 5), -1) {
		t.Error("a tail beyond min(k, d) is not −Inf")
	}
}

// The binomial tails of the Theorem 10 claim (log-gamma) agree with the
// Poisson-binomial recursion on equal probabilities, and with a hand value.
func TestChernoffTailsAgree(t *testing.T) {
	for _, m := range []int{1, 7, 40, 200} {
		for _, q := range []float64{0.5, 0.125, 1.0 / 256} {
			a := binomTails(m, q)
			ps := make([]float64, m)
			for i := range ps {
				ps[i] = q
			}
			b := poibinTails(ps)
			for s := range a {
				if math.Abs(a[s]-b[s]) > 1e-9*math.Max(b[s], 1e-300) && math.Abs(a[s]-b[s]) > 1e-15 {
					t.Fatalf("Bin(%d, %g): Pr{X > %d} = %g (log-gamma) vs %g (recursion)", m, q, s, a[s], b[s])
				}
			}
		}
	}
	// Bin(4, 1/2): Pr{X > 2} = 5/16.
	if got := binomTails(4, 0.5)[2]; math.Abs(got-5.0/16) > 1e-12 {
		t.Errorf("Bin(4, 1/2): Pr{X > 2} = %g, want 5/16", got)
	}
}

// The partial-renaming fault keeps the high half of every address and is a
// permutation; and it cannot break the transpose's congestion: σ^{-1}πσ
// maps (h, l) to (τ(l), τ^{-1}(h)) (or the same with τ and τ^{-1}
// exchanged), so at stage n/2 the node addressed by the destination's high
// half and the source's low half, (τ(l), l), is crossed by all 2^{n/2}
// packets with low half l: C = 2^{n/2} = √N, the most any node can carry
// on the plain butterfly. (Derived by hand, not from the claim.)
func TestLowBitsSigmaKeepsTransposeCongestion(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 4; n <= 10; n += 2 {
		s := lowBitsSigma(n, rng)
		if err := perm.Validate(s, true); err != nil {
			t.Fatalf("n=%d: σ is not a permutation: %v", n, err)
		}
		for x, y := range s {
			if int(y)>>(n/2) != x>>(n/2) {
				t.Fatalf("n=%d: σ(%d) = %d changes the high half", n, x, y)
			}
		}
		if got, want := plainCongestion(n, ab.Rename(bflyforms.Transpose(n), s)), 1<<(n/2); got != want {
			t.Errorf("n=%d: congestion of the partially renamed transpose %d, want √N = %d", n, got, want)
		}
	}
}
