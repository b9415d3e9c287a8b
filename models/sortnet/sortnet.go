package sortnet

import (
	"cmp"
	"fmt"
	"slices"
)

// Comparator [I:J] sorts wires I < J into non-decreasing order.
type Comparator struct{ I, J int32 }

// Stage is a set of comparators on pairwise distinct wires.
type Stage []Comparator

// Network is a comparator network on N wires.
type Network struct {
	N      int
	Stages []Stage
}

// Depth is the number of stages.
func (nw Network) Depth() int { return len(nw.Stages) }

// Size is the number of comparators.
func (nw Network) Size() int {
	s := 0
	for _, st := range nw.Stages {
		s += len(st)
	}
	return s
}

// Validate reports whether every comparator has 0 ≤ I < J < N and no wire is
// used twice in a stage. The error names the stage and the comparator.
func (nw Network) Validate() error {
	if nw.N < 0 {
		return fmt.Errorf("sortnet: n = %d, allowed n ≥ 0", nw.N)
	}
	used := make([]int, nw.N) // stage index + 1 that last used the wire
	for s, st := range nw.Stages {
		for k, c := range st {
			if c.I < 0 || c.J >= int32(nw.N) || c.I >= c.J {
				return fmt.Errorf("sortnet: stage %d comparator %d is [%d:%d], need 0 ≤ i < j < n = %d", s, k, c.I, c.J, nw.N)
			}
			for _, w := range [2]int32{c.I, c.J} {
				if used[w] == s+1 {
					return fmt.Errorf("sortnet: stage %d uses wire %d twice", s, w)
				}
				used[w] = s + 1
			}
		}
	}
	return nil
}

// Clone returns a deep copy.
func (nw Network) Clone() Network {
	out := Network{N: nw.N, Stages: make([]Stage, len(nw.Stages))}
	for i, st := range nw.Stages {
		out.Stages[i] = slices.Clone(st)
	}
	return out
}

// Compact returns nw without empty stages.
func (nw Network) Compact() Network {
	out := Network{N: nw.N}
	for _, st := range nw.Stages {
		if len(st) > 0 {
			out.Stages = append(out.Stages, st)
		}
	}
	return out
}

// ApplyStage applies one stage to xs in place.
func ApplyStage[T cmp.Ordered](st Stage, xs []T) {
	for _, c := range st {
		if xs[c.J] < xs[c.I] {
			xs[c.I], xs[c.J] = xs[c.J], xs[c.I]
		}
	}
}

// Apply runs the network on xs in place (len(xs) must be N).
func Apply[T cmp.Ordered](nw Network, xs []T) {
	if len(xs) != nw.N {
		panic(fmt.Sprintf("sortnet: Apply on %d values, network has %d wires", len(xs), nw.N))
	}
	for _, st := range nw.Stages {
		ApplyStage(st, xs)
	}
}

// Eval01 runs the network on 64 0-1 inputs at once: bit b of w[i] is wire i
// of input b. w is overwritten with the outputs.
func Eval01(nw Network, w []uint64) {
	for _, st := range nw.Stages {
		for _, c := range st {
			a, b := w[c.I], w[c.J]
			w[c.I], w[c.J] = a&b, a|b
		}
	}
}

// unsorted01 returns a mask of the inputs (bits) whose output in w is not
// sorted (some wire holds 1 above a 0 on the next wire).
func unsorted01(w []uint64) uint64 {
	var bad uint64
	for i := 0; i+1 < len(w); i++ {
		bad |= w[i] &^ w[i+1]
	}
	return bad
}

// Sorts01Exhaustive checks the 0-1 principle exhaustively: it runs all 2^N
// 0-1 inputs, 64 at a time, and returns the first input (bit i = wire i)
// the network leaves unsorted, or ok. It refuses N > 30 (2^30 inputs is
// already minutes). Cost: 2^N/64 · (Size + N) word operations.
func Sorts01Exhaustive(nw Network) (bad uint64, ok bool, err error) {
	n := nw.N
	if n > 30 {
		return 0, false, fmt.Errorf("sortnet: exhaustive 0-1 check needs n ≤ 30, got n = %d", n)
	}
	bad, found, _ := exhaustive01(nw, 1, false)
	return bad, !found, nil
}

// Sorted reports whether xs is non-decreasing.
func Sorted[T cmp.Ordered](xs []T) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			return false
		}
	}
	return true
}
