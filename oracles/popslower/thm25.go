package popslower

import (
	"fmt"
	"math"

	"routecheck/models/pops"
)

// Family is an oblivious routing algorithm: the path from a to b as the
// processors visited after a, ending with b.
type Family func(a, b int32) []int32

// node numbers the nodes of D: processors 0…n−1, then coupler c(to, from) as
// n + to·g + from.
func node(sh pops.Shape, to, from int) int { return sh.N() + to*sh.G + from }

// pathNodes appends the nodes of (a, b] to buf.
func pathNodes(sh pops.Shape, a int32, path []int32, buf []int) []int {
	prev := a
	for _, q := range path {
		buf = append(buf, node(sh, sh.Group(int(q)), sh.Group(int(prev))), int(q))
		prev = q
	}
	return buf
}

// Congestion is c(Π) for the paths (a, π(a)] with π(a) defined (≥ 0) and
// π(a) ≠ a: the largest number of these paths through one node of D, and
// that node (a node < n is a processor, else coupler n + to·g + from).
func Congestion(sh pops.Shape, fam Family, pi []int32) (c, at int) {
	cnt := make([]int, sh.N()+sh.G*sh.G)
	var buf []int
	for a, b := range pi {
		if b < 0 || int(b) == a {
			continue
		}
		buf = pathNodes(sh, int32(a), fam(int32(a), b), buf[:0])
		for k, v := range buf {
			if !containsInt(buf[:k], v) { // a path counts once per node
				cnt[v]++
			}
		}
	}
	for v, k := range cnt {
		if k > c {
			c, at = k, v
		}
	}
	return c, at
}

// Thm25 is the construction's outcome.
type Thm25 struct {
	// Node v is the node of D lying in at least K of the sets S_b.
	Node int
	// K = ⌈√g/2⌉ is the number of destinations b_1…b_K chosen.
	K int
	// Perm is the permutation: π(a_i) = b_i for the chosen pairs, extended
	// to a full permutation by matching the other sources to the other
	// destinations in increasing order.
	Perm []int32
	// Forced lists the chosen sources a_i (π(a_i) = b_i, v on (a_i, b_i]).
	Forced []int32
	// MinS is min_b |S_b| (the proof shows ≥ √g).
	MinS int
}

// Theorem25 runs the construction of the proof of Theorem 2.5 against fam
// on POPS(d, d) (the proof assumes d = g): S_b is the set of nodes that lie
// on at least √g/2 of the paths (a, b], a ≠ b; a node v lying in at least
// √g/2 of the S_b is found by counting; then for b_1, b_2, … in S_v's
// destinations, a source a with v on (a, b_i] and π(a) undefined is chosen
// greedily. Every chosen path crosses v, so the congestion is at least the
// number chosen.
//
// The paper's text says "let a be any processor in S_{b_i}", which does not
// make v lie on (a, b_i]; the greedy step here picks a among the sources of
// paths through v, which is what the conclusion "node v belongs to each path
// (a, π(a))" needs (Theorem25Literal follows the text). Cost O(n²·L) for
// paths of length L.
func Theorem25(sh pops.Shape, fam Family) (Thm25, error) {
	return theorem25(sh, fam, false)
}

// Theorem25Literal follows the paper's greedy step word for word: a is any
// processor in S_{b_i} (the smallest such index) with π(a) undefined. The
// resulting permutation need not have congestion √g/2 (claim
// pops/thm-2.5/literal-greedy).
func Theorem25Literal(sh pops.Shape, fam Family) (Thm25, error) {
	return theorem25(sh, fam, true)
}

func theorem25(sh pops.Shape, fam Family, literal bool) (Thm25, error) {
	if sh.D != sh.G || sh.G < 2 {
		return Thm25{}, fmt.Errorf("popslower: Theorem 2.5's construction is stated for d = g (and needs g ≥ 2 for a path to exist); got %v", sh)
	}
	n, nv := sh.N(), sh.N()+sh.G*sh.G
	half := math.Sqrt(float64(sh.G)) / 2
	// through[v] = number of paths (a, b] through v, for the current b.
	inS := make([][]bool, n)
	through := make([]int, nv)
	count := make([]int, nv) // number of b with v ∈ S_b
	minS := nv
	var buf []int
	for b := range n {
		clear(through)
		for a := range n {
			if a == b {
				continue
			}
			buf = pathNodes(sh, int32(a), fam(int32(a), int32(b)), buf[:0])
			for k, v := range buf {
				if !containsInt(buf[:k], v) {
					through[v]++
				}
			}
		}
		inS[b] = make([]bool, nv)
		size := 0
		for v, k := range through {
			if float64(k) >= half {
				inS[b][v] = true
				count[v]++
				size++
			}
		}
		minS = min(minS, size)
	}
	best := 0
	for v := range count {
		if count[v] > count[best] {
			best = v
		}
	}
	k := int(math.Ceil(half))
	res := Thm25{Node: best, K: k, MinS: minS}
	if count[best] < k {
		return res, fmt.Errorf("popslower: no node lies in %d sets S_b (best %d): the counting step failed", k, count[best])
	}
	pi := make([]int32, n)
	for i := range pi {
		pi[i] = -1
	}
	usedDst := make([]bool, n)
	chosen := 0
	for b := 0; b < n && chosen < k; b++ {
		if !inS[b][best] {
			continue
		}
		pick := -1
		for a := range n {
			if a == b || pi[a] >= 0 {
				continue
			}
			if literal {
				if inS[b][a] { // "any processor in S_{b_i}"
					pick = a
					break
				}
				continue
			}
			buf = pathNodes(sh, int32(a), fam(int32(a), int32(b)), buf[:0])
			if containsInt(buf, best) {
				pick = a
				break
			}
		}
		if pick < 0 {
			return res, fmt.Errorf("popslower: greedy step %d found no source for b = %d", chosen+1, b)
		}
		pi[pick] = int32(b)
		usedDst[b] = true
		res.Forced = append(res.Forced, int32(pick))
		chosen++
	}
	// Extend to a full permutation.
	free := []int32{}
	for b := range n {
		if !usedDst[b] {
			free = append(free, int32(b))
		}
	}
	for a := range n {
		if pi[a] < 0 {
			pi[a], free = free[0], free[1:]
		}
	}
	res.Perm = pi
	return res, nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
