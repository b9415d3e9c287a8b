package mesh

import (
	"fmt"
	"math/bits"
	"slices"
)

// Dest is a packet's destination in an n×n mesh.
type Dest struct{ Row, Col int32 }

// Allocation is ALLOCATE's output for one PU: Pos[p] is the position (the
// column of the PU's row) its packet p is sent to in Phase 1, and what the
// analysis talks about.
type Allocation struct {
	Pos []int32
	// Subbuckets is m, the number of subbuckets made in Step 5 (Lemma 5).
	Subbuckets int
	// PerRow[r] is the number of subbuckets made from bucket r.
	PerRow []int
	// Sizes are the subbucket sizes β_l in the order Step 8 uses them.
	Sizes []int
	// Counts[j] is the number of packets allocated to position j.
	Counts []int
	// MaxSpread is max over l of Δ(l) = max_{j,j'} α_j(l) − α_{j'}(l) after
	// each subbucket of Step 8 (Lemma 6's invariant Δ(l) ≤ 1).
	MaxSpread int
}

// TieBreak picks among the candidate positions with minimal α in Step 8;
// the paper leaves ties open. nil means the smallest index.
type TieBreak func(candidates []int32) int32

// Allocate is ALLOCATE (003_8774480fe7c747cc.txt §3), Steps 1–8 as written,
// for the packets of one PU of an n×n mesh (dst[p] is packet p's
// destination). Sorting is stable throughout (ties keep the input order).
// Readings of the text:
//   - Step 3 "for i running from 0 to n" is taken as 0 ≤ i < n (positions);
//   - Step 4 sets α to 0 after Step 3, which allocated ⌊B/n⌋ packets of each
//     bucket to every position, so differences are unaffected;
//   - Step 7 sorts subbuckets of equal size by destination row, ascending;
//   - Step 8's "β_l approximately equal intervals" are
//     [⌊i·n/β⌋, ⌊(i+1)·n/β⌋), 0 ≤ i < β (exactly equal when β divides n).
//
// This is the direct O(k log k) version, written for checking and valid for
// any n; AllocateLinear is the list-based O(k) organization of "Linear Work"
// (n a power of two), which gives the same result and is what
// DET_3_PHASE_ROUTE runs (NewPlan).
func Allocate(n int, dst []Dest, tie TieBreak) (Allocation, error) {
	return allocate(n, dst, tie, Faithful)
}

// Mutation is a planted fault in ALLOCATE. Mutants exist only so that the
// claims' checkers (package props) can show they fail on a wrong ALLOCATE;
// no algorithm of this package runs one (Allocate and NewPlan use
// Faithful).
type Mutation int

// The mutations.
const (
	// Faithful is ALLOCATE as written.
	Faithful Mutation = iota
	// ExtractOneShort: Step 3 extracts n·⌊B/n⌋ − 1 packets (an off-by-one
	// extraction): the last position gets ⌊B/n⌋ − 1 of them and the packet
	// left over joins the remainder.
	ExtractOneShort
	// ExtractRoundShort: Step 3 extracts n·(⌊B/n⌋ − 1) packets (one round
	// too few), so a remainder in [n, 2n) goes on to Step 5.
	ExtractRoundShort
	// Step2Unsorted: Step 2 is skipped, so every bucket keeps the input
	// order instead of being sorted on the destination column (Steps 3–8
	// run as written on the unsorted buckets).
	Step2Unsorted
	// Step3DealLate: Step 3 deals its extracted packets one rank late,
	// packet t to position min(⌊(t+1)/q⌋, n − 1) instead of ⌊t/q⌋ (q =
	// ⌊B/n⌋), so position 0 gets q − 1 of the bucket and position n − 1
	// gets q + 1.
	Step3DealLate
)

// AllocateMutant is Allocate with the planted fault m (Faithful gives
// Allocate's result).
func AllocateMutant(n int, dst []Dest, tie TieBreak, m Mutation) (Allocation, error) {
	return allocate(n, dst, tie, m)
}

