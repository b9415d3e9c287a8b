package sortnet

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// PackedMaxN is the most wires a Packed network can have.
const PackedMaxN = 1 << 16

// Packed is a comparator network on at most 2^16 wires stored for fast
// evaluation: all comparators in one list, 4 bytes each (I in the low 16
// bits, J in the high 16), stage after stage. It computes exactly what the
// Network it was packed from computes — the comparators are applied in the
// same order, except that a run stops where the values are already in
// order and no comparator left could exchange (spanUntilSorted) — in half
// the memory and, measured on AKS-family networks
// (algos/aks BenchmarkPacked), about two thirds of the time: the list is streamed
// instead of a slice per stage, and the wires are indexed by 16-bit values
// into fixed-size scratch arrays, so no bounds checks are needed.
type Packed struct {
	N int
	// comps holds the comparators in chunks of packedChunk (the last one
	// shorter), so that packing a network it consumes never holds both
	// whole copies at once.
	comps [][]uint32
	size  int
	ends  []int // ends[s]: number of comparators in stages 0..s
}

var packedChunk = 1 << 20 // a variable for the tests of chunk boundaries

// Pack returns nw packed. It refuses N > PackedMaxN and comparators
// outside 0 ≤ I < J < N (naming the stage and the comparator); it does not
// check that a stage uses each wire at most once (evaluation applies the
// comparators in order, as Apply does, either way). If consume is set, the
// stages of nw are released (set to nil in nw.Stages) as they are packed,
// so that the two copies are never both whole in memory (if nothing else
// holds them): nw must not be evaluated afterwards.
func Pack(nw Network, consume bool) (*Packed, error) {
	if nw.N < 0 || nw.N > PackedMaxN {
		return nil, fmt.Errorf("sortnet: Pack: n = %d, allowed 0 ≤ n ≤ %d", nw.N, PackedMaxN)
	}
	p := &Packed{N: nw.N, ends: make([]int, 0, len(nw.Stages))}
	var cur []uint32
	for s, st := range nw.Stages {
		for k, c := range st {
			if c.I < 0 || c.I >= c.J || int(c.J) >= nw.N {
				return nil, fmt.Errorf("sortnet: Pack: stage %d comparator %d is [%d:%d], need 0 ≤ i < j < n = %d", s, k, c.I, c.J, nw.N)
			}
			if len(cur) == cap(cur) {
				if cur != nil {
					p.comps = append(p.comps, cur)
				}
				cur = make([]uint32, 0, packedChunk)
			}
			cur = append(cur, uint32(c.I)|uint32(c.J)<<16)
		}
		p.size += len(st)
		p.ends = append(p.ends, p.size)
		if consume {
			nw.Stages[s] = nil
		}
	}
	if len(cur) > 0 {
		p.comps = append(p.comps, cur)
	}
	return p, nil
}

// span calls f on the comparators lo..hi−1 in order, chunk by chunk.
func (p *Packed) span(lo, hi int, f func([]uint32)) {
	for lo < hi {
		ch := p.comps[lo/packedChunk]
		off := lo % packedChunk
		m := min(len(ch)-off, hi-lo)
		f(ch[off : off+m])
		lo += m
	}
}

// sortedCheckMin and sortedCheckPerWire set how often a run looks whether
// its values are already in order: after every max(sortedCheckMin,
// sortedCheckPerWire·N) comparators (variables for the tests of the
// boundaries). A look costs at most N reads, so it adds at most a
// sixteenth of a comparator's work per comparator, and far less on values
// out of order early (it stops at the first descent).
var sortedCheckMin, sortedCheckPerWire = 1 << 12, 16

// sortedStops counts the runs stopped early (for the tests).
var sortedStops atomic.Int64

// spanUntilSorted is span, stopping early where sorted() holds: every
// comparator of a Packed network is standard (I < J, the smaller value to
// I; Pack checks it), so on values already in order (non-decreasing along
// the wires) no comparator exchanges, and the rest of the run would change
// nothing. sorted is called between pieces of the comparator list (see
// sortedCheckMin), never before the first: a run shorter than a piece
// does no look. On the exact-separator AKS networks, whose root stages
// sort every input, this skips about 95 % of the comparators.
func (p *Packed) spanUntilSorted(lo, hi int, f func([]uint32), sorted func() bool) {
	step := max(sortedCheckMin, sortedCheckPerWire*p.N)
	for lo < hi {
		m := min(step, hi-lo)
		p.span(lo, lo+m, f)
		lo += m
		if lo < hi && sorted() {
			sortedStops.Add(1)
			return
		}
	}
}

