package mesh

import (
	"fmt"
	"math/bits"
)

// LinearWork counts the elementary operations of AllocateLinear, by step.
// One operation is one of: a counter increment or a key-slot visit of a
// counting sort, one packet (or subbucket) written to its place by a
// counting sort or an extraction walk, one packet assigned a position in
// Step 3, one list insertion, pop or interval visit in Step 8, one update of
// α and its histogram, one advance of the tracked minimum of α, and one unit
// of per-subbucket set-up in Step 8.
type LinearWork struct {
	Sort    int // Steps 1–2: counting sort of the packets on (row, column)
	Extract int // Step 3: extraction walks and position assignments
	Split   int // Step 5: the power-of-two decomposition walks
	Order   int // Steps 6–7: counting sort of the subbuckets on (size, row)
	Lists   int // Step 8: lists, α and Δ bookkeeping
}

// Total is the sum of the counts.
func (w LinearWork) Total() int { return w.Sort + w.Extract + w.Split + w.Order + w.Lists }

// LinearWorkBound is the bound on LinearWork.Total that the derivation in
// AllocateLinearWork's comment gives for k packets on an n×n mesh (n a power
// of two, L = max(1, log₂ n)):
//
//	13·k + n² + L·n + 6·n + 1.
//
// For k ≥ n² this is at most 17·k when n ≥ 4 (L·n ≤ n² ≤ k and 6n + 1 ≤
// 2n² ≤ 2k), and at most 23·k for n ∈ {1, 2}.
func LinearWorkBound(n, k int) int {
	L := max(1, bits.Len(uint(n))-1)
	return 13*k + n*n + L*n + 6*n + 1
}

// AllocateLinear is ALLOCATE (003_8774480fe7c747cc.txt §3) with the
// organization of the paragraph "Linear Work": the sorts of Steps 1–2 and
// 6–7 are counting (bucket) sorts, and Step 8 keeps for every interval a
// list of the indices j whose α_j is below the current maximum, rebuilt
// with all indices of the interval when it is exhausted and concatenated
// when intervals are unified. n must be a power of two (the assumption of
// Lemma 6, under which the lists hold exactly the minimal α_j — see below);
// any k ≥ 0 is accepted. The work is O(k + n²), linear in k for k ≥ n²
// (LinearWorkBound); memory O(k + n²).
//
// Tie-breaking is the same as Allocate's with a nil TieBreak (the smallest
// index with minimal α): every list is kept in increasing index order (a
// rebuilt list is ascending, pops take the front, and unified intervals
// concatenate their lists left to right), so its front is the smallest
// minimal index. Hence AllocateLinear(n, d) equals Allocate(n, d, nil) in
// every field (tested exhaustively on small cases and on random ones).
//
// Why the lists are right: with n a power of two every interval of Step 8
// has n/β indices, and Lemma 6's induction keeps (i) all α_j within one of
// each other and (ii) equal loads per interval between subbuckets. So
// within an interval the α_j take at most the two values c, c+1, and an
// interval's list (its indices at c when some index is at c+1, empty when
// all are equal) is exactly its set of minimal indices. When intervals are
// unified, (ii) makes every old interval hold the same number of indices at
// c+1, so either all old lists are empty (all equal) or all are the
// minimal sets, and their union is the new interval's list. For n not a
// power of two the intervals are unequal, (ii) fails (mesh/lemma-6/
// not-power-of-two) and the union may hold non-minimal indices; such n are
// refused with an error.
func AllocateLinear(n int, dst []Dest) (Allocation, error) {
	a, _, err := AllocateLinearWork(n, dst)
	return a, err
}

// AllocateLinearWork is AllocateLinear that also returns its operation
// counts. With k packets, P ≤ k of them left for Step 8 (P < n² since every
// bucket keeps fewer than n after Step 3) and m ≤ P subbuckets, the counts
// are at most (derivation, step by step, matching the code):
//
//	Sort    = k (histogram) + n² (prefix sums) + n + 1 (bucket starts) + k (placement)
//	Extract ≤ Σ_{B ≥ n} (B + n·⌊B/n⌋) ≤ 2k   (one walk, one assignment per taken packet)
//	Split   ≤ Σ (2·r − 1) < 2P ≤ 2k       (a remainder r is walked, then < r/2 of it, …)
//	Order   = m + L·n + m ≤ 2k + L·n        (histogram, prefix sums, placement)
//	Lists   ≤ 2n + (P + n) + P + P + P/n + m + 2n ≤ 5k + 5n
//	          (initial and unifying visits of interval heads ≤ n + n/2 + … ≤ 2n,
//	          rebuild insertions ≤ pops + n since at most n list entries are
//	          never popped, pops P, α updates P, minimum advances ≤ final
//	          minimum ≤ P/n, set-up m, zeroing α and its histogram 2n)
//
// whose sum is LinearWorkBound(n, k) = 13k + n² + L·n + 6n + 1.
func AllocateLinearWork(n int, dst []Dest) (Allocation, LinearWork, error) {
	return allocateLinear(n, dst, nil)
}

