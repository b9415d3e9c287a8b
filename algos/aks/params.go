package aks

import (
	"fmt"
	"math/big"
)

// Frac is an exact rational Num/Den (Den > 0).
type Frac struct{ Num, Den int64 }

// Rat returns f as a big.Rat; it panics on a zero denominator.
func (f Frac) Rat() *big.Rat {
	if f.Den == 0 {
		panic("aks: Frac with zero denominator")
	}
	return big.NewRat(f.Num, f.Den)
}

// Float returns f as a float64.
func (f Frac) Float() float64 { return float64(f.Num) / float64(f.Den) }

func (f Frac) String() string { return fmt.Sprintf("%d/%d", f.Num, f.Den) }

// Params are Seiferas's four parameters (§4): capacity growth A per level,
// capacity decay ν per stage, kick-back fraction λ and separator error ε.
// ε does not change the construction; it enters only the stranger bounds of
// invariant clause 4 and the constraints of §5.
type Params struct {
	A, Nu, Lambda, Eps Frac
}

// SeiferasParams is the example of §5: A = 10, λ = ε = 1/100, ν = 13/20.
func SeiferasParams() Params {
	return Params{A: Frac{10, 1}, Nu: Frac{13, 20}, Lambda: Frac{1, 100}, Eps: Frac{1, 100}}
}

// PreviewParams is the preview of §3: λ = ε = 1/99, A = 10, ν = 0.65. It
// violates the §5 constraint ν ≥ 4λA + 5/(2A) (40/99 + 1/4 > 13/20); see
// Violations.
func PreviewParams() Params {
	return Params{A: Frac{10, 1}, Nu: Frac{13, 20}, Lambda: Frac{1, 99}, Eps: Frac{1, 99}}
}

// AltParams is the alternative of §7: A = 6.785, λ = 1/96.4, ε = 1/57.45,
// ν = 13/20.
func AltParams() Params {
	return Params{A: Frac{6785, 1000}, Nu: Frac{13, 20}, Lambda: Frac{10, 964}, Eps: Frac{100, 5745}}
}

// Validate checks the ranges the construction needs: A > 1, 0 < ν < 1,
// 0 < λ < 1/2, ε ≥ 0, all denominators positive.
func (p Params) Validate() error {
	for _, f := range []struct {
		name string
		v    Frac
	}{{"A", p.A}, {"ν", p.Nu}, {"λ", p.Lambda}, {"ε", p.Eps}} {
		if f.v.Den <= 0 {
			return fmt.Errorf("aks: %s = %v has denominator ≤ 0", f.name, f.v)
		}
	}
	one, half, zero := big.NewRat(1, 1), big.NewRat(1, 2), new(big.Rat)
	switch {
	case p.A.Rat().Cmp(one) <= 0:
		return fmt.Errorf("aks: A = %v, need A > 1", p.A)
	case p.Nu.Rat().Cmp(zero) <= 0 || p.Nu.Rat().Cmp(one) >= 0:
		return fmt.Errorf("aks: ν = %v, need 0 < ν < 1", p.Nu)
	case p.Lambda.Rat().Cmp(zero) <= 0 || p.Lambda.Rat().Cmp(half) >= 0:
		return fmt.Errorf("aks: λ = %v, need 0 < λ < 1/2", p.Lambda)
	case p.Eps.Rat().Cmp(zero) < 0:
		return fmt.Errorf("aks: ε = %v, need ε ≥ 0", p.Eps)
	}
	return nil
}