// valsSorted reports that v[0..n−1] is non-decreasing.
func valsSorted(v *[PackedMaxN]int32, n int) bool {
	for i := 1; i < n; i++ {
		if v[i] < v[i-1] {
			return false
		}
	}
	return true
}

// wordsSorted reports that each of the 64 0-1 inputs in v[0..n−1] (bit b
// of v[i]: wire i of input b) is sorted: no 1 on a wire followed by a 0 on
// the next.
func wordsSorted(v *[PackedMaxN]uint64, n int) bool {
	for i := 1; i < n; i++ {
		if v[i-1]&^v[i] != 0 {
			return false
		}
	}
	return true
}

// quadsSorted is wordsSorted on four word vectors side by side.
func quadsSorted(v *[Eval01ManyMaxN][4]uint64, n int) bool {
	for i := 1; i < n; i++ {
		a, b := &v[i-1], &v[i]
		if a[0]&^b[0]|a[1]&^b[1]|a[2]&^b[2]|a[3]&^b[3] != 0 {
			return false
		}
	}
	return true
}

// Depth is the number of stages (empty ones included, as in the Network).
func (p *Packed) Depth() int { return len(p.ends) }

// Size is the number of comparators.
func (p *Packed) Size() int { return p.size }

// Unpack returns the Network p was packed from (a copy).
func (p *Packed) Unpack() Network {
	nw := Network{N: p.N, Stages: make([]Stage, len(p.ends))}
	lo := 0
	for s, hi := range p.ends {
		st := make(Stage, 0, hi-lo)
		p.span(lo, hi, func(cs []uint32) {
			for _, c := range cs {
				st = append(st, Comparator{I: int32(uint16(c)), J: int32(c >> 16)})
			}
		})
		nw.Stages[s], lo = st, hi
	}
	return nw
}

var (
	packedVals  = sync.Pool{New: func() any { return new([PackedMaxN]int32) }}
	packedWords = sync.Pool{New: func() any { return new([PackedMaxN]uint64) }}
)

// Apply runs the network on xs in place (len(xs) must be N), as Apply.
func (p *Packed) Apply(xs []int32) { p.ApplyStages(xs, 0, p.Depth()) }

// ApplyStages runs stages from..to−1 on xs in place (len(xs) must be N;
// 0 ≤ from ≤ to ≤ Depth).
func (p *Packed) ApplyStages(xs []int32, from, to int) {
	if len(xs) != p.N {
		panic(fmt.Sprintf("sortnet: Apply on %d values, network has %d wires", len(xs), p.N))
	}
	lo, hi := p.stageSpan(from, to)
	v := packedVals.Get().(*[PackedMaxN]int32)
	copy(v[:], xs)
	p.spanUntilSorted(lo, hi, func(cs []uint32) { applyPacked(v, cs) }, func() bool { return valsSorted(v, len(xs)) })
	copy(xs, v[:len(xs)])
	packedVals.Put(v)
}

// stageSpan returns the comparators lo..hi−1 of stages from..to−1 (as
// Comparator numbers them); it panics unless 0 ≤ from ≤ to ≤ Depth.
func (p *Packed) stageSpan(from, to int) (lo, hi int) {
	if from < 0 || from > to || to > len(p.ends) {
		panic(fmt.Sprintf("sortnet: ApplyStages(%d, %d) on a network of depth %d", from, to, len(p.ends)))
	}
	if from > 0 {
		lo = p.ends[from-1]
	}
	hi = lo
	if to > 0 {
		hi = p.ends[to-1]
	}
	return lo, hi
}

// Comparator returns the k-th comparator in the order Apply applies them
// (0 ≤ k < Size).
func (p *Packed) Comparator(k int) Comparator {
	if k < 0 || k >= p.size {
		panic(fmt.Sprintf("sortnet: Comparator(%d) on a network of size %d", k, p.size))
	}
	c := p.comps[k/packedChunk][k%packedChunk]
	return Comparator{I: int32(uint16(c)), J: int32(c >> 16)}
}

