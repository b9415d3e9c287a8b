package sortnet

import (
	"math/rand/v2"
	"testing"
)

// blockInput01 builds, wire by wire, one block input of ProbeInputs01's
// documentation: the block of 2p wires at base (cut at n) has its lower half
// sorted with weight a and its upper half sorted with weight b (a sorted 0-1
// half holds its 1s on its top wires); wires below the block are lo, wires
// above it are hi.
func blockInput01(n, p, base, a, b int, lo, hi uint64) uint64 {
	top1 := min(base+p, n)   // end of the lower half
	top2 := min(base+2*p, n) // end of the upper half
	var x uint64
	for i := range n {
		var bit uint64
		switch {
		case i < base:
			bit = lo
		case i < top1:
			if i >= top1-a {
				bit = 1
			}
		case i < top2:
			if i >= top2-b {
				bit = 1
			}
		default:
			bit = hi
		}
		x |= bit << i
	}
	return x
}

// ProbeInputs01 contains every input its documentation promises: the block
// inputs for p = 1, 2, 4, … < n with the four outer patterns, and every
// input of weight ≤ 2 or ≥ n − 2; and nothing outside N_(2^n).
func TestProbeInputs01Contents(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 2, 3, 5, 8, 12, 64} {
		in := ProbeInputs01(n, r)
		has := map[uint64]bool{}
		for _, x := range in {
			if n < 64 && x>>n != 0 {
				t.Fatalf("n = %d: input %b uses a wire ≥ n", n, x)
			}
			has[x] = true
		}
		for p := 1; p < n; p *= 2 {
			for base := 0; base < n; base += 2 * p {
				lower := min(p, n-base)
				upper := max(0, min(p, n-base-p))
				for a := 0; a <= lower; a++ {
					for b := 0; b <= upper; b++ {
						for _, out := range [4][2]uint64{{0, 0}, {1, 1}, {0, 1}, {1, 0}} {
							if x := blockInput01(n, p, base, a, b, out[0], out[1]); !has[x] {
								t.Fatalf("n = %d: block p = %d at %d with weights %d, %d, outside %v missing (%b)", n, p, base, a, b, out, x)
							}
						}
					}
				}
			}
		}
		full := ^uint64(0) >> (64 - n)
		for i := range n {
			for j := i; j < n; j++ {
				x := uint64(1)<<i | uint64(1)<<j
				if !has[x] || !has[full&^x] {
					t.Fatalf("n = %d: input of weight ≤ 2 or ≥ n−2 missing (wires %d, %d)", n, i, j)
				}
			}
		}
		if !has[0] || !has[full] {
			t.Fatalf("n = %d: all-0 or all-1 input missing", n)
		}
	}
}

func TestProbeInputs01Panics(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, -1, 65} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ProbeInputs01(%d) did not panic", n)
				}
			}()
			ProbeInputs01(n, r)
		}()
	}
}

func TestSorted(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want bool
	}{
		{nil, true}, {[]int{5}, true}, {[]int{1, 1, 2, 2}, true}, {[]int{1, 2, 3}, true},
		{[]int{2, 1}, false}, {[]int{1, 3, 2}, false}, {[]int{1, 1, 0}, false},
	} {
		if got := Sorted(c.xs); got != c.want {
			t.Errorf("Sorted(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