func allocate(n int, dst []Dest, tie TieBreak, m Mutation) (Allocation, error) {
	if n < 1 {
		return Allocation{}, fmt.Errorf("mesh: n = %d, allowed n ≥ 1", n)
	}
	for p, d := range dst {
		if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
			return Allocation{}, fmt.Errorf("mesh: packet %d has destination (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
		}
	}
	a := Allocation{Pos: make([]int32, len(dst)), Counts: make([]int, n)}
	for p := range a.Pos {
		a.Pos[p] = -1
	}
	// Step 1 and 2: buckets by destination row, each sorted on column.
	buckets := make([][]int32, n)
	for p, d := range dst {
		buckets[d.Row] = append(buckets[d.Row], int32(p))
	}
	for _, b := range buckets {
		if m == Step2Unsorted {
			break
		}
		slices.SortStableFunc(b, func(x, y int32) int { return int(dst[x].Col - dst[y].Col) })
	}
	// Step 3: regular extraction of n·⌊B/n⌋ packets from buckets with B ≥ n.
	for r, b := range buckets {
		B := len(b)
		if B < n {
			continue
		}
		q := B / n
		x := n * q
		switch m {
		case ExtractOneShort:
			x--
		case ExtractRoundShort:
			q--
			x = n * q
		}
		if q == 0 {
			continue
		}
		take, rest := extract(b, x)
		for t, p := range take {
			j := t / q
			if m == Step3DealLate {
				j = min((t+1)/q, n-1)
			}
			a.Pos[p] = int32(j)
			a.Counts[j]++
		}
		buckets[r] = rest
	}
	// Step 5: regular division into subbuckets of power-of-two sizes.
	type sub struct {
		row     int
		packets []int32
	}
	var subs []sub
	a.PerRow = make([]int, n)
	for r, b := range buckets {
		for len(b) > 0 {
			x := 1 << (bits.Len(uint(len(b))) - 1)
			if m == noStep5 {
				x = len(b) // AllocateNoStep5: the whole remainder, one subbucket
			}
			var take []int32
			take, b = extract(b, x)
			subs = append(subs, sub{row: r, packets: take})
			a.PerRow[r]++
		}
	}
	a.Subbuckets = len(subs)
	// Steps 6 and 7: decreasing size, then increasing destination row.
	slices.SortStableFunc(subs, func(x, y sub) int {
		if len(x.packets) != len(y.packets) {
			return len(y.packets) - len(x.packets)
		}
		return x.row - y.row
	})
	// Step 8.
	alpha := make([]int, n)
	var cand []int32
	for _, s := range subs {
		beta := len(s.packets)
		a.Sizes = append(a.Sizes, beta)
		for i, p := range s.packets {
			lo, hi := i*n/beta, (i+1)*n/beta
			if lo == hi {
				return a, fmt.Errorf("mesh: subbucket of size %d > n = %d (cannot happen after Step 3)", beta, n)
			}
			best := alpha[lo]
			for j := lo; j < hi; j++ {
				best = min(best, alpha[j])
			}
			cand = cand[:0]
			for j := lo; j < hi; j++ {
				if alpha[j] == best {
					cand = append(cand, int32(j))
				}
			}
			j := cand[0]
			if tie != nil {
				j = tie(cand)
			}
			a.Pos[p] = j
			alpha[j]++
			a.Counts[j]++
		}
		a.MaxSpread = max(a.MaxSpread, slices.Max(alpha)-slices.Min(alpha))
	}
	return a, nil
}

// extract takes x elements regularly out of the sorted s (Section 2: the
// elements with indices ⌊i·|s|/x⌋, 0 ≤ i < x) and returns them and the rest,
// both in their original order.
func extract(s []int32, x int) (take, rest []int32) {
	if x == 0 {
		return nil, s
	}
	pick := make([]bool, len(s))
	for i := range x {
		pick[i*len(s)/x] = true
	}
	for k, p := range s {
		if pick[k] {
			take = append(take, p)
		} else {
			rest = append(rest, p)
		}
	}
	return take, rest
}
