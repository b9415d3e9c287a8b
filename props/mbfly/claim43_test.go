package mbfly

import (
	"math"
	"math/big"
	"testing"

	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// TestC43PairsByHand: condition (2) with β = 3 has no solution (its left
// side is (1/(2γ²u))(1 + 1/u) > 1 for u = 1 − γ^θ < 1, γ < 1); the
// paper's own §4 set β = 6, γ = 0.81, θ = 12 is admissible, so our least γ
// at θ = 12 is at most 0.81 and 2·10⁻⁶ below it the condition fails; and
// as θ grows the least γ tends to √(4/(β+1)) = √(4/7) ≈ 0.755929 (γ^64 is
// then ≈ 10⁻⁸).
func TestC43PairsByHand(t *testing.T) {
	if p := c43Pairs(3); len(p) != 0 {
		t.Fatalf("β = 3: %d admissible pairs, want none (first %+v)", len(p), p[0])
	}
	ps := c43Pairs(6)
	by := map[int]float64{}
	for _, p := range ps {
		by[p.theta] = p.gamma
	}
	g12, ok := by[12]
	if !ok || g12 > 0.81 {
		t.Fatalf("β = 6, θ = 12: least γ %v (present %v), want ≤ 0.81 (the printed set)", g12, ok)
	}
	below := big.NewRat(int64(math.Round(g12*1e6))-2, 1e6)
	if _, ok := mbflyforms.Cond2(big.NewRat(6, 1), below, 12); ok {
		t.Fatalf("β = 6, θ = 12: γ = %s also satisfies condition (2), so %v is not the least", below.RatString(), g12)
	}
	if g := by[64]; math.Abs(g-math.Sqrt(4.0/7)) > 1e-4 {
		t.Fatalf("β = 6, θ = 64: least γ %v, want ≈ √(4/7) = %.6f", g, math.Sqrt(4.0/7))
	}
}

// TestC43BoundByHand: αn = 2, β = 5, (γ, θ) = (1/2, 2).
func TestC43BoundByHand(t *testing.T) {
	p := c43Pair{gamma: 0.5, theta: 2}
	for _, c := range []struct {
		t, s, k int
		f, want float64
	}{
		{4, 3, 1, 1, 2},              // 2·(1/2)^{4−2}·6^2 = 18, capped at αn = 2
		{8, 0, 0, 1, 2.0 / 256},      // 2·(1/2)^8
		{8, 1, 0, 1, 12.0 / 256},     // odd s = 1: exponent (s+1)/2 = 1
		{8, 2, 0, 1, 12.0 / 256},     // even s = 2: exponent s/2 = 1
		{8, 2, 0, 0.5, 6.0 / 256},    // the planted fault's halved term
		{0, 0, 0, 0.5, 2},            // …but not at t = 0
		{6, 0, 3, 1, 2},              // t = θk, s = 0: exactly αn
		{10, 4, 2, 1, 2 * 36.0 / 64}, // 2·(1/2)^6·6^2 = 1.125
	} {
		if got := c43Bound(2, 5, p, c.t, c.s, c.k, c.f); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("t=%d s=%d k=%d f=%v: bound %v, want %v", c.t, c.s, c.k, c.f, got, c.want)
		}
	}
}

// TestClaim43CanFail pins what the ledger note says: the bound binds at
// these sizes — a router five times slower (one pair of iterations in
// five) leaves batch 0's packet in stage 1 at iteration 10 (n = 16, d = 12,
// 1/α = 16, β = 5), where the bound is below one packet (0.96 at γ ≈ 0.83,
// θ = 20), while the router itself meets it.
func TestClaim43CanFail(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: 20261122}
	if o := claim43Check(1, 1)(env); o.Verdict != props.Holds {
		t.Fatalf("the router: %v %s", o.Verdict, o.Evidence)
	}
	if o := claim43Check(5, 1)(env); o.Verdict != props.Violated {
		t.Fatalf("5× slower router: %v %s", o.Verdict, o.Evidence)
	}
}
