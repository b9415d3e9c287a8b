package bflyforms

import (
	"math/big"
)

// bit returns bit i (1 = most significant) of an n-bit row.
func bit(x int32, n, i int) int32 { return x >> (n - i) & 1 }

// PlainRow is the row of the node at stage s (0 ≤ s ≤ n) on the unique
// path from input src to output dst of the plain n-stage butterfly, as §2
// prints it: (b_1, …, b_s, a_{s+1}, …, a_n).
func PlainRow(n int, src, dst int32, s int) int32 {
	var row int32
	for i := 1; i <= n; i++ {
		b := bit(src, n, i)
		if i <= s {
			b = bit(dst, n, i)
		}
		row = row<<1 | b
	}
	return row
}

// M returns, for every stage 0 ≤ s ≤ n and every suffix a = (a_{r+1}, …,
// a_n) (as an (n−r)-bit number), |M(π, s, a)|: the number of packets of π
// whose plain path crosses a node of B(s, a), i.e. whose row at stage s
// ends in a. Indexed [s][a].
func M(pi []int32, n, r int) [][]int {
	out := make([][]int, n+1)
	for s := range out {
		out[s] = make([]int, 1<<(n-r))
		for src, dst := range pi {
			row := PlainRow(n, int32(src), dst, s)
			out[s][row&(1<<(n-r)-1)]++
		}
	}
	return out
}

// MaxM is max over s and a of |M(π, s, a)|.
func MaxM(pi []int32, n, r int) int {
	m := 0
	for _, row := range M(pi, n, r) {
		for _, x := range row {
			m = max(m, x)
		}
	}
	return m
}

// InPsi reports π ∈ Ψ(r, τ): |M(π, s, a)| < τ for all 0 ≤ s ≤ n and all a.
func InPsi(pi []int32, n, r, tau int) bool { return MaxM(pi, n, r) < tau }

// MBound is the proof of Theorem 6's bound on |M(π, s, a)| for every π:
// 2^r if s ≤ r (B(s, a) is reached from 2^r inputs), otherwise
// min(2^s, 2^r·2^{n−s}) (reached from 2^s inputs, reaching 2^r·2^{n−s}
// outputs). The proof's "2^{(n+r)/2} = max_s min[2^s, 2^r 2^{n−s}]" is the
// largest of these over s.
func MBound(n, r, s int) int {
	if s <= r {
		return 1 << r
	}
	return min(1<<s, 1<<(r+n-s))
}

func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

func fact(n int) *big.Int { return new(big.Int).MulRange(1, int64(n)) }

// Thm6UnionBound is the first display of Theorem 6's proof, a bound on the
// number of permutations outside Ψ(r, τ) (printed with τ = c·2^r):
//
//	Σ_{s=r}^{n−1} Σ_{k=τ}^{K_s} (N/2^r) C(2^s, k) C(2^r·2^{n−s}, k) k! (N−k)!
//
// The printed upper limit of k, "(n+r)/2", is read as K_s = min(2^s,
// 2^r·2^{n−s}) (≤ 2^{(n+r)/2}; larger k contribute 0 since the binomials
// vanish). It only bounds the sets with s ≥ r, so it bounds the count when
// τ > 2^r (smaller sets hold at most 2^r packets).
func Thm6UnionBound(n, r, tau int) *big.Int {
	N := 1 << n
	sum := new(big.Int)
	for s := r; s <= n-1; s++ {
		for k := tau; k <= min(1<<s, 1<<(r+n-s)); k++ {
			t := new(big.Int).Mul(binom(1<<s, k), binom(1<<(r+n-s), k))
			t.Mul(t, fact(k))
			t.Mul(t, fact(N-k))
			t.Mul(t, big.NewInt(int64(N>>r)))
			sum.Add(sum, t)
		}
	}
	return sum
}

// Lemma9Bound is the bound of Lemma 9's proof on the number of packets of
// t permutations π_1…π_t crossing node (s, row) of the butterfly with r
// extra stages, whatever the random transitions: a node in the first r
// stages is reached from 2^s ≤ 2^r inputs (at most t·2^s packets); a node
// at stage r < s ≤ n only by packets of M(π_ℓ, s, (a_{r+1}, …, a_n))
// (Σ_ℓ |M|); a node at stage n + j (the repeated stages, which the proof
// does not discuss) reaches 2^{r−j} outputs (at most t·2^{r−j}). ms[ℓ] is
// M(π_ℓ, n, r).
func Lemma9Bound(n, r, s int, row int32, ms [][][]int) int {
	t := len(ms)
	switch {
	case s <= r:
		return t << s
	case s <= n:
		b := 0
		for _, m := range ms {
			b += m[s][int(row)&(1<<(n-r)-1)]
		}
		return b
	}
	return t << (r - (s - n))
}

// FitAvg is §4.3's fitted average latency
// −12.90 + 3.18n + 0.75p + 0.69p/2^r + 0.07np/2^r + 3.20r.
func FitAvg(n, r, p int) float64 {
	q := float64(p) / float64(int64(1)<<r)
	return -12.90 + 3.18*float64(n) + 0.75*float64(p) + 0.69*q + 0.07*float64(n)*q + 3.20*float64(r)
}

// FitMax is §4.3's fitted maximum latency
// −29.69 + 8.09n + 1.83p + 0.84p/2^r + 0.76np/2^r − 1.43r.
func FitMax(n, r, p int) float64 {
	q := float64(p) / float64(int64(1)<<r)
	return -29.69 + 8.09*float64(n) + 1.83*float64(p) + 0.84*q + 0.76*float64(n)*q - 1.43*float64(r)
}

// Transpose swaps the two halves of the n-bit address (n even; for odd n
// the high ⌈n/2⌉ bits and the low ⌊n/2⌋ bits trade places):
// (a_1…a_h, a_{h+1}…a_n) ↦ (a_{h+1}…a_n, a_1…a_h), h = ⌈n/2⌉.
func Transpose(n int) []int32 {
	h := (n + 1) / 2
	l := n - h
	p := make([]int32, 1<<n)
	for i := range p {
		hi, lo := int32(i)>>l, int32(i)&(1<<l-1)
		p[i] = lo<<h | hi
	}
	return p
}

// BitReversal maps (a_1, …, a_n) to (a_n, …, a_1).
func BitReversal(n int) []int32 {
	p := make([]int32, 1<<n)
	for i := range p {
		var x int32
		for j := range n {
			x = x<<1 | int32(i)>>j&1
		}
		p[i] = x
	}
	return p
}

// ExtRow is the row at stage s (0 ≤ s ≤ n + r) of the path §3 prints for a
// packet from a to b with random bits x = (x_1, …, x_r) (x_1 the most
// significant of x), written bit by bit: (x_1…x_s, a_{s+1}…a_n) for s ≤ r;
// (x_1…x_r, b_{r+1}…b_s, a_{s+1}…a_n) for r < s ≤ n; (b_1…b_j, x_{j+1}…x_r,
// b_{r+1}…b_n) for s = n + j.
func ExtRow(n, r int, a, b, x int32, s int) int32 {
	var row int32
	for i := 1; i <= n; i++ {
		var v int32
		switch {
		case s <= n && i <= min(s, r):
			v = bit(x, r, i)
		case s <= n && i <= s:
			v = bit(b, n, i)
		case s <= n:
			v = bit(a, n, i)
		case i <= s-n || i > r:
			v = bit(b, n, i)
		default:
			v = bit(x, r, i)
		}
		row = row<<1 | v
	}
	return row
}
