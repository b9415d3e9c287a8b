package sortnet

import (
	"fmt"
	"math/bits"

	"routecheck/models/sortnet"
)

// MaxN is the largest number of wires the constructions accept: 2^22 wires
// give about 5·10^8 comparators (4 GB), so anything above is refused.
const MaxN = 1 << 22

// padded checks n and returns N = 2^⌈lg n⌉ (1 for n ≤ 1) and k = lg N.
func padded(n int, what string) (N, k int, err error) {
	if n < 0 {
		return 0, 0, fmt.Errorf("sortnet: %s: n = %d, allowed 0 ≤ n ≤ %d", what, n, MaxN)
	}
	if n > MaxN {
		k := bits.Len(uint(n - 1))
		gb := float64(k*(k+1)/2) * float64(uint64(1)<<(k-1)) * 8 / 1e9
		return 0, 0, fmt.Errorf("sortnet: %s: n = %d needs about %.0f GB of comparators, allowed 0 ≤ n ≤ %d", what, n, gb, MaxN)
	}
	if n <= 1 {
		return 1, 0, nil
	}
	k = bits.Len(uint(n - 1))
	return 1 << k, k, nil
}

// OddEvenMergeSort returns Batcher's odd-even merge sorting network on n
// wires: for n = 2^k it has depth k(k+1)/2 and (k²−k+4)·2^(k−2) − 1
// comparators (Knuth §5.3.4); for other n it is the network for 2^⌈lg n⌉
// wires with every comparator touching a wire ≥ n removed (see the package
// comment: valid, same depth, but not free of redundant comparators).
// n = 0 and n = 1 give the empty network. It returns an error for n < 0 or
// n > MaxN.
func OddEvenMergeSort(n int) (sortnet.Network, error) {
	N, k, err := padded(n, "odd-even merge sort")
	if err != nil {
		return sortnet.Network{}, err
	}
	nw := sortnet.Network{N: n, Stages: make([]sortnet.Stage, 0, k*(k+1)/2)}
	for p := 1; p < N; p <<= 1 {
		for d := p; d >= 1; d >>= 1 {
			var st sortnet.Stage
			for j := d % p; j+d < N; j += 2 * d {
				for i := 0; i < d && i+j+d < n; i++ {
					a, b := i+j, i+j+d
					if a/(2*p) == b/(2*p) {
						st = append(st, sortnet.Comparator{I: int32(a), J: int32(b)})
					}
				}
			}
			nw.Stages = append(nw.Stages, st)
		}
	}
	return nw.Compact(), nil
}

// BitonicSort returns Batcher's bitonic sorting network on n wires, in the
// form with standard comparators only: for n = 2^k it has depth k(k+1)/2 and
// k(k+1)·2^(k−2) comparators (Knuth §5.3.4); for other n it is the network
// for 2^⌈lg n⌉ wires with every comparator touching a wire ≥ n removed.
// n = 0 and n = 1 give the empty network. It returns an error for n < 0 or
// n > MaxN.
func BitonicSort(n int) (sortnet.Network, error) {
	N, k, err := padded(n, "bitonic sort")
	if err != nil {
		return sortnet.Network{}, err
	}
	nw := sortnet.Network{N: n, Stages: make([]sortnet.Stage, 0, k*(k+1)/2)}
	for h := 1; h < N; h <<= 1 { // merge sorted blocks of h wires into blocks of 2h
		var flip sortnet.Stage
		for base := 0; base < N; base += 2 * h {
			for x := range h {
				if b := base + 2*h - 1 - x; b < n {
					flip = append(flip, sortnet.Comparator{I: int32(base + x), J: int32(b)})
				}
			}
		}
		nw.Stages = append(nw.Stages, flip)
		for d := h / 2; d >= 1; d >>= 1 {
			var st sortnet.Stage
			for a := 0; a+d < n; a++ {
				if a&d == 0 {
					st = append(st, sortnet.Comparator{I: int32(a), J: int32(a + d)})
				}
			}
			nw.Stages = append(nw.Stages, st)
		}
	}
	return nw.Compact(), nil
}
