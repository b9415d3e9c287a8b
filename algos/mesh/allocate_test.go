package mesh

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func checkBalanced(t *testing.T, n int, d []Dest, a Allocation) {
	t.Helper()
	k := len(d)
	for j, c := range a.Counts {
		if c != k/n {
			t.Fatalf("n = %d, %v: position %d gets %d packets, want k/n = %d (counts %v)", n, d, j, c, k/n, a.Counts)
		}
	}
	if a.MaxSpread > 1 {
		t.Fatalf("n = %d, %v: Δ reached %d", n, d, a.MaxSpread)
	}
	logn := bits.Len(uint(n)) - 1
	if a.Subbuckets > n*logn {
		t.Fatalf("n = %d, %v: %d subbuckets > n⌊log n⌋ = %d (Lemma 5)", n, d, a.Subbuckets, n*logn)
	}
	for p, j := range a.Pos {
		if j < 0 || int(j) >= n {
			t.Fatalf("packet %d unallocated", p)
		}
	}
}

// A case worked by hand (outside Lemma 6's scope, n = 3): two packets for
// each row, all to column 0. No bucket reaches n, so Step 5 makes three
// subbuckets of size 2 (rows 0, 1, 2); with β = 2 the intervals of Step 8 are
// [0,1) and [1,3). Subbucket 1 goes to positions 0 and 1, subbucket 2 to 0
// and 2, subbucket 3 to 0 and 1: counts [3, 2, 1].
func TestAllocateHand(t *testing.T) {
	d := []Dest{{0, 0}, {0, 0}, {1, 0}, {1, 0}, {2, 0}, {2, 0}}
	a, err := Allocate(3, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 2, 1}; !slices.Equal(a.Counts, want) {
		t.Fatalf("counts %v, want %v", a.Counts, want)
	}
	if want := []int32{0, 1, 0, 2, 0, 1}; !slices.Equal(a.Pos, want) {
		t.Fatalf("positions %v, want %v", a.Pos, want)
	}
	if a.Subbuckets != 3 || !slices.Equal(a.Sizes, []int{2, 2, 2}) {
		t.Fatalf("subbuckets %d sizes %v", a.Subbuckets, a.Sizes)
	}
}

// Random destinations for bigger powers of two, with random tie-breaking in
// Step 8 (the lemma must not depend on it).
func TestAllocateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{8, 16, 32} {
		for trial := range 30 {
			k := n * (1 + r.IntN(3*n))
			d := make([]Dest, k)
			skew := trial % 3 // uniform, one hot row, a few rows
			for i := range d {
				row := r.IntN(n)
				if skew == 1 && r.IntN(2) == 0 {
					row = 0
				} else if skew == 2 {
					row = r.IntN(3)
				}
				d[i] = Dest{Row: int32(row), Col: int32(r.IntN(n))}
			}
			tie := func(c []int32) int32 { return c[r.IntN(len(c))] }
			a, err := Allocate(n, d, tie)
			if err != nil {
				t.Fatal(err)
			}
			checkBalanced(t, n, d, a)
		}
	}
}
