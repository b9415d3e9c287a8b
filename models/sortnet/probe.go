package sortnet

import (
	"math/bits"
	"math/rand/v2"
)

// Unsorted01 returns the mask of the inputs (bits) whose 0-1 output in w
// (one word per wire, as Eval01 leaves it) is not sorted: some wire holds a
// 1 above a 0 on the next wire.
func Unsorted01(w []uint64) uint64 { return unsorted01(w) }

// ProbeInputs01 returns 0-1 inputs (bit i = wire i) for n ≤ 64 wires chosen
// without looking at any network: for every block of 2p wires aligned at a
// multiple of 2p (p = 1, 2, 4, …), both halves sorted with every pair of
// weights, and the wires outside the block all 0, all 1, 0 below and 1
// above, or 1 below and 0 above; every input of weight ≤ 2 or ≥ n − 2; and
// 64 random inputs of every weight. The block inputs are the states a merge
// of Batcher's networks can meet, so a comparator deleted from such a merge
// usually shows on one of them. The inputs are distinct.
func ProbeInputs01(n int, r *rand.Rand) []uint64 {
	if n < 1 || n > 64 {
		panic("sortnet: ProbeInputs01 needs 1 ≤ n ≤ 64")
	}
	full := ^uint64(0) >> (64 - n)
	span := func(lo, hi int) uint64 { // wires lo … hi−1
		lo, hi = max(0, min(lo, n)), max(0, min(hi, n))
		if hi <= lo {
			return 0
		}
		return (uint64(1)<<(hi-lo) - 1) << lo
	}
	seen := map[uint64]bool{}
	var out []uint64
	add := func(x uint64) {
		if x &= full; !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	for p := 1; p < n; p *= 2 {
		for base := 0; base < n; base += 2 * p {
			ra, rb := min(p, n-base), max(0, min(p, n-base-p))
			for a := 0; a <= ra; a++ {
				for b := 0; b <= rb; b++ {
					x := span(base+ra-a, base+ra) | span(base+p+rb-b, base+p+rb)
					lo, hi := span(0, base), span(base+2*p, n)
					for _, f := range [4]uint64{0, lo | hi, hi, lo} {
						add(x | f)
					}
				}
			}
		}
	}
	for i := range n {
		for j := i; j < n; j++ {
			add(1<<i | 1<<j)
			add(full &^ (1<<i | 1<<j))
		}
	}
	add(0)
	add(full)
	for w := 0; w <= n; w++ {
		for range 64 {
			var x uint64
			for _, i := range r.Perm(n)[:w] {
				x |= 1 << i
			}
			add(x)
		}
	}
	return out
}

// Pack01 packs 0-1 inputs into 64-lane words for Eval01: words[k][i] bit b
// is wire i of input 64k+b; masks[k] marks the lanes in use.
func Pack01(n int, inputs []uint64) (words [][]uint64, masks []uint64) {
	for k := 0; k < len(inputs); k += 64 {
		w := make([]uint64, n)
		lanes := min(64, len(inputs)-k)
		for b := range lanes {
			for i := range n {
				w[i] |= inputs[k+b] >> i & 1 << b
			}
		}
		words = append(words, w)
		masks = append(masks, ^uint64(0)>>(64-lanes))
	}
	return words, masks
}

// FailsOn01 runs nw on packed inputs and returns the first input (bit i =
// wire i) it leaves unsorted, or found = false.
func FailsOn01(nw Network, words [][]uint64, masks []uint64) (bad uint64, found bool) {
	w := make([]uint64, nw.N)
	for k, in := range words {
		copy(w, in)
		Eval01(nw, w)
		if m := unsorted01(w) & masks[k]; m != 0 {
			lane := bits.TrailingZeros64(m)
			for i := range nw.N {
				bad |= in[i] >> lane & 1 << i
			}
			return bad, true
		}
	}
	return 0, false
}