// ApplyLastExchange is Apply, also returning the index (in the order
// Apply applies them, as Comparator numbers them) of the last comparator
// that exchanged its two values, or −1 if none did.
func (p *Packed) ApplyLastExchange(xs []int32) int {
	if len(xs) != p.N {
		panic(fmt.Sprintf("sortnet: Apply on %d values, network has %d wires", len(xs), p.N))
	}
	v := packedVals.Get().(*[PackedMaxN]int32)
	copy(v[:], xs)
	last, base := -1, 0
	p.spanUntilSorted(0, p.size, func(cs []uint32) {
		if k := applyPackedLast(v, cs); k >= 0 {
			last = base + k
		}
		base += len(cs)
	}, func() bool { return valsSorted(v, len(xs)) })
	copy(xs, v[:len(xs)])
	packedVals.Put(v)
	return last
}

// ApplyFrom runs the comparators from index k on (as Comparator numbers
// them: k = 0 is Apply) on xs in place (0 ≤ k ≤ Size).
func (p *Packed) ApplyFrom(xs []int32, k int) {
	if len(xs) != p.N {
		panic(fmt.Sprintf("sortnet: Apply on %d values, network has %d wires", len(xs), p.N))
	}
	if k < 0 || k > p.size {
		panic(fmt.Sprintf("sortnet: ApplyFrom(%d) on a network of size %d", k, p.size))
	}
	v := packedVals.Get().(*[PackedMaxN]int32)
	copy(v[:], xs)
	p.spanUntilSorted(k, p.size, func(cs []uint32) { applyPacked(v, cs) }, func() bool { return valsSorted(v, len(xs)) })
	copy(xs, v[:len(xs)])
	packedVals.Put(v)
}

// applyPackedLast is applyPacked, returning the index in cs of the last
// comparator that exchanged (−1: none).
func applyPackedLast(v *[PackedMaxN]int32, cs []uint32) int {
	last := -1
	for k, c := range cs {
		i, j := uint16(c), uint16(c>>16)
		a, b := v[i], v[j]
		if b < a {
			v[i], v[j] = b, a
			last = k
		}
	}
	return last
}

// applyPiece and applySample: applyPacked takes the comparators in pieces
// of applyPiece and runs the first applySample of each with a branch,
// counting the exchanges, to choose the loop for the rest.
const applyPiece, applySample = 1 << 13, 1 << 8

// applyPacked applies the comparators cs to v. Where comparators exchange
// about as often as not (Batcher's networks on permutations: half of them)
// a branch is mispredicted about every other comparator and the
// branch-free loop is 1.5–5 times faster; where they seldom exchange (the
// AKS-family networks: about 1 %) the branch is predicted and the
// branch-free loop, which stores every time, about 1.3 times slower. So
// each piece of applyPiece comparators runs its first applySample with the
// branch, counting exchanges, and the rest branch-free if between 1/8 and
// 7/8 of those exchanged. Both loops compute the same values (a swap of
// b < a is (min, max); for a ≤ b both leave a, b).
func applyPacked(v *[PackedMaxN]int32, cs []uint32) {
	for len(cs) > 0 {
		m := min(len(cs), applyPiece)
		s := min(m, applySample)
		ex := applyPackedCount(v, cs[:s])
		if rest := cs[s:m]; ex*8 > s && ex*8 < 7*s {
			applyPackedMinMax(v, rest)
		} else {
			applyPackedBranch(v, rest)
		}
		cs = cs[m:]
	}
}

// applyPackedCount is applyPackedBranch, returning how many comparators
// exchanged.
func applyPackedCount(v *[PackedMaxN]int32, cs []uint32) int {
	ex := 0
	for _, c := range cs {
		i, j := uint16(c), uint16(c>>16)
		a, b := v[i], v[j]
		if b < a {
			v[i], v[j] = b, a
			ex++
		}
	}
	return ex
}

// applyPackedBranch applies the comparators cs to v, exchanging where the
// values are out of order.
func applyPackedBranch(v *[PackedMaxN]int32, cs []uint32) {
	for _, c := range cs {
		i, j := uint16(c), uint16(c>>16)
		a, b := v[i], v[j]
		if b < a {
			v[i], v[j] = b, a
		}
	}
}