// LinearMutation is a planted fault in AllocateLinear's list organization
// of Step 8. Mutants exist only so that the claims' checkers (package
// props) can show they fail on a wrong organization; no algorithm of this
// package runs one.
type LinearMutation int

// The mutations of AllocateLinear.
const (
	// LinearFaithful is AllocateLinear as written.
	LinearFaithful LinearMutation = iota
	// UnifyDropsLast: when intervals are unified, the list of the last of
	// the f old intervals merged into a new one is left out (the loop over
	// the old intervals stops one short), so the new list can miss minimal
	// indices until it is exhausted and rebuilt with the whole interval.
	UnifyDropsLast
)

// AllocateLinearMutant is AllocateLinear with the planted fault m
// (LinearFaithful gives AllocateLinear's result).
func AllocateLinearMutant(n int, dst []Dest, m LinearMutation) (Allocation, error) {
	a, _, err := allocateLinearM(n, dst, nil, m)
	return a, err
}

// linearScratch holds allocateLinear's arrays for reuse from call to call
// (an Allocation it returns lives in it until the next call).
type linearScratch struct {
	start, rowStart, cnt, alpha, hist []int
	sorted, pool, next, head, tail    []int32
	bufs                              [2][]int32
	subs, order                       []linearSub
	pos                               []int32
	counts, perRow, sizes             []int
}

// linearSub is a subbucket of allocateLinear: its row, size 2^exp, and
// where its packets start in the pool.
type linearSub struct{ row, exp, at, size int }

// ints is s[:m] zeroed, a new array when s is nil or too short.
func ints(s []int, m int) []int {
	if s == nil || cap(s) < m {
		return make([]int, m)
	}
	s = s[:m]
	clear(s)
	return s
}

// int32s is s[:m] (contents unspecified), a new array when s is nil or
// too short.
func int32s(s []int32, m int) []int32 {
	if s == nil || cap(s) < m {
		return make([]int32, m)
	}
	return s[:m]
}

// allocateLinear is AllocateLinearWork on sc's arrays (nil: new ones).
// The result is the same (TestAllocateLinearScratchReuse).
func allocateLinear(n int, dst []Dest, sc *linearScratch) (Allocation, LinearWork, error) {
	return allocateLinearM(n, dst, sc, LinearFaithful)
}

