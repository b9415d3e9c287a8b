package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// colourMismatch is the first of random PUs' destination lists on which
// f colours differently from colour (the map-based reference that det4.go
// and allocate_prime.go use), or -1. The lists are on meshes of 1 to 8
// PUs a side, k from 1 to 40 (odd k too: colour is defined for it), with
// destinations drawn from a few PUs so that groups are large and odd.
func colourMismatch(f func(ds []Dest, black []bool, n int, scratch []int32)) int {
	r := rand.New(rand.NewPCG(17, 18))
	for i := range 3000 {
		n := 1 + r.IntN(8)
		k := 1 + r.IntN(40)
		spread := 1 + r.IntN(n*n)
		ds := make([]Dest, k)
		for j := range ds {
			p := r.IntN(spread)
			ds[j] = Dest{Row: int32(p / n), Col: int32(p % n)}
		}
		want, got := make([]bool, k), make([]bool, k)
		colour(ds, want, nil, true)
		scratch := make([]int32, 2*n*n)
		f(ds, got, n, scratch)
		if !slices.Equal(got, want) || slices.ContainsFunc(scratch, func(c int32) bool { return c != 0 }) {
			return i
		}
	}
	return -1
}

// colourDet colours as colour does and leaves its scratch at zero; the
// comparison catches a planted mutant (the alternation of odd groups'
// last packets started on black).
func TestColourDetEqualsColour(t *testing.T) {
	if i := colourMismatch(colourDet); i >= 0 {
		t.Fatalf("case %d: colourDet differs from colour", i)
	}
	mutant := func(ds []Dest, black []bool, n int, scratch []int32) {
		colourDet(ds, black, n, scratch)
		for r := range black { // flip every odd group's last packet
			cnt, seen := 0, 0
			for j, d := range ds {
				if d == ds[r] {
					cnt++
					if j <= r {
						seen++
					}
				}
			}
			if cnt%2 == 1 && seen == cnt {
				black[r] = !black[r]
			}
		}
	}
	if colourMismatch(mutant) < 0 {
		t.Fatal("planted mutant (odd groups' alternation started on black) not caught")
	}
}
