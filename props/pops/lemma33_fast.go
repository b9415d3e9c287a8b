package pops

import "routecheck/models/perm"

// lemma33Scratch holds lemma33Instance's buffers between runs, so that the
// 2^20-processor instances of Lemma 3.3 (default budget) are drawn without
// allocating and clearing 16 MB per run.
type lemma33Scratch struct {
	p, order, dst []int32
	src, tmp      []int32
}

// instance is lemma33Instance(g, deg, rng) — the same random draws in the
// same order, the same result — written into s's buffers (the returned
// slice is overwritten by the next call). It uses 32-bit indices, and stops
// the greedy pass once every group sends deg packets, after which no
// packet could be accepted.
func (s *lemma33Scratch) instance(g, deg int, rng interface{ IntN(int) int }) []int32 {
	n := g * g
	if len(s.p) != n {
		s.p, s.order, s.dst = make([]int32, n), make([]int32, n), make([]int32, n)
		s.src, s.tmp = make([]int32, g), make([]int32, g)
	}
	p, order, dst := s.p, s.order, s.dst
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	for i := range order {
		order[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	src, tmp := s.src, s.tmp
	clear(src)
	clear(tmp)
	for i := range dst {
		dst[i] = perm.None
	}
	d32, full, accepted := int32(deg), g*deg, 0
	for _, s32 := range order {
		if accepted == full {
			break
		}
		s := int(s32)
		a, t := s/g, int(p[s])%g
		if src[a] < d32 && tmp[t] < d32 {
			src[a]++
			tmp[t]++
			dst[s] = p[s]
			accepted++
		}
	}
	return dst
}
