// Package sortnet is the comparator-network model: a network on n wires is a
// sequence of stages, each a set of comparators [i:j] on distinct wires
// (000_de3be866f009217f.txt §II-A). A comparator [i:j] with i < j puts the
// smaller value on wire i and the larger on wire j.
//
// Networks are values. Apply runs one on integer keys; Eval01 runs it on 64
// 0-1 inputs at once with one machine word per wire (min = a&b, max = a|b),
// which makes the 0-1 principle exhaustively checkable for n ≤ 24
// (Sorts01Exhaustive). Constructions (Batcher, AKS family) live in
// routecheck/algos/sortnet; closed forms in routecheck/oracles.
package sortnet
