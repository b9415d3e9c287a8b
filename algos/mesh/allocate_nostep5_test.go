package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Worked by hand (n = 4): three packets for row 0, columns 0, 1, 2. Step 3
// extracts nothing (B = 3 < n). With Step 5 the remainder is split into
// subbuckets of sizes 2 and 1 (regular extraction: indices 0 and 1 of 3 →
// {col 0, col 1}, rest {col 2}); Step 8 gives the size-2 one the intervals
// [0, 2) and [2, 4) → positions 0 and 2, then the size-1 one [0, 4) →
// position 1 (the smallest index with minimal α). Without Step 5 it is one
// subbucket of size 3 with intervals [0, 1), [1, 2), [2, 4) → positions 0,
// 1, 2 in packet order.
func TestAllocateNoStep5Hand(t *testing.T) {
	dst := []Dest{{0, 0}, {0, 1}, {0, 2}}
	with, err := Allocate(4, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 2, 1}; !slices.Equal(with.Pos, want) || !slices.Equal(with.Sizes, []int{2, 1}) {
		t.Errorf("Allocate: positions %v sizes %v, want %v, [2 1]", with.Pos, with.Sizes, want)
	}
	without, err := AllocateNoStep5(4, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 2}; !slices.Equal(without.Pos, want) || !slices.Equal(without.Sizes, []int{3}) || without.Subbuckets != 1 {
		t.Errorf("AllocateNoStep5: positions %v sizes %v (m = %d), want %v, [3], m = 1", without.Pos, without.Sizes, without.Subbuckets, want)
	}
}

// Without Step 5 every bucket's remainder is one subbucket, so a PU makes
// at most one subbucket per destination row and puts at most one packet of
// it in each position; every packet is allocated, and the Step 3 part is
// Allocate's (same ⌊B/n⌋ per position).
func TestAllocateNoStep5Invariants(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	for range 300 {
		n := 1 + r.IntN(12)
		k := r.IntN(5 * n * n)
		dst := make([]Dest, k)
		for p := range dst {
			dst[p] = Dest{Row: int32(r.IntN(n)), Col: int32(r.IntN(n))}
		}
		a, err := AllocateNoStep5(n, dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		perRowPos := map[[2]int32]int{}
		bucket := make([]int, n)
		for _, d := range dst {
			bucket[d.Row]++
		}
		for p, x := range a.Pos {
			if x < 0 || int(x) >= n {
				t.Fatalf("n = %d: packet %d at position %d", n, p, x)
			}
			perRowPos[[2]int32{dst[p].Row, x}]++
		}
		for row, B := range bucket {
			for j := range n {
				// ⌊B/n⌋ from Step 3 and at most one from the remainder.
				if c := perRowPos[[2]int32{int32(row), int32(j)}]; c < B/n || c > B/n+1 {
					t.Fatalf("n = %d, row %d (B = %d): %d packets at position %d", n, row, B, c, j)
				}
			}
			if a.PerRow[row] > 1 {
				t.Fatalf("n = %d, row %d: %d subbuckets", n, row, a.PerRow[row])
			}
		}
		if a.Subbuckets > n {
			t.Fatalf("n = %d: %d subbuckets", n, a.Subbuckets)
		}
	}
}
