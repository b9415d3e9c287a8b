package pops

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Engine is the fast path of the randomized router for large networks. It
// computes, step by step, exactly the conflicts of slots 1, 2 and the delivery
// slot(s) that RunOnModel produces on the slot model — with counting arrays
// and survivor lists bucketed by group (a counting sort) instead of messages —
// and consumes the random stream in the same order, so for equal seeds both
// give equal Results in Steps, Completed, Delivered, Lost, Remaining,
// MaxDegree and the conflicts of slots 1, 2 and delivery (see the
// differential tests). Slots 3 and 4 (acks) are not simulated: Proposition
// 3.2 says they never conflict, and the model-level claims check that.
//
// Work per step is O(pending + g) with mostly sequential memory access. An
// Engine reuses its buffers between runs: after the first run of a given
// size, Run allocates only the per-step slices of Result. Memory is
// 13·n + 32·min(n, g²) bytes (≈ 750 MB at n = 2^24, d = g; ≈ 250 MB at
// d = 16g), plus the caller's destination array. Not safe for concurrent
// use; use one Engine per goroutine.
type Engine struct {
	pending []int32 // unacked packet ids, increasing
	part    []int32 // indices into pending of this step's participants
	groups  []int32 // their intermediate groups
	acked   []bool  // pending[k] acked this step
	surv    []copyAt
	bucket  []copyAt
	cnt     []int32 // per-group counters, always zero between uses
	start   []int32 // counting-sort offsets, g+1
	srcDeg  []int32
	tmpDeg  []int32
}

// copyAt is a copy in flight: pending index k, destination x, source group
// a, and the group it is bucketed by (intermediate, then temporary).
type copyAt struct{ k, x, a, grp int32 }

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Run routes the partial permutation dst (not modified) on POPS(sh) with the
// randomized router and returns the same Result as RunOnModel except for the
// model-only fields (Conflicts of slots 3–4, MaxMem, Duplicated).
func (e *Engine) Run(sh pops.Shape, dst []int32, rng *rand.Rand, o Options) (Result, error) {
	if err := CheckShape(sh); err != nil {
		return Result{}, err
	}
	if err := o.check(); err != nil {
		return Result{}, err
	}
	if len(dst) != sh.N() {
		return Result{}, errLen(len(dst), sh.N())
	}
	if o.Mutant != NoMutant {
		return Result{}, fmt.Errorf("mutant %q: the fast engine runs only the router as written (use RunOnModel)", o.Mutant)
	}
	o = o.fill(sh)
	n, g, d := sh.N(), sh.G, sh.D
	e.pending = grow(e.pending, n)[:0]
	e.part = grow(e.part, n)
	e.groups = grow(e.groups, n)
	e.acked = grow(e.acked, n)
	// Slot-1 survivors are at most one per (intermediate, source) group pair.
	e.surv = grow(e.surv, min(n, g*g))
	e.bucket = grow(e.bucket, min(n, g*g))
	e.cnt = grow(e.cnt, g)
	e.start = grow(e.start, g+1)
	e.srcDeg = grow(e.srcDeg, g)
	e.tmpDeg = grow(e.tmpDeg, g)
	clear(e.cnt)
	clear(e.srcDeg)
	clear(e.tmpDeg)
	for p, x := range dst {
		if x != perm.None {
			e.pending = append(e.pending, int32(p))
			e.srcDeg[p/d]++
			e.tmpDeg[x%int32(g)]++
		}
	}
	nsub := o.Variant.DeliverySlots(sh)
	res := Result{Conflicts: make([]int, o.Variant.SlotsPerStep(sh))}
	step := 0
	for len(e.pending) > 0 && step < o.MaxSteps {
		step++
		if o.trace(step) {
			res.MaxDegree = append(res.MaxDegree, max(maxOf(e.srcDeg), maxOf(e.tmpDeg)))
		}
		pend := e.pending
		acked := e.acked[:len(pend)]
		e.part, e.groups = choose(rng, g, o.participation(sh, step), len(pend), e.part, e.groups)
		c1, m := e.slot1(pend, e.part, e.groups, dst, d)
		res.Conflicts[0] += c1
		c2, m := e.slot2(acked, m, g)
		res.Conflicts[1] += c2
		for j := range nsub {
			c, lost := e.deliver(e.bucket[:m], d, g, o.Variant == SplitDelivery, j)
			res.Conflicts[4+j] += c
			res.Lost += lost
		}
		// Acked originals leave; compact in order (branch-free).
		w := 0
		for k, p := range pend {
			pend[w] = p
			w += 1 - int(b2u(acked[k]))
			acked[k] = false
		}
		res.Delivered += len(pend) - w
		e.pending = pend[:w]
		if o.trace(step) {
			res.Remaining = append(res.Remaining, int32(w))
		}
	}
	res.Delivered -= res.Lost
	res.Steps = step
	res.Completed = len(e.pending) == 0
	return res, nil
}

