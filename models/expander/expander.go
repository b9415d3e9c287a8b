package expander

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"routecheck/models/bipartite"
)

// Graph is a bipartite multigraph: left vertices 0…NA−1, right vertices
// 0…NB−1; Adj[a] lists the right neighbours of a, with multiplicity.
type Graph struct {
	NA, NB int
	Adj    [][]int32
}

// Validate reports an adjacency list out of range.
func (g Graph) Validate() error {
	if g.NA < 0 || g.NB < 0 || len(g.Adj) != g.NA {
		return fmt.Errorf("expander: NA = %d, NB = %d, %d adjacency lists", g.NA, g.NB, len(g.Adj))
	}
	for a, l := range g.Adj {
		for _, b := range l {
			if b < 0 || int(b) >= g.NB {
				return fmt.Errorf("expander: edge (%d, %d) out of range NB = %d", a, b, g.NB)
			}
		}
	}
	return nil
}

// Degrees returns the left and right degrees (parallel edges counted).
func (g Graph) Degrees() (left, right []int) {
	left, right = make([]int, g.NA), make([]int, g.NB)
	for a, l := range g.Adj {
		left[a] = len(l)
		for _, b := range l {
			right[b]++
		}
	}
	return left, right
}

// Biregular returns (dA, dB, true) when every left vertex has degree dA and
// every right vertex degree dB.
func (g Graph) Biregular() (dA, dB int, ok bool) {
	l, r := g.Degrees()
	if len(l) == 0 || len(r) == 0 {
		return 0, 0, false
	}
	for _, x := range l {
		if x != l[0] {
			return 0, 0, false
		}
	}
	for _, x := range r {
		if x != r[0] {
			return 0, 0, false
		}
	}
	return l[0], r[0], true
}

// Gamma returns |Γ(X)|, the number of distinct right neighbours of X.
func (g Graph) Gamma(X []int32) int {
	seen := make(map[int32]bool)
	for _, a := range X {
		for _, b := range g.Adj[a] {
			seen[b] = true
		}
	}
	return len(seen)
}

