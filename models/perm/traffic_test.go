package perm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFamiliesByHand: the patterns on n = 16 (b = 4) and n = 6, from their
// definitions (Dally & Towles §3.2), worked by hand.
func TestFamiliesByHand(t *testing.T) {
	want := map[string]map[int][]int32{
		// s = 0001 → 1000, 0010 → 0100, 0011 → 1100, …
		"bit-reversal":   {16: {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}},
		"bit-complement": {16: {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		// transpose swaps the two 2-bit halves: (r, c) → (c, r) on a 4 × 4 grid.
		"transpose": {16: {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}},
		// shuffle rotates left: 0001 → 0010, 1000 → 0001.
		"shuffle": {16: {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15}},
		// tornado on 6: s + ⌈6/2⌉ − 1 = s + 2.
		"tornado":   {6: {2, 3, 4, 5, 0, 1}},
		"neighbour": {6: {1, 2, 3, 4, 5, 0}},
	}
	for _, f := range Families {
		for n, w := range want[f.Name] {
			if got := f.Perm(n, nil); !slices.Equal(got, w) {
				t.Errorf("%s(%d) = %v, want %v", f.Name, n, got, w)
			}
		}
	}
	// Every family is a permutation wherever it applies.
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 64; n++ {
		for _, f := range FamiliesFor(n) {
			if err := Validate(f.Perm(n, r), true); err != nil {
				t.Errorf("%s(%d): %v", f.Name, n, err)
			}
		}
	}
	if len(FamiliesFor(8)) != 6 || len(FamiliesFor(16)) != 7 || len(FamiliesFor(6)) != 3 {
		t.Errorf("applicability: %d, %d, %d families for n = 8, 16, 6", len(FamiliesFor(8)), len(FamiliesFor(16)), len(FamiliesFor(6)))
	}
}

func TestHotSpot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range [][3]int{{1, 1, 0}, {8, 3, 5}, {10, 10, 0}, {7, 2, 6}} {
		n, h, hot := c[0], c[1], c[2]
		ps, err := HotSpot(n, h, hot, r)
		if err != nil {
			t.Fatal(err)
		}
		sent, recv := make([]int, n), make([]int, n)
		for _, p := range ps {
			sent[p.Src]++
			recv[p.Dst]++
		}
		for i := range n {
			if sent[i] != h || recv[i] != h {
				t.Fatalf("n=%d h=%d: node %d sends %d, receives %d", n, h, i, sent[i], recv[i])
			}
		}
	}
	for _, c := range [][3]int{{0, 1, 0}, {4, 5, 0}, {4, 0, 0}, {4, 2, 4}} {
		if _, err := HotSpot(c[0], c[1], c[2], r); err == nil {
			t.Errorf("HotSpot%v: no error", c)
		}
	}
}
