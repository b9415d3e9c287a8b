package expander

import (
	"fmt"
	"math"
	"math/bits"

	"routecheck/models/sortnet"
)

// ε-halver certificates for bipartite comparator halvers.
//
// Definition (Seiferas, "Sorting networks of logarithmic depth, further
// simplified", Algorithmica 53 (2009), §6; the definition algos/aks uses):
// a network on m = 2h registers is an ε-halver if, for every k ≤ h, at most
// ε·k of the k smallest inputs end in the second half, and at most ε·k of the
// k largest in the first half.
//
// A bipartite halver is given by a d-regular bipartite multigraph between the
// first half T = {0..h−1} and the second half B = {h..2h−1}, one comparator
// (min to T) per edge, its edges split into d perfect matchings, one layer
// each (Seiferas §6, proof sketch of Lemma 1).
//
// Edge invariant. After the layer holding edge (u, v) the value at u is at
// most the value at v; later layers only lower u (it meets other B vertices
// with the min going to u) and only raise v, so at the end every edge has
// val(u) ≤ val(v), whatever the order of the layers.
//
// Spectral bound (our derivation; the inequality is the expander mixing
// lemma for biregular bipartite graphs, e.g. Hoory, Linial and Wigderson,
// "Expander graphs and their applications", Bull. AMS 43 (2006), Lemma 2.5,
// in its bipartite form). Let M be the h×h biadjacency matrix (parallel edges
// counted), σ₂ its second largest singular value (σ₁ = d, singular vector 1),
// and let s of the k smallest items end in B, at the set S. By the edge
// invariant every T-neighbour of S holds one of the k smallest, so the set
// U ⊆ T of positions holding none of them has |U| ≥ h − (k − s) and e(S, U) = 0.
// Writing 1_S = (s/h)·1 + f and 1_U = (u/h)·1 + g with f, g ⊥ 1,
// e(S, U) = d·s·u/h + fᵀMg, and |fᵀMg| ≤ σ₂·‖f‖·‖g‖ with ‖f‖² = s(1 − s/h),
// ‖g‖² = u(1 − u/h). So e = 0 forces d²·s·u ≤ σ₂²·(h − s)(h − u); with
// u ≥ h − k + s (the inequality only gets harder to meet as u grows):
//
//	d²·s·(h − k + s) ≤ σ₂²·(h − s)(k − s).              (★)
//
// For σ₂ < d the left side minus the right is a convex quadratic in s,
// negative at s = 0, so (★) holds exactly for s ∈ [0, s*(k)] with
//
//	s*(k) = 2σ₂²hk / (b + √(b² + 4(d² − σ₂²)σ₂²hk)),  b = d²(h − k) + σ₂²(h + k),
//
// and at most ⌊s*(k)⌋ of the k smallest are misplaced. The k largest are the
// same with T and B exchanged (Mᵀ has the same singular values). The
// certified ε is max over k = 1..h of ⌊s*(k)⌋/k. At k = h, s*(h) = hσ₂/(d + σ₂):
// certifying ε needs σ₂/d ≲ ε.
//
// Degree lower bound. ‖M‖_F² ≥ d·h (= for simple graphs) and σ₁ = d, so
// (h − 1)·σ₂² ≥ d·h − d², i.e. σ₂² ≥ d(h − d)/(h − 1) for every d-regular
// bipartite multigraph. Since s*(k) grows with σ₂, no d-regular halver whose
// certificate at that σ₂ exceeds ε can be certified at ε by (★): that is
// HalverDegreeLowerBound. It is a limit of this certificate, not of halvers
// (Paterson's counting argument gives 1/700-halvers of depth 10564).

// HalverMissBound is ⌊s*(k)⌋ of (★): the most of the k smallest (or largest)
// items a d-regular bipartite halver on 2h registers whose second singular
// value is at most sigma2 can leave in the wrong half. sigma2 is inflated by
// 1e-9·d (and s* by 1e-9 relative) before the floor, so floating-point error
// of that size cannot make the bound too small. It returns k when sigma2 ≥ d
// (no bound). It panics unless 1 ≤ k ≤ h and 1 ≤ d and sigma2 ≥ 0.
func HalverMissBound(h, d int, sigma2 float64, k int) int {
	if k < 1 || k > h || d < 1 || !(sigma2 >= 0) {
		panic(fmt.Sprintf("expander: HalverMissBound(h = %d, d = %d, σ₂ = %v, k = %d): need 1 ≤ k ≤ h, d ≥ 1, σ₂ ≥ 0", h, d, sigma2, k))
	}
	fd := float64(d)
	mu := sigma2 + 1e-9*fd
	if mu >= fd {
		return k
	}
	d2, m2 := fd*fd, mu*mu
	H, K := float64(h), float64(k)
	b := d2*(H-K) + m2*(H+K)
	s := 2 * m2 * H * K / (b + math.Sqrt(b*b+4*(d2-m2)*m2*H*K))
	s = s*(1+1e-9) + 1e-9
	return min(k, int(math.Floor(s)))
}

