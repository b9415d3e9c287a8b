package expander

import "fmt"

// LPS is the Lubotzky–Phillips–Sarnak graph X^{p,q} (the paper's ref. [8],
// used by Theorem 2.1(2)), given as a bipartite graph suitable for
// Definition 2.1.
//
// Construction (LPS 1988; p, q distinct primes ≡ 1 mod 4):
//   - the p + 1 integer solutions of a0² + a1² + a2² + a3² = p with a0 > 0
//     odd and a1, a2, a3 even (Jacobi: there are exactly p + 1);
//   - ι with ι² ≡ −1 (mod q); each solution gives the matrix
//     S = [[a0 + ι·a1, a2 + ι·a3], [−a2 + ι·a3, a0 − ι·a1]] mod q, of
//     determinant p;
//   - X^{p,q} is the Cayley graph g ~ g·S of PGL(2, q) (q(q²−1) vertices)
//     when p is not a square mod q — it is bipartite between PSL(2, q) (the
//     matrices of square determinant) and its other coset — and of PSL(2, q)
//     (q(q²−1)/2 vertices) when p is a square mod q.
//
// As a Graph: A = PSL(2, q) (n = q(q²−1)/2 vertices, indexed in the order
// of an enumeration of canonical matrices), and a ∈ A is joined to a·S for
// every generator S. In the non-square case B is the other coset, so the
// Graph is X^{p,q} itself (its biadjacency matrix M); in the square case
// B = A, so the Graph is the bipartite double cover of X^{p,q} and M is its
// adjacency matrix. Either way M·Mᵀ has the eigenvalues λ² of X^{p,q}, so
// Spectral's Lambda2 is the largest squared non-trivial eigenvalue, and
// X^{p,q} is Ramanujan exactly when Lambda2 ≤ 4p. The graph is (p+1)-regular
// on both sides (parallel edges kept: for small q two generators may
// coincide mod q).
//
// LPS returns an error unless p and q are distinct primes ≡ 1 mod 4 with
// q ≤ 61 (n ≤ 113 460). Cost O(q⁴ + n·p).
func LPS(p, q int) (Graph, error) {
	return lps(p, q, -1)
}

// LPSWrongRoot is LPS built with ι replaced by ι + 1 (not a square root of
// −1 mod q; an error where ι + 1 is the other root, as for q = 5): the same
// counts and degrees, but the generators no longer come from the
// quaternions of norm p. It exists only as a planted fault for the claims
// ledger.
func LPSWrongRoot(p, q int) (Graph, error) {
	return lps(p, q, 1)
}

// LPSSolutions returns the p + 1 quaternions (a0, a1, a2, a3) of norm p with
// a0 > 0 odd and a1, a2, a3 even, in lexicographic order (p ≡ 1 mod 4).
func LPSSolutions(p int) [][4]int {
	var out [][4]int
	r := 0
	for r*r <= p {
		r++
	}
	for a0 := 1; a0*a0 <= p; a0 += 2 {
		for a1 := -r; a1 <= r; a1++ {
			for a2 := -r; a2 <= r; a2++ {
				for a3 := -r; a3 <= r; a3++ {
					if a1%2 != 0 || a2%2 != 0 || a3%2 != 0 {
						continue
					}
					if a0*a0+a1*a1+a2*a2+a3*a3 == p {
						out = append(out, [4]int{a0, a1, a2, a3})
					}
				}
			}
		}
	}
	return out
}

// IsPrime reports whether n is prime (trial division).
func IsPrime(n int) bool {
	if n < 2 {
		return false
	}
	for f := 2; f*f <= n; f++ {
		if n%f == 0 {
			return false
		}
	}
	return true
}

// Legendre returns the Legendre symbol (a/q) ∈ {−1, 0, 1} for an odd prime
// q, by Euler's criterion.
func Legendre(a, q int) int {
	a = ((a % q) + q) % q
	if a == 0 {
		return 0
	}
	if powMod(a, (q-1)/2, q) == 1 {
		return 1
	}
	return -1
}

func powMod(a, e, q int) int {
	r := 1
	a %= q
	for e > 0 {
		if e&1 == 1 {
			r = r * a % q
		}
		a = a * a % q
		e >>= 1
	}
	return r
}

// LPSOrder returns the number of left vertices of LPS(p, q):
// q(q²−1)/2.
func LPSOrder(q int) int { return q * (q*q - 1) / 2 }

