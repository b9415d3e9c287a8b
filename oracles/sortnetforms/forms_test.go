package sortnetforms

import "testing"

// The recursive and arithmetic counts agree with Knuth's closed forms at
// powers of two, for k = 0..20, and every stage is non-empty.
func TestProfilesMatchClosedFormsAtPowersOfTwo(t *testing.T) {
	for k := 0; k <= 20; k++ {
		n := 1 << k
		for _, c := range []struct {
			name string
			prof []int64
			size int64
		}{
			{"odd-even", OddEvenProfile(n), OddEvenSizePow2(k)},
			{"bitonic", BitonicProfile(n), BitonicSizePow2(k)},
		} {
			if got := Sum(c.prof); got != c.size {
				t.Errorf("%s k=%d: profile sums to %d, closed form %d", c.name, k, got, c.size)
			}
			if got := int64(len(c.prof)); got != DepthPow2(k) || got != Depth(n) {
				t.Errorf("%s k=%d: %d stages, closed form %d", c.name, k, got, DepthPow2(k))
			}
		}
	}
}

// Bitonic stages on 2^k wires all have 2^(k−1) comparators; the odd-even
// stage that starts a merge of blocks of 2p compares every wire once.
func TestPow2StageCounts(t *testing.T) {
	for k := 1; k <= 12; k++ {
		n := 1 << k
		for s, c := range BitonicProfile(n) {
			if c != int64(n/2) {
				t.Fatalf("bitonic k=%d stage %d: %d comparators, want %d", k, s, c, n/2)
			}
		}
		oe := OddEvenProfile(n)
		s := 0
		for p := 1; p < n; p *= 2 {
			if oe[s] != int64(n/2) {
				t.Fatalf("odd-even k=%d: first stage of merge %d has %d comparators, want %d", k, p, oe[s], n/2)
			}
			for q := p; q >= 1; q /= 2 {
				s++
			}
		}
	}
}

// Small values worked by hand from Batcher's recursive merge: n = 3: [0:1],
// then the 2+1 merge [0:2], [1:2]; n = 5: sort 4 (5), then merge 4+1
// (evens 0,2,4: 2 comparators; odds 1,3: none; neighbours [1:2], [3:4]).
func TestOddEvenSmallByHand(t *testing.T) {
	for _, c := range []struct {
		n    int
		size int64
	}{{0, 0}, {1, 0}, {2, 1}, {3, 3}, {4, 5}, {5, 9}, {8, 19}} {
		if got := Sum(OddEvenProfile(c.n)); got != c.size {
			t.Errorf("n=%d: size %d, want %d", c.n, got, c.size)
		}
	}
}

// Pruning from n to n−1 wires removes exactly the comparators touching
// wire n−1, so sizes are non-decreasing in n, and every stage of the
// schedule stays non-empty (Depth).
func TestGeneralNMonotoneAndDepth(t *testing.T) {
	for _, prof := range []func(int) []int64{OddEvenProfile, BitonicProfile} {
		prev := int64(0)
		for n := 0; n <= 3000; n++ {
			p := prof(n)
			if int64(len(p)) != Depth(n) {
				t.Fatalf("n=%d: %d stages, Depth %d", n, len(p), Depth(n))
			}
			for s, c := range p {
				if c == 0 {
					t.Fatalf("n=%d: stage %d empty", n, s)
				}
			}
			if s := Sum(p); s < prev {
				t.Fatalf("n=%d: size %d < size %d at n−1", n, s, prev)
			} else {
				prev = s
			}
		}
	}
}