// HalverCert is a spectral ε-halver certificate (see HalverMissBound).
type HalverCert struct {
	H, D   int     // half size and degree
	Sigma2 float64 // the upper bound on σ₂ the certificate uses
	Eps    float64 // certified ε: max over k of HalverMissBound(k)/k
	WorstK int     // a k attaining Eps (1 when Eps = 0)
}

// CertifyHalver returns the certificate for a d-regular bipartite halver on
// 2h registers with σ₂ ≤ sigma2. Cost O(h). It panics on bad parameters, as
// HalverMissBound.
func CertifyHalver(h, d int, sigma2 float64) HalverCert {
	c := HalverCert{H: h, D: d, Sigma2: sigma2, WorstK: 1}
	for k := 1; k <= h; k++ {
		if e := float64(HalverMissBound(h, d, sigma2, k)) / float64(k); e > c.Eps {
			c.Eps, c.WorstK = e, k
		}
	}
	return c
}

// HalverDegreeLowerBound returns the least d ≥ 1 for which a d-regular
// bipartite multigraph on h + h vertices could have a certificate with
// Eps ≤ eps: for smaller d, σ₂² ≥ d(h − d)/(h − 1) already makes
// CertifyHalver's ε exceed eps. It returns h when only the complete
// bipartite graph (σ₂ = 0) can certify eps. Cost O(h·d) for the d returned. It panics
// unless h ≥ 1 and eps ≥ 0.
func HalverDegreeLowerBound(h int, eps float64) int {
	if h < 1 || !(eps >= 0) {
		panic("expander: HalverDegreeLowerBound needs h ≥ 1 and ε ≥ 0")
	}
	if h == 1 {
		return 1
	}
	// A linear scan from below: no monotonicity in d is assumed.
	for d := 1; d < h; d++ {
		s2 := math.Sqrt(float64(d) * float64(h-d) / float64(h-1))
		// Deflate by far less than HalverMissBound's inflation (1e-9·d), so
		// that rounding in the square root cannot raise the bound.
		s2 *= 1 - 1e-12
		if CertifyHalver(h, d, s2).Eps <= eps {
			return d
		}
	}
	return h
}

// CirculantSigma2 returns the second largest singular value of the circulant
// bipartite graph on h + h vertices joining i ∈ T to h + (i + s) mod h for
// each s in shifts (a multiset of residues mod h): its biadjacency matrix
// Σ_s P^s is normal, with eigenvalues χ_j = Σ_s e^{2πi·js/h}, so the singular
// values are |χ_j| and σ₂ = max_{j≠0} |χ_j| (0 when h = 1). Cost O(h·|shifts|).
// It panics if a shift is outside [0, h).
func CirculantSigma2(h int, shifts []int32) float64 {
	cos, sin := make([]float64, h), make([]float64, h)
	for t := range h {
		sin[t], cos[t] = math.Sincos(2 * math.Pi * float64(t) / float64(h))
	}
	for _, s := range shifts {
		if s < 0 || int(s) >= h {
			panic(fmt.Sprintf("expander: CirculantSigma2: shift %d outside [0, %d)", s, h))
		}
	}
	best := 0.0
	for j := 1; j < h; j++ {
		re, im := 0.0, 0.0
		for _, s := range shifts {
			t := (j * int(s)) % h
			re += cos[t]
			im += sin[t]
		}
		best = math.Max(best, math.Hypot(re, im))
	}
	return best
}

// MaxExactHalver is the largest register count ExactHalverMisses enumerates.
const MaxExactHalver = 24

