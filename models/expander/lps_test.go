package expander

import (
	"math"
	"testing"
)

// Jacobi's four-square theorem: an odd prime p has r₄(p) = 8(p+1)
// representations as an ordered sum of four squares of integers (signs and
// order counted). Counted here by brute force, independently of
// LPSSolutions; exactly 1/8 of them are normalized (a0 > 0 odd, the rest
// even) when p ≡ 1 mod 4.
func TestLPSSolutionsJacobi(t *testing.T) {
	for _, p := range []int{5, 13, 17, 29, 37, 101} {
		r := int(math.Sqrt(float64(p))) + 1
		all := 0
		for a := -r; a <= r; a++ {
			for b := -r; b <= r; b++ {
				for c := -r; c <= r; c++ {
					for d := -r; d <= r; d++ {
						if a*a+b*b+c*c+d*d == p {
							all++
						}
					}
				}
			}
		}
		if all != 8*(p+1) {
			t.Fatalf("p=%d: brute force r4 = %d, Jacobi says %d", p, all, 8*(p+1))
		}
		s := LPSSolutions(p)
		if len(s) != p+1 {
			t.Fatalf("p=%d: %d normalized solutions, want p+1 = %d", p, len(s), p+1)
		}
		for _, x := range s {
			if x[0] <= 0 || x[0]%2 == 0 || x[1]%2 != 0 || x[2]%2 != 0 || x[3]%2 != 0 || x[0]*x[0]+x[1]*x[1]+x[2]*x[2]+x[3]*x[3] != p {
				t.Fatalf("p=%d: bad solution %v", p, x)
			}
		}
	}
}

func TestLegendreByBruteForce(t *testing.T) {
	for _, q := range []int{5, 13, 17, 29} {
		sq := map[int]bool{}
		for x := 1; x < q; x++ {
			sq[x*x%q] = true
		}
		for a := 1; a < q; a++ {
			want := -1
			if sq[a] {
				want = 1
			}
			if Legendre(a, q) != want {
				t.Fatalf("(%d/%d) = %d, squares say %d", a, q, Legendre(a, q), want)
			}
		}
	}
}

// TestLPSStructure checks what the construction promises, by independent
// means: the vertex count q(q²−1)/2 per side, (p+1)-regularity, that the
// non-bipartite case (p a square mod q) is an undirected graph (its edge
// multiset is symmetric, because the conjugate quaternion is the inverse
// generator up to the scalar p), and connectivity by breadth-first search.
func TestLPSStructure(t *testing.T) {
	for _, c := range []struct{ p, q int }{{13, 5}, {29, 5}, {5, 13}, {17, 13}} {
		g, err := LPS(c.p, c.q)
		if err != nil {
			t.Fatal(err)
		}
		n := c.q * (c.q*c.q - 1) / 2
		if g.NA != n || g.NB != n {
			t.Fatalf("X^{%d,%d}: sides %d, %d, want %d", c.p, c.q, g.NA, g.NB, n)
		}
		if dA, dB, ok := g.Biregular(); !ok || dA != c.p+1 || dB != c.p+1 {
			t.Fatalf("X^{%d,%d}: degrees %d, %d, %v", c.p, c.q, dA, dB, ok)
		}
		if Legendre(c.p, c.q) == 1 {
			cnt := map[[2]int32]int{}
			for a, l := range g.Adj {
				for _, b := range l {
					cnt[[2]int32{int32(a), b}]++
				}
			}
			for e, k := range cnt {
				if cnt[[2]int32{e[1], e[0]}] != k {
					t.Fatalf("X^{%d,%d}: edge %v has multiplicity %d, reverse %d", c.p, c.q, e, k, cnt[[2]int32{e[1], e[0]}])
				}
			}
		}
		// BFS on the bipartite graph (left a, right b).
		seenA, seenB := make([]bool, n), make([]bool, n)
		radj := make([][]int32, n)
		for a, l := range g.Adj {
			for _, b := range l {
				radj[b] = append(radj[b], int32(a))
			}
		}
		queue := []int32{0}
		seenA[0] = true
		reached := 1
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			for _, b := range g.Adj[a] {
				if !seenB[b] {
					seenB[b] = true
					reached++
					for _, a2 := range radj[b] {
						if !seenA[a2] {
							seenA[a2] = true
							reached++
							queue = append(queue, a2)
						}
					}
				}
			}
		}
		if reached != 2*n {
			t.Fatalf("X^{%d,%d}: BFS reached %d of %d vertices", c.p, c.q, reached, 2*n)
		}
	}
}

func TestLPSBadParameters(t *testing.T) {
	for _, c := range []struct{ p, q int }{{3, 5}, {7, 13}, {13, 13}, {5, 9}, {5, 7}, {5, 73}, {1, 5}} {
		if _, err := LPS(c.p, c.q); err == nil {
			t.Fatalf("LPS(%d, %d): no error", c.p, c.q)
		}
	}
}

// TestTannerVersusExactOnLPS: on X^{13,5} (60 vertices a side) the spectral
// certificate must never exceed the exact minimum |Γ(X)| found by
// enumeration (Tanner's bound is a lower bound).
func TestTannerVersusExactOnLPS(t *testing.T) {
	g, err := LPS(13, 5)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Spectral(g)
	if err != nil {
		t.Fatal(err)
	}
	exact, _, err := MinNeighbours(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= 3; x++ {
		if c.MinNeighbours(x) > exact[x] {
			t.Fatalf("x=%d: certificate %d > exact %d", x, c.MinNeighbours(x), exact[x])
		}
	}
}

func TestLPSSplitter(t *testing.T) {
	s, err := LPSSplitter(13, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []Graph{s.Upper, s.Lower} {
		if dA, dB, ok := g.Biregular(); !ok || dA != 14 || dB != 28 || g.NA != 60 || g.NB != 30 {
			t.Fatalf("concentrator degrees %d %d %v sides %d %d", dA, dB, ok, g.NA, g.NB)
		}
	}
	seen := map[[2]int32]bool{} // (vertex, colour): input side and output side
	for i, e := range s.Edges() {
		c := s.Colour[i]
		if c < 0 || c >= 28 {
			t.Fatalf("colour %d out of range", c)
		}
		out := e.Out + 1000
		if e.Lower {
			out += 1000
		}
		for _, v := range []int32{e.In, out} {
			if seen[[2]int32{v, c}] {
				t.Fatalf("vertex %d has two edges of colour %d", v, c)
			}
			seen[[2]int32{v, c}] = true
		}
	}
}
