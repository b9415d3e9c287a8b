package pops

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"routecheck/internal/pcgstate"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// runLive is Run (src, if not nil, is rng's source, from which every draw
// is made directly, with the generator's state in registers: pcgstate).
// The pending packets are a bitmap over the processors (e.live: bit p set
// while p's packet is unacked) instead of a list: a step's participants are
// found by walking the set bits, and an acked packet clears its bit, so
// nothing is compacted. The k-th participant is still the k-th pending
// packet in increasing order, so the draws are choose's.
//
// A step is three passes over the copies (slotsOf: slot 1, slot 2, delivery):
//
//   - slot 1, source group by source group: the group's participants and
//     their intermediate groups r (drawn there when every pending packet
//     takes part, else by chooseLive), a counter per r (L1-resident), and
//     each survivor written as a record (processor, slot-2 coupler, delivery
//     coupler) into the region of its slot-2 part (r's range of couplers);
//   - slot 2, part by part: 2-bit counters per coupler (r, t), whose part
//     fits in the L2 cache; a survivor is acked (its bit cleared) and its
//     delivery coupler written into the region of its delivery part
//     (t's range);
//   - delivery, part by part: 2-bit counters per coupler (sub-slot, t, G).
//
// A slot-1 survivor is alone on its r within its source group, so a slot-2
// part of R intermediate groups receives at most R·g records, and an acked
// copy is alone on (r, t), so a delivery part of T temporary groups
// receives at most T·g: the regions are fixed and nothing is sorted. The
// counts, hence the Result, do not depend on the order in which the copies
// are counted.
func (e *Engine) runLive(sh pops.Shape, dst []int32, rng *rand.Rand, src *rand.PCG, o Options) (Result, error) {
	o, err := checkRun(sh, dst, o)
	if err != nil {
		return Result{}, err
	}
	n, g := sh.N(), sh.G
	dv, gv := newDivisor(sh.D), newDivisor(g)
	e.live = grow(e.live, (n+63)/64)
	clear(e.live)
	e.gp = grow(e.gp, sh.D)
	e.gr = grow(e.gr, sh.D)
	e.cnt = grow(e.cnt, g)
	e.srcDeg = grow(e.srcDeg, g)
	e.tmpDeg = grow(e.tmpDeg, g)
	clear(e.cnt)
	clear(e.srcDeg)
	clear(e.tmpDeg)
	nsub := o.Variant.DeliverySlots(sh)
	e.bm2 = growZero(e.bm2, (2*g*g+63)/64)
	e.bm3 = growZero(e.bm3, (2*nsub*g*g+63)/64)
	e.layout(g, nsub)
	m := 0 // pending packets
	for p, x := range dst {
		if x != perm.None {
			e.live[p>>6] |= 1 << (p & 63)
			m++
			e.srcDeg[dv.div(int32(p))]++
			e.tmpDeg[gv.mod(x)]++
		}
	}
	res := Result{Conflicts: make([]int, o.Variant.SlotsPerStep(sh))}
	c := slotCtx{dst: dst, dv: dv, gv: gv, nv: newDivisor(nsub), d: int32(sh.D), g: uint32(g), nsub: uint32(nsub), split: o.Variant == SplitDelivery}
	step := 0
	for m > 0 && step < o.MaxSteps {
		step++
		if o.trace(step) {
			res.MaxDegree = append(res.MaxDegree, max(maxOf(e.srcDeg), maxOf(e.tmpDeg)))
		}
		e.resetFills()
		if p := o.participation(sh, step); p >= 1 {
			// choose's draws for p = 1: every pending packet, in order.
			res.Conflicts[0] += e.slot1All(&c, rng, src)
		} else {
			e.part = grow(e.part, m)
			e.groups = grow(e.groups, m)
			var part, groups []int32
			if src != nil {
				ps := pcgstate.Load(src)
				part, groups = e.chooseLivePCG(&ps, g, p, m)
				ps.Store(src)
			} else {
				part, groups = e.chooseLive(rng, g, p, m)
			}
			res.Conflicts[0] += e.slot1Part(&c, part, groups)
		}
		// The degrees of the conflict graph are read only at the start of
		// a traced step.
		acked := e.slot2Parts(&c, o.trace(step+1), &res.Conflicts[1])
		res.Lost += e.deliverParts(&c, res.Conflicts[4:])
		res.Delivered += acked
		m -= acked
		if o.trace(step) {
			res.Remaining = append(res.Remaining, int32(m))
		}
	}
	res.Delivered -= res.Lost
	res.Steps = step
	res.Completed = m == 0
	return res, nil
}

