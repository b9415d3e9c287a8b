package popslower

import (
	"fmt"
	"math"
	"slices"

	"routecheck/models/pops"
)

// Thm25Early is the outcome of Theorem25Early.
type Thm25Early struct {
	Thm25
	// Processed is the number of destinations b (0, 1, …, Processed−1)
	// whose set S_b was computed; MinS is min |S_b| over those b only.
	Processed int
	// Dests are b_1 … b_K: the first K processed b with Node ∈ S_b, in
	// increasing order (π(Forced[i]) = Dests[i]).
	Dests []int32
}

// Theorem25Early is Theorem 2.5's construction (as Theorem25: the greedy
// step picks a source whose path to b_i crosses v) with the averaging step
// done incrementally: S_b is computed for b = 0, 1, … in turn, and the
// first node v to lie in K = ⌈√g/2⌉ of the sets computed so far is the
// node of the proof (ties broken by the smaller node number). Every
// property the rest of the proof uses — v ∈ S_{b_i} for K distinct b_i,
// hence at least √g/2 sources whose paths to b_i cross v — holds for that
// v exactly; what is not computed is S_b for the b after the stop, so MinS
// (the proof's |S_b| ≥ √g) is checked on the processed b only. If no node
// reaches K after all n destinations, the counting step failed and an error
// is returned, as for Theorem25.
//
// Cost O(Processed·n·L + K·n·L) path-node visits for paths of length L, and
// O(n) memory (Theorem25 is O(n²·L) time and O(n²) memory): for the
// routers of algos/popsobl it stops after K destinations, so POPS(1024,
// 1024) takes ≈ 16·2²⁰ path evaluations.
func Theorem25Early(sh pops.Shape, fam Family) (Thm25Early, error) {
	if sh.D != sh.G || sh.G < 2 {
		return Thm25Early{}, fmt.Errorf("popslower: Theorem 2.5's construction is stated for d = g (and needs g ≥ 2 for a path to exist); got %v", sh)
	}
	return Theorem25EarlyAnyD(sh, fam)
}

// Theorem25EarlyAnyD is Theorem25Early on POPS(d, g) with any d ≥ 1, g ≥ 2:
// the proof's "extension to d = Θ(g) … only more technical fuss", run with
// the same threshold √g/2 and K = ⌈√g/2⌉. D then has dg processors (in-degree
// g) and g² couplers (in-degree d), so the proof's constants change with
// d/g; the construction fails with an error when no node reaches K sets.
func Theorem25EarlyAnyD(sh pops.Shape, fam Family) (Thm25Early, error) {
	if sh.D < 1 || sh.G < 2 {
		return Thm25Early{}, fmt.Errorf("popslower: Theorem 2.5's construction needs d ≥ 1 and g ≥ 2; got %v", sh)
	}
	n, nv := sh.N(), sh.N()+sh.G*sh.G
	half := math.Sqrt(float64(sh.G)) / 2
	k := int(math.Ceil(half))
	through := make([]int32, nv) // paths (a, b] through v for the current b
	count := make([]int32, nv)   // processed b with v ∈ S_b
	res := Thm25Early{Thm25: Thm25{Node: -1, K: k, MinS: nv}}
	var sets [][]int32 // sets[b] = S_b for the processed b
	var buf []int
	for b := 0; b < n && res.Node < 0; b++ {
		clear(through)
		for a := range n {
			if a == b {
				continue
			}
			buf = pathNodes(sh, int32(a), fam(int32(a), int32(b)), buf[:0])
			for j, v := range buf {
				if !containsInt(buf[:j], v) {
					through[v]++
				}
			}
		}
		var sb []int32
		for v, c := range through {
			if float64(c) >= half {
				sb = append(sb, int32(v))
				count[v]++
				if int(count[v]) >= k && res.Node < 0 {
					res.Node = v
				}
			}
		}
		res.MinS = min(res.MinS, len(sb))
		sets = append(sets, sb)
		res.Processed = b + 1
	}
	if res.Node < 0 {
		best := 0
		for v := range count {
			if count[v] > count[best] {
				best = v
			}
		}
		return res, fmt.Errorf("popslower: no node lies in %d sets S_b (best %d): the counting step failed", k, count[best])
	}
	v := res.Node
	// b_1 … b_K: the processed b with v ∈ S_b (exactly K: v reached K at
	// the last one).
	for b, sb := range sets {
		if slices.Contains(sb, int32(v)) {
			res.Dests = append(res.Dests, int32(b))
		}
	}
	pi := make([]int32, n)
	for i := range pi {
		pi[i] = -1
	}
	usedDst := make([]bool, n)
	for i, b := range res.Dests {
		pick := -1
		for a := range n {
			if a != int(b) && pi[a] < 0 && onPath(sh, fam, int32(a), b, v, &buf) {
				pick = a
				break
			}
		}
		if pick < 0 {
			return res, fmt.Errorf("popslower: greedy step %d found no source for b = %d", i+1, b)
		}
		pi[pick] = b
		usedDst[b] = true
		res.Forced = append(res.Forced, int32(pick))
	}
	res.Perm = Extend(pi, usedDst)
	return res, nil
}

// onPath reports whether node v lies on (a, b] of fam.
func onPath(sh pops.Shape, fam Family, a, b int32, v int, buf *[]int) bool {
	*buf = pathNodes(sh, a, fam(a, b), (*buf)[:0])
	return containsInt(*buf, v)
}

// Extend completes a partial permutation pi (−1 = undefined; usedDst marks
// the destinations taken) by matching the free sources to the free
// destinations in increasing order, as Theorem25 does. It modifies and
// returns pi.
func Extend(pi []int32, usedDst []bool) []int32 {
	next := 0
	for a := range pi {
		if pi[a] >= 0 {
			continue
		}
		for usedDst[next] {
			next++
		}
		pi[a] = int32(next)
		next++
	}
	return pi
}