// slot1 resolves slot 1 group by group (participants are in increasing
// packet order, so each source group is a contiguous run): a copy survives
// when no other participant of its group chose the same intermediate group.
// Survivors are written to e.surv keyed by intermediate group; returns
// conflicting couplers and the number of survivors.
func (e *Engine) slot1(pend, part, groups, dst []int32, d int) (conflicts, m int) {
	cnt, surv := e.cnt, e.surv
	for lo := 0; lo < len(part); {
		a := int(pend[part[lo]]) / d
		end := int32((a + 1) * d)
		hi := lo
		for hi < len(part) && pend[part[hi]] < end {
			r := groups[hi]
			cnt[r]++
			if cnt[r] == 2 {
				conflicts++
			}
			hi++
		}
		for j := lo; j < hi; j++ {
			r, k := groups[j], part[j]
			surv[m] = copyAt{k: k, x: dst[pend[k]], a: int32(a), grp: r}
			m += int(b2u(cnt[r] == 1)) // branch-free keep
		}
		for _, r := range groups[lo:hi] {
			cnt[r] = 0
		}
		lo = hi
	}
	return conflicts, m
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// sortByGroup stably counting-sorts in[:m] by grp into out and leaves the
// bucket offsets in e.start.
func (e *Engine) sortByGroup(in, out []copyAt, g int) {
	start := e.start
	clear(start)
	for _, c := range in {
		start[c.grp+1]++
	}
	for i := 1; i <= g; i++ {
		start[i] += start[i-1]
	}
	for _, c := range in {
		out[start[c.grp]] = c
		start[c.grp]++
	}
	// start[i] is now the end of bucket i; shift back to starts.
	copy(start[1:], start[:g])
	start[0] = 0
}

// slot2 resolves slot 2 per intermediate group r: a copy survives when no
// other copy at group r goes to the same temporary destination group. Its
// source is acked (slots 3–4) and leaves the conflict graph; survivors are
// left in e.bucket keyed by temporary group. Returns conflicting couplers and
// the number of survivors.
func (e *Engine) slot2(acked []bool, m, g int) (conflicts, m2 int) {
	sorted, surv := e.bucket[:m], e.surv
	e.sortByGroup(e.surv[:m], sorted, g)
	for i := range sorted {
		sorted[i].grp = sorted[i].x % int32(g) // from now on: temporary group
	}
	cnt := e.cnt
	for r := range g {
		lo, hi := int(e.start[r]), m
		if r+1 < g {
			hi = int(e.start[r+1])
		}
		b := sorted[lo:hi]
		for _, c := range b {
			cnt[c.grp]++
			if cnt[c.grp] == 2 {
				conflicts++
			}
		}
		for _, c := range b {
			surv[m2] = c
			m2 += int(b2u(cnt[c.grp] == 1))
		}
		for _, c := range b {
			cnt[c.grp] = 0
		}
	}
	for _, c := range surv[:m2] {
		acked[c.k] = true
		e.srcDeg[c.a]--
		e.tmpDeg[c.grp]--
	}
	e.sortByGroup(surv[:m2], e.bucket[:m2], g)
	return conflicts, m2
}

// deliver resolves a delivery (sub-)slot per temporary group t: copies sent
// to the same destination group collide on c(group(π(p)), t) and, their
// originals having been deleted at the slot-4 ack, are lost. With split set
// only copies of sub-slot j are sent. Returns conflicting couplers and losses.
func (e *Engine) deliver(copies []copyAt, d, g int, split bool, j int) (conflicts, lost int) {
	cnt := e.cnt
	d32, g32 := int32(d), int32(g)
	sent := func(c copyAt) bool { return !split || int(c.x%d32/g32) == j }
	for t := range g {
		lo, hi := e.start[t], len(copies)
		if t+1 < g {
			hi = int(e.start[t+1])
		}
		b := copies[lo:hi]
		for _, c := range b {
			if sent(c) {
				G := c.x / d32
				cnt[G]++
				if cnt[G] == 2 {
					conflicts++
				}
			}
		}
		for _, c := range b {
			if sent(c) && cnt[c.x/d32] > 1 {
				lost++
			}
		}
		for _, c := range b {
			if sent(c) {
				cnt[c.x/d32] = 0
			}
		}
	}
	return conflicts, lost
}

func errLen(got, n int) error {
	return fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", got, n)
}
