package sotforms

import (
	"fmt"
	"math"
	"math/big"
)

func checkP(p *big.Rat) {
	if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
		panic(fmt.Sprintf("sotforms: p = %s outside [0, 1]", p.RatString()))
	}
}

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

func add(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }
func mul(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }

// PTable returns P(k, l) for 0 ≤ k, l ≤ K, by the recurrence of §4.1 as
// printed:
//
//	P(k, l) = P(l, k)
//	P(k, k) = ½·P(k−1, k) + ½·P(k, k−1)          (k > 0)
//	P(k, l) = p·P(k−1, l) + (1−p)·P(k, l−1)      (k > l > 0)
//	P(k, 0) = p·P(k−1, 0)                        (k > 0)
//	P(0, 0) = 1
//
// computed in increasing k + l. Cost O(K²) rational operations on numbers
// of O(K·log(denominator of p)) bits.
func PTable(K int, p *big.Rat) [][]*big.Rat {
	checkP(p)
	q := new(big.Rat).Sub(rat(1, 1), p)
	half := rat(1, 2)
	P := make([][]*big.Rat, K+1)
	for k := range P {
		P[k] = make([]*big.Rat, K+1)
	}
	P[0][0] = rat(1, 1)
	for s := 1; s <= 2*K; s++ {
		for k := max(0, s-K); k <= min(s, K); k++ {
			l := s - k
			if k < l {
				continue // filled by symmetry below
			}
			var v *big.Rat
			switch {
			case k == l:
				v = add(mul(half, P[k-1][l]), mul(half, P[k][l-1]))
			case l == 0:
				v = mul(p, P[k-1][0])
			default:
				v = add(mul(p, P[k-1][l]), mul(q, P[k][l-1]))
			}
			P[k][l], P[l][k] = v, v
		}
	}
	return P
}

// QRecurrence returns Q_k = P(k, k) for k = 0…K from PTable.
func QRecurrence(K int, p *big.Rat) []*big.Rat {
	P := PTable(K, p)
	Q := make([]*big.Rat, K+1)
	for k := range Q {
		Q[k] = P[k][k]
	}
	return Q
}

// Catalan returns C_0…C_K, C_j = binom(2j, j)/(j + 1).
func Catalan(K int) []*big.Int {
	c := make([]*big.Int, K+1)
	for j := range c {
		b := new(big.Int).Binomial(int64(2*j), int64(j))
		c[j] = b.Quo(b, big.NewInt(int64(j+1)))
	}
	return c
}

// QConvolution returns Q_0…Q_K by the first-return decomposition of the
// proof of Theorem 3a, Q_0 = 1 and
//
//	Q_k = 2 Σ_{j=0}^{k−1} C_j · ½ · q^j · p^{j+1} · Q_{k−j−1}.
//
// Cost O(K²).
func QConvolution(K int, p *big.Rat) []*big.Rat {
	checkP(p)
	q := new(big.Rat).Sub(rat(1, 1), p)
	C := Catalan(K)
	Q := make([]*big.Rat, K+1)
	Q[0] = rat(1, 1)
	// w[j] = 2 · C_j · ½ · q^j · p^{j+1} = C_j q^j p^{j+1}
	w := make([]*big.Rat, K)
	pq := rat(1, 1)
	for j := range w {
		w[j] = mul(mul(new(big.Rat).SetInt(C[j]), pq), p)
		pq = mul(pq, mul(p, q))
	}
	for k := 1; k <= K; k++ {
		sum := new(big.Rat)
		for j := 0; j < k; j++ {
			sum.Add(sum, mul(w[j], Q[k-j-1]))
		}
		Q[k] = sum
	}
	return Q
}

// SqrtSeries returns the first K+1 coefficients of √(1 − x·z) as a power
// series in z (x rational), by the generic recurrence for the square root
// of a series with constant term 1: s_0 = 1, s_m = (c_m − Σ_{i=1}^{m−1}
// s_i·s_{m−i})/2 with c_1 = −x and c_m = 0 for m ≥ 2. Cost O(K²).
func SqrtSeries(K int, x *big.Rat) []*big.Rat {
	s := make([]*big.Rat, K+1)
	s[0] = rat(1, 1)
	for m := 1; m <= K; m++ {
		c := new(big.Rat)
		if m == 1 {
			c.Neg(x)
		}
		for i := 1; i < m; i++ {
			c.Sub(c, mul(s[i], s[m-i]))
		}
		s[m] = c.Mul(c, rat(1, 2))
	}
	return s
}

// QGenerating returns Q_0…Q_K as the proof's last step reads them off the
// closed form: Q(z) = R(z)/(1 − z), R(z) = (1 − 2q + √(1 − 4pqz))/(2p), so
// Q_k = R_0 + … + R_k. p must be positive (it panics on p = 0).
func QGenerating(K int, p *big.Rat) []*big.Rat {
	checkP(p)
	if p.Sign() == 0 {
		panic("sotforms: QGenerating needs p > 0")
	}
	q := new(big.Rat).Sub(rat(1, 1), p)
	s := SqrtSeries(K, mul(rat(4, 1), mul(p, q)))
	twoP := mul(rat(2, 1), p)
	Q := make([]*big.Rat, K+1)
	sum := new(big.Rat)
	for m := 0; m <= K; m++ {
		r := new(big.Rat).Set(s[m])
		if m == 0 {
			r.Add(r, new(big.Rat).Sub(rat(1, 1), mul(rat(2, 1), q)))
		}
		sum.Add(sum, r.Quo(r, twoP))
		Q[m] = new(big.Rat).Set(sum)
	}
	return Q
}

// AntidiagonalSums returns S_k = Σ_{i+j=k} P(i, j) for k = 0…K (from PTable
// of side K).
func AntidiagonalSums(K int, p *big.Rat) []*big.Rat {
	P := PTable(K, p)
	S := make([]*big.Rat, K+1)
	for k := range S {
		s := new(big.Rat)
		for i := 0; i <= k; i++ {
			s.Add(s, P[i][k-i])
		}
		S[k] = s
	}
	return S
}

// Limit3a is Theorem 3a's limit as printed:
// (1 − 2(1−p) + √(1 − 4p(1−p)))/(2p), for 0 < p ≤ 1.
func Limit3a(p float64) float64 {
	q := 1 - p
	return (1 - 2*q + math.Sqrt(1-4*p*q)) / (2 * p)
}

// Limit3b is Theorem 3b's limit as printed:
// ((1−p)/p)·(1 − 2(1−p) + √(1 − 4p(1−p))), for 0 < p ≤ 1.
func Limit3b(p float64) float64 {
	q := 1 - p
	return (1 - p) / p * (1 - 2*q + math.Sqrt(1-4*p*q))
}

// Float converts a rational to the nearest float64.
func Float(x *big.Rat) float64 {
	f, _ := x.Float64()
	return f
}
