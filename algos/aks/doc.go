// Package aks builds AKS-family sorting networks of logarithmic depth,
// following Seiferas, "Sorting networks of logarithmic depth, further
// simplified", Algorithmica 53 (2009) 552–564 (a simplification of
// Paterson, Algorithmica 5 (1990) 75–92). Section numbers (§) below are
// Seiferas's.
//
// The construction (§2–§3): n items (n padded up to a power of two N with
// virtual +∞ items) live in bags, one per non-singleton binary subinterval of
// [0, N), i.e. one per node of a complete binary tree of height log₂N − 1.
// A bag at depth d after t stages has capacity b = N·ν^t·A^d (§4). Each stage
// applies a separator to the contents of every non-empty bag, kicks ⌊λb⌋
// items from each end (and an odd middle one) back to the parent and sends
// the two halves of the rest to the children. Once the leaf capacity is below
// 1/λ every item lies in a constant-height subtree to which it is native, and
// each such subtree is finished by a sorter (§4).
//
// The separator is pluggable (Separator): Exact sorts each bag (the result
// is a sorting network for every n, but trivially: the root bag holds every
// item at stage 0 and is sorted there, so it does not test the schedule;
// the §4 invariants do), FromHalver
// builds Seiferas's §6 Lemma 2 separator from any approximate halver, and
// ExpanderHalver is a halver made of d random perfect matchings between the
// two halves — the real O(log n) construction, whose sorting is not
// guaranteed for small d and is what the tests measure.
//
// Bags hold registers whose set changes by conceptual rebagging only, so the
// schedule is naturally a network of generalized comparators (the minimum
// may go to the higher register). Construct lowers it to a standard
// sortnet.Network of the same depth by the relabelling of Knuth, TAOCP 3,
// §5.3.4 exercise 16; comparators that meet a virtual +∞ item are resolved at
// construction time and emit nothing.
//
// Invariants of §4 (clauses 1–4: alternating empty levels, equal loads per
// level, load ≤ capacity, j-strangers ≤ λε^(j−1)·capacity) are reported per
// stage for traced inputs (Result.Reports, Violations). PaperDepth evaluates
// the §7 depth estimate analytically and Crossover finds where it beats
// Batcher's k(k+1)/2.
package aks
