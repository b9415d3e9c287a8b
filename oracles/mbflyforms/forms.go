package mbflyforms

import (
	"math"
	"math/big"
)

// R is a shorthand for an exact rational a/b.
func R(a, b int64) *big.Rat { return big.NewRat(a, b) }

// Batches returns L = ⌈1/(α(β+1))⌉ exactly (§3.2). It panics unless
// α > 0 and β ≥ 0.
func Batches(alpha, beta *big.Rat) int64 {
	if alpha.Sign() <= 0 || beta.Sign() < 0 {
		panic("mbflyforms: Batches needs α > 0, β ≥ 0")
	}
	x := new(big.Rat).Mul(alpha, new(big.Rat).Add(beta, R(1, 1)))
	x.Inv(x)
	q, r := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

func pow(g *big.Rat, n int) *big.Rat {
	out := R(1, 1)
	for range n {
		out.Mul(out, g)
	}
	return out
}

// Cond1 evaluates condition (1) of §3.3, 4/(β+1) + 3γ^θ/(1−γ^θ) ≤ γ² < 1,
// exactly: it returns the left side, γ², and whether the condition holds.
func Cond1(beta, gamma *big.Rat, theta int) (lhs, g2 *big.Rat, ok bool) {
	gt := pow(gamma, theta)
	one := R(1, 1)
	lhs = new(big.Rat).Quo(R(4, 1), new(big.Rat).Add(beta, one))
	t := new(big.Rat).Quo(new(big.Rat).Mul(R(3, 1), gt), new(big.Rat).Sub(one, gt))
	lhs.Add(lhs, t)
	g2 = new(big.Rat).Mul(gamma, gamma)
	return lhs, g2, lhs.Cmp(g2) <= 0 && g2.Cmp(one) < 0
}

// Cond2 evaluates condition (2) of §4.3,
// 2/(γ²(β+1)(1−γ^θ)) · (1 + 1/(1−γ^θ)) ≤ 1, exactly: the left side and
// whether it holds.
func Cond2(beta, gamma *big.Rat, theta int) (lhs *big.Rat, ok bool) {
	one := R(1, 1)
	u := new(big.Rat).Sub(one, pow(gamma, theta))
	den := new(big.Rat).Mul(new(big.Rat).Mul(gamma, gamma), new(big.Rat).Add(beta, one))
	den.Mul(den, u)
	lhs = new(big.Rat).Quo(R(2, 1), den)
	lhs.Mul(lhs, new(big.Rat).Add(one, new(big.Rat).Inv(u)))
	return lhs, lhs.Cmp(one) <= 0
}

// Thm31Coefficient is Theorem 3.1's factor of log N: 2d(1 + ½log(1+β)) /
// log(1/γ), with log = log₂ (or ln when natural).
func Thm31Coefficient(d int, beta, gamma float64, natural bool) float64 {
	lg := math.Log2
	if natural {
		lg = math.Log
	}
	return 2 * float64(d) * (1 + 0.5*lg(1+beta)) / lg(1/gamma)
}

// Thm41Coefficient is Theorem 4.1's factor of log N, (3d+1)(θ/α +
// (1 + log(1+β))/log(1/γ) + 1); Thm43Coefficient is Theorem 4.3's, with
// 6d+1 in place of 3d+1.
func Thm41Coefficient(d int, alpha, beta, gamma float64, theta int, natural bool) float64 {
	return float64(3*d+1) * sec4Bracket(alpha, beta, gamma, theta, natural)
}

// Thm43Coefficient: see Thm41Coefficient.
func Thm43Coefficient(d int, alpha, beta, gamma float64, theta int, natural bool) float64 {
	return float64(6*d+1) * sec4Bracket(alpha, beta, gamma, theta, natural)
}

func sec4Bracket(alpha, beta, gamma float64, theta int, natural bool) float64 {
	lg := math.Log2
	if natural {
		lg = math.Log
	}
	return float64(theta)/alpha + (1+lg(1+beta))/lg(1/gamma) + 1
}

// T0 is the iteration count of Theorem 3.1's proof: the smallest even
// T ≥ 0 with (N/L)(β+1)^{(1+log N)/2} γ^{T−θL} γ^θ/(1−γ^θ) < 1 (computed in
// logarithms; logN = log₂ N). After T0 iterations the proof leaves no
// packet outside the outputs, so the run takes at most 2d·T0 steps.
func T0(logN, L int, beta, gamma float64, theta int) int {
	n := math.Ldexp(1, logN)
	gt := math.Pow(gamma, float64(theta))
	c := math.Log(n/float64(L)) + float64(1+logN)/2*math.Log(beta+1) - float64(theta*L)*math.Log(gamma) + math.Log(gt/(1-gt))
	// c + T·ln γ < 0  ⇔  T > c / ln(1/γ)
	T := int(math.Floor(c/math.Log(1/gamma))) + 1
	if T < 0 {
		T = 0
	}
	if T%2 == 1 {
		T++
	}
	return T
}

// BestT0 minimizes T0 over γ on a grid of step 0.001 in (√(4/(β+1)), 1) and
// integer θ in [1, 2000] subject to condition (1) (checked in float64 with a
// 1e-12 margin). It returns ok = false when no such (γ, θ) exists (β ≤ 3).
func BestT0(logN, L int, beta float64) (t0 int, gamma float64, theta int, ok bool) {
	best := math.MaxInt
	for gi := 1; gi < 1000; gi++ {
		g := float64(gi) / 1000
		slack := g*g - 4/(beta+1)
		if slack <= 1e-12 {
			continue
		}
		for th := 1; th <= 2000; th++ {
			gt := math.Pow(g, float64(th))
			if 3*gt/(1-gt) <= slack-1e-12 {
				if t := T0(logN, L, beta, g, th); t < best {
					best, gamma, theta = t, g, th
				}
				break // larger θ only grows θL
			}
		}
	}
	return best, gamma, theta, best < math.MaxInt
}

// Claim32Bound is Claim 3.2's bound on X_s^t(k) for even t:
// min[N/L, (N/L)γ^{t−θk}(1+β)^{e}] with e = (s+1)/2 for odd s, s/2 for even s.
func Claim32Bound(n, L int, beta, gamma float64, theta, t, s, k int) float64 {
	e := float64(s) / 2
	if s%2 == 1 {
		e = float64(s+1) / 2
	}
	b := float64(n) / float64(L)
	return math.Min(b, b*math.Pow(gamma, float64(t-theta*k))*math.Pow(1+beta, e))
}

// ParamSet is a parameter assignment the paper prints, with the figures it
// claims for it.
type ParamSet struct {
	Name               string
	Where              string
	D, Theta           int
	Alpha, Beta, Gamma *big.Rat
	// PrintedL is the L printed (0: none); PrintedCoeff the printed factor
	// of log N; PrintedDegreeReduced the §4.4 / §3.3 degree-reduced figure.
	PrintedL             int64
	PrintedCoeff         float64
	PrintedDegreeReduced float64
}

// Sec3Sets are §3.3's two assignments (after Theorem 3.1).
var Sec3Sets = []ParamSet{
	{Name: "nonexplicit", Where: "§3.3 after Theorem 3.1", D: 10, Beta: R(7, 1), Alpha: R(1, 2312), Gamma: R(714, 1000), Theta: 14, PrintedL: 68, PrintedCoeff: 100},
	{Name: "explicit", Where: "§3.3 after Theorem 3.1", D: 60, Beta: R(7, 1), Alpha: R(1, 189), Gamma: R(707, 1000), Theta: 14, PrintedL: 27, PrintedCoeff: 600},
}

// Sec4Sets are §4.3's two assignments (after Theorem 4.1), with Theorem
// 4.3's figures as PrintedDegreeReduced.
var Sec4Sets = []ParamSet{
	{Name: "nonexplicit", Where: "§4.3 after Theorem 4.1", D: 21, Beta: R(6, 1), Gamma: R(81, 100), Alpha: R(42, 1000), Theta: 12, PrintedCoeff: 18500, PrintedDegreeReduced: 37000},
	{Name: "explicit", Where: "§4.3 after Theorem 4.1", D: 102, Beta: R(64, 10), Gamma: R(796, 1000), Alpha: R(4, 100), Theta: 10, PrintedCoeff: 8e4, PrintedDegreeReduced: 1.6e5},
}

// F converts an exact rational to float64.
func F(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// RoundSig rounds x to sig significant decimal digits.
func RoundSig(x float64, sig int) float64 {
	if x == 0 {
		return 0
	}
	e := math.Floor(math.Log10(math.Abs(x))) - float64(sig) + 1
	p := math.Pow(10, e)
	return math.Round(x/p) * p
}

// SigDigits is the number of significant digits of a printed figure
// (trailing zeros are not significant: 100 → 1, 18500 → 3, 1.6e5 → 2).
func SigDigits(x float64) int {
	for s := 1; s < 16; s++ {
		if RoundSig(x, s) == x {
			return s
		}
	}
	return 16
}