// applyPackedMinMax applies the comparators cs to v without a branch
// (conditional moves).
func applyPackedMinMax(v *[PackedMaxN]int32, cs []uint32) {
	for _, c := range cs {
		i, j := uint16(c), uint16(c>>16)
		a, b := v[i], v[j]
		v[i], v[j] = min(a, b), max(a, b)
	}
}

// Eval01 runs the network on 64 0-1 inputs at once, as Eval01: bit b of
// w[i] is wire i of input b (len(w) must be N); w is overwritten with the
// outputs.
func (p *Packed) Eval01(w []uint64) {
	if len(w) != p.N {
		panic(fmt.Sprintf("sortnet: Eval01 on %d wires, network has %d", len(w), p.N))
	}
	v := packedWords.Get().(*[PackedMaxN]uint64)
	copy(v[:], w)
	p.spanUntilSorted(0, p.size, func(cs []uint32) { eval01Packed(v, cs) }, func() bool { return wordsSorted(v, len(w)) })
	copy(w, v[:len(w)])
	packedWords.Put(v)
}

// eval01Packed applies the comparators cs to the words v. It is kept out
// of line (go:noinline): inlined into Eval01's closure, the compiler ran
// short of registers and spilled a word to the stack and reloaded it on
// every comparator (seen in go build -gcflags=-S; 18 instructions per
// comparator under cachegrind, 14 out of line).
//
//go:noinline
func eval01Packed(v *[PackedMaxN]uint64, cs []uint32) {
	for _, c := range cs {
		i, j := uint16(c), uint16(c>>16)
		a, b := v[i], v[j]
		v[i], v[j] = a&b, a|b
	}
}

// Eval01ManyMaxN is the most wires Eval01Many interleaves its words on;
// above it, it runs Eval01 on each word in turn (four words a wire would
// no longer fit a core's L2 cache).
const Eval01ManyMaxN = 1 << 15

var packedQuads = sync.Pool{New: func() any { return new([Eval01ManyMaxN][4]uint64) }}

// Eval01Many runs Eval01 on each word vector in ws (each of length N; 64
// 0-1 inputs per vector, so 64·len(ws) inputs), overwriting them with the
// outputs: the same outputs as Eval01 on each in turn. Up to N =
// Eval01ManyMaxN it streams the comparator list once per four vectors,
// the four words of a wire side by side, which takes about 11 instructions
// per comparator and vector against 18 (cachegrind, exact-separator AKS
// network on 2^14 wires).
func (p *Packed) Eval01Many(ws [][]uint64) {
	for _, w := range ws {
		if len(w) != p.N {
			panic(fmt.Sprintf("sortnet: Eval01Many on %d wires, network has %d", len(w), p.N))
		}
	}
	if p.N > Eval01ManyMaxN {
		for _, w := range ws {
			p.Eval01(w)
		}
		return
	}
	for len(ws) > 0 {
		if len(ws) == 1 {
			p.Eval01(ws[0])
			return
		}
		g := ws[:min(4, len(ws))]
		ws = ws[len(g):]
		v := packedQuads.Get().(*[Eval01ManyMaxN][4]uint64)
		for i := range p.N {
			v[i] = [4]uint64{}
		}
		for l, w := range g {
			for i, x := range w {
				v[i][l] = x
			}
		}
		p.spanUntilSorted(0, p.size, func(cs []uint32) { eval01Quads(v, cs) }, func() bool { return quadsSorted(v, p.N) })
		for l, w := range g {
			for i := range w {
				w[i] = v[i][l]
			}
		}
		packedQuads.Put(v)
	}
}

// eval01Quads applies the comparators cs to the four-word wires v (kept
// out of line as eval01Packed). Its callers have N ≤ Eval01ManyMaxN, and
// Pack checked every wire < N, so masking the index to 15 bits changes
// nothing and spares the bounds checks.
//
//go:noinline
func eval01Quads(v *[Eval01ManyMaxN][4]uint64, cs []uint32) {
	for _, c := range cs {
		a, b := &v[uint16(c)&(Eval01ManyMaxN-1)], &v[uint16(c>>16)&(Eval01ManyMaxN-1)]
		a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		a[0], b[0] = a0&b0, a0|b0
		a[1], b[1] = a1&b1, a1|b1
		a[2], b[2] = a2&b2, a2|b2
		a[3], b[3] = a3&b3, a3|b3
	}
}