// RandomRegular returns the union of d uniformly random perfect matchings
// between two sets of n vertices (a d-regular bipartite multigraph). It
// panics if n < 1 or d < 1.
func RandomRegular(n, d int, rng *rand.Rand) Graph {
	if n < 1 || d < 1 {
		panic("expander: RandomRegular needs n ≥ 1 and d ≥ 1")
	}
	g := Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for a := range g.Adj {
		g.Adj[a] = make([]int32, 0, d)
	}
	p := make([]int32, n)
	for range d {
		for i := range p {
			p[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		for a := range n {
			g.Adj[a] = append(g.Adj[a], p[a])
		}
	}
	return g
}

// Fold identifies right vertex b with b + NB/2 (Corollary 2.1's "folding the
// set of vertices B"). It panics if NB is odd.
func Fold(g Graph) Graph {
	if g.NB%2 != 0 {
		panic("expander: Fold needs an even number of right vertices")
	}
	h := g.NB / 2
	f := Graph{NA: g.NA, NB: h, Adj: make([][]int32, g.NA)}
	for a, l := range g.Adj {
		f.Adj[a] = make([]int32, len(l))
		for i, b := range l {
			f.Adj[a][i] = b % int32(h)
		}
	}
	return f
}

// MaxExact is the largest left side MinNeighbours enumerates.
const MaxExact = 64

// MaxSubsets is the most subsets MinNeighbours visits (about a second).
const MaxSubsets = 5e7

// MinNeighbours returns, for x = 0…k, the minimum of |Γ(X)| over all X ⊆ A
// with |X| = x (min[0] = 0), and one set attaining each minimum, by
// enumerating every such X. It needs NB ≤ 64 and k ≤ NA ≤ MaxExact and
// Σ_{x≤k} C(NA, x) ≤ MaxSubsets (its cost) and returns an error otherwise.
func MinNeighbours(g Graph, k int) (min []int, worst [][]int32, err error) {
	if err := g.Validate(); err != nil {
		return nil, nil, err
	}
	if g.NB > 64 || g.NA > MaxExact || k < 0 || k > g.NA {
		return nil, nil, fmt.Errorf("expander: MinNeighbours needs NB ≤ 64, NA ≤ %d, 0 ≤ k ≤ NA (got NA = %d, NB = %d, k = %d)", MaxExact, g.NA, g.NB, k)
	}
	cost, c := 0.0, 1.0
	for x := 0; x <= k; x++ {
		cost += c
		c = c * float64(g.NA-x) / float64(x+1)
	}
	if cost > MaxSubsets {
		return nil, nil, fmt.Errorf("expander: MinNeighbours would visit %.3g subsets (NA = %d, k = %d); the limit is %.0g", cost, g.NA, k, float64(MaxSubsets))
	}
	mask := make([]uint64, g.NA)
	for a, l := range g.Adj {
		for _, b := range l {
			mask[a] |= 1 << uint(b)
		}
	}
	min = make([]int, k+1)
	worst = make([][]int32, k+1)
	for x := 1; x <= k; x++ {
		min[x] = math.MaxInt
	}
	cur := make([]int32, 0, k)
	var rec func(start int, acc uint64)
	rec = func(start int, acc uint64) {
		x := len(cur)
		if x > 0 {
			if c := bits.OnesCount64(acc); c < min[x] {
				min[x] = c
				worst[x] = append([]int32(nil), cur...)
			}
		}
		if x == k {
			return
		}
		for a := start; a < g.NA; a++ {
			cur = append(cur, int32(a))
			rec(a+1, acc|mask[a])
			cur = cur[:len(cur)-1]
		}
	}
	rec(0, 0)
	return min, worst, nil
}

// Expands reports exactly whether every X ⊆ A with 1 ≤ |X| ≤ k has
// |Γ(X)| ≥ β|X|, and if not a smallest violating set (Definitions 2.1–2.2
// with k = ⌊α·|A|⌋). Same limits as MinNeighbours.
func Expands(g Graph, k int, beta float64) (ok bool, bad []int32, err error) {
	min, worst, err := MinNeighbours(g, k)
	if err != nil {
		return false, nil, err
	}
	for x := 1; x <= k; x++ {
		if float64(min[x]) < beta*float64(x) {
			return false, worst[x], nil
		}
	}
	return true, nil, nil
}

// Cert is a spectral expansion certificate (Tanner's bound; see the package
// doc for the statement and its assumptions).
type Cert struct {
	NA, DA, DB int
	// Lambda2 is the second largest eigenvalue of M·Mᵀ.
	Lambda2 float64
}

// Spectral computes the certificate of a biregular graph with NA ≥ 2; it
// returns an error for a graph that is not biregular.
func Spectral(g Graph) (Cert, error) {
	if err := g.Validate(); err != nil {
		return Cert{}, err
	}
	dA, dB, ok := g.Biregular()
	if !ok || g.NA < 2 {
		return Cert{}, fmt.Errorf("expander: Spectral needs a biregular graph with NA ≥ 2")
	}
	m := mat.NewDense(g.NA, g.NB, nil)
	for a, l := range g.Adj {
		for _, b := range l {
			m.Set(a, int(b), m.At(a, int(b))+1)
		}
	}
	s := mat.NewSymDense(g.NA, nil)
	s.SymOuterK(1, m)
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		return Cert{}, fmt.Errorf("expander: eigen-decomposition did not converge")
	}
	v := es.Values(nil)
	sort.Float64s(v)
	return Cert{NA: g.NA, DA: dA, DB: dB, Lambda2: v[len(v)-2]}, nil
}

// Bound is Tanner's real-valued lower bound on |Γ(X)| for |X| = x.
func (c Cert) Bound(x int) float64 {
	l := math.Max(c.Lambda2, 0)
	da, dd := float64(c.DA), float64(c.DA*c.DB)
	return da * da * float64(x) / (l + (dd-l)*float64(x)/float64(c.NA))
}

// MinNeighbours is the certified integer lower bound ⌈Bound(x)·(1−1e-9)⌉.
func (c Cert) MinNeighbours(x int) int {
	return int(math.Ceil(c.Bound(x) * (1 - 1e-9)))
}

// Certifies reports whether the certificate proves |Γ(X)| ≥ β|X| for every
// X with 1 ≤ |X| ≤ k. (False means "not certified", not "false".)
func (c Cert) Certifies(k int, beta float64) bool {
	for x := 1; x <= k; x++ {
		if float64(c.MinNeighbours(x)) < beta*float64(x) {
			return false
		}
	}
	return true
}

// Splitter is an (α, β, m, 2d)-splitter (Definition 2.3): inputs 0…M−1,
// upper outputs 0…M/2−1 and lower outputs 0…M/2−1, joined by the two
// concentrators Upper and Lower (each NA = M, NB = M/2, left degree D,
// right degree 2D).
type Splitter struct {
	M, D         int
	Upper, Lower Graph
	// Colour[i] is the colour (0…2D−1) of edge i of Edges(): a proper
	// colouring — no two edges at one vertex share a colour.
	Colour []int32
}

// SplitterEdge is an edge of a splitter: input In to output Out of the
// upper (Lower = false) or lower output set.
type SplitterEdge struct {
	In, Out int32
	Lower   bool
}

// Edges lists the splitter's edges: input by input, upper edges first, in
// adjacency order.
func (s Splitter) Edges() []SplitterEdge {
	var e []SplitterEdge
	for a := range s.M {
		for _, b := range s.Upper.Adj[a] {
			e = append(e, SplitterEdge{In: int32(a), Out: b})
		}
		for _, b := range s.Lower.Adj[a] {
			e = append(e, SplitterEdge{In: int32(a), Out: b, Lower: true})
		}
	}
	return e
}

// NewSplitter builds a splitter with m inputs (m even, m ≥ 2) and left
// degree d into each output set: each concentrator is Fold(RandomRegular(m,
// d)), drawn independently (Corollary 2.1's proof), and the 2d-colouring is
// König's (routecheck/models/bipartite). It panics on bad parameters.
func NewSplitter(m, d int, rng *rand.Rand) Splitter {
	if m < 2 || m%2 != 0 || d < 1 {
		panic("expander: NewSplitter needs m even ≥ 2 and d ≥ 1")
	}
	s := Splitter{M: m, D: d, Upper: Fold(RandomRegular(m, d, rng)), Lower: Fold(RandomRegular(m, d, rng))}
	s.Colour = colourSplitter(s)
	return s
}

func colourSplitter(s Splitter) []int32 {
	h := int32(s.M / 2)
	mg := bipartite.Multigraph{L: s.M, R: s.M}
	for _, e := range s.Edges() {
		v := e.Out
		if e.Lower {
			v += h
		}
		mg.Edges = append(mg.Edges, bipartite.Edge{U: e.In, V: v})
	}
	col, err := bipartite.Colour(mg)
	if err != nil {
		panic("expander: colouring a splitter: " + err.Error())
	}
	if err := checkColouring(mg, col, 2*s.D); err != nil {
		panic("expander: splitter colouring: " + err.Error())
	}
	return col
}

// GreedySmallSet searches heuristically for a set X ⊆ A with 1 ≤ |X| ≤ k
// and small |Γ(X)|/|X|: from each of starts random start vertices it adds,
// k−1 times, the vertex that adds the fewest new neighbours (ties: the
// first in a random order), and records the best ratio seen at every size.
// The result is an upper bound on the true minimum ratio (it is attained
// by the returned set), never a certificate. Cost O(starts·k·NA·d).
func GreedySmallSet(g Graph, k, starts int, rng *rand.Rand) (ratio float64, set []int32) {
	ratio = math.Inf(1)
	in := make([]bool, g.NB)
	member := make([]bool, g.NA)
	for range starts {
		clear(in)
		clear(member)
		order := rng.Perm(g.NA)
		cur := []int32{int32(order[0])}
		member[order[0]] = true
		gamma := 0
		for _, b := range g.Adj[order[0]] {
			if !in[b] {
				in[b] = true
				gamma++
			}
		}
		for {
			if r := float64(gamma) / float64(len(cur)); r < ratio {
				ratio, set = r, append([]int32(nil), cur...)
			}
			if len(cur) == k {
				break
			}
			best, bestAdd := -1, math.MaxInt
			for _, a := range order {
				if member[a] {
					continue
				}
				add := 0
				seen := map[int32]bool{}
				for _, b := range g.Adj[a] {
					if !in[b] && !seen[b] {
						seen[b] = true
						add++
					}
				}
				if add < bestAdd {
					best, bestAdd = a, add
				}
			}
			if best < 0 {
				break
			}
			member[best] = true
			cur = append(cur, int32(best))
			for _, b := range g.Adj[best] {
				if !in[b] {
					in[b] = true
					gamma++
				}
			}
		}
	}
	return ratio, set
}