// allocateLinearM is allocateLinear with the planted fault mut.
func allocateLinearM(n int, dst []Dest, sc *linearScratch, mut LinearMutation) (Allocation, LinearWork, error) {
	var w LinearWork
	if n < 1 || n&(n-1) != 0 {
		return Allocation{}, w, fmt.Errorf("mesh: n = %d: AllocateLinear needs n a power of two (n ≥ 1); use Allocate otherwise", n)
	}
	for p, d := range dst {
		if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
			return Allocation{}, w, fmt.Errorf("mesh: packet %d has destination (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
		}
	}
	k := len(dst)
	if sc == nil {
		sc = &linearScratch{}
	}
	sc.pos = int32s(sc.pos, k)
	clear(sc.pos)
	sc.counts, sc.perRow = ints(sc.counts, n), ints(sc.perRow, n)
	a := Allocation{Pos: sc.pos, Counts: sc.counts, PerRow: sc.perRow, Sizes: sc.sizes[:0]}

	// Steps 1–2: one stable counting sort on the key row·n + column gives
	// the buckets (rows) each sorted on column, ties in input order.
	sc.start = ints(sc.start, n*n+1)
	start := sc.start
	for _, d := range dst {
		start[int(d.Row)*n+int(d.Col)+1]++
		w.Sort++
	}
	for key := 1; key <= n*n; key++ {
		start[key] += start[key-1]
		w.Sort++
	}
	sc.rowStart = ints(sc.rowStart, n+1)
	rowStart := sc.rowStart
	for r := range rowStart {
		rowStart[r] = start[r*n]
		w.Sort++
	}
	sc.sorted = int32s(sc.sorted, k)
	sorted := sc.sorted
	for p, d := range dst {
		key := int(d.Row)*n + int(d.Col)
		sorted[start[key]] = int32(p)
		start[key]++
		w.Sort++
	}

	// Steps 3 and 5. Subbuckets go to pool (a row's subbuckets in the order
	// they are made, i.e. decreasing size); the remainders alternate between
	// two scratch buffers (a walk never writes into the slice it reads).
	type sub = linearSub
	subs := sc.subs[:0]
	pool := int32s(sc.pool, k)[:0]
	bufs := [2][]int32{int32s(sc.bufs[0], n)[:0], int32s(sc.bufs[1], n)[:0]}
	for r := range n {
		cur := sorted[rowStart[r]:rowStart[r+1]]
		which := 0 // the buffer cur does not live in
		if B := len(cur); B >= n {
			q := B / n
			var take []int32
			take, bufs[0] = extractWalk(cur, n*q, pool[len(pool):len(pool)], bufs[0][:0], &w.Extract)
			for t, p := range take {
				a.Pos[p] = int32(t / q)
				a.Counts[t/q]++
				w.Extract++
			}
			cur, which = bufs[0], 1
		}
		for len(cur) > 0 {
			e := bits.Len(uint(len(cur))) - 1
			at := len(pool)
			var take []int32
			take, bufs[which] = extractWalk(cur, 1<<e, pool[at:at], bufs[which][:0], &w.Split)
			pool = pool[:at+len(take)]
			subs = append(subs, sub{row: r, exp: e, at: at, size: len(take)})
			a.PerRow[r]++
			cur, which = bufs[which], 1-which
		}
	}
	m := len(subs)
	a.Subbuckets = m
	sc.subs, sc.pool, sc.bufs = subs, pool, bufs

	// Steps 6–7: counting sort of the subbuckets on (decreasing size,
	// increasing row). Sizes are 2^e with e < L.
	L := max(1, bits.Len(uint(n))-1)
	sc.cnt = ints(sc.cnt, L*n+1)
	cnt := sc.cnt
	keyOf := func(s sub) int { return (L-1-s.exp)*n + s.row }
	for _, s := range subs {
		cnt[keyOf(s)+1]++
		w.Order++
	}
	for key := 1; key <= L*n; key++ {
		cnt[key] += cnt[key-1]
		w.Order++
	}
	if cap(sc.order) < m {
		sc.order = make([]sub, m)
	}
	order := sc.order[:m]
	for _, s := range subs {
		order[cnt[keyOf(s)]] = s
		cnt[keyOf(s)]++
		w.Order++
	}

	// Step 8 with interval lists. next links list entries; head/tail are
	// indexed by the current interval; −1 is the empty list.
	sc.alpha = ints(sc.alpha, n)
	alpha := sc.alpha
	hist := append(sc.hist[:0], n) // hist[v] = #{j : α_j = v}
	w.Lists += 2 * n
	minA, maxA := 0, 0
	sc.next, sc.head, sc.tail = int32s(sc.next, n), int32s(sc.head, n), int32s(sc.tail, n)
	next, head, tail := sc.next, sc.head, sc.tail
	beta := 0 // current number of intervals (0: none yet)
	for _, s := range order {
		w.Lists++ // set-up
		if s.size != beta {
			if beta == 0 {
				for i := range s.size {
					head[i] = -1
					w.Lists++
				}
			} else {
				// Unify f = beta/size old intervals into each new one.
				f := beta / s.size
				for i := range s.size {
					h, t := int32(-1), int32(-1)
					end := (i + 1) * f
					if mut == UnifyDropsLast {
						end--
					}
					for o := i * f; o < end; o++ {
						w.Lists++
						if head[o] < 0 {
							continue
						}
						if h < 0 {
							h = head[o]
						} else {
							next[t] = head[o]
						}
						t = tail[o]
					}
					head[i], tail[i] = h, t
				}
			}
			beta = s.size
		}
		width := n / beta
		a.Sizes = append(a.Sizes, beta)
		for i, p := range pool[s.at : s.at+s.size] {
			if head[i] < 0 { // exhausted: all of the interval, ascending
				lo := i * width
				for j := lo; j < lo+width; j++ {
					next[j] = int32(j + 1)
					w.Lists++
				}
				next[lo+width-1] = -1
				head[i], tail[i] = int32(lo), int32(lo+width-1)
			}
			j := head[i]
			head[i] = next[j]
			w.Lists++
			a.Pos[p] = j
			a.Counts[j]++
			hist[alpha[j]]--
			alpha[j]++
			if alpha[j] == len(hist) {
				hist = append(hist, 0)
			}
			hist[alpha[j]]++
			maxA = max(maxA, alpha[j])
			w.Lists++
		}
		for hist[minA] == 0 {
			minA++
			w.Lists++
		}
		a.MaxSpread = max(a.MaxSpread, maxA-minA)
	}
	sc.hist, sc.sizes = hist, a.Sizes
	if len(a.Sizes) == 0 {
		a.Sizes = nil // as AllocateLinearWork's appends leave it
	}
	return a, w, nil
}