// Violations returns the constraints of §5 that p violates, evaluated in
// exact rational arithmetic (nil when all hold):
//
//	A > 1, ν < 1, ε > 0, λ < 1,
//	(C1) ν ≥ 4λA + 5/(2A),
//	(C2) ν ≥ 2Aε + 1/A,
//	(C3) λν ≥ 2λεA + ελ/A + ε/(2A) + 2λεA/(1 − (2εA)²) + 1/(8A³ − 2A)
//	     (with 2εA < 1 needed for the geometric series behind it).
func (p Params) Violations() []string {
	r := func(n, d int64) *big.Rat { return big.NewRat(n, d) }
	mul := func(xs ...*big.Rat) *big.Rat {
		out := r(1, 1)
		for _, x := range xs {
			out.Mul(out, x)
		}
		return out
	}
	add := func(xs ...*big.Rat) *big.Rat {
		out := new(big.Rat)
		for _, x := range xs {
			out.Add(out, x)
		}
		return out
	}
	inv := func(x *big.Rat) *big.Rat { return new(big.Rat).Inv(x) }
	A, nu, lam, eps := p.A.Rat(), p.Nu.Rat(), p.Lambda.Rat(), p.Eps.Rat()
	var out []string
	if A.Cmp(r(1, 1)) <= 0 {
		out = append(out, "A > 1")
	}
	if nu.Cmp(r(1, 1)) >= 0 {
		out = append(out, "ν < 1")
	}
	if eps.Sign() <= 0 {
		out = append(out, "ε > 0")
	}
	if lam.Cmp(r(1, 1)) >= 0 {
		out = append(out, "λ < 1")
	}
	c1 := add(mul(r(4, 1), lam, A), inv(mul(r(2, 5), A)))
	if nu.Cmp(c1) < 0 {
		out = append(out, fmt.Sprintf("C1: ν ≥ 4λA + 5/(2A) fails: %s < %s", nu.FloatString(6), c1.FloatString(6)))
	}
	c2 := add(mul(r(2, 1), A, eps), inv(A))
	if nu.Cmp(c2) < 0 {
		out = append(out, fmt.Sprintf("C2: ν ≥ 2Aε + 1/A fails: %s < %s", nu.FloatString(6), c2.FloatString(6)))
	}
	twoEpsA := mul(r(2, 1), eps, A)
	if twoEpsA.Cmp(r(1, 1)) >= 0 {
		out = append(out, "C3: needs 2εA < 1")
		return out
	}
	denom := new(big.Rat).Sub(r(1, 1), mul(twoEpsA, twoEpsA))
	a3 := mul(A, A, A)
	c3 := add(
		mul(r(2, 1), lam, eps, A),
		mul(eps, lam, inv(A)),
		mul(eps, inv(mul(r(2, 1), A))),
		mul(r(2, 1), lam, eps, A, inv(denom)),
		inv(new(big.Rat).Sub(mul(r(8, 1), a3), mul(r(2, 1), A))),
	)
	lhs := mul(lam, nu)
	if lhs.Cmp(c3) < 0 {
		out = append(out, fmt.Sprintf("C3: λν ≥ 2λεA + ελ/A + ε/(2A) + 2λεA/(1−(2εA)²) + 1/(8A³−2A) fails: %s < %s",
			lhs.FloatString(8), c3.FloatString(8)))
	}
	return out
}

// schedule holds the data-independent numbers of the construction for a
// padded size N = 2^L: the number of stages T and, for t = 0..T and
// d = 0..L−1, the capacity b = N ν^t A^d (float, for reports), ⌊b⌋ and
// ⌊λb⌋, both computed exactly and clamped to 2^62.
type schedule struct {
	L, T     int
	capF     [][]float64
	capFloor [][]int64
	kick     [][]int64
	finalK   int // smallest k with A^(k+1) > 1/λ (§4)
}

const clamp = int64(1) << 62

func floorClamp(x *big.Rat) int64 {
	q := new(big.Int).Quo(x.Num(), x.Denom()) // x ≥ 0, so truncation is floor
	if !q.IsInt64() || q.Int64() > clamp {
		return clamp
	}
	return q.Int64()
}

// stagesNeeded returns the smallest t ≥ 0 with N ν^t A^(L−1) < 1/λ (§4),
// computed exactly.
func stagesNeeded(L int, p Params) int {
	A, nu, lam := p.A.Rat(), p.Nu.Rat(), p.Lambda.Rat()
	b := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(L)))
	for range L - 1 {
		b.Mul(b, A)
	}
	invLam := new(big.Rat).Inv(lam)
	t := 0
	for b.Cmp(invLam) >= 0 {
		b.Mul(b, nu)
		t++
	}
	return t
}

func newSchedule(L int, p Params) *schedule {
	s := &schedule{L: L, T: stagesNeeded(L, p)}
	A, nu, lam := p.A.Rat(), p.Nu.Rat(), p.Lambda.Rat()
	base := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(L))) // N ν^t
	for t := 0; t <= s.T; t++ {
		rowF := make([]float64, L)
		rowC := make([]int64, L)
		rowK := make([]int64, L)
		b := new(big.Rat).Set(base)
		for d := range L {
			rowF[d], _ = b.Float64()
			rowC[d] = floorClamp(b)
			rowK[d] = floorClamp(new(big.Rat).Mul(lam, b))
			b.Mul(b, A)
		}
		s.capF = append(s.capF, rowF)
		s.capFloor = append(s.capFloor, rowC)
		s.kick = append(s.kick, rowK)
		base.Mul(base, nu)
	}
	s.finalK = finalHeight(p)
	return s
}
