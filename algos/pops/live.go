package pops

import (
	"encoding/binary"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"
	"sync"

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
// A step is three passes over the copies:
//
//   - slot 1, source group by source group: the group's participants and
//     their intermediate groups r (drawn there when every pending packet
//     takes part, else by chooseLive), a counter per r (L1-resident), and
//     each survivor written as a rec (processor, slot-2 coupler, delivery
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
//
// With e.Workers ≥ 2 (lanes) each pass is split between goroutines: slot 1
// by ranges of source groups, slot 2 and delivery by ranges of parts, each
// lane writing to regions of its own; in the steps without a coin each lane
// draws its groups' intermediate groups itself from the PCG advanced past
// the draws of the groups before it (one draw per packet, g a power of
// two), so the draws are the same numbers.
//
// With shuffle set (ShuffleRunPCG), dst is first shuffled from src as
// ShuffleInto does it — with lanes and a first step without a coin,
// during that step's slot 1 (shuffleSlot1).
func (e *Engine) runLive(sh pops.Shape, dst []int32, rng *rand.Rand, src *rand.PCG, o Options, shuffle bool) (Result, error) {
	o, err := checkRun(sh, dst, o)
	if err != nil {
		return Result{}, err
	}
	n, g := sh.N(), sh.G
	dv, gv := newDivisor(sh.D), newDivisor(g)
	e.live = grow(e.live, (n+63)/64) // set by initLive
	e.srcDeg = grow(e.srcDeg, g)
	e.tmpDeg = grow(e.tmpDeg, g)
	clear(e.srcDeg)
	clear(e.tmpDeg)
	nsub := o.Variant.DeliverySlots(sh)
	e.bm2 = growZero(e.bm2, (2*g*g+63)/64)
	e.bm3 = growZero(e.bm3, (2*nsub*g*g+63)/64)
	e.layout(sh, nsub, e.lanesFor(sh, src))
	// overlap: the shuffle goes with step 1's slot 1 (shuffleSlot1).
	overlap := shuffle && len(e.lanes) > 1 && o.MaxSteps >= 1 && o.participation(sh, 1) >= 1 && n >= 2*shuffleChunk
	switch {
	case shuffle && !overlap && len(e.lanes) > 1:
		ShuffleIntoPipelined(dst, src)
	case shuffle && !overlap:
		ShuffleInto(dst, src)
	}
	res := Result{Conflicts: make([]int, o.Variant.SlotsPerStep(sh))}
	c := &slotCtx{dst: dst, dv: dv, gv: gv, nv: newDivisor(nsub), d: int32(sh.D), g: uint32(g), nsub: uint32(nsub), split: o.Variant == SplitDelivery}
	m := 0 // pending packets
	if overlap {
		m = e.initPerm(sh)
	} else {
		e.each(c, opInit)
		for w := range e.lanes {
			l := &e.lanes[w]
			m += l.acked // initLive's count
			for a, x := range l.dsrc {
				e.srcDeg[a] += x
			}
			for t, x := range l.dtmp {
				e.tmpDeg[t] += x
			}
			clear(l.dsrc)
			clear(l.dtmp)
		}
	}
	step := 0
	for m > 0 && step < o.MaxSteps {
		step++
		if o.trace(step) {
			res.MaxDegree = append(res.MaxDegree, max(maxOf(e.srcDeg), maxOf(e.tmpDeg)))
		}
		// The degrees of the conflict graph are read only at the start of
		// a traced step.
		c.degrees = o.trace(step + 1)
		e.resetLanes(nsub)
		if p := o.participation(sh, step); p >= 1 {
			// choose's draws for p = 1: every pending packet, in order.
			switch {
			case overlap && step == 1:
				e.shuffleSlot1(c, src)
			case len(e.lanes) > 1:
				e.laneStates(src, m, sh.D)
				e.each(c, opSlot1All)
			case src != nil:
				l := &e.lanes[0]
				l.ps = pcgstate.Load(src)
				l.slot1All(e, c, nil)
				l.ps.Store(src)
			default:
				e.lanes[0].slot1All(e, c, rng)
			}
		} else {
			// The participants are appended: about p·m of them.
			if want := int(p*float64(m)*1.1) + 64; cap(e.part) < want {
				e.part, e.groups = make([]int32, 0, want), make([]int32, 0, want)
			}
			if src != nil {
				// The draws first; each lane then maps its participants'
				// pending indices to processors.
				ps := pcgstate.Load(src)
				ks, groups := e.drawCoins(&ps, g, p, m)
				ps.Store(src)
				e.part, e.groups = ks[:0], groups[:0] // kept if append grew them
				for w := range e.lanes {
					l := &e.lanes[w]
					l.below = 0
					if w > 0 {
						l.below = e.pendingBelow(l.a0 * sh.D)
					}
					lo := sort.Search(len(ks), func(i int) bool { return int(ks[i]) >= l.below })
					hi := len(ks)
					if w+1 < len(e.lanes) {
						next := e.pendingBelow(l.a1 * sh.D)
						hi = sort.Search(len(ks), func(i int) bool { return int(ks[i]) >= next })
					}
					l.part, l.groups = ks[lo:hi], groups[lo:hi]
				}
				e.each(c, opSlot1Coins)
			} else {
				part, groups := e.chooseLive(rng, g, p, m)
				e.part, e.groups = part[:0], groups[:0]
				l := &e.lanes[0] // one lane: Run draws from a rand.Rand
				l.part, l.groups = part, groups
				l.slot1Part(e, c)
			}
		}
		e.each(c, opSlot2)
		e.each(c, opDeliver)
		acked := 0
		for w := range e.lanes {
			l := &e.lanes[w]
			res.Conflicts[0] += l.c1
			res.Conflicts[1] += l.c2
			for j, x := range l.c5 {
				res.Conflicts[4+j] += x
			}
			res.Lost += l.lost
			acked += l.acked
			if c.degrees && len(e.lanes) > 1 {
				for a, x := range l.dsrc {
					e.srcDeg[a] -= x
				}
				for t, x := range l.dtmp {
					e.tmpDeg[t] -= x
				}
				clear(l.dsrc)
				clear(l.dtmp)
			}
		}
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

// initLive sets the lane's words of e.live from the destinations (bit p
// set where dst[p] is not perm.None), counts their packets in l.acked and
// their degrees in the conflict graph in l.dsrc and l.dtmp (to be added).
func (l *lane) initLive(e *Engine, c *slotCtx) {
	n := len(c.dst)
	m := 0
	for wi := l.w0; wi < l.w1; wi++ {
		var w uint64
		base := wi << 6
		for p, x := range c.dst[base:min(base+64, n)] {
			if x != perm.None {
				w |= 1 << p
				l.dtmp[c.gv.mod(x)]++
			}
		}
		e.live[wi] = w
		m += bits.OnesCount64(w)
	}
	// Per source group, from the bitmap: the groups may straddle words.
	d := int(c.d)
	for a := (l.w0 << 6) / d; a < len(l.dsrc) && a*d < l.w1<<6; a++ {
		lo, hi := max(a*d, l.w0<<6), min((a+1)*d, l.w1<<6, n)
		l.dsrc[a] += int32(e.pendingBetween(lo, hi))
	}
	l.acked = m
}

// initPerm is initLive, and the degrees of the conflict graph, for dst a
// permutation of 0…n−1 (ShuffleRunPCG's, before it is drawn): every
// processor has a packet, and every source group and every temporary
// group n/g = d of them. Returns n.
func (e *Engine) initPerm(sh pops.Shape) int {
	n := sh.N()
	for i := range e.live {
		e.live[i] = ^uint64(0)
	}
	if n&63 != 0 {
		e.live[len(e.live)-1] = 1<<(n&63) - 1
	}
	for a := range e.srcDeg {
		e.srcDeg[a] = int32(sh.D)
	}
	for t := range e.tmpDeg {
		e.tmpDeg[t] = int32(sh.D)
	}
	return n
}

// pendingBetween counts the pending packets of processors lo…hi−1.
func (e *Engine) pendingBetween(lo, hi int) int {
	c := 0
	for wi := lo >> 6; wi<<6 < hi; wi++ {
		w := e.live[wi]
		if wi == lo>>6 {
			w &= ^uint64(0) << (lo & 63)
		}
		if (wi+1)<<6 > hi {
			w &= 1<<(hi&63) - 1
		}
		c += bits.OnesCount64(w)
	}
	return c
}

// maxLanes bounds Engine.Workers.
const maxLanes = 64

// lanesFor is the number of lanes of a run: Workers (at most maxLanes and
// g) where the lanes can draw the steps without a coin themselves — from a
// PCG (RunPCG), with one draw per packet (g a power of two) — and the
// parts' counters never share a word (g ≥ 32); else 1.
func (e *Engine) lanesFor(sh pops.Shape, src *rand.PCG) int {
	w := min(e.Workers, maxLanes, sh.G)
	if w < 2 || src == nil || sh.G&(sh.G-1) != 0 || sh.G < 32 {
		return 1
	}
	return w
}

// slotCtx is a run's constants for the passes of a step.
type slotCtx struct {
	dst        []int32
	dv, gv, nv divisor // d, g, and the number of delivery sub-slots
	d          int32
	g, nsub    uint32
	split      bool
	degrees    bool // this step updates the degrees of the conflict graph
}

// rec is a slot-1 survivor: its processor (source), its slot-2 coupler
// r·g + t and its delivery coupler (t·nsub + j)·g + G, where t = x mod g,
// G = ⌊x/d⌋ and j is x's sub-slot (0 unless split), x its destination.
type rec struct {
	p      int32
	k2, k3 uint32
}

// lane is one goroutine's share of a step: source groups a0…a1−1 in slot
// 1, slot-2 parts q0…q1−1, delivery parts u0…u1−1 and (lanes > 1) the
// words w0…w1−1 of e.live into which the acks are merged; its buffers,
// regions, generator state and counts.
type lane struct {
	a0, a1, q0, q1, u0, u1, w0, w1 int

	cnt, gp, gr, gx []int32 // per source group: counters, participants, groups, destinations
	part, groups    []int32 // coin steps: this lane's participants and groups
	below           int     // coin steps: pending packets before processor a0·d
	// This lane's region in each slot-2 part (start2[q] … start2[q] + its
	// bound) and each delivery part, and their next free slots.
	start2, fill2, start3, fill3 []int32
	ack                          []uint64 // lanes > 1: packets acked in slot 2
	dsrc, dtmp                   []int32  // degrees to subtract (c.degrees)
	ps                           pcgstate.State

	c1, c2, acked, lost int
	c5                  []int // conflicts per delivery sub-slot
}

// layout sizes the parts of slot 2 (by intermediate group, R of them a
// part) and of delivery (by temporary group, T a part) so that a part's
// counters take at most partBytes, splits the work among w lanes and
// places the regions of their records: lane l's region in slot-2 part q
// holds R·(its source groups) records, in delivery part u T·(the
// intermediate groups of its slot-2 parts) records, plus one each.
func (e *Engine) layout(sh pops.Shape, nsub, w int) {
	g, d, n := sh.G, sh.D, sh.N()
	// 2-bit counters: a group's couplers take g/4 bytes in slot 2 and
	// nsub·g/4 in delivery.
	R := max(1, min(g, 4*partBytes/g))
	T := max(1, min(g, 4*partBytes/(nsub*g)))
	np2, np3 := (g+R-1)/R, (g+T-1)/T
	e.span2, e.span3 = uint32(R*g), uint32(T*nsub*g)
	e.of2, e.of3 = grow(e.of2, g), grow(e.of3, g)
	for k := range g {
		e.of2[k], e.of3[k] = uint16(k/R), uint16(k/T)
	}
	if cap(e.lanes) < w {
		e.lanes = make([]lane, w)
	}
	e.lanes = e.lanes[:w]
	words := (n + 63) / 64
	for i := range e.lanes {
		l := &e.lanes[i]
		l.a0, l.a1 = i*g/w, (i+1)*g/w
		l.q0, l.q1 = i*np2/w, (i+1)*np2/w
		l.u0, l.u1 = i*np3/w, (i+1)*np3/w
		l.w0, l.w1 = i*words/w, (i+1)*words/w
		l.cnt = grow(l.cnt, g)
		clear(l.cnt)
		l.gp, l.gr, l.gx = grow(l.gp, d), grow(l.gr, d), grow(l.gx, d)
		l.start2, l.fill2 = grow(l.start2, np2), grow(l.fill2, np2)
		l.start3, l.fill3 = grow(l.start3, np3), grow(l.fill3, np3)
		l.dsrc, l.dtmp = grow(l.dsrc, g), grow(l.dtmp, g)
		clear(l.dsrc)
		clear(l.dtmp)
		l.c5 = grow(l.c5, nsub)
		if w > 1 {
			l.ack = growZero(l.ack, words)
		}
	}
	off := 0
	for q := range np2 {
		for i := range e.lanes {
			l := &e.lanes[i]
			l.start2[q] = int32(off)
			off += R*(l.a1-l.a0) + 1
		}
	}
	e.recs = grow(e.recs, off)
	off = 0
	for u := range np3 {
		for i := range e.lanes {
			l := &e.lanes[i]
			rs := min(l.q1*R, g) - min(l.q0*R, g) // intermediate groups of its slot-2 parts
			l.start3[u] = int32(off)
			off += T*rs + 1
		}
	}
	e.k3s = grow(e.k3s, off)
}

// resetLanes empties every region and zeroes the counts.
func (e *Engine) resetLanes(nsub int) {
	for i := range e.lanes {
		l := &e.lanes[i]
		copy(l.fill2, l.start2)
		copy(l.fill3, l.start3)
		l.c1, l.c2, l.acked, l.lost = 0, 0, 0, 0
		clear(l.c5[:nsub])
	}
}

// The passes of a step that the lanes share out (each).
const (
	opInit = iota
	opSlot1All
	opSlot1Coins
	opSlot2
	opDeliver
)

// each runs pass op for every lane, lane 0 on the calling goroutine, and
// waits.
func (e *Engine) each(c *slotCtx, op int) {
	if len(e.lanes) == 1 {
		e.pass(&e.lanes[0], c, op)
		return
	}
	var wg sync.WaitGroup
	for i := 1; i < len(e.lanes); i++ {
		wg.Go(func() { e.pass(&e.lanes[i], c, op) })
	}
	e.pass(&e.lanes[0], c, op)
	wg.Wait()
}

func (e *Engine) pass(l *lane, c *slotCtx, op int) {
	switch op {
	case opInit:
		l.initLive(e, c)
	case opSlot1All:
		l.slot1All(e, c, nil)
	case opSlot1Coins:
		e.mapLive(l.part, l.below, l.a0*int(c.d))
		l.slot1Part(e, c)
	case opSlot2:
		l.slot2(e, c)
	case opDeliver:
		l.deliver(e, c)
	}
}

// laneStates gives each lane, for a step in which all m pending packets
// draw one number each (in increasing order), src's state after the draws
// of the packets before its first source group, and leaves src after all
// m draws.
func (e *Engine) laneStates(src *rand.PCG, m, d int) {
	hi, lo := pcgState(src)
	for i := range e.lanes {
		l := &e.lanes[i]
		k := uint64(e.pendingBelow(l.a0 * d))
		if i > 0 {
			k += laneSkew
		}
		h, w := pcgAdvance(hi, lo, k)
		l.ps = pcgstate.Load(rand.NewPCG(h, w))
	}
	src.Seed(pcgAdvance(hi, lo, uint64(m)))
}

// laneSkew is a planted fault for the tests: lanes after the first start
// that many draws late. Zero.
var laneSkew uint64

// pendingBelow counts the pending packets of processors 0…x−1.
func (e *Engine) pendingBelow(x int) int {
	c := 0
	for _, w := range e.live[:x>>6] {
		c += bits.OnesCount64(w)
	}
	if x&63 != 0 {
		c += bits.OnesCount64(e.live[x>>6] & (1<<(x&63) - 1))
	}
	return c
}

// pcgState reads a rand.PCG's 128-bit state (its binary encoding).
func pcgState(src *rand.PCG) (hi, lo uint64) {
	var buf [20]byte
	b, err := src.AppendBinary(buf[:0])
	if err != nil || len(b) != 20 {
		panic("pops: cannot read the PCG's state")
	}
	return binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])
}

// pcgAdvance is the state of math/rand/v2's PCG after k more draws: its
// LCG s ← a·s + c (mod 2^128) applied k times, in O(log k) steps (Brown,
// "Random number generation with arbitrary strides", 1994).
func pcgAdvance(hi, lo, k uint64) (uint64, uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	mul := func(ah, al, bh, bl uint64) (uint64, uint64) {
		h, l := bits.Mul64(al, bl)
		return h + ah*bl + al*bh, l
	}
	add := func(ah, al, bh, bl uint64) (uint64, uint64) {
		l, c := bits.Add64(al, bl, 0)
		h, _ := bits.Add64(ah, bh, c)
		return h, l
	}
	accMh, accMl, accPh, accPl := uint64(0), uint64(1), uint64(0), uint64(0)
	curMh, curMl, curPh, curPl := uint64(mulHi), uint64(mulLo), uint64(incHi), uint64(incLo)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			accMh, accMl = mul(accMh, accMl, curMh, curMl)
			accPh, accPl = mul(accPh, accPl, curMh, curMl)
			accPh, accPl = add(accPh, accPl, curPh, curPl)
		}
		h, l := add(curMh, curMl, 0, 1)
		curPh, curPl = mul(h, l, curPh, curPl)
		curMh, curMl = mul(curMh, curMl, curMh, curMl)
	}
	hi, lo = mul(accMh, accMl, hi, lo)
	return add(hi, lo, accPh, accPl)
}

