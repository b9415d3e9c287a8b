package aks

import (
	"fmt"
	"math"
	"math/big"
)

// PatersonHalverDepth is Paterson's bound on the depth of an ε-halver, as
// quoted in §7 ("Halver depth bounds", Paterson's appendix with α = 1):
// ⌈2 ln ε / ln(1−ε) + 2/ε − 1⌉. It panics unless 0 < ε < 1.
func PatersonHalverDepth(eps float64) int64 {
	if !(eps > 0 && eps < 1) {
		panic("aks: PatersonHalverDepth needs 0 < ε < 1")
	}
	return int64(math.Ceil(2*math.Log(eps)/math.Log1p(-eps) + 2/eps - 1))
}

// IterationCoefficient is (1 + log₂ A)/log₂(1/ν), the coefficient of log₂ n
// in the number of stages (§4, §7).
func IterationCoefficient(p Params) float64 {
	return (1 + math.Log2(p.A.Float())) / -math.Log2(p.Nu.Float())
}

// Iterations returns the number of stages for n = 2^k: the smallest t ≥ 0
// with 2^k ν^t A^(k−1) < 1/λ (§4), evaluated with float64 logarithms so
// that it works for astronomically large n (Construct uses exact rationals).
func Iterations(k int, p Params) int64 {
	x := (float64(k) + float64(k-1)*math.Log2(p.A.Float()) + math.Log2(p.Lambda.Float())) / -math.Log2(p.Nu.Float())
	if x < 0 {
		return 0
	}
	return int64(math.Floor(x)) + 1
}

// finalHeight is §4's k: the smallest k ≥ 0 with A^(k+1) > 1/λ, exactly.
func finalHeight(p Params) int {
	invLam := new(big.Rat).Inv(p.Lambda.Rat())
	pw, k := p.A.Rat(), 0
	for pw.Cmp(invLam) <= 0 {
		pw.Mul(pw, p.A.Rat())
		k++
	}
	return k
}

// Depth is the analytic depth of the paper-faithful network for n = 2^k.
type Depth struct {
	K           int     // log₂ n
	Iterations  int64   // stages (§4)
	SepHalvers  int64   // halvers per separator: ⌈log₂(1/c) + log₂(1/λ)⌉ (§6 Lemma 2, §7)
	HalverEps   float64 // ε₀ = ε / SepHalvers
	HalverDepth int64   // PatersonHalverDepth(ε₀)
	FinalHeight int     // §4's k (finishing sorters on 2^(FinalHeight+1) items, capped at n)
	FinalDepth  int64   // Batcher depth j(j+1)/2 of those sorters, j = min(FinalHeight+1, K)
	Total       int64   // Iterations·SepHalvers·HalverDepth + FinalDepth
}

// PaperDepth evaluates §7's depth estimate for n = 2^k without building the
// network: Iterations(k) stages, each SepHalvers halvers of Paterson depth,
// then the finishing Batcher sorters. c ∈ (0, 1] is Lemma 2's slack
// constant; c = 1 takes the limit c → 1 (⌊log₂(1/λ)⌋ + 1 halvers). Errors
// on bad parameters, ε = 0, or k < 1.
func PaperDepth(k int, p Params, c float64) (Depth, error) {
	return DepthWithHalver(k, p, c, 0)
}

// DepthWithHalver is PaperDepth with halvers of the given depth instead of
// Paterson's (halverDepth = 0 means Paterson's). With halverDepth = d it is
// the depth of our expander-halver networks if every stage used all its
// SepHalvers·d layers (an estimate, not a bound: Lemma 2 needs one more
// halver in bags with ⌊λb⌋ small, see §6).
func DepthWithHalver(k int, p Params, c float64, halverDepth int64) (Depth, error) {
	m, err := newDepthModel(p, c, halverDepth)
	if err != nil {
		return Depth{}, err
	}
	if k < 1 {
		return Depth{}, fmt.Errorf("aks: k = %d, need k ≥ 1", k)
	}
	return m.at(k), nil
}

// depthModel holds the k-independent parts of Depth.
type depthModel struct {
	p    Params
	base Depth
}

func newDepthModel(p Params, c float64, halverDepth int64) (*depthModel, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !(c > 0 && c <= 1) {
		return nil, fmt.Errorf("aks: c = %v, need 0 < c ≤ 1", c)
	}
	if halverDepth < 0 {
		return nil, fmt.Errorf("aks: halver depth %d, need ≥ 0", halverDepth)
	}
	if halverDepth == 0 && p.Eps.Num <= 0 {
		return nil, fmt.Errorf("aks: ε = %v, need ε > 0 for Paterson's halver depths", p.Eps)
	}
	d := Depth{FinalHeight: finalHeight(p)}
	l := -math.Log2(p.Lambda.Float())
	if c == 1 {
		d.SepHalvers = int64(math.Floor(l)) + 1
	} else {
		d.SepHalvers = int64(math.Ceil(-math.Log2(c) + l))
	}
	d.HalverEps = p.Eps.Float() / float64(d.SepHalvers)
	d.HalverDepth = halverDepth
	if halverDepth == 0 {
		d.HalverDepth = PatersonHalverDepth(d.HalverEps)
	}
	return &depthModel{p: p, base: d}, nil
}

func (m *depthModel) at(k int) Depth {
	d := m.base
	d.K = k
	d.Iterations = Iterations(k, m.p)
	j := int64(min(d.FinalHeight+1, k))
	d.FinalDepth = j * (j + 1) / 2
	d.Total = d.Iterations*d.SepHalvers*d.HalverDepth + d.FinalDepth
	return d
}

// BatcherDepth is the depth k(k+1)/2 of Batcher's networks on 2^k wires.
func BatcherDepth(k int) int64 { return int64(k) * int64(k+1) / 2 }

// Crossover returns the least k ≥ 1 with DepthWithHalver(k, p, c,
// halverDepth).Total < BatcherDepth(k) (halverDepth 0: Paterson's, i.e.
// PaperDepth), searching k ≤ maxK; ok is false if there is none. Since that
// depth grows linearly in k and Batcher's quadratically, the inequality
// keeps holding for every larger k.
func Crossover(p Params, c float64, halverDepth int64, maxK int) (k int, aks, batcher int64, ok bool, err error) {
	m, err := newDepthModel(p, c, halverDepth)
	if err != nil {
		return 0, 0, 0, false, err
	}
	for k = 1; k <= maxK; k++ {
		if d, b := m.at(k), BatcherDepth(k); d.Total < b {
			return k, d.Total, b, true, nil
		}
	}
	return 0, 0, 0, false, nil
}
