package sortnet

import (
	"math/bits"
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

// docProbes01 is the deterministic part of ProbeInputs01's documentation,
// built wire by wire: every block input with its four outer patterns, every
// input of weight ≤ 2 or ≥ n − 2, all-0 and all-1.
func docProbes01(n int) map[uint64]bool {
	has := map[uint64]bool{}
	for p := 1; p < n; p *= 2 {
		for base := 0; base < n; base += 2 * p {
			lower, upper := min(p, n-base), max(0, min(p, n-base-p))
			for a := 0; a <= lower; a++ {
				for b := 0; b <= upper; b++ {
					for _, out := range [4][2]uint64{{0, 0}, {1, 1}, {0, 1}, {1, 0}} {
						has[blockInput01(n, p, base, a, b, out[0], out[1])] = true
					}
				}
			}
		}
	}
	full := ^uint64(0) >> (64 - n)
	for i := range n {
		for j := i; j < n; j++ {
			x := uint64(1)<<i | uint64(1)<<j
			has[x], has[full&^x] = true, true
		}
	}
	has[0], has[full] = true, true
	return has
}

// The random part of ProbeInputs01: 64 random inputs of every weight. At
// n = 64 the deterministic inputs of a weight 3 ≤ w ≤ 61 are few next to
// C(64, w), so at least 32 of the 64 random ones must lie outside them (the
// chance that 64 uniform draws of weight w give fewer than 32 distinct new
// inputs is below 10^-40 for every such w; the seed is fixed anyway).
func TestProbeInputs01RandomPart(t *testing.T) {
	const n = 64
	in := ProbeInputs01(n, rand.New(rand.NewPCG(5, 5)))
	doc := docProbes01(n)
	extra := make([]int, n+1)
	for _, x := range in {
		if !doc[x] {
			extra[bits.OnesCount64(x)]++
		}
	}
	for w := 3; w <= n-3; w++ {
		if extra[w] < 32 || extra[w] > 64 {
			t.Errorf("weight %d: %d random inputs outside the structured ones, want 32 … 64", w, extra[w])
		}
	}
}

// Pack01 puts input 64k+b in lane b of word k, one word per 64 inputs
// (ceil(len/64) words), and masks exactly the lanes in use. Checked by
// unpacking bit by bit.
func TestPack01(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	const n = 7
	for _, count := range []int{0, 1, 63, 64, 65, 128, 130} {
		in := make([]uint64, count)
		for k := range in {
			in[k] = r.Uint64() & (1<<n - 1)
		}
		words, masks := Pack01(n, in)
		if want := (count + 63) / 64; len(words) != want || len(masks) != want {
			t.Fatalf("%d inputs: %d words and %d masks, want %d", count, len(words), len(masks), want)
		}
		for k := range words {
			lanes := min(64, count-64*k)
			for b := range 64 {
				if got, want := masks[k]>>b&1 == 1, b < lanes; got != want {
					t.Fatalf("%d inputs: word %d lane %d in use %v, want %v", count, k, b, got, want)
				}
				if b >= lanes {
					continue
				}
				var x uint64
				for i := range n {
					x |= words[k][i] >> b & 1 << i
				}
				if x != in[64*k+b] {
					t.Fatalf("%d inputs: word %d lane %d holds %b, want %b", count, k, b, x, in[64*k+b])
				}
			}
		}
	}
}
