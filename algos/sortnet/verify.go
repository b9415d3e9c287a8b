package sortnet

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"routecheck/models/sortnet"
)

// Verification of a comparator network: does it sort? Verify is the check
// `routecheck sortnet` runs on one network; Witness, StructuredInputs and
// Weight01 are its parts, which the claims of props/sortnet reuse.

// Failure is an input a network leaves unsorted: a 0-1 vector (wire i holds
// Input[i]) on N wires, and how it was found.
type Failure struct {
	N     int
	Input []int
	How   string
}

// Verdict is what Verify covered and what it found.
type Verdict struct {
	N          int
	Sorts      bool
	Exhaustive bool   // all 2^N 0-1 inputs were run
	Inputs     int64  // inputs run
	Coverage   string // one line: what was run
	Failure    *Failure
}

// Verify checks one network on N wires. For N ≤ maxExh (at most 30) it runs
// all 2^N 0-1 inputs (a proof of sorting by the 0-1 principle) and reports
// the smallest failing input (as a binary number, wire i = bit i).
// Otherwise it runs, from one stream PCG(seed, 0x7665) and in this order,
// perms random permutations, the StructuredInputs in name order, and 64
// random 0-1 inputs (Weight01) for each of up to 256 weights spread over
// 0..N, the number of weights cut so that the 0-1 part costs about work
// comparator evaluations (at least 4 weights). It stops at the first
// failure and reports it as a 0-1 input the network leaves unsorted
// (Witness). Cost: 2^N·(size) for the exhaustive part (64 inputs per word),
// else about (perms + 7)·(size + N) + work.
func Verify(nw sortnet.Network, seed uint64, maxExh, perms int, work int64) Verdict {
	n := nw.N
	v := Verdict{N: n}
	if n <= min(maxExh, 30) {
		bad, ok, err := sortnet.Sorts01Exhaustive(nw)
		if err != nil {
			panic("sortnet: " + err.Error()) // n ≤ 30 was checked
		}
		v.Exhaustive, v.Inputs, v.Sorts = true, int64(1)<<n, ok
		v.Coverage = fmt.Sprintf("exhaustive 0-1 check: all 2^%d inputs (0-1 principle: a proof)", n)
		if !ok {
			v.Failure = &Failure{N: n, Input: Bits01(n, bad), How: "exhaustive 0-1 check (numerically smallest failing input, wire i = bit i)"}
		}
		return v
	}
	r := rand.New(rand.NewPCG(seed, 0x7665))
	fail := func(z []int, how string) Verdict {
		v.Failure = &Failure{N: n, Input: z, How: how}
		v.Coverage = fmt.Sprintf("not exhaustive (n = %d > %d): random and structured inputs, stopped at the first failure (input %d)", n, maxExh, v.Inputs)
		return v
	}
	for p := range perms {
		xs := make([]int32, n)
		for i, x := range r.Perm(n) {
			xs[i] = int32(x)
		}
		v.Inputs++
		if z := Witness(nw, xs); z != nil {
			return fail(z, fmt.Sprintf("threshold of random permutation %d of PCG(%d, 0x7665)", p, seed))
		}
	}
	st := StructuredInputs(n)
	names := slices.Sorted(maps.Keys(st))
	for _, name := range names {
		v.Inputs++
		if z := Witness(nw, st[name]); z != nil {
			return fail(z, "threshold of the structured input "+name)
		}
	}
	weights := min(n+1, 256)
	if cost := int64(nw.Size() + n); cost > 0 {
		weights = int(min(int64(weights), max(4, work/cost)))
	}
	gen := NewWeight01(n)
	for k := range weights {
		weight, z := gen.Unsorted(nw, k, weights, r)
		v.Inputs += 64
		if z != nil {
			return fail(z, fmt.Sprintf("random 0-1 input of weight %d", weight))
		}
	}
	v.Sorts = true
	v.Coverage = fmt.Sprintf("not exhaustive (n = %d > %d): %d random permutations, %d structured inputs (%s), 64 random 0-1 inputs for each of %d weights spread over 0..%d — %d inputs in all",
		n, maxExh, perms, len(names), strings.Join(names, ", "), weights, n, v.Inputs)
	return v
}

