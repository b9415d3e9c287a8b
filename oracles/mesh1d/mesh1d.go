// Package mesh1d holds the oracles for routing on a linear array
// (003_8774480fe7c747cc.txt §2): Lemma 4's closed form for the number of
// rightward steps, as printed and as corrected, and a deliberately naive
// reference simulator of farthest-first routing.
package mesh1d

import "slices"

// counts returns H with H[i*(n+1)+j] = number of rightward packets with
// source < i and destination ≥ j, for 0 ≤ i, j ≤ n.
func counts(n int, src, dst []int32) []int {
	m := make([]int, (n+1)*(n+1))
	for p := range src {
		if dst[p] > src[p] {
			m[int(src[p])*(n+1)+int(dst[p])]++
		}
	}
	h := make([]int, (n+1)*(n+1))
	for i := 1; i <= n; i++ {
		for j := n - 1; j >= 0; j-- {
			// sources < i = sources < i−1 plus source i−1; destinations ≥ j.
			h[i*(n+1)+j] = h[(i-1)*(n+1)+j] + h[i*(n+1)+j+1] - h[(i-1)*(n+1)+j+1] + m[(i-1)*(n+1)+j]
		}
	}
	return h
}

// Lemma4Printed is T_r as Lemma 4 prints it: max over PUs i < j of
// j − i − 1 + h_r(i, j), with h_r(i, j) the number of packets moving from
// the PUs with index smaller than i to those with index at least j.
func Lemma4Printed(n int, src, dst []int32) int {
	h := counts(n, src, dst)
	best := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			best = max(best, j-i-1+h[i*(n+1)+j])
		}
	}
	return best
}

// Lemma4 is the corrected form: max over i < j with h(i, j) > 0 of
// j − i − 1 + h(i, j), where h(i, j) counts the packets from PUs with index
// at most i to PUs with index at least j (0 when no packet moves right).
// The bound is attained by the last of the h(i, j) packets to cross link
// (i, i+1) — it cannot cross before step h(i, j) — which then needs
// j − i − 1 more steps; farthest-first achieves it.
func Lemma4(n int, src, dst []int32) int {
	h := counts(n, src, dst)
	best := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			if k := h[(i+1)*(n+1)+j]; k > 0 {
				best = max(best, j-i-1+k)
			}
		}
	}
	return best
}

// NaiveResult is what Naive measures.
type NaiveResult struct{ StepsRight, StepsLeft, MaxQueue int }

// Naive simulates farthest-first routing the obvious way: a list of
// packets with positions; each step, for every link and direction, it scans
// all packets for the one at the link's tail heading that way with the
// farthest destination (ties: lowest packet number), then moves the chosen
// packets at once. O(steps · n · P).
func Naive(n int, src, dst []int32) NaiveResult {
	pos := slices.Clone(src)
	var r NaiveResult
	queue := func() {
		q := make([]int, n)
		for p := range pos {
			if pos[p] != dst[p] {
				q[pos[p]]++
			}
		}
		r.MaxQueue = max(r.MaxQueue, slices.Max(append(q, 0)))
	}
	queue()
	for step := 1; ; step++ {
		var moves [][2]int // packet, direction
		for i := range n {
			bestR, bestL := -1, -1
			for p := range pos {
				if int(pos[p]) != i {
					continue
				}
				if dst[p] > pos[p] && (bestR < 0 || dst[p] > dst[bestR]) {
					bestR = p
				}
				if dst[p] < pos[p] && (bestL < 0 || dst[p] < dst[bestL]) {
					bestL = p
				}
			}
			if bestR >= 0 {
				moves = append(moves, [2]int{bestR, 1})
			}
			if bestL >= 0 {
				moves = append(moves, [2]int{bestL, -1})
			}
		}
		if len(moves) == 0 {
			return r
		}
		for _, m := range moves {
			pos[m[0]] += int32(m[1])
			if m[1] > 0 {
				r.StepsRight = step
			} else {
				r.StepsLeft = step
			}
		}
		queue()
	}
}
