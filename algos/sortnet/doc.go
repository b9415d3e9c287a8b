// Package sortnet builds Batcher's comparator networks (K. E. Batcher,
// "Sorting networks and their applications", AFIPS SJCC 1968; Knuth, TAOCP
// vol. 3, §5.3.4; seed 000_de3be866f009217f.txt §II-A and §IV, via [8] and
// [14]) as routecheck/models/sortnet values, for any number of wires n ≥ 0.
//
// # Arbitrary n: padding and pruning
//
// Both constructions are built for N = 2^⌈lg n⌉ wires and every comparator
// that touches a wire ≥ n is dropped. This is valid because every comparator
// is standard ([i:j] with i < j puts the minimum on the lower wire): if wires
// n..N−1 hold +∞, a comparator [i:j] with j ≥ n already holds its larger
// value on wire j, so it never moves anything, and the padding wires hold +∞
// throughout. The N-wire network sorts, so wires 0..n−1 end sorted, and the
// pruned network computes exactly that on wires 0..n−1. The stage schedule is
// the power-of-two one; for n ≥ 2 no stage becomes empty, so the depth is
// k(k+1)/2 with k = ⌈lg n⌉ (see routecheck/oracles/sortnetforms).
//
// Pruning does not make the network minimal. The odd-even network for n not
// a power of two keeps comparators whose deletion still leaves a sorting
// network (the mutation test lists them for n ≤ 32; the claim
// sortnet/batcher/oddeven/mutation-sensitive/pruned records it). Two kinds
// occur: comparators of a sub-merge whose upper half lies entirely on
// padding wires, which merges a sorted list with +∞s and so never exchanges
// anything (the first is n = 9, [3:5] at stage 8); and neighbour
// comparators whose omission a later merge repairs (the first is n = 11,
// [9:10] at stage 2). For n = 2^k nothing is pruned and every comparator is
// essential (checked for n ≤ 32).
//
// # The two networks
//
// OddEvenMergeSort uses Batcher's iterative schedule: for p = 1, 2, 4, …, N/2
// and k = p, p/2, …, 1 one stage compares wires a and a+k whenever they lie
// in the same block of 2p wires, where a ranges over j + i with
// j ≡ k (mod p) stepping by 2k and 0 ≤ i < k.
//
// BitonicSort uses the form with standard comparators only (Cormen et al.,
// Introduction to Algorithms, 2nd ed., §27.3–27.5, the seed's [17]): to
// merge two sorted blocks of 2^(s−1) wires, one stage compares wire x with
// its mirror image 2^s−1−x inside the block, then half-cleaner stages
// compare x with x+d inside blocks of 2d for d = 2^(s−2), …, 1.
//
// Both constructions take O(N log² N) time and memory; n above MaxN is
// refused with an error that gives the memory estimate.
//
// # Verification
//
// Verify decides whether a network sorts: all 2^n 0-1 inputs for small n
// (a proof, by the 0-1 principle), else random permutations, the
// StructuredInputs and random 0-1 inputs by weight (Weight01), all from one
// stream of the given seed, stopping at the first input left unsorted and
// reporting it as a 0-1 Failure (Witness). It is what `routecheck sortnet`
// runs; the sorts claims of props/sortnet use its parts.
package sortnet