// Bits01 returns the 0-1 input on n wires whose wire i holds bit i of x.
func Bits01(n int, x uint64) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = int(x >> i & 1)
	}
	return out
}

// Witness runs nw on the keys xs and returns nil if the output is sorted,
// else a 0-1 input the network leaves unsorted: if output wires i, i+1 hold
// a > b, the threshold input [x ≥ a] comes out as [output ≥ a] (comparator
// networks commute with monotone maps), which has 1 on wire i and 0 on wire
// i+1. One extra run of the network, not n. xs is not modified.
func Witness(nw sortnet.Network, xs []int32) []int {
	out := slices.Clone(xs)
	sortnet.Apply(nw, out)
	return WitnessOf(xs, out)
}

// WitnessOf is Witness given the network's output out on xs (computed by
// any engine).
func WitnessOf(xs, out []int32) []int {
	for i := 0; i+1 < len(out); i++ {
		if out[i] > out[i+1] {
			z := make([]int, len(xs))
			for j, x := range xs {
				if x >= out[i] {
					z[j] = 1
				}
			}
			return z
		}
	}
	return nil
}

// StructuredInputs returns structured inputs on n wires, by name: reversed,
// interleave (evens then odds), shuffle (of the sorted halves), organ-pipe
// and inverted (organ-pipe the other way), blocks-8 (blocks of 8 in reverse
// order) and 3-values (three repeated values).
func StructuredInputs(n int) map[string][]int32 {
	h := (n + 1) / 2
	fs := map[string]func(i int) int{
		"reversed": func(i int) int { return n - 1 - i },
		"interleave": func(i int) int {
			if i < h {
				return 2 * i
			}
			return 2*(i-h) + 1
		},
		"shuffle": func(i int) int {
			if i%2 == 0 {
				return i / 2
			}
			return h + i/2
		},
		"organ-pipe": func(i int) int { return min(i, n-1-i) },
		"inverted":   func(i int) int { return max(i, n-1-i) },
		"blocks-8":   func(i int) int { return ((n+7)/8-1-i/8)*8 + i%8 },
		"3-values":   func(i int) int { return i * 7 % 3 },
	}
	out := map[string][]int32{}
	for name, f := range fs {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(f(i))
		}
		out[name] = xs
	}
	return out
}

// Weight01 draws random 0-1 inputs of a given weight on n wires, 64 at a
// time (one per bit lane), for the random part of a sorting check. Its
// buffers are reused from call to call; it is not safe for concurrent use.
type Weight01 struct {
	w    []uint64
	idx  []int32    // a permutation of 0..n−1, kept permuting (partial Fisher–Yates)
	many [][]uint64 // UnsortedManyBy's vectors and their inputs' copies
	ds   []uint32   // drawPCGMin's picks for one lane
}

// NewWeight01 returns a generator for n wires (n < 2^31).
func NewWeight01(n int) *Weight01 {
	g := &Weight01{w: make([]uint64, n), idx: make([]int32, n)}
	for i := range g.idx {
		g.idx[i] = int32(i)
	}
	return g
}

// Unsorted draws from r 64 random 0-1 inputs with ones on a uniformly
// random set of weight = k·n/max(1, of − 1) wires (the k-th of `of`
// weights spread over 0..n), runs nw on all 64 at once, and returns the
// weight and one input nw leaves unsorted (element i = wire i; the lowest
// failing lane), or nil. It draws weight·64 numbers from r (r.IntN).
func (g *Weight01) Unsorted(nw sortnet.Network, k, of int, r *rand.Rand) (weight int, z []int) {
	return g.UnsortedBy(func(w []uint64) { sortnet.Eval01(nw, w) }, k, of, r)
}

// UnsortedManyBy is UnsortedBy for k = k0, k0+1, …, k1−1, the 64 inputs
// of each drawn in that order with the same draws, all run by one call of
// evalMany (eval01 on each vector, as sortnet.Packed's Eval01Many). It
// returns the first k (in that order) whose inputs the network leaves
// unsorted, with UnsortedBy's weight and input for it, or k1 and nil. The
// draws for every k up to k1 are made even when an earlier k fails: only
// where none fails is r left exactly as after UnsortedBy for each k.
func (g *Weight01) UnsortedManyBy(evalMany func([][]uint64), k0, k1, of int, r *rand.Rand) (k, weight int, z []int) {
	return g.unsortedMany(evalMany, k0, k1, of, func(k int) { g.draw(k, of, r) })
}

