package perm

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Family is a standard synthetic traffic pattern of interconnection-network
// simulation (Dally & Towles, Principles and Practices of Interconnection
// Networks, §3.2): a permutation of n nodes, defined where Applies(n).
// Node s sends to Perm(n, rng)[s]. The deterministic families ignore rng.
type Family struct {
	Name    string
	Applies func(n int) bool
	Perm    func(n int, rng *rand.Rand) []int32
}

func pow2(n int) bool { return n >= 1 && n&(n-1) == 0 }

// logb is b = log₂ n for a power of two n.
func logb(n int) int { return bits.Len(uint(n)) - 1 }

func bitPerm(n int, f func(s uint, b int) uint) []int32 {
	b := logb(n)
	p := make([]int32, n)
	for s := range n {
		p[s] = int32(f(uint(s), b))
	}
	return p
}

// Families lists the patterns, every one a permutation where it applies:
//
//   - uniform: a uniformly random permutation (every n);
//   - bit-reversal: d_i = s_{b−1−i} (n = 2^b);
//   - bit-complement: d_i = ¬s_i (n = 2^b);
//   - transpose: d_i = s_{(i+b/2) mod b}, the matrix transpose of a
//     2^{b/2} × 2^{b/2} layout (n = 2^b, b even);
//   - shuffle: d_i = s_{(i−1) mod b}, a left rotation of the address
//     (n = 2^b);
//   - tornado: d = (s + ⌈n/2⌉ − 1) mod n, half-way round a ring (every n);
//   - neighbour: d = (s + 1) mod n (every n).
var Families = []Family{
	{"uniform", func(n int) bool { return n >= 1 }, func(n int, rng *rand.Rand) []int32 { return Random(n, rng) }},
	{"bit-reversal", pow2, func(n int, _ *rand.Rand) []int32 {
		return bitPerm(n, func(s uint, b int) uint { return bits.Reverse(s) >> (bits.UintSize - b) })
	}},
	{"bit-complement", pow2, func(n int, _ *rand.Rand) []int32 {
		return bitPerm(n, func(s uint, b int) uint { return ^s & (1<<b - 1) })
	}},
	{"transpose", func(n int) bool { return pow2(n) && logb(n)%2 == 0 }, func(n int, _ *rand.Rand) []int32 {
		return bitPerm(n, func(s uint, b int) uint {
			h := b / 2
			return (s>>h | s<<h) & (1<<b - 1)
		})
	}},
	{"shuffle", pow2, func(n int, _ *rand.Rand) []int32 {
		return bitPerm(n, func(s uint, b int) uint {
			if b == 0 {
				return s
			}
			return (s<<1 | s>>(b-1)) & (1<<b - 1)
		})
	}},
	{"tornado", func(n int) bool { return n >= 1 }, func(n int, _ *rand.Rand) []int32 {
		p := make([]int32, n)
		for s := range n {
			p[s] = int32((s + (n+1)/2 - 1) % n)
		}
		return p
	}},
	{"neighbour", func(n int) bool { return n >= 1 }, func(n int, _ *rand.Rand) []int32 {
		p := make([]int32, n)
		for s := range n {
			p[s] = int32((s + 1) % n)
		}
		return p
	}},
}

// FamiliesFor returns the families that apply to n nodes.
func FamiliesFor(n int) []Family {
	var out []Family
	for _, f := range Families {
		if f.Applies(n) {
			out = append(out, f)
		}
	}
	return out
}

// HotSpot returns an h-relation on n nodes in which every node sends h
// packets and node hot receives h of them — the most an h-relation allows —
// from the sources hot+1, …, hot+h (mod n); the other packets go to
// destinations drawn uniformly at random among those still below h
// receptions. It needs 1 ≤ h ≤ n and 0 ≤ hot < n.
func HotSpot(n, h, hot int, rng *rand.Rand) ([]Pair, error) {
	if n < 1 || h < 1 || h > n || hot < 0 || hot >= n {
		return nil, fmt.Errorf("hot spot: need 1 ≤ h ≤ n and 0 ≤ hot < n (n = %d, h = %d, hot = %d)", n, h, hot)
	}
	recv := make([]int, n)
	var out []Pair
	sent := make([]int, n)
	for k := 1; k <= h; k++ {
		s := (hot + k) % n
		out = append(out, Pair{int32(s), int32(hot)})
		sent[s]++
	}
	recv[hot] = h
	// The remaining packets, source by source, to random destinations with
	// room; total sends n·h equal total capacity n·h, so room always exists.
	var open []int32
	for d := range n {
		if recv[d] < h {
			open = append(open, int32(d))
		}
	}
	for s := range n {
		for sent[s] < h {
			i := rng.IntN(len(open))
			d := open[i]
			out = append(out, Pair{int32(s), d})
			sent[s]++
			if recv[d]++; recv[d] == h {
				open[i] = open[len(open)-1]
				open = open[:len(open)-1]
			}
		}
	}
	return out, nil
}
