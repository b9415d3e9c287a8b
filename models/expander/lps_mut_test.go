package expander

import "testing"

// TestLPSAdjacencyIndependent rebuilds LPS(p, q) from the package doc's
// construction by separate code and compares adjacency lists exactly:
// canonical matrices are those whose first non-zero entry of the top row is
// 1, enumerated in lexicographic order of (m00, m01, m10, m11); A is the
// canonical matrices whose determinant is a non-zero square mod q (PSL, by
// brute-force squares), B those of the side of a·S; ι is the smallest
// positive root of ι² ≡ −1 (for q = 5 that is 2, as LPSWrongRoot's doc
// implies: ι + 1 = 3 is the other root). Both the bipartite (p non-square
// mod q) and the double-cover case (p square mod q) are covered.
func TestLPSAdjacencyIndependent(t *testing.T) {
	for _, c := range [][2]int{{5, 13}, {13, 5}, {17, 5}, {13, 17}} {
		p, q := c[0], c[1]
		g, err := LPS(p, q)
		if err != nil {
			t.Fatal(err)
		}
		square := make([]bool, q)
		for x := 1; x < q; x++ {
			square[x*x%q] = true
		}
		iota := 1
		for (iota*iota+1)%q != 0 {
			iota++
		}
		norm := func(v int) int { return ((v % q) + q) % q }
		// Generators from all integer quaternions of norm p (a0 > 0 odd, a1..a3
		// even), by brute force in lexicographic order.
		var gens [][4]int
		for a0 := 1; a0 <= p; a0 += 2 {
			for a1 := -p - 1; a1 <= p; a1 += 2 {
				for a2 := -p - 1; a2 <= p; a2 += 2 {
					for a3 := -p - 1; a3 <= p; a3 += 2 {
						if a0*a0+a1*a1+a2*a2+a3*a3 == p {
							gens = append(gens, [4]int{norm(a0 + iota*a1), norm(a2 + iota*a3), norm(-a2 + iota*a3), norm(a0 - iota*a1)})
						}
					}
				}
			}
		}
		if len(gens) != p+1 {
			t.Fatalf("p = %d: %d quaternions, Jacobi says %d", p, len(gens), p+1)
		}
		type mat [4]int
		var sides [2][]mat
		index := map[mat]int32{}
		for m0 := 0; m0 < q; m0++ {
			for m1 := 0; m1 < q; m1++ {
				for m2 := 0; m2 < q; m2++ {
					for m3 := 0; m3 < q; m3++ {
						if !(m0 == 1 || m0 == 0 && m1 == 1) {
							continue
						}
						d := norm(m0*m3 - m1*m2)
						if d == 0 {
							continue
						}
						sd := 1
						if square[d] {
							sd = 0
						}
						m := mat{m0, m1, m2, m3}
						index[m] = int32(len(sides[sd]))
						sides[sd] = append(sides[sd], m)
					}
				}
			}
		}
		n := q * (q*q - 1) / 2
		if len(sides[0]) != n || g.NA != n || g.NB != n {
			t.Fatalf("(%d, %d): sides %d/%d, graph %d/%d, want %d", p, q, len(sides[0]), len(sides[1]), g.NA, g.NB, n)
		}
		for a, m := range sides[0] {
			if len(g.Adj[a]) != p+1 {
				t.Fatalf("(%d, %d): vertex %d degree %d", p, q, a, len(g.Adj[a]))
			}
			for i, s := range gens {
				pr := mat{norm(m[0]*s[0] + m[1]*s[2]), norm(m[0]*s[1] + m[1]*s[3]), norm(m[2]*s[0] + m[3]*s[2]), norm(m[2]*s[1] + m[3]*s[3])}
				lead := pr[0]
				if lead == 0 {
					lead = pr[1]
				}
				li := 1
				for lead*li%q != 1 {
					li++
				}
				for j := range pr {
					pr[j] = pr[j] * li % q
				}
				want, ok := index[pr]
				if !ok {
					t.Fatalf("(%d, %d): product %v not canonical", p, q, pr)
				}
				if g.Adj[a][i] != want {
					t.Fatalf("(%d, %d): vertex %d (%v) generator %d: neighbour %d, want %d", p, q, a, m, i, g.Adj[a][i], want)
				}
			}
		}
	}
}

// TestLPSSmallHelpers: IsPrime at the bottom of its range (2 and 3 are
// prime, 0, 1 and 4 are not), and Legendre for a prime q ≡ 3 (mod 4), where
// (q−1)/2 is odd, against brute-force squares mod 7 and 11 (including
// negative a), and LPSSolutions(9) (9 ≡ 1 mod 4, a perfect square) against
// a brute-force count: (3,0,0,0) and the 12 of the form (1, ±2, ±2, 0) up to
// position.
func TestLPSSmallHelpers(t *testing.T) {
	for n, want := range map[int]bool{0: false, 1: false, 2: true, 3: true, 4: false, 9: false} {
		if IsPrime(n) != want {
			t.Errorf("IsPrime(%d) = %v, want %v", n, !want, want)
		}
	}
	for _, q := range []int{7, 11} {
		sq := map[int]bool{}
		for x := 1; x < q; x++ {
			sq[x*x%q] = true
		}
		for a := -q; a <= 2*q; a++ {
			r := ((a % q) + q) % q
			want := -1
			if r == 0 {
				want = 0
			} else if sq[r] {
				want = 1
			}
			if got := Legendre(a, q); got != want {
				t.Errorf("Legendre(%d, %d) = %d, want %d", a, q, got, want)
			}
		}
	}
	sol := LPSSolutions(9)
	if len(sol) != 13 {
		t.Errorf("LPSSolutions(9): %d solutions %v, want 13", len(sol), sol)
	}
	has := false
	for _, s := range sol {
		if s == [4]int{3, 0, 0, 0} {
			has = true
		}
	}
	if !has {
		t.Errorf("LPSSolutions(9) lacks (3, 0, 0, 0): %v", sol)
	}
}
