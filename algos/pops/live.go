package pops

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// runLive is Run (src, if not nil, is rng's source, from which the steps
// without a coin draw directly). The pending packets are a bitmap over the
// processors (e.live: bit p set while p's packet is unacked) instead of a
// list: a step's participants are found by walking the set bits, and an
// acked packet clears its bit, so nothing is compacted. With a stage-1
// coin a step touches only the bitmap (n/8 bytes) and its participants'
// entries, not every pending packet's. The k-th participant is still the
// k-th pending packet in increasing order, so the draws are choose's.
func (e *Engine) runLive(sh pops.Shape, dst []int32, rng *rand.Rand, src *rand.PCG, o Options) (Result, error) {
	o, err := checkRun(sh, dst, o)
	if err != nil {
		return Result{}, err
	}
	n, g := sh.N(), sh.G
	dv, gv := newDivisor(sh.D), newDivisor(g)
	e.live = grow(e.live, (n+63)/64)
	clear(e.live)
	e.part = grow(e.part, n)
	e.groups = grow(e.groups, n)
	// Slot-1 survivors are at most one per (intermediate, source) group pair.
	e.surv = grow(e.surv, min(n, g*g))
	e.keys = grow(e.keys, min(n, g*g))
	e.scratch = grow(e.scratch, min(n, g*g))
	e.cnt = grow(e.cnt, g)
	e.srcDeg = grow(e.srcDeg, g)
	e.tmpDeg = grow(e.tmpDeg, g)
	clear(e.cnt)
	clear(e.srcDeg)
	clear(e.tmpDeg)
	nsub := o.Variant.DeliverySlots(sh)
	e.bm2 = growZero(e.bm2, (2*g*g+63)/64)
	e.bm3 = growZero(e.bm3, (2*nsub*g*g+63)/64)
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
	step := 0
	for m > 0 && step < o.MaxSteps {
		step++
		if o.trace(step) {
			res.MaxDegree = append(res.MaxDegree, max(maxOf(e.srcDeg), maxOf(e.tmpDeg)))
		}
		var part, groups []int32
		if p := o.participation(sh, step); p >= 1 {
			// choose's draws for p = 1: every pending packet, in order.
			part, groups = e.listLive(m), e.groups[:m]
			if src != nil {
				drawGroups(src, groups, g)
			} else {
				for k := range groups {
					groups[k] = int32(rng.IntN(g))
				}
			}
		} else {
			part, groups = e.chooseLive(rng, g, p, m)
		}
		c1, m1 := e.slot1Live(part, groups, dst, dv)
		res.Conflicts[0] += c1
		// The degrees of the conflict graph are read only at the start of
		// a traced step.
		acked, lost := e.countSlots(m1, dv, gv, o.Variant == SplitDelivery, o.trace(step+1), res.Conflicts)
		res.Lost += lost
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

// listLive returns the m pending processors in increasing order (in e.part).
func (e *Engine) listLive(m int) []int32 {
	part := e.part[:m]
	j := 0
	for wi, w := range e.live {
		for w != 0 {
			part[j] = int32(wi<<6 | bits.TrailingZeros64(w))
			j++
			w &= w - 1
		}
	}
	return part
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

// slot1Live is slot1 on participants given as processors in increasing
// order (each source group a contiguous run): a copy survives when no other
// participant of its group chose the same intermediate group. Survivors go
// to e.surv as (processor, destination) with their intermediate group in
// e.keys; returns conflicting couplers and the number of survivors.
func (e *Engine) slot1Live(part, groups, dst []int32, dv divisor) (conflicts, m int) {
	cnt, surv, keys := e.cnt, e.surv, e.keys
	d := int32(dv.d)
	for lo := 0; lo < len(groups); {
		end := (dv.div(part[lo]) + 1) * d
		hi := lo
		for hi < len(groups) && part[hi] < end {
			r := groups[hi]
			cnt[r]++
			if cnt[r] == 2 {
				conflicts++
			}
			hi++
		}
		for j := lo; j < hi; j++ {
			r, p := groups[j], part[j]
			keep := b2u(cnt[r] == 1)
			surv[m].k = p // branch-free keep
			keys[m] = r
			m += int(keep)
		}
		for _, r := range groups[lo:hi] {
			cnt[r] = 0
		}
		lo = hi
	}
	// The destinations of the survivors only, in a loop of their own: with
	// a stage-1 coin each is mostly a cache line of its own, and a short
	// loop keeps more of these misses in flight.
	for i := range surv[:m] {
		surv[i].x = dst[surv[i].k]
	}
	return conflicts, m
}

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

// countSlots resolves slots 2 and 5 (or the delivery sub-slots) for slot 1's
// m survivors (e.surv as (processor, destination), intermediate groups in
// e.keys) with per-coupler counters instead of sorting: a copy survives
// slot 2 when it is alone on coupler (r, t), t = x mod g; its source is
// acked and leaves the conflict graph (its bit in e.live is cleared; with
// degrees set, it leaves e.srcDeg and e.tmpDeg); it is lost when another
// copy sent in its delivery (sub-)slot j from t has the same destination
// group. It adds the conflicting couplers of slot 2 and of each delivery
// sub-slot to conf[1] and conf[4+j] and returns the number of acked packets
// and of lost ones. e.keys and e.scratch are overwritten, the counters left
// zero.
//
// Where a slot's counters exceed partBytes (g > 1024 for slot 2) the copies
// are first split by their counters' part (a 16-way or so counting sort),
// and each part's counters, which fit in the L2 cache, are updated and read
// while they are cached: the counts, hence the Result, do not depend on the
// order in which the copies are counted.
func (e *Engine) countSlots(m int, dv, gv divisor, split, degrees bool, conf []int) (m2, lost int) {
	g := uint32(gv.d)
	gg := g * g
	d := int32(dv.d)
	surv, keys, bm2, bm3 := e.surv[:m], e.keys[:m], e.bm2, e.bm3
	for i, c := range surv {
		keys[i] = int32(uint32(keys[i])*g + uint32(gv.mod(c.x)))
	}
	bounds := []int{0, m}
	if shift, parts := partShift(len(bm2)); parts > 1 {
		surv, keys, bounds = e.partition(surv, keys, shift, parts)
	}
	k3 := e.scratch[:m]
	c2 := 0
	for p := 1; p < len(bounds); p++ {
		lo, hi := bounds[p-1], bounds[p]
		for _, key := range keys[lo:hi] {
			c2 += int(bump(bm2, uint32(key)))
		}
		for i, c := range surv[lo:hi] {
			key := uint32(keys[lo+i])
			keep := single(bm2, key)
			e.live[c.k>>6] &^= uint64(b2u(keep)) << (c.k & 63) // acked: no longer pending
			t := key % g
			G := dv.div(c.x)
			var j uint32
			if split {
				j = uint32(gv.div(c.x - G*d))
			}
			k3[m2] = int32((j*g+t)*g + uint32(G))
			if degrees {
				u := int32(b2u(keep))
				e.srcDeg[dv.div(c.k)] -= u
				e.tmpDeg[t] -= u
			}
			m2 += int(b2u(keep))
		}
	}
	conf[1] += c2
	clearKeys(bm2, keys)
	k3 = k3[:m2]
	bounds = []int{0, m2}
	if shift, parts := partShift(len(bm3)); parts > 1 {
		_, k3, bounds = e.partition(nil, k3, shift, parts)
	}
	for p := 1; p < len(bounds); p++ {
		part := k3[bounds[p-1]:bounds[p]]
		if split {
			for _, key := range part {
				conf[4+int(uint32(key)/gg)] += int(bump(bm3, uint32(key)))
			}
		} else {
			c := 0
			for _, key := range part {
				c += int(bump(bm3, uint32(key)))
			}
			conf[4] += c
		}
		for _, key := range part {
			lost += 1 - int(b2u(single(bm3, uint32(key))))
		}
	}
	clearKeys(bm3, k3)
	return m2, lost
}

// partBytes is the size of counters above which countSlots splits the
// copies by part: about half an L2 cache. A variable so that tests can
// force the split on small shapes.
var partBytes = 256 << 10

// partShift returns how countSlots splits counters of words 64-bit words:
// by key >> shift into parts parts of at most partBytes (parts = 1: not
// split).
func partShift(words int) (shift uint, parts int) {
	if 8*words <= partBytes {
		return 0, 1
	}
	keyBits := uint(bits.Len(uint(32*words - 1))) // 32 counters a word
	partBits := uint(bits.Len(uint((8*words - 1) / partBytes)))
	return keyBits - partBits, 1 << partBits
}

// partition counting-sorts keys (and surv beside them, if not nil) by
// key >> shift into e.bucket and e.keys2 and returns them with the parts'
// bounds (parts + 1 offsets).
func (e *Engine) partition(surv []copyAt, keys []int32, shift uint, parts int) ([]copyAt, []int32, []int) {
	n := len(keys)
	e.keys2 = grow(e.keys2, max(n, cap(e.keys2)))
	outk := e.keys2[:n]
	var outs []copyAt
	if surv != nil {
		e.bucket = grow(e.bucket, max(n, cap(e.bucket)))
		outs = e.bucket[:n]
	}
	e.bounds = grow(e.bounds, parts+1)
	b := e.bounds
	clear(b)
	for _, k := range keys {
		b[uint32(k)>>shift+1]++
	}
	for p := 1; p <= parts; p++ {
		b[p] += b[p-1]
	}
	next := e.next[:0]
	next = append(next, b[:parts]...)
	for i, k := range keys {
		p := uint32(k) >> shift
		j := next[p]
		outk[j] = k
		if surv != nil {
			outs[j] = surv[i]
		}
		next[p]++
	}
	e.next = next
	return outs, outk, b
}

// clearKeys zeroes the counters of keys in bm: word by word when there are
// few, else the whole array.
func clearKeys(bm []uint64, keys []int32) {
	if len(keys) >= len(bm)/4 {
		clear(bm)
		return
	}
	for _, key := range keys {
		bm[uint32(key)>>5] = 0
	}
}
