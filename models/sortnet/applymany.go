package sortnet

import (
	"fmt"
	"sync"
)

// ApplyManyLanes is the number of inputs ApplyMany runs in one pass over
// the comparator list: a caller that feeds it its inputs in groups gets
// whole passes with groups of a multiple of it.
const ApplyManyLanes = 8

// lanes holds ApplyManyLanes inputs interleaved: v[w][l] is wire w of
// input l, so a comparator reads and writes two contiguous 32-byte rows
// (one AVX2 register each). 2 MiB.
type lanes = [PackedMaxN][ApplyManyLanes]int32

var packedLanes = sync.Pool{New: func() any { return new(lanes) }}

// lanesKernel reports that applyLanes can run here (amd64 with AVX2 and
// the operating system saving its registers); a variable for the tests of
// the fallback.
var lanesKernel = haveLanesKernel()

// ApplyMany runs Apply on each of xss (each of length N; it panics
// otherwise), in place: the same outputs as Apply on each in turn. It is
// ApplyManyStages(xss, 0, Depth()). Where the CPU has AVX2 (amd64), it
// runs up to ApplyManyLanes inputs in one pass over the comparator list,
// interleaved so that a comparator is one vector minimum and one vector
// maximum on two rows of ApplyManyLanes values (no branch on the data),
// and stops a pass where all its inputs are in order, as Apply stops a run
// (spanUntilSorted: on sorted values no comparator exchanges). Measured on
// an AKS expander-halver network on 2^16 wires (8 matchings per halver, 39
// million comparators, random permutations: BenchmarkApplyMany),
// 0.18–0.19 ns a comparator and input against Apply's 0.95–0.98 (on
// Batcher's bitonic network 0.15 against 1.06); a lone input (a group of
// one) runs Apply, which is faster alone. The kernel is assembly
// (applyLanes): the same interleaved loop in Go, a conditional move a
// lane, measured 1.03 (four lanes) to 1.14 ns (eight) on that network, no
// faster than Apply, whose branch is predicted there (about 2 % of the
// comparators exchange). Without AVX2 ApplyMany runs Apply on each in
// turn. Memory: one 2 MiB buffer a pass (pooled).
func (p *Packed) ApplyMany(xss [][]int32) { p.ApplyManyStages(xss, 0, p.Depth()) }

// ApplyManyStages runs ApplyStages(xs, from, to) on each xs of xss (each
// of length N, 0 ≤ from ≤ to ≤ Depth; it panics otherwise), in place: the
// same outputs as ApplyStages on each in turn, computed as ApplyMany
// computes them (up to ApplyManyLanes inputs a pass over the comparators
// of stages from..to−1, a group of one or no AVX2: ApplyStages on each).
// A pass stops where all its inputs are in order, as ApplyStages stops a
// run whatever from and to are: every comparator is standard, so sorted
// values stay as they are through any stages.
func (p *Packed) ApplyManyStages(xss [][]int32, from, to int) {
	for _, xs := range xss {
		if len(xs) != p.N {
			panic(fmt.Sprintf("sortnet: ApplyMany on %d values, network has %d wires", len(xs), p.N))
		}
	}
	lo, hi := p.stageSpan(from, to)
	for len(xss) > 0 {
		g := xss[:min(ApplyManyLanes, len(xss))]
		xss = xss[len(g):]
		if !lanesKernel || len(g) == 1 {
			for _, xs := range g {
				p.ApplyStages(xs, from, to)
			}
			continue
		}
		p.applyGroup(g, lo, hi, lanesSorted)
	}
}

// applyGroup runs the comparators lo..hi−1 on the 2..ApplyManyLanes inputs
// g in one pass, stopping where sorted (lanesSorted; another rule for the
// tests) holds; the lanes beyond len(g) hold zeros, which are in order and
// stay so.
func (p *Packed) applyGroup(g [][]int32, lo, hi int, sorted func(*lanes, int) bool) {
	v := packedLanes.Get().(*lanes)
	for i := range p.N {
		v[i] = [ApplyManyLanes]int32{}
	}
	for l, xs := range g {
		for i, x := range xs {
			v[i][l] = x
		}
	}
	p.spanUntilSorted(lo, hi, func(cs []uint32) { applyLanes(v, cs) }, func() bool { return sorted(v, p.N) })
	for l, xs := range g {
		for i := range xs {
			xs[i] = v[i][l]
		}
	}
	packedLanes.Put(v)
}

// lanesSorted reports that each of the ApplyManyLanes inputs in
// v[0..n−1] is non-decreasing.
func lanesSorted(v *lanes, n int) bool {
	for i := 1; i < n; i++ {
		a, b := &v[i-1], &v[i]
		if b[0] < a[0] || b[1] < a[1] || b[2] < a[2] || b[3] < a[3] ||
			b[4] < a[4] || b[5] < a[5] || b[6] < a[6] || b[7] < a[7] {
			return false
		}
	}
	return true
}
