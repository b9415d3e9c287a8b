package expander

import (
	"fmt"
	"math/bits"
)

// MGG is the Margulis–Gabber–Galil graph on Z_a × Z_b as a bipartite graph
// (A = B = Z_a × Z_b, vertex (x, y) has index x·b + y): (x, y) ∈ A is joined
// to the eight images
//
//	(x ± 2y, y), (x ± (2y+1), y), (x, y ± 2x), (x, y ± (2x+1))
//
// (first coordinate mod a, second mod b). For a = b = m this is the graph
// G_m of Hoory, Linial and Wigderson, "Expander graphs and their
// applications" (2006), Theorem 8.1 (after Gabber and Galil 1981): an
// 8-regular graph whose non-trivial eigenvalues satisfy |λ| ≤ 5√2 < 8 for
// every m. Every map is a bijection (a shear), and the ± pairs are mutual
// inverses, so the biadjacency matrix M is symmetric and 8-regular and
// Spectral's Lambda2 is the largest squared non-trivial eigenvalue.
//
// We also allow b = 2a (the maps are well defined when b | 2a and a | 2b),
// so that a·b can be any power of two; the theorem's bound is proved only
// for a = b, and for b = 2a the certificate is what Spectral computes.
// MGG returns an error unless a ≥ 1 and b ∈ {a, 2a} and a·b ≤ 2^16.
func MGG(a, b int) (Graph, error) {
	if a < 1 || (b != a && b != 2*a) || a*b > 1<<16 {
		return Graph{}, fmt.Errorf("expander: MGG a = %d, b = %d: need a ≥ 1, b ∈ {a, 2a}, a·b ≤ 65536", a, b)
	}
	n := a * b
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	md := func(v, k int) int { return ((v % k) + k) % k }
	for x := range a {
		for y := range b {
			l := make([]int32, 0, 8)
			for _, s := range []int{1, -1} {
				l = append(l,
					int32(md(x+s*2*y, a)*b+y), int32(md(x+s*(2*y+1), a)*b+y),
					int32(x*b+md(y+s*2*x, b)), int32(x*b+md(y+s*(2*x+1), b)))
			}
			g.Adj[x*b+y] = l
		}
	}
	return g, nil
}

// MGGShape returns the (a, b) with a·b = m (a power of two ≥ 1) and
// b ∈ {a, 2a}: a = 2^⌊k/2⌋ for m = 2^k.
func MGGShape(m int) (a, b int, err error) {
	if m < 1 || m&(m-1) != 0 {
		return 0, 0, fmt.Errorf("expander: MGGShape m = %d: must be a power of two ≥ 1", m)
	}
	k := bits.Len(uint(m)) - 1
	a = 1 << (k / 2)
	return a, m / a, nil
}

// MGGSplitter builds an explicit (α, β, m, 16)-splitter by Corollary 2.1's
// proof from the Margulis–Gabber–Galil graph on m vertices (MGGShape(m)):
// both concentrators are Fold(MGG) — the upper one as built, the lower one
// from the graph with its right side relabelled by (x, y) ↦ (x, y + 1) — and
// the 16-colouring is König's. Fold pairs right vertex (x, y) with
// (x + a/2, y) (b ↦ b mod m/2), which lines up with the maps' shifts along x
// (see MGGSplitterShifted). It returns an error for m not a power of two ≥ 2
// or above 2^16. Nothing is random.
func MGGSplitter(m int) (Splitter, error) {
	return mggSplitter(m, func(g Graph, _, _ int) Graph { return Fold(g) })
}

// MGGSplitterShifted is MGGSplitter with the other explicit fold FoldShift:
// right vertex (x, y), x < a/2, is identified with (x + a/2, y + 1) instead
// of (x + a/2, y). Same errors; nothing is random.
func MGGSplitterShifted(m int) (Splitter, error) {
	return mggSplitter(m, FoldShift)
}

// FoldShift folds a graph whose right side is the torus Z_a × Z_b
// (vertex (x, y) has index x·b + y, NB = a·b, a even or a = 1) to NB/2
// right vertices by pairing (x, y), x < a/2, with (x + a/2, y + 1 mod b):
// the first keeps index x·b + y and the second maps to it. For a = 1 (so
// NB ≤ 2) it is Fold. It panics if NB ≠ a·b or a is odd and above 1.
func FoldShift(g Graph, a, b int) Graph {
	if g.NB != a*b || a > 1 && a%2 != 0 {
		panic(fmt.Sprintf("expander: FoldShift needs NB = a·b with a even or 1 (NB = %d, a = %d, b = %d)", g.NB, a, b))
	}
	if a == 1 {
		return Fold(g)
	}
	f := Graph{NA: g.NA, NB: g.NB / 2, Adj: make([][]int32, g.NA)}
	for v, l := range g.Adj {
		f.Adj[v] = make([]int32, len(l))
		for i, w := range l {
			x, y := int(w)/b, int(w)%b
			if x >= a/2 {
				x, y = x-a/2, (y-1+b)%b
			}
			f.Adj[v][i] = int32(x*b + y)
		}
	}
	return f
}

func mggSplitter(m int, fold func(g Graph, a, b int) Graph) (Splitter, error) {
	if m < 2 {
		return Splitter{}, fmt.Errorf("expander: MGGSplitter m = %d: must be a power of two ≥ 2", m)
	}
	a, b, err := MGGShape(m)
	if err != nil {
		return Splitter{}, err
	}
	g, err := MGG(a, b)
	if err != nil {
		return Splitter{}, err
	}
	low := Graph{NA: g.NA, NB: g.NB, Adj: make([][]int32, g.NA)}
	for v, l := range g.Adj {
		low.Adj[v] = make([]int32, len(l))
		for i, w := range l {
			x, y := int(w)/b, int(w)%b
			low.Adj[v][i] = int32(x*b + (y+1)%b)
		}
	}
	s := Splitter{M: m, D: 8, Upper: fold(g, a, b), Lower: fold(low, a, b)}
	s.Colour = colourSplitter(s)
	return s, nil
}