// slot1All is the lane's slot 1 in a step in which every pending packet
// takes part: source group by source group, its pending processors (from
// e.live) draw their intermediate groups in increasing order — from
// rng.IntN(g) if rng is not nil, else the same draws from l.ps — and the
// survivors are recorded (survivors).
func (l *lane) slot1All(e *Engine, c *slotCtx, rng *rand.Rand) {
	l.slot1Groups(e, c, rng, l.a0, l.a1)
}

// slot1Groups is slot1All for the lane's source groups a0…a1−1 only.
func (l *lane) slot1Groups(e *Engine, c *slotCtx, rng *rand.Rand, a0, a1 int) {
	g := int(c.g)
	mask := uint64(g - 1)
	pow2 := g&(g-1) == 0
	d := int(c.d)
	ps := l.ps // in registers while drawing
	for a := a0; a < a1; a++ {
		gp := e.pendingIn(l.gp[:0], a*d, (a+1)*d)
		if len(gp) == 0 {
			continue
		}
		gr := l.gr[:len(gp)]
		switch {
		case rng != nil:
			for j := range gr {
				gr[j] = int32(rng.IntN(g))
			}
		case pow2:
			for j := range gr {
				var u uint64
				ps, u = ps.Next()
				gr[j] = int32(u & mask)
			}
		default:
			for j := range gr {
				var u uint64
				ps, u = ps.UintN(uint64(g))
				gr[j] = int32(u)
			}
		}
		l.c1 += l.survivors(e, c, gp, gr, false)
	}
	l.ps = ps
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

// slot1Part is the lane's slot 1 for its participants l.part (processors
// in increasing order, chooseLive's) with intermediate groups l.groups:
// each source group is a contiguous run, resolved by survivors.
func (l *lane) slot1Part(e *Engine, c *slotCtx) {
	part, groups := l.part, l.groups
	for lo := 0; lo < len(part); {
		end := (c.dv.div(part[lo]) + 1) * c.d
		hi := lo + 1
		for hi < len(part) && part[hi] < end {
			hi++
		}
		l.c1 += l.survivors(e, c, part[lo:hi], groups[lo:hi], true)
		lo = hi
	}
}

// survivors resolves slot 1 for one source group's participants gp with
// intermediate groups gr (both overwritten; sparse: a coin step's): a copy survives when no other
// participant of the group chose its r. Each survivor's rec goes to the
// lane's region of r's slot-2 part. Returns the conflicting couplers;
// leaves l.cnt zero.
func (l *lane) survivors(e *Engine, c *slotCtx, gp, gr []int32, sparse bool) (conflicts int) {
	cnt := l.cnt
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
	// With a stage-1 coin (sparse) the survivors' destinations are read
	// in a loop of their own: each is mostly a cache line of its own, and
	// a short loop keeps more of these misses in flight. Without, they
	// are read in order.
	xs := l.gx[:k]
	if sparse {
		for j, p := range gp[:k] {
			xs[j] = c.dst[p]
		}
	}
	recs, of, fill := e.recs, e.of2, l.fill2
	for j, p := range gp[:k] {
		r := gr[j]
		var x int32
		if sparse {
			x = xs[j]
		} else {
			x = c.dst[p]
		}
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

// slot2 resolves the lane's slot-2 parts: a copy survives when it is alone
// on its coupler (r, t); its source is acked and leaves the conflict graph
// (its bit of e.live is cleared, or with lanes set in l.ack; with
// c.degrees it is counted in l.dsrc and l.dtmp), and its delivery coupler
// goes to the lane's region of t's delivery part. Leaves the counters
// zero.
func (l *lane) slot2(e *Engine, c *slotCtx) {
	bm, recs := e.bm2, e.recs
	of3, fill3, k3s := e.of3, l.fill3, e.k3s
	// One lane clears the acked packets' bits and their degrees itself;
	// lanes mark them in l.ack and count them in l.dsrc and l.dtmp.
	mark, dsrc, dtmp, sign := e.live, e.srcDeg, e.tmpDeg, int32(-1)
	own := len(e.lanes) == 1
	if !own {
		mark, dsrc, dtmp, sign = l.ack, l.dsrc, l.dtmp, 1
	}
	c2, acked := 0, 0
	for q := l.q0; q < l.q1; q++ {
		total := 0
		for v := range e.lanes {
			part := recs[e.lanes[v].start2[q]:e.lanes[v].fill2[q]]
			total += len(part)
			for i := range part {
				c2 += int(bump(bm, part[i].k2))
			}
		}
		for v := range e.lanes {
			part := recs[e.lanes[v].start2[q]:e.lanes[v].fill2[q]]
			for i := range part {
				r := &part[i]
				keep := b2u(single(bm, r.k2))
				bit := uint64(keep) << (r.p & 63)
				if own {
					mark[r.p>>6] &^= bit // acked: no longer pending
				} else {
					mark[r.p>>6] |= bit
				}
				t := c.gv.mod(int32(r.k2))
				if c.degrees {
					dsrc[c.dv.div(r.p)] += sign * int32(keep)
					dtmp[t] += sign * int32(keep)
				}
				u := of3[t]
				j := fill3[u]
				k3s[j] = r.k3
				fill3[u] = j + int32(keep)
				acked += int(keep)
			}
		}
		lo := uint32(q) * e.span2
		clearRange(bm, total, lo, lo+e.span2, func(yield func(uint32) bool) {
			for v := range e.lanes {
				for _, r := range recs[e.lanes[v].start2[q]:e.lanes[v].fill2[q]] {
					if !yield(r.k2) {
						return
					}
				}
			}
		})
	}
	l.c2, l.acked = c2, acked
}

// deliver resolves the lane's delivery parts: a copy is lost when another
// copy sent in its sub-slot j from its temporary group t has its
// destination group; l.c5[j] counts the conflicting couplers of sub-slot
// j. With lanes, it then merges the lanes' acks into its words of e.live.
// Leaves the counters zero.
func (l *lane) deliver(e *Engine, c *slotCtx) {
	bm := e.bm3
	lost := 0
	for u := l.u0; u < l.u1; u++ {
		total := 0
		for v := range e.lanes {
			part := e.k3s[e.lanes[v].start3[u]:e.lanes[v].fill3[u]]
			total += len(part)
			if c.split {
				for _, key := range part {
					l.c5[c.nv.mod(c.gv.div(int32(key)))] += int(bump(bm, key))
				}
			} else {
				n := 0
				for _, key := range part {
					n += int(bump(bm, key))
				}
				l.c5[0] += n
			}
		}
		for v := range e.lanes {
			for _, key := range e.k3s[e.lanes[v].start3[u]:e.lanes[v].fill3[u]] {
				lost += 1 - int(b2u(single(bm, key)))
			}
		}
		lo := uint32(u) * e.span3
		clearRange(bm, total, lo, lo+e.span3, func(yield func(uint32) bool) {
			for v := range e.lanes {
				for _, key := range e.k3s[e.lanes[v].start3[u]:e.lanes[v].fill3[u]] {
					if !yield(key) {
						return
					}
				}
			}
		})
	}
	l.lost = lost
	if len(e.lanes) > 1 {
		for i := l.w0; i < l.w1; i++ {
			var a uint64
			for v := range e.lanes {
				a |= e.lanes[v].ack[i]
				e.lanes[v].ack[i] = 0
			}
			e.live[i] &^= a
		}
	}
}

// clearRange zeroes the counters of a part's n keys (all in [lo, hi)) in
// bm: word by word when there are few, else every word of the range.
func clearRange(bm []uint64, n int, lo, hi uint32, keys iter.Seq[uint32]) {
	if words := int((hi+31)>>5 - lo>>5); n >= words/4 {
		clear(bm[lo>>5 : min(int((hi+31)>>5), len(bm))])
		return
	}
	for k := range keys {
		bm[k>>5] = 0
	}
}

// partBytes is the size of counters above which slot 2 and delivery split
// the copies into parts: about a quarter of the L2 cache. A variable so
// that tests can force the split on small shapes.
var partBytes = 256 << 10

// drawCoins is chooseLive's draws from a PCG's state directly: the same
// draws (expFloat64 is rand.Rand.ExpFloat64, ps.IntN rand.Rand.IntN) in
// the same order; it returns the participants' pending indices k
// (choose's), in increasing order, in e.part, and their groups in
// e.groups. mapLive maps the indices to processors.
func (e *Engine) drawCoins(ps *pcgstate.State, g int, p float64, m int) ([]int32, []int32) {
	part, groups := e.part[:0], e.groups[:0]
	lambda := -math.Log1p(-p)
	st := *ps // in registers while drawing (pcgstate.State.Next)
	pow2, mask := g&(g-1) == 0, uint64(g-1)
	k := -1
	for {
		// expFloat64, its ziggurat's first try inline (expFrom).
		var u uint64
		st, u = st.Next()
		j, i := uint32(u), uint8(u>>32)
		x := float64(j) * float64(zigWe[i])
		if j >= zigKe[i] && !coinsFastOnly {
			st, x = expFrom(st, u)
		}
		// choose's gap = ⌊E/λ⌋, compared with the integer m−k−1: for
		// q ≥ 0, ⌊q⌋ ≥ M exactly when q ≥ M, and below that ⌊q⌋ is q
		// truncated (no call to math.Floor).
		q := x / lambda
		if q >= float64(m-k-1) {
			*ps = st
			return part, groups
		}
		k += int(q) + 1
		part = append(part, int32(k))
		var r uint64
		if pow2 {
			st, r = st.Next()
			r &= mask
		} else {
			st, r = st.UintN(uint64(g))
		}
		groups = append(groups, int32(r))
	}
}

// coinsFastOnly is a planted fault for the tests: drawCoins keeps the
// ziggurat's first try even when it fails (no call to expFrom). False.
var coinsFastOnly bool

// mapLive replaces increasing pending indices ks, all ≥ below, by their
// processors (the k-th set bit of e.live, counting from 0), given that
// below packets are pending before processor from. The selections do not
// wait on each other.
func (e *Engine) mapLive(ks []int32, below, from int) {
	if len(ks) == 0 {
		return
	}
	live := e.live
	wi := from >> 6
	// below counts the pending packets before word wi.
	below -= bits.OnesCount64(live[wi] & (1<<(from&63) - 1))
	c := bits.OnesCount64(live[wi])
	for i, k := range ks {
		for int(k) >= below+c {
			below += c
			wi++
			c = bits.OnesCount64(live[wi])
		}
		ks[i] = int32(wi<<6 | select64(live[wi], int(k)-below))
	}
}

// expFloat64 is rand.Rand.ExpFloat64 (math/rand/v2, exp.go) on ps: the
// same ziggurat, tables (ziggurat_tables.go) and draws.
func expFloat64(ps *pcgstate.State) float64 {
	var (
		u uint64
		x float64
	)
	*ps, u = ps.Next()
	*ps, x = expFrom(*ps, u)
	return x
}

// expFrom is expFloat64 after its first draw u: the ziggurat's loop from
// u on, drawing what it needs more from st. Loops inline the first try
// (u's fast case, about 99 % of the draws) and call expFrom for the rest.
func expFrom(st pcgstate.State, u uint64) (pcgstate.State, float64) {
	const re = 7.69711747013104972
	for {
		j := uint32(u)
		i := uint8(u >> 32)
		x := float64(j) * float64(zigWe[i])
		if j < zigKe[i] {
			return st, x
		}
		var v uint64
		st, v = st.Next()
		if i == 0 {
			return st, re - math.Log(float64(v<<11>>11)/(1<<53))
		}
		if zigFe[i]+float32(float64(v<<11>>11)/(1<<53))*(zigFe[i-1]-zigFe[i]) < float32(math.Exp(-x)) {
			return st, x
		}
		st, u = st.Next()
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
	b := uint(bits.OnesCount64(((uint64(r)*l8|h8)-s)&h8)) * 8
	// s<<8>>b & 0xff: the set bits in bytes 0…b/8−1.
	return int(b) + int(selectInByte[(uint(r)-uint(s<<8>>b)&0xff)<<8|uint(w>>b)&0xff])
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