// slotCtx is a run's constants for the passes of a step.
type slotCtx struct {
	dst        []int32
	dv, gv, nv divisor // d, g, and the number of delivery sub-slots
	d          int32
	g, nsub    uint32
	split      bool
}

// rec is a slot-1 survivor: its processor (source), its slot-2 coupler
// r·g + t and its delivery coupler (t·nsub + j)·g + G, where t = x mod g,
// G = ⌊x/d⌋ and j is x's sub-slot (0 unless split), x its destination.
type rec struct {
	p      int32
	k2, k3 uint32
}

// layout sizes the parts of slot 2 (by intermediate group, R of them a
// part) and of delivery (by temporary group, T a part) so that a part's
// counters take at most partBytes, and the regions of their records: a
// region holds its bound (R·g or T·g records) plus one, the slot a copy
// that is not kept is written to.
func (e *Engine) layout(g, nsub int) {
	// 2-bit counters: a group's couplers take g/4 bytes in slot 2 and
	// nsub·g/4 in delivery.
	R := max(1, min(g, 4*partBytes/g))
	T := max(1, min(g, 4*partBytes/(nsub*g)))
	e.part2 = regions(e.part2, g, R, g, uint32(R*g))
	e.part3 = regions(e.part3, g, T, g, uint32(T*nsub*g))
	e.recs = grow(e.recs, e.part2.size())
	e.k3s = grow(e.k3s, e.part3.size())
}

// parts splits groups 0…groups−1 into parts of per consecutive groups,
// each with a region of per·bound + 1 record slots; part q's couplers are
// q·span … (q+1)·span − 1.
type parts struct {
	of    []uint16 // part of each group
	start []int32  // region of part q: start[q] … start[q+1]−1
	fill  []int32  // next free slot of part q
	span  uint32
}

func regions(ps parts, groups, per, bound int, span uint32) parts {
	ps.span = span
	np := (groups + per - 1) / per
	ps.of = grow(ps.of, groups)
	for k := range ps.of {
		ps.of[k] = uint16(k / per)
	}
	ps.start = grow(ps.start, np+1)
	ps.fill = grow(ps.fill, np)
	for q := range np + 1 {
		ps.start[q] = int32(q * (per*bound + 1))
	}
	return ps
}

func (ps parts) size() int { return int(ps.start[len(ps.start)-1]) }

// resetFills empties every region.
func (e *Engine) resetFills() {
	copy(e.part2.fill, e.part2.start)
	copy(e.part3.fill, e.part3.start)
}

// slot1All is slot 1 of a step in which every pending packet takes part:
// source group by source group, the pending processors (from e.live) draw
// their intermediate groups in increasing order — rng.IntN(g), or the same
// draws from src directly — and the survivors are recorded (survivors).
// Returns the conflicting couplers.
func (e *Engine) slot1All(c *slotCtx, rng *rand.Rand, src *rand.PCG) (conflicts int) {
	var ps pcgstate.State
	if src != nil {
		ps = pcgstate.Load(src)
	}
	g := int(c.g)
	mask := uint64(g - 1)
	pow2 := g&(g-1) == 0
	d := int(c.d)
	for a := range g {
		gp := e.pendingIn(e.gp[:0], a*d, (a+1)*d)
		if len(gp) == 0 {
			continue
		}
		gr := e.gr[:len(gp)]
		switch {
		case src != nil && pow2:
			for j := range gr {
				gr[j] = int32(ps.Uint64() & mask)
			}
		case src != nil:
			for j := range gr {
				gr[j] = int32(ps.IntN(uint64(g)))
			}
		default:
			for j := range gr {
				gr[j] = int32(rng.IntN(g))
			}
		}
		conflicts += e.survivors(c, gp, gr)
	}
	if src != nil {
		ps.Store(src)
	}
	return conflicts
}

