package sortnetforms

import "fmt"

// MaxK bounds the exponent of the power-of-two forms so that every
// intermediate product fits in an int64 ((k²−k+4)·2^k < 2^60 for k ≤ 48).
const MaxK = 48

func checkK(k int) {
	if k < 0 || k > MaxK {
		panic(fmt.Sprintf("sortnetforms: k = %d, need 0 ≤ k ≤ %d", k, MaxK))
	}
}

// DepthPow2 is k(k+1)/2, the depth of both Batcher networks on 2^k wires
// (Knuth §5.3.4). It panics unless 0 ≤ k ≤ MaxK.
func DepthPow2(k int) int64 {
	checkK(k)
	return int64(k) * int64(k+1) / 2
}

// OddEvenSizePow2 is (k² − k + 4)·2^(k−2) − 1, the number of comparators of
// Batcher's odd-even merge sort on 2^k wires (Knuth §5.3.4). The product is
// formed as (k² − k + 4)·2^k / 4, exact because k² − k + 4 is even and, for
// k = 0, equals 4. It panics unless 0 ≤ k ≤ MaxK.
func OddEvenSizePow2(k int) int64 {
	checkK(k)
	kk := int64(k)
	return (kk*kk-kk+4)<<k>>2 - 1
}

// BitonicSizePow2 is k(k+1)·2^(k−2), the number of comparators of Batcher's
// bitonic sort on 2^k wires (Knuth §5.3.4): k(k+1)/2 stages of 2^(k−1)
// comparators. It panics unless 0 ≤ k ≤ MaxK.
func BitonicSizePow2(k int) int64 {
	checkK(k)
	kk := int64(k)
	return kk * (kk + 1) << k >> 2
}

// ceilLg returns ⌈lg n⌉ for n ≥ 1 (0 for n = 1), computed by doubling.
func ceilLg(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

// Depth is the number of stages of either pruned Batcher network on n ≥ 0
// wires: k(k+1)/2 with k = ⌈lg n⌉ (0 for n ≤ 1). Every stage of the
// 2^k-wire schedule keeps a comparator on wires below 2^(k−1)+1 ≤ n, so
// pruning empties no stage; OddEvenProfile and BitonicProfile confirm it by
// counting. It panics for n < 0.
func Depth(n int) int64 {
	if n < 0 {
		panic(fmt.Sprintf("sortnetforms: n = %d, need n ≥ 0", n))
	}
	if n <= 1 {
		return 0
	}
	return DepthPow2(ceilLg(n))
}

// profile is a list of per-stage comparator counts.
type profile []int64

// par runs two profiles in parallel: stage t has both counts.
func par(a, b profile) profile {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append(profile(nil), a...)
	for t, c := range b {
		out[t] += c
	}
	return out
}

type key struct{ c, l int }

// oddEven counts the odd-even network restricted to real wires. A block is a
// list of l = 2^m wires (a contiguous range, or every r-th wire of one) whose
// first c are real and the rest padding: real wires are always a prefix,
// because padding is the top n..N−1 of the whole network.
type oddEven struct{ sort, merge map[key]profile }

// mergeProf is Batcher's merge of the two sorted halves of a block of l
// wires with c real ones: the even-indexed wires (⌈c/2⌉ real) and the
// odd-indexed wires (⌊c/2⌋ real) are merged in parallel, each as a block of
// l/2; then wire 2i−1 is compared with wire 2i for 1 ≤ i < l/2, which
// survives iff 2i < c: ⌊(c−1)/2⌋ comparators. A block of 2 is one
// comparator, surviving iff c = 2.
func (o *oddEven) mergeProf(c, l int) profile {
	if p, ok := o.merge[key{c, l}]; ok {
		return p
	}
	var p profile
	if l == 2 {
		p = profile{0}
		if c == 2 {
			p[0] = 1
		}
	} else {
		p = par(o.mergeProf((c+1)/2, l/2), o.mergeProf(c/2, l/2))
		last := int64(0)
		if c >= 1 {
			last = int64((c - 1) / 2)
		}
		p = append(p, last)
	}
	o.merge[key{c, l}] = p
	return p
}

// sortProf sorts the two halves of the block in parallel, then merges.
func (o *oddEven) sortProf(c, l int) profile {
	if l == 1 {
		return nil
	}
	if p, ok := o.sort[key{c, l}]; ok {
		return p
	}
	h := l / 2
	p := par(o.sortProf(min(c, h), h), o.sortProf(max(0, c-h), h))
	p = append(p, o.mergeProf(c, l)...)
	o.sort[key{c, l}] = p
	return p
}

// OddEvenProfile returns the number of comparators in each stage of
// Batcher's odd-even merge sort for 2^⌈lg n⌉ wires after pruning to n
// wires, stage by stage in the 2^k schedule (empty stages included), by
// Batcher's recursive definition (see oddEven). Its sum is the size of
// algos/sortnet.OddEvenMergeSort(n); for n = 2^k it is OddEvenSizePow2(k).
// Cost O(lg³ n). It panics for n < 0.
func OddEvenProfile(n int) []int64 {
	if n < 0 {
		panic(fmt.Sprintf("sortnetforms: n = %d, need n ≥ 0", n))
	}
	if n <= 1 {
		return nil
	}
	o := &oddEven{sort: map[key]profile{}, merge: map[key]profile{}}
	return append([]int64(nil), o.sortProf(n, 1<<ceilLg(n))...)
}

// pairs counts the comparators [a : a+d] with a's bit d clear (a mod 2d < d)
// and a+d < n: each full block of 2d wires holds d of them, and a last
// partial block holding r = n mod 2d real wires holds max(0, r−d). The
// mirror stage of a bitonic merge of blocks of 2d wires ([x : 2d−1−x],
// x < d, in each block) has the same count: in the partial block the pair of
// x survives iff 2d−1−x < r, i.e. for x ≥ 2d−r.
func pairs(n, d int) int64 {
	return int64(n/(2*d)*d + max(0, n%(2*d)-d))
}

// BitonicProfile returns the number of comparators in each stage of the
// pruned bitonic network on n wires, in the 2^k schedule: for each h = 1, 2,
// …, 2^(k−1) a mirror stage on blocks of 2h, then half-cleaners with
// d = h/2, …, 1; every stage of d has pairs(n, d) comparators (the mirror
// stage of h counts as d = h). For n = 2^k its sum is BitonicSizePow2(k).
// It panics for n < 0.
func BitonicProfile(n int) []int64 {
	if n < 0 {
		panic(fmt.Sprintf("sortnetforms: n = %d, need n ≥ 0", n))
	}
	var out []int64
	for h := 1; h < n; h *= 2 {
		for d := h; d >= 1; d /= 2 {
			out = append(out, pairs(n, d))
		}
	}
	return out
}

// Sum adds a profile.
func Sum(p []int64) int64 {
	var s int64
	for _, c := range p {
		s += c
	}
	return s
}
