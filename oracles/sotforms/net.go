package sotforms

import (
	"math"
	"math/big"

	"routecheck/models/perm"
)

// ProcDistances returns D with D[x][y] the length of a shortest directed
// path from processor P_x to processor P_y in SOT(n) (D[x][x] = 0), by
// breadth-first search from every processor over the graph of §2.1: nodes
// (i, j), 0 ≤ i, j < n, links (i, j) → (i+1 mod n, j) and (i, j) → (i,
// j+1 mod n), P_x at (x, n−1−x). Cost O(n³) time, O(n²) memory.
func ProcDistances(n int) [][]int {
	D := make([][]int, n)
	dist := make([]int, n*n)
	queue := make([]int, 0, n*n)
	for x := range n {
		for v := range dist {
			dist[v] = -1
		}
		src := x*n + (n - 1 - x)
		dist[src] = 0
		queue = append(queue[:0], src)
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			i, j := v/n, v%n
			for _, w := range [2]int{((i+1)%n)*n + j, i*n + (j+1)%n} {
				if dist[w] < 0 {
					dist[w] = dist[v] + 1
					queue = append(queue, w)
				}
			}
		}
		D[x] = make([]int, n)
		for y := range n {
			D[x][y] = dist[y*n+(n-1-y)]
		}
	}
	return D
}

// pow returns x^k.
func pow(x *big.Rat, k int) *big.Rat {
	r := rat(1, 1)
	for range k {
		r = mul(r, x)
	}
	return r
}

// GreedyAFreshOthers is the exact expected number of packets, per processor
// and time unit, that Greedy-a delivers from a wave of fresh packets when
// each of the n processors sends one packet to a target uniform over the
// other n − 1 processors and exactly one packet per targeted processor
// arrives (§4.2's argument applied to this distribution): the probability
// that a fixed processor is targeted, 1 − (1 − 1/(n−1))^{n−1}.
func GreedyAFreshOthers(n int) *big.Rat {
	return new(big.Rat).Sub(rat(1, 1), pow(rat(int64(n-2), int64(n-1)), n-1))
}

// GreedyAFreshPaper is the finite-n value §4.2 prints for Greedy-a,
// 1 − (1 − 1/n)^n (n independent senders, targets uniform over all n).
func GreedyAFreshPaper(n int) *big.Rat {
	return new(big.Rat).Sub(rat(1, 1), pow(rat(int64(n-1), int64(n)), n))
}

// GreedyBHeuristic is §4.2's heuristic for Greedy-b per processor and time
// unit: 2·(1 − (1 − 1/(2n))^{2n}) (2n packets, 2n receivers).
func GreedyBHeuristic(n int) *big.Rat {
	r := new(big.Rat).Sub(rat(1, 1), pow(rat(int64(2*n-1), int64(2*n)), 2*n))
	return mul(rat(2, 1), r)
}

// GreedyCAnalysis is §4.2's analysis of Greedy-c for a fresh wave on SOT(n)
// with targets uniform over the other processors: a packet from P_s to P_t
// starts at offsets (k, n−k), k = (t − s) mod n uniform in 1…n−1, and
// succeeds with probability P(k, n−k) of the recurrence with p = 3/4; the
// value is 2·avg_k P(k, n−k) (two packets per processor and time unit).
func GreedyCAnalysis(n int) *big.Rat {
	P := PTable(n, rat(3, 4))
	s := new(big.Rat)
	for k := 1; k < n; k++ {
		s.Add(s, P[k][n-k])
	}
	return mul(s, rat(2, int64(n-1)))
}

// OneMinusInvE is 1 − 1/e.
var OneMinusInvE = 1 - 1/math.E

// Weights returns w(i, j), the number of packets P_i has for P_j.
func Weights(n int, rel []perm.Pair) [][]int {
	w := make([][]int, n)
	for i := range w {
		w[i] = make([]int, n)
	}
	for _, p := range rel {
		w[p.Src][p.Dst]++
	}
	return w
}

// ScheduledTime is the routing time of Algorithm 2 derived from §3.2 and
// Lemma 1 alone: P_i sends its w(i, j) packets for P_j at steps x, x+n, …,
// x+(w−1)·n with x = (j − i) mod n, each arrives n steps after it is sent
// (no deflections), so the last packet arrives after
//
//	T = max over (i, j) with w(i, j) > 0 of  n·w(i, j) + ((j − i) mod n)
//
// steps (0 for no packets). It also returns W = max w(i, j); always
// n·W ≤ T ≤ n·W + n − 1.
func ScheduledTime(n int, rel []perm.Pair) (T, W int) {
	w := Weights(n, rel)
	for i := range n {
		for j := range n {
			if w[i][j] > 0 {
				T = max(T, n*w[i][j]+((j-i)%n+n)%n)
				W = max(W, w[i][j])
			}
		}
	}
	return T, W
}