// ExactHalverMisses runs the network stages on all 2^m 0-1 inputs (m even,
// 2 ≤ m ≤ MaxExactHalver) and returns, for k = 1..m/2, low[k] = the most
// 0s left in the second half over inputs with k 0s and high[k] = the most 1s
// left in the first half over inputs with k 1s (index 0 unused). By the 0-1
// principle (a comparator network commutes with monotone maps) these are the
// exact worst numbers of the k smallest (largest) of distinct items left in
// the wrong half, so the network's exact ε is max_k max(low[k], high[k])/k.
// Cost O(2^m·(m + size/64)). Errors on bad m or comparators out of range.
func ExactHalverMisses(m int, stages []sortnet.Stage) (low, high []int, err error) {
	if m < 2 || m%2 != 0 || m > MaxExactHalver {
		return nil, nil, fmt.Errorf("expander: ExactHalverMisses needs m even in [2, %d], got %d", MaxExactHalver, m)
	}
	for _, st := range stages {
		for _, c := range st {
			if c.I < 0 || c.J < 0 || int(c.I) >= m || int(c.J) >= m || c.I == c.J {
				return nil, nil, fmt.Errorf("expander: comparator (%d, %d) out of range m = %d", c.I, c.J, m)
			}
		}
	}
	h := m / 2
	low, high = make([]int, h+1), make([]int, h+1)
	w := make([]uint64, m)
	// 64 inputs per pass: lane l of pass p is the input x = 64p + l (wire i
	// holds bit i of x). For m < 6 the lanes beyond 2^m repeat inputs, which
	// is harmless for a maximum.
	lanePattern := func(i int) uint64 {
		var v uint64
		for l := range 64 {
			if l>>i&1 == 1 {
				v |= 1 << l
			}
		}
		return v
	}
	passes := max(1, (1<<m)/64)
	for p := range passes {
		for i := range m {
			if i < 6 {
				w[i] = lanePattern(i)
			} else if (p<<6)>>i&1 == 1 {
				w[i] = ^uint64(0)
			} else {
				w[i] = 0
			}
		}
		for _, st := range stages {
			for _, c := range st {
				a, b := w[c.I], w[c.J]
				w[c.I], w[c.J] = a&b, a|b
			}
		}
		for l := range 64 {
			x := uint64(p)<<6 | uint64(l)
			if m < 64 {
				x &= 1<<m - 1
			}
			ones := bits.OnesCount64(x)
			zeros := m - ones
			topOnes, botZeros := 0, 0
			for i := range h {
				topOnes += int(w[i] >> l & 1)
			}
			for i := h; i < m; i++ {
				botZeros += int(^w[i] >> l & 1)
			}
			if zeros >= 1 && zeros <= h {
				low[zeros] = max(low[zeros], botZeros)
			}
			if ones >= 1 && ones <= h {
				high[ones] = max(high[ones], topOnes)
			}
		}
	}
	return low, high, nil
}

// ExactHalverEps is max_k max(low[k], high[k])/k of ExactHalverMisses.
func ExactHalverEps(m int, stages []sortnet.Stage) (float64, error) {
	low, high, err := ExactHalverMisses(m, stages)
	if err != nil {
		return 0, err
	}
	e := 0.0
	for k := 1; k < len(low); k++ {
		e = math.Max(e, float64(max(low[k], high[k]))/float64(k))
	}
	return e, nil
}

// BipartiteLayers checks that every stage is a perfect matching of the
// first half {0..h−1} onto the second {h..2h−1} (comparator I < h ≤ J) and
// returns the graph (Adj[i] lists J − h over the stages, in stage order).
func BipartiteLayers(m int, stages []sortnet.Stage) (Graph, error) {
	if m < 2 || m%2 != 0 {
		return Graph{}, fmt.Errorf("expander: BipartiteLayers needs m even ≥ 2, got %d", m)
	}
	h := m / 2
	g := Graph{NA: h, NB: h, Adj: make([][]int32, h)}
	for li, st := range stages {
		if len(st) != h {
			return Graph{}, fmt.Errorf("expander: layer %d has %d comparators, a perfect matching has %d", li, len(st), h)
		}
		seenT, seenB := make([]bool, h), make([]bool, h)
		for _, c := range st {
			if c.I < 0 || int(c.I) >= h || int(c.J) < h || int(c.J) >= m {
				return Graph{}, fmt.Errorf("expander: layer %d: comparator (%d, %d) does not join the first half to the second", li, c.I, c.J)
			}
			b := c.J - int32(h)
			if seenT[c.I] || seenB[b] {
				return Graph{}, fmt.Errorf("expander: layer %d is not a matching at (%d, %d)", li, c.I, c.J)
			}
			seenT[c.I], seenB[b] = true, true
			g.Adj[c.I] = append(g.Adj[c.I], b)
		}
	}
	return g, nil
}

// CirculantShifts reports whether g (from BipartiteLayers) is circulant layer
// by layer — layer ℓ joins every i to (i + s_ℓ) mod h — and returns the
// shifts s_ℓ.
func CirculantShifts(g Graph) ([]int32, bool) {
	h := g.NA
	if h == 0 || len(g.Adj[0]) == 0 {
		return nil, false
	}
	d := len(g.Adj[0])
	shifts := make([]int32, d)
	for l := range d {
		shifts[l] = g.Adj[0][l]
	}
	for i := range h {
		if len(g.Adj[i]) != d {
			return nil, false
		}
		for l, b := range g.Adj[i] {
			if int(b) != (i+int(shifts[l]))%h {
				return nil, false
			}
		}
	}
	return shifts, true
}