func lps(p, q, rootShift int) (Graph, error) {
	switch {
	case !IsPrime(p) || p%4 != 1:
		return Graph{}, fmt.Errorf("expander: LPS p = %d: must be a prime ≡ 1 (mod 4)", p)
	case !IsPrime(q) || q%4 != 1 || q > 61:
		return Graph{}, fmt.Errorf("expander: LPS q = %d: must be a prime ≡ 1 (mod 4), at most 61", q)
	case p == q:
		return Graph{}, fmt.Errorf("expander: LPS p = q = %d: p and q must differ", p)
	}
	iota := 0
	for x := 1; x < q; x++ {
		if x*x%q == q-1 {
			iota = x
			break
		}
	}
	if rootShift > 0 {
		iota = (iota + rootShift) % q
		if iota*iota%q == q-1 {
			return Graph{}, fmt.Errorf("expander: LPSWrongRoot q = %d: ι + 1 = %d is the other square root of −1", q, iota)
		}
	}
	mod := func(x int) int { return ((x % q) + q) % q }
	var gens [][4]int
	for _, s := range LPSSolutions(p) {
		a0, a1, a2, a3 := s[0], s[1], s[2], s[3]
		gens = append(gens, [4]int{mod(a0 + iota*a1), mod(a2 + iota*a3), mod(-a2 + iota*a3), mod(a0 - iota*a1)})
	}
	if len(gens) != p+1 {
		panic(fmt.Sprintf("expander: %d quaternions of norm %d, want %d", len(gens), p, p+1))
	}
	inv := make([]int, q)
	for x := 1; x < q; x++ {
		inv[x] = powMod(x, q-2, q)
	}
	canon := func(m [4]int) [4]int {
		s := m[0]
		if s == 0 {
			s = m[1]
		}
		t := inv[s]
		return [4]int{m[0] * t % q, m[1] * t % q, m[2] * t % q, m[3] * t % q}
	}
	key := func(m [4]int) int { return ((m[0]*q+m[1])*q+m[2])*q + m[3] }
	// Index the canonical matrices of PGL(2, q) by determinant class: side
	// 0 (square determinant, PSL) and side 1.
	q4 := q * q * q * q
	idx := make([]int32, q4)
	var count [2]int32
	var side0 [][4]int
	for k := range q4 {
		m := [4]int{k / (q * q * q), k / (q * q) % q, k / q % q, k % q}
		det := mod(m[0]*m[3] - m[1]*m[2])
		if det == 0 || canon(m) != m {
			idx[k] = -1
			continue
		}
		sd := 0
		if Legendre(det, q) != 1 {
			sd = 1
		}
		idx[k] = count[sd]
		count[sd]++
		if sd == 0 {
			side0 = append(side0, m)
		}
	}
	n := LPSOrder(q)
	if int(count[0]) != n || int(count[1]) != n {
		panic(fmt.Sprintf("expander: PGL(2, %d) sides %v, want %d each", q, count, n))
	}
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a, m := range side0 {
		l := make([]int32, 0, p+1)
		for _, s := range gens {
			prod := [4]int{
				(m[0]*s[0] + m[1]*s[2]) % q, (m[0]*s[1] + m[1]*s[3]) % q,
				(m[2]*s[0] + m[3]*s[2]) % q, (m[2]*s[1] + m[3]*s[3]) % q,
			}
			if mod(prod[0]*prod[3]-prod[1]*prod[2]) == 0 {
				return Graph{}, fmt.Errorf("expander: LPS generator %v singular mod %d", s, q)
			}
			l = append(l, idx[key(canon(prod))])
		}
		g.Adj[a] = l
	}
	return g, nil
}

// LPSSplitter builds the explicit splitter of Corollary 2.1(2)'s proof from
// X^{p,q} (n = q(q²−1)/2 inputs, d = p + 1): the upper concentrator is
// Fold(LPS(p, q)) and the lower one Fold of the same graph with its right
// side relabelled b ↦ b + 1 (mod n) (any relabelling keeps the expansion),
// with König's proper 2d-colouring. It returns LPS's errors.
func LPSSplitter(p, q int) (Splitter, error) {
	g, err := LPS(p, q)
	if err != nil {
		return Splitter{}, err
	}
	low := Graph{NA: g.NA, NB: g.NB, Adj: make([][]int32, g.NA)}
	for a, l := range g.Adj {
		low.Adj[a] = make([]int32, len(l))
		for i, b := range l {
			low.Adj[a][i] = (b + 1) % int32(g.NB)
		}
	}
	s := Splitter{M: g.NA, D: p + 1, Upper: Fold(g), Lower: Fold(low)}
	s.Colour = colourSplitter(s)
	return s, nil
}