// pendingIn appends the pending processors of [lo, hi) to buf, in
// increasing order.
func (e *Engine) pendingIn(buf []int32, lo, hi int) []int32 {
	for wi := lo >> 6; wi<<6 < hi; wi++ {
		w := e.live[wi]
		if wi == lo>>6 {
			w &= ^uint64(0) << (lo & 63)
		}
		if (wi+1)<<6 > hi {
			w &= 1<<(hi&63) - 1
		}
		for w != 0 {
			buf = append(buf, int32(wi<<6|bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return buf
}

// slot1Part is slot 1 for participants given as processors in increasing
// order with their intermediate groups (chooseLive's): each source group is
// a contiguous run, resolved by survivors. Returns the conflicting couplers.
func (e *Engine) slot1Part(c *slotCtx, part, groups []int32) (conflicts int) {
	for lo := 0; lo < len(part); {
		end := (c.dv.div(part[lo]) + 1) * c.d
		hi := lo + 1
		for hi < len(part) && part[hi] < end {
			hi++
		}
		conflicts += e.survivors(c, part[lo:hi], groups[lo:hi])
		lo = hi
	}
	return conflicts
}

// survivors resolves slot 1 for one source group's participants gp with
// intermediate groups gr: a copy survives when no other participant of the
// group chose its r. Each survivor's rec goes to the region of r's slot-2
// part. Returns the conflicting couplers; leaves e.cnt zero.
func (e *Engine) survivors(c *slotCtx, gp, gr []int32) (conflicts int) {
	cnt := e.cnt
	gr = gr[:len(gp)]
	for _, r := range gr {
		cnt[r]++
		conflicts += int(b2u(cnt[r] == 2))
	}
	// The survivors' processors and groups to the front of gp and gr
	// (branch-free), the counters back to zero: an r counted twice or
	// more reads 0 at its later copies, which do not survive either.
	k := 0
	for j, r := range gr {
		n := cnt[r]
		cnt[r] = 0
		gp[k], gr[k] = gp[j], r
		k += int(b2u(n == 1))
	}
	recs, of, fill := e.recs, e.part2.of, e.part2.fill
	for j, p := range gp[:k] {
		r := gr[j]
		x := c.dst[p]
		t := uint32(c.gv.mod(x))
		G := c.dv.div(x)
		var sub uint32
		if c.split {
			sub = uint32(c.gv.div(x - G*c.d))
		}
		q := of[r]
		i := fill[q]
		recs[i] = rec{p: p, k2: uint32(r)*c.g + t, k3: (t*c.nsub+sub)*c.g + uint32(G)}
		fill[q] = i + 1
	}
	return conflicts
}

// slot2Parts resolves slot 2 part by part: a copy survives when it is alone on
// its coupler (r, t); its source is acked and leaves the conflict graph
// (its bit in e.live is cleared; with degrees set, it leaves e.srcDeg and
// e.tmpDeg), and its delivery coupler goes to the region of t's delivery
// part. Adds the conflicting couplers to *conf and returns the number of
// acked packets. Leaves the counters zero.
func (e *Engine) slot2Parts(c *slotCtx, degrees bool, conf *int) (acked int) {
	bm, recs := e.bm2, e.recs
	of3, fill3, k3s := e.part3.of, e.part3.fill, e.k3s
	c2 := 0
	for q, end := range e.part2.fill {
		part := recs[e.part2.start[q]:end]
		for i := range part {
			c2 += int(bump(bm, part[i].k2))
		}
		for i := range part {
			r := &part[i]
			keep := b2u(single(bm, r.k2))
			e.live[r.p>>6] &^= uint64(keep) << (r.p & 63) // acked: no longer pending
			t := c.gv.mod(int32(r.k2))
			if degrees {
				e.srcDeg[c.dv.div(r.p)] -= int32(keep)
				e.tmpDeg[t] -= int32(keep)
			}
			q3 := of3[t]
			j := fill3[q3]
			k3s[j] = r.k3
			fill3[q3] = j + int32(keep)
			acked += int(keep)
		}
		lo := uint32(q) * e.part2.span
		clearRange(bm, part, lo, lo+e.part2.span, func(r rec) uint32 { return r.k2 })
	}
	*conf += c2
	return acked
}

// deliverParts resolves the delivery (sub-)slots part by part: a copy is
// lost when another copy sent in its sub-slot j from its temporary group t
// has its destination group. Adds the conflicting couplers of sub-slot j to
// conf[j] and returns the losses. Leaves the counters zero.
func (e *Engine) deliverParts(c *slotCtx, conf []int) (lost int) {
	bm := e.bm3
	for q, end := range e.part3.fill {
		part := e.k3s[e.part3.start[q]:end]
		if c.split {
			for _, key := range part {
				conf[c.nv.mod(c.gv.div(int32(key)))] += int(bump(bm, key))
			}
		} else {
			n := 0
			for _, key := range part {
				n += int(bump(bm, key))
			}
			conf[0] += n
		}
		for _, key := range part {
			lost += 1 - int(b2u(single(bm, key)))
		}
		lo := uint32(q) * e.part3.span
		clearRange(bm, part, lo, lo+e.part3.span, func(k uint32) uint32 { return k })
	}
	return lost
}

// clearRange zeroes the counters of keys (a part's, all in [lo, hi)) in
// bm: word by word when there are few, else every word of the range.
func clearRange[T rec | uint32](bm []uint64, xs []T, lo, hi uint32, key func(T) uint32) {
	if words := int((hi+31)>>5 - lo>>5); len(xs) >= words/4 {
		clear(bm[lo>>5 : min(int((hi+31)>>5), len(bm))])
		return
	}
	for _, x := range xs {
		bm[key(x)>>5] = 0
	}
}

// partBytes is the size of counters above which slot 2 and delivery split
// the copies into parts: about a quarter of the L2 cache. A variable so
// that tests can force the split on small shapes.
var partBytes = 256 << 10

// chooseLivePCG is chooseLive drawing from a PCG's state directly: the
// same draws (expFloat64 is rand.Rand.ExpFloat64, ps.IntN rand.Rand.IntN)
// in the same order, the same participants and groups.
func (e *Engine) chooseLivePCG(ps *pcgstate.State, g int, p float64, m int) ([]int32, []int32) {
	part, groups := e.part[:0], e.groups[:0]
	live := e.live
	lambda := -math.Log1p(-p)
	k := -1
	wi, w := 0, live[0] // w: the bits of word wi not yet passed
	for {
		gap := math.Floor(expFloat64(ps) / lambda)
		if gap >= float64(m-k-1) {
			return part, groups
		}
		skip := int(gap) + 1 // the participant is the skip-th pending packet after the last
		k += skip
		for c := bits.OnesCount64(w); skip > c; c = bits.OnesCount64(w) {
			skip -= c
			wi++
			w = live[wi]
		}
		pos := select64(w, skip-1)
		part = append(part, int32(wi<<6|pos))
		w &^= 2<<pos - 1 // pass it and the bits below it
		groups = append(groups, int32(ps.IntN(uint64(g))))
	}
}

// expFloat64 is rand.Rand.ExpFloat64 (math/rand/v2, exp.go) on ps: the
// same ziggurat, tables (ziggurat_tables.go) and draws.
func expFloat64(ps *pcgstate.State) float64 {
	const re = 7.69711747013104972
	for {
		u := ps.Uint64()
		j := uint32(u)
		i := uint8(u >> 32)
		x := float64(j) * float64(zigWe[i])
		if j < zigKe[i] {
			return x
		}
		if i == 0 {
			return re - math.Log(float64(ps.Uint64()<<11>>11)/(1<<53))
		}
		if zigFe[i]+float32(float64(ps.Uint64()<<11>>11)/(1<<53))*(zigFe[i-1]-zigFe[i]) < float32(math.Exp(-x)) {
			return x
		}
	}
}

// chooseLive is choose(rng, g, p, m, …) for p < 1 on the m pending packets
// of e.live: the same draws in the same order, and the same participants,
// given as processors (the k-th participant index of choose is the k-th set
// bit) with their intermediate groups, in e.part and e.groups.
func (e *Engine) chooseLive(rng *rand.Rand, g int, p float64, m int) ([]int32, []int32) {
	part, groups := e.part[:0], e.groups[:0]
	live := e.live
	lambda := -math.Log1p(-p)
	k := -1
	wi, w := 0, live[0] // w: the bits of word wi not yet passed
	for {
		gap := math.Floor(rng.ExpFloat64() / lambda)
		if gap >= float64(m-k-1) {
			return part, groups
		}
		skip := int(gap) + 1 // the participant is the skip-th pending packet after the last
		k += skip
		for c := bits.OnesCount64(w); skip > c; c = bits.OnesCount64(w) {
			skip -= c
			wi++
			w = live[wi]
		}
		pos := select64(w, skip-1)
		part = append(part, int32(wi<<6|pos))
		w &^= 2<<pos - 1 // pass it and the bits below it
		groups = append(groups, int32(rng.IntN(g)))
	}
}

// select64 returns the position of the (r+1)-th lowest set bit of w
// (0 ≤ r < popcount(w)) without branches: byte-wise popcounts summed by a
// multiplication locate the byte (Vigna, "Broadword implementation of
// rank/select queries", 2008), and a table selects within the byte.
func select64(w uint64, r int) int {
	const l8, h8 = 0x0101010101010101, 0x8080808080808080
	s := w - (w>>1)&0x5555555555555555
	s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
	s = (s + s>>4) & 0x0f0f0f0f0f0f0f0f
	s *= l8 // byte i: the set bits in bytes 0…i
	// Bytes whose running count is ≤ r lie wholly below the bit.
	b := bits.OnesCount64(((uint64(r)*l8 | h8) - s) & h8)
	below := int(s<<8>>(8*b)) & 0xff // set bits in bytes 0…b−1
	return 8*b + int(selectInByte[(r-below)<<8|int(w>>(8*b)&0xff)])
}

// selectInByte[r<<8 | x] is the position of the (r+1)-th lowest set bit of
// the byte x (0 where x has fewer).
var selectInByte = func() (t [8 << 8]uint8) {
	for x := range 256 {
		r := 0
		for i := range 8 {
			if x>>i&1 == 1 {
				t[r<<8|x] = uint8(i)
				r++
			}
		}
	}
	return t
}()

// bump increments the 2-bit saturating counter of coupler key in bm (0 → 1
// → 2 → 3, then stays at 3) and reports whether it now holds two copies
// for the first time (a new conflicting coupler).
func bump(bm []uint64, key uint32) uint8 {
	w := &bm[key>>5]
	sh := (key & 31) * 2
	old := (*w >> sh) & 3
	*w |= (1 | (old&1)<<1) << sh
	return b2u(old == 1)
}

// single reports whether coupler key of bm carries exactly one copy.
func single(bm []uint64, key uint32) bool { return (bm[key>>5]>>((key&31)*2))&2 == 0 }
