package mesh

import (
	"math/bits"
	"testing"

	amesh "routecheck/algos/mesh"
)

// A hand-built counterexample to Lemma 12 as printed (n = 8, n' = 4, k = 1,
// so g = n/n' = 2 and the bound is k + 4/16·1 + 2/4 = 1.75). The four
// submeshes send 7, 9, 7, 9 packets to row-bundle 0 (rows 0–3), 32 in all,
// and the rest to row-bundle 1; destinations are dealt in order, so every
// PU receives exactly one packet. In each submesh both buckets are odd:
// Step 3 allocates ⌊B/2⌋ of each to either submesh of the row-bundle, and
// Step 5 leaves one subbucket of size 1 per row-bundle; Step 8 (β = 1, all
// α equal, smallest index) sends the row-bundle-0 one to submesh 0. So in
// Phase 2 submesh (0, 0) receives 3 + 4 + 3 + 4 + 4 = 18 = k·n'² + 2
// packets and some PU holds ≥ ⌈18/16⌉ = 2 > 1.75. With the corrected bound
// k + ⌈0.75⌉ = 2 the queue is exactly 2.
func TestLemma12HandCounterexample(t *testing.T) {
	const n, np, k = 8, 4, 1
	dst := make([][]amesh.Dest, n*n)
	next := [2]int{0, 32} // next destination PU (row-major) in row-bundle 0 / 1
	for s, toTop := range []int{7, 9, 7, 9} {
		R, C := s/2, s%2
		i := 0
		for r := R * np; r < (R+1)*np; r++ {
			for c := C * np; c < (C+1)*np; c++ {
				b := 1
				if i < toTop {
					b = 0
				}
				d := next[b]
				next[b]++
				dst[r*n+c] = []amesh.Dest{{Row: int32(d / n), Col: int32(d % n)}}
				i++
			}
		}
	}
	res, load, err := a2Prime(n, np, dst, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if load[0] != 18 {
		t.Fatalf("submesh (0,0) holds %d packets after Phase 2, hand count 18 (loads %v)", load[0], load)
	}
	if q := res.EndQueue[amesh.PrimePhase2]; q != 2 {
		t.Fatalf("queue %d at the end of Phase 2, want 2 (forced ≥ 2, corrected bound 2)", q)
	}
}

// a2AdversarialDests gives every bucket the remainder n − 1 when n | k and
// k ≥ n(n − 1), so ALLOCATE makes popcount(n − 1) = log n subbuckets per
// row: m = n·log n, Lemma 5's bound, attained.
func TestAdversarialDestsAttainLemma5(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, k := range []int{n * (n - 1), n * n, 4 * n * n} {
			a, err := amesh.AllocateLinear(n, a2AdversarialDests(uint64(n*k), n, k))
			if err != nil {
				t.Fatal(err)
			}
			if want := n * (bits.Len(uint(n)) - 1); a.Subbuckets != want {
				t.Fatalf("n = %d, k = %d: %d subbuckets, want n·log n = %d", n, k, a.Subbuckets, want)
			}
		}
	}
}