// UnsortedManyPCG is UnsortedManyBy with r = rand.New(src): the same
// draws, the same answers, src left where r would be left. It draws
// through src directly (IntNPCG), which is about twice as fast as through
// r.IntN (TestWeight01PCGSame, BenchmarkWeight01Draw).
func (g *Weight01) UnsortedManyPCG(evalMany func([][]uint64), k0, k1, of int, src *rand.PCG) (k, weight int, z []int) {
	return g.unsortedMany(evalMany, k0, k1, of, func(k int) { g.drawPCG(k, of, src) })
}

// UnsortedManyPCGMin is UnsortedManyPCG with a sampler that draws only
// min(weight, n − weight) positions per input (drawPCGMin): the inputs
// have the same distribution — for each lane, uniform over the 0-1
// vectors of the k-th weight, independent of the other lanes — but they
// are other inputs, and src is left elsewhere, than UnsortedManyPCG's
// (TestWeight01MinSameDistribution). Where weight > n/2 it costs
// n − weight draws instead of weight: about half the draws over weights
// spread over 0..n.
func (g *Weight01) UnsortedManyPCGMin(evalMany func([][]uint64), k0, k1, of int, src *rand.PCG) (k, weight int, z []int) {
	return g.unsortedMany(evalMany, k0, k1, of, func(k int) { g.drawPCGMin(k, of, src) })
}

func (g *Weight01) unsortedMany(evalMany func([][]uint64), k0, k1, of int, draw func(k int)) (k, weight int, z []int) {
	n, m := len(g.w), max(0, k1-k0)
	for len(g.many) < 2*m {
		g.many = append(g.many, make([]uint64, n))
	}
	ws, ins := g.many[:m], g.many[m:2*m]
	for i := range m {
		draw(k0 + i)
		copy(ws[i], g.w)
		copy(ins[i], g.w)
	}
	evalMany(ws)
	for i, w := range ws {
		bad := sortnet.Unsorted01(w)
		if bad == 0 {
			continue
		}
		lane := bits.TrailingZeros64(bad)
		z = make([]int, n)
		for j := range n {
			z[j] = int(ins[i][j] >> lane & 1)
		}
		return k0 + i, g.weight(k0+i, of), z
	}
	return k1, 0, nil
}

// weight is the k-th of `of` weights spread over 0..n.
func (g *Weight01) weight(k, of int) int { return k * len(g.w) / max(1, of-1) }

// draw fills g.w with 64 random 0-1 inputs of the k-th weight.
func (g *Weight01) draw(k, of int, r *rand.Rand) {
	w, idx, n := g.w, g.idx, len(g.w)
	weight := g.weight(k, of)
	clear(w)
	for lane := range 64 {
		for i := range weight {
			j := i + r.IntN(n-i)
			idx[i], idx[j] = idx[j], idx[i]
			w[idx[i]] |= 1 << lane
		}
	}
}

// drawPCG is draw with r = rand.New(src), drawing through src directly.
func (g *Weight01) drawPCG(k, of int, src *rand.PCG) {
	w, idx, n := g.w, g.idx, len(g.w)
	weight := g.weight(k, of)
	clear(w)
	for lane := range 64 {
		bit := uint64(1) << lane
		for i := range weight {
			// IntNPCG(src, n−i), written out so that src.Uint64 is
			// inlined into the loop.
			m := uint64(n - i)
			x := src.Uint64()
			d, ok := lemire(x, m)
			if !ok {
				d = intNReject(src, m, x)
			}
			j := i + int(d)
			a := idx[j]
			idx[i], idx[j] = a, idx[i]
			w[a] |= bit
		}
	}
}

