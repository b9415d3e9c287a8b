// Package sortnet is the comparator-network model: a network on n wires is a
// sequence of stages, each a set of comparators [i:j] on distinct wires
// (000_de3be866f009217f.txt §II-A). A comparator [i:j] with i < j puts the
// smaller value on wire i and the larger on wire j.
//
// Networks are values. Apply runs one on integer keys; Eval01 runs it on 64
// 0-1 inputs at once with one machine word per wire (min = a&b, max = a|b),
// which makes the 0-1 principle exhaustively checkable for n ≤ 24
// (Sorts01Exhaustive). Packed holds a network on at most 2^16 wires in 4
// bytes a comparator for fast runs of the same results; its ApplyMany
// (ApplyManyStages over a range of stages) and Eval01Many run several
// inputs in one pass over the comparators (ApplyMany with an AVX2 kernel
// on amd64). Constructions (Batcher, AKS
// family) live in routecheck/algos/sortnet; closed forms in
// routecheck/oracles.
package sortnet
