package mesh

// noStep5 is not a planted fault: it selects AllocateNoStep5's variant of
// ALLOCATE inside allocate. The constant is unexported, but its value is
// not out of reach: AllocateMutant(n, dst, tie, Mutation(-1)) is
// AllocateNoStep5.
const noStep5 Mutation = -1

// AllocateNoStep5 is ALLOCATE (Allocate) without Step 5: the remainder of
// every bucket after Step 3 (fewer than n packets) is one subbucket of
// whatever size it has, instead of being divided regularly into
// subbuckets whose sizes are powers of two. Steps 6–8 then run as written
// (sizes decreasing, equal sizes by destination row; Step 8 divides the n
// positions into β intervals [⌊i·n/β⌋, ⌊(i+1)·n/β⌋), which need not be
// equal when β does not divide n).
//
// It is the variant named by 003_8774480fe7c747cc.txt §6: "The factors
// log n that appear in the time consumption and queue size of our
// algorithm are introduced by Step 5 of ALLOCATE. Possibly the packets
// with destination in the same row could be allocated all at once, but one
// has to be careful not to increase the routing time of Phase 3." Without
// Step 5 a PU sends at most one packet of its remainder for a row to each
// position (against up to ⌊log n⌋ with it), but Lemma 6's exact balance
// is no longer assured (its proof needs the sizes to divide each other).
// Direct O(k log k) version, any n ≥ 1; the errors are Allocate's.
func AllocateNoStep5(n int, dst []Dest, tie TieBreak) (Allocation, error) {
	return allocate(n, dst, tie, noStep5)
}
