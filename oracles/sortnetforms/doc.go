// Package sortnetforms holds the closed forms and independent counts for
// Batcher's sorting networks that routecheck/algos/sortnet is checked
// against. Nothing here builds a network or imports algos/.
//
// For n = 2^k (Knuth, TAOCP vol. 3, §5.3.4, the analysis of Batcher's
// odd-even merge and bitonic sorters; the depth also in seed
// 000_de3be866f009217f.txt §IV, "log n(1 + log n)/2 steps"):
//
//	odd-even merge sort: depth k(k+1)/2, size (k² − k + 4)·2^(k−2) − 1
//	bitonic sort:        depth k(k+1)/2, size k(k+1)·2^(k−2)
//
// For other n the constructions pad to N = 2^⌈lg n⌉ wires and drop every
// comparator that touches a wire ≥ n. The per-stage comparator counts of
// those pruned networks are computed here by a different route from the
// construction: OddEvenProfile follows Batcher's recursive definition of the
// merge (merge the even-indexed and the odd-indexed subsequences, then
// compare neighbours), counting surviving comparators from the number of
// real (non-padding) wires in each sub-merge; BitonicProfile counts the pairs
// of each stage with an arithmetic formula. The construction uses Batcher's
// iterative bit-loop schedule instead.
package sortnetforms
