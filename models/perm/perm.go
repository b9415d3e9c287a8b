// Package perm is the shared vocabulary of routecheck: permutations and
// partial permutations of processor indices, as []int32.
//
// A permutation of N_n = {0,…,n-1} maps source i to destination P[i]. A
// partial permutation may leave a source without a packet (P[i] == None) but
// never sends two packets to the same destination. An h-relation is a
// multiset of (source, destination) pairs (Pair).
package perm

import (
	"fmt"
	"math/rand/v2"
)

// None marks a source that holds no packet in a partial permutation.
const None int32 = -1

// Pair is one packet of an h-relation.
type Pair struct{ Src, Dst int32 }

// Validate reports whether p is a partial permutation of N_len(p): every
// entry is None or in [0, len(p)) and no destination repeats. With full set,
// None is not allowed (p must be a permutation).
func Validate(p []int32, full bool) error {
	n := len(p)
	seen := make([]bool, n)
	for i, d := range p {
		if d == None && !full {
			continue
		}
		if d < 0 || int(d) >= n {
			return fmt.Errorf("perm: destination of source %d is %d, allowed range is [0, %d)", i, d, n)
		}
		if seen[d] {
			return fmt.Errorf("perm: destination %d is used twice (second time by source %d)", d, i)
		}
		seen[d] = true
	}
	return nil
}

// New returns a copy of p after checking it is a permutation.
func New(p []int32) ([]int32, error) {
	if err := Validate(p, true); err != nil {
		return nil, err
	}
	return append([]int32(nil), p...), nil
}

// Identity returns the identity permutation of size n.
func Identity(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// Random returns a uniformly random permutation of size n (Fisher–Yates).
func Random(n int, rng *rand.Rand) []int32 {
	p := Identity(n)
	RandomInto(p, rng)
	return p
}

// RandomInto overwrites p with a uniformly random permutation of size len(p),
// without allocating. It is Fisher–Yates from the top (for i = len(p)−1
// down to 1, swap p[i] with p[rng.IntN(i+1)]), and it consumes the stream
// exactly like that loop, so outputs and the generator's state afterwards
// do not depend on how it is computed. It draws the indices of shuffleBatch
// consecutive swaps first and then does the swaps: the draws do not depend
// on p, and doing the swaps back to back lets the processor overlap their
// cache misses (at n = 2^24 the array is 64 MB and nearly every p[j] misses).
func RandomInto(p []int32, rng *rand.Rand) {
	for i := range p {
		p[i] = int32(i)
	}
	var js [shuffleBatch]int32
	for hi := len(p) - 1; hi > 0; {
		lo := max(hi-shuffleBatch, 0)
		b := js[:hi-lo]
		for k := range b {
			b[k] = int32(rng.IntN(hi - k + 1))
		}
		// Swap k is the loop's step i = hi − k; j ≤ i < len(p).
		q := p[:hi+1]
		for k, j := range b {
			i := hi - k
			q[i], q[j] = q[j], q[i]
		}
		hi = lo
	}
}

// shuffleBatch is the number of swaps RandomInto draws ahead.
const shuffleBatch = 256

// Inverse returns q with q[p[i]] = i (None sources are skipped; unused
// destinations map to None).
func Inverse(p []int32) []int32 {
	q := make([]int32, len(p))
	for i := range q {
		q[i] = None
	}
	for i, d := range p {
		if d != None {
			q[d] = int32(i)
		}
	}
	return q
}

// Each calls f for every permutation of size n in lexicographic order
// (Heap-free next-permutation), stopping early when f returns false. The
// slice passed to f is reused between calls.
func Each(n int, f func(p []int32) bool) {
	p := Identity(n)
	for {
		if !f(p) {
			return
		}
		// next permutation
		i := n - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := n - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		for l, r := i+1, n-1; l < r; l, r = l+1, r-1 {
			p[l], p[r] = p[r], p[l]
		}
	}
}