// drawPCGMin fills g.w with 64 random 0-1 inputs of the k-th weight,
// drawing m = min(weight, n − weight) positions per lane. Each lane runs
// m steps of a partial Fisher–Yates shuffle on idx, whatever order idx is
// left in: step i swaps a uniform pick of idx[i..n−1] into place i, so
// the first m entries of idx become a uniformly random m-subset of the
// wires (every ordered m-tuple of distinct wires has probability
// (n−m)!/n!, by induction on i, for any starting order of idx). With
// weight ≤ n − weight the lane has ones there (drawPCG's sampler); else
// it starts all ones and the m picks are its zeros: the complement of a
// uniform (n − weight)-subset is a uniform weight-subset. Either way each
// lane is uniform over the C(n, weight) vectors of that weight, given
// everything drawn before it, like drawPCG's lanes (the exhaustive
// enumeration in TestWeight01MinSameDistribution).
func (g *Weight01) drawPCGMin(k, of int, src *rand.PCG) {
	w, idx, n := g.w, g.idx, len(g.w)
	m, fill := minPicks(n, g.weight(k, of))
	for i := range w {
		w[i] = fill
	}
	if cap(g.ds) < m {
		g.ds = make([]uint32, m)
	}
	ds := g.ds[:m]
	for lane := range 64 {
		for i := range ds {
			// IntNPCG(src, n−i), written out as in drawPCG.
			r := uint64(n - i)
			x := src.Uint64()
			d, ok := lemire(x, r)
			if !ok {
				d = intNReject(src, r, x)
			}
			ds[i] = uint32(d)
		}
		pickLane(idx, w, ds, uint64(1)<<lane)
	}
}

// minPicks is how many wires drawPCGMin picks for a lane of the given
// weight on n wires, and the value the lanes start from: the weight's
// ones on zeros, or, when n − weight < weight, its n − weight zeros on
// ones.
func minPicks(n, weight int) (m int, fill uint64) {
	if n-weight < weight {
		return n - weight, ^uint64(0)
	}
	return weight, 0
}

// pickLane runs len(ds) steps of a partial Fisher–Yates shuffle on idx
// (step i swaps idx[i + ds[i]] into place i; ds[i] < len(idx) − i) and
// flips bit in w at each wire it places: distinct wires, so each is
// flipped once.
func pickLane(idx []int32, w []uint64, ds []uint32, bit uint64) {
	for i, d := range ds {
		j := i + int(d)
		a := idx[j]
		idx[i], idx[j] = a, idx[i]
		w[a] ^= bit
	}
}

// IntNPCG returns what rand.New(src).IntN(n) returns, drawing the same
// numbers from src (math/rand/v2's Lemire reduction with rejection, for
// 64-bit platforms), without the call through the rand.Source interface.
// It panics if n ≤ 0. TestIntNPCG checks it against rand.Rand.IntN.
func IntNPCG(src *rand.PCG, n int) int {
	if n <= 0 {
		panic("sortnet: IntNPCG: n must be > 0")
	}
	m := uint64(n)
	x := src.Uint64()
	d, ok := lemire(x, m)
	if !ok {
		d = intNReject(src, m, x)
	}
	return int(d)
}

// lemire reduces the draw x to 0..n−1 (n ≥ 1) as math/rand/v2 does: the
// low bits for a power of two, else the high word of x·n, which stands
// unless the low word is below n (ok false: see intNReject).
func lemire(x, n uint64) (d uint64, ok bool) {
	if n&(n-1) == 0 {
		return x & (n - 1), true
	}
	hi, lo := bits.Mul64(x, n)
	return hi, lo >= n
}

// intNReject is IntNPCG's rare path (x·n's low word below n, for n not a
// power of two): draw again while the low word is below 2^64 mod n.
func intNReject(src *rand.PCG, n, x uint64) uint64 {
	hi, lo := bits.Mul64(x, n)
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(src.Uint64(), n)
	}
	return hi
}

// UnsortedBy is Unsorted on the network that eval01 runs (64 0-1 inputs
// at once, as sortnet.Eval01; for instance a sortnet.Packed's Eval01).
func (g *Weight01) UnsortedBy(eval01 func([]uint64), k, of int, r *rand.Rand) (weight int, z []int) {
	w, n := g.w, len(g.w)
	weight = g.weight(k, of)
	g.draw(k, of, r)
	in := slices.Clone(w)
	eval01(w)
	bad := sortnet.Unsorted01(w)
	if bad == 0 {
		return weight, nil
	}
	lane := bits.TrailingZeros64(bad)
	z = make([]int, n)
	for i := range n {
		z[i] = int(in[i] >> lane & 1)
	}
	return weight, z
}
