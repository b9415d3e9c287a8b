package pops

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Engine is the fast path of the randomized router for large networks. It
// computes, step by step, exactly the conflicts of slots 1, 2 and the delivery
// slot(s) that RunOnModel produces on the slot model — with a bitmap of the
// pending packets, counting arrays per group and 2-bit counters per coupler
// instead of messages — and consumes the random stream in the same order,
// so for equal seeds both give equal Results in Steps, Completed, Delivered,
// Lost, Remaining, MaxDegree and the conflicts of slots 1, 2 and delivery
// (see the differential tests). Slots 3 and 4 (acks) are not simulated:
// Proposition 3.2 says they never conflict, and the model-level claims
// check that.
//
// Work per step is O(n/64 + participants + g) plus, in the first steps,
// clearing the per-coupler counters (O(g²/32) words). An Engine reuses its
// buffers between runs: after the first run of a given size, Run allocates
// only the per-step slices of Result. Memory (live.go) is about n/8 +
// 16·g² bytes of bitmap and copy records (g² ≤ n since d ≥ g), at most
// (1 + ⌈d/g⌉)·g²/4 bytes of counters, 12·d + 20·g per lane, and where
// d > g about 8.8·g² for the coin steps' participants (p·m ≈ g² of them)
// and n/8 per lane for the acks when Workers ≥ 2: ≈ 280 MB at n = 2^24,
// d = g (16.6 bytes per packet); ≈ 40 MB at d = 16g; plus the caller's
// destination array. runSorted, the tests' second implementation, uses
// 13·n + 28·min(n, g²) bytes of its own buffers. Not safe for concurrent
// use; use one Engine per goroutine (Workers splits one run's steps).
type Engine struct {
	pending []int32 // runSorted: unacked packet ids, increasing
	part    []int32 // this step's participants (runSorted: indices into pending; Run: processors)
	groups  []int32 // their intermediate groups
	acked   []bool  // pending[k] acked this step
	surv    []copyAt
	bucket  []copyAt
	keys    []int32 // group of surv[i] to bucket by (intermediate, then temporary)
	ord     []int32 // pending indices of slot 1's survivors, increasing
	scratch []int32 // per-copy temporary or destination group of a bucket pass
	cnt     []int32 // per-group counters, always zero between uses
	start   []int32 // counting-sort offsets, g+1
	srcDeg  []int32
	tmpDeg  []int32
	// The counting path's state: 2-bit saturating counters (0, 1, ≥ 2)
	// per slot-2 coupler (intermediate group, temporary group) and per
	// delivery coupler (sub-slot, temporary group, destination group),
	// always zero between steps.
	bm2, bm3 []uint64
	live     []uint64 // Run's pending packets: bit p set while p is unacked
	// Run's per-step state (live.go): the lanes, each a goroutine's share
	// of a step; slot 1's survivors in the regions of their slot-2 parts;
	// the acked copies' delivery couplers in the regions of their delivery
	// parts; the parts of each intermediate and temporary group, and the
	// couplers per part.
	lanes        []lane
	recs         []rec
	k3s          []uint32
	of2, of3     []uint16
	span2, span3 uint32
	// Workers ≥ 2 splits every step of Run and RunPCG between that many
	// goroutines (at most 64 and g) where the draws allow it — RunPCG
	// with g a power of two ≥ 32 — with the same draws and the same
	// Result as one (TestWorkersMatchOne); 0 or 1: one goroutine.
	Workers int
}

// copyAt is a copy in flight: pending index k and destination x. Its source
// group is pending[k]/d, its temporary group x mod g; the group it is
// bucketed by is kept beside it (Engine.keys) so that the records the
// counting sorts move are 8 bytes.
type copyAt struct{ k, x int32 }

// growZero is grow for buffers that must be zero: a buffer that is kept is
// zero already (the counters are cleared after every step).
func growZero(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// divisor computes x / d and x mod d for 0 ≤ x < 2^31 without a division
// instruction: a mask and a shift for a power of two, else the
// multiply-high method of Lemire, Kaser and Kurz ("Faster remainder by
// direct computation", 2019: with M = ⌊(2^64 − 1)/d⌋ + 1, x/d = ⌊M·x/2^64⌋
// and x mod d = ⌊(M·x mod 2^64)·d/2^64⌋ for every 32-bit x and d ≥ 2),
// checked against / and % in TestDivisor.
type divisor struct {
	d, m  uint64
	shift uint8
	pow2  bool
}

func newDivisor(d int) divisor {
	if d < 1 {
		panic("pops: divisor must be ≥ 1")
	}
	if d&(d-1) == 0 {
		return divisor{d: uint64(d), shift: uint8(bits.TrailingZeros64(uint64(d))), pow2: true}
	}
	return divisor{d: uint64(d), m: ^uint64(0)/uint64(d) + 1}
}

func (v divisor) div(x int32) int32 {
	if v.pow2 {
		return x >> v.shift
	}
	hi, _ := bits.Mul64(v.m, uint64(uint32(x)))
	return int32(hi)
}

func (v divisor) mod(x int32) int32 {
	if v.pow2 {
		return x & int32(v.d-1)
	}
	hi, _ := bits.Mul64(v.m*uint64(uint32(x)), v.d)
	return int32(hi)
}

// Run routes the partial permutation dst (not modified) on POPS(sh) with the
// randomized router and returns the same Result as RunOnModel except for the
// model-only fields (Conflicts of slots 3–4, MaxMem, Duplicated).
//
// Slots 2 and 5 are resolved with per-coupler counters (2 bits per coupler
// of each slot: g²/4 bytes for slot 2 and ⌈d/g⌉·g²/4 for delivery, at most
// n/2 bytes in all since g² ≤ n), not by sorting the copies by group;
// runSorted is the sorting way, kept as a second implementation for the
// differential tests (TestEngineCountersMatchSorted).
func (e *Engine) Run(sh pops.Shape, dst []int32, rng *rand.Rand, o Options) (Result, error) {
	return e.runLive(sh, dst, rng, nil, o, false)
}

// RunPCG is Run(sh, dst, rand.New(src), o) — the same draws from the same
// stream, the same Result, and src left where that call leaves it
// (TestRunPCGMatchesRun) — with every draw made from src directly
// (internal/pcgstate; the coins by expFloat64) instead of through
// rand.Rand's interface. Only RunPCG can split steps between lanes
// (Engine.Workers).
func (e *Engine) RunPCG(sh pops.Shape, dst []int32, src *rand.PCG, o Options) (Result, error) {
	return e.runLive(sh, dst, rand.New(src), src, o, false)
}

// ShuffleRunPCG is ShuffleInto(dst, src) followed by RunPCG(sh, dst, src,
// o): the same permutation left in dst, the same Result and src left in
// the same place (TestShuffleRunPCG) — a lone run of Table II's kind on
// two cores. With two lanes or more (Workers) and a first step in which
// every packet takes part (d = g, or d < g with Options.OutOfScope), the
// first step's slot 1 starts during the shuffle (shuffleSlot1): the
// Fisher–Yates swaps from the top finalise the source groups from the top
// down, and the goroutine that draws the swaps resolves each group's slot 1
// once its processors' destinations are final, instead of waiting. Else
// it shuffles (ShuffleIntoPipelined with lanes) and then runs. A bad
// argument returns RunPCG's error with dst and src untouched.
func (e *Engine) ShuffleRunPCG(sh pops.Shape, dst []int32, src *rand.PCG, o Options) (Result, error) {
	return e.runLive(sh, dst, rand.New(src), src, o, true)
}

// runSorted is Run as the engine was before the live bitmap and the
// per-coupler counters: a compacted list of pending packets, and slots 2
// and 5 resolved by counting-sorting the copies by intermediate and then
// temporary group (slot2, deliver). It gives the same Result and is kept
// as a second implementation for the differential tests
// (TestEngineCountersMatchSorted).
func (e *Engine) runSorted(sh pops.Shape, dst []int32, rng *rand.Rand, o Options) (Result, error) {
	o, err := checkRun(sh, dst, o)
	if err != nil {
		return Result{}, err
	}
	n, g := sh.N(), sh.G
	dv, gv := newDivisor(sh.D), newDivisor(g)
	e.pending = grow(e.pending, n)[:0]
	e.part = grow(e.part, n)
	e.groups = grow(e.groups, n)
	e.acked = grow(e.acked, n)
	// Slot-1 survivors are at most one per (intermediate, source) group pair.
	e.surv = grow(e.surv, min(n, g*g))
	e.keys = grow(e.keys, min(n, g*g))
	e.ord = grow(e.ord, min(n, g*g))
	e.scratch = grow(e.scratch, min(n, g*g))
	e.cnt = grow(e.cnt, g)
	e.start = grow(e.start, g+1)
	e.srcDeg = grow(e.srcDeg, g)
	e.tmpDeg = grow(e.tmpDeg, g)
	clear(e.cnt)
	clear(e.srcDeg)
	clear(e.tmpDeg)
	nsub := o.Variant.DeliverySlots(sh)
	e.bucket = grow(e.bucket, min(n, g*g))
	for p, x := range dst {
		if x != perm.None {
			e.pending = append(e.pending, int32(p))
			e.srcDeg[dv.div(int32(p))]++
			e.tmpDeg[gv.mod(x)]++
		}
	}
	res := Result{Conflicts: make([]int, o.Variant.SlotsPerStep(sh))}
	step := 0
	for len(e.pending) > 0 && step < o.MaxSteps {
		step++
		if o.trace(step) {
			res.MaxDegree = append(res.MaxDegree, max(maxOf(e.srcDeg), maxOf(e.tmpDeg)))
		}
		pend := e.pending
		acked := e.acked[:len(pend)]
		var part []int32 // nil: every pending packet takes part
		if p := o.participation(sh, step); p >= 1 {
			// choose's draws for p = 1, without the identity index list.
			groups := e.groups[:len(pend)]
			for k := range groups {
				groups[k] = int32(rng.IntN(g))
			}
			e.groups = groups
		} else {
			e.part, e.groups = choose(rng, g, p, len(pend), e.part, e.groups)
			part = e.part
		}
		c1, m1 := e.slot1(pend, part, e.groups, dst, dv)
		res.Conflicts[0] += c1
		// The degrees of the conflict graph are read only at the start of
		// a traced step.
		c2, m := e.slot2(pend, acked, m1, dv, gv, o.trace(step+1))
		res.Conflicts[1] += c2
		for j := range nsub {
			c, lost := e.deliver(e.bucket[:m], dv, gv, o.Variant == SplitDelivery, j)
			res.Conflicts[4+j] += c
			res.Lost += lost
		}
		w := e.compact(pend, acked, m, m1)
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
// Survivors are written to e.surv with their intermediate group in e.keys;
// returns conflicting couplers and the number of survivors.
//
// part nil means every pending packet takes part (participant j is pending
// index j).
func (e *Engine) slot1(pend, part, groups, dst []int32, dv divisor) (conflicts, m int) {
	cnt, surv, keys := e.cnt, e.surv, e.keys
	d := int32(dv.d)
	all := part == nil
	idx := func(j int) int32 {
		if all {
			return int32(j)
		}
		return part[j]
	}
	for lo := 0; lo < len(groups); {
		a := dv.div(pend[idx(lo)])
		end := (a + 1) * d
		hi := lo
		for hi < len(groups) && pend[idx(hi)] < end {
			r := groups[hi]
			cnt[r]++
			if cnt[r] == 2 {
				conflicts++
			}
			hi++
		}
		for j := lo; j < hi; j++ {
			r, k := groups[j], idx(j)
			keep := b2u(cnt[r] == 1)
			// Branch-free keep; a copy that is not kept reads dst[0]
			// (cached) instead of its own entry, which with a stage-1
			// coin is mostly a cache line of its own.
			surv[m] = copyAt{k: k, x: dst[pend[k]&-int32(keep)]}
			keys[m] = r
			e.ord[m] = k
			m += int(keep)
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

// sortByGroup stably counting-sorts in[:m] by keys[:m] into out and leaves
// the bucket offsets in e.start.
func (e *Engine) sortByGroup(keys []int32, in, out []copyAt, g int) {
	start := e.start
	clear(start)
	for _, r := range keys {
		start[r+1]++
	}
	for i := 1; i <= g; i++ {
		start[i] += start[i-1]
	}
	out = out[:len(keys)]
	for i, r := range keys {
		out[start[r]] = in[i]
		start[r]++
	}
	// start[i] is now the end of bucket i; shift back to starts.
	copy(start[1:], start[:g])
	start[0] = 0
}

// slot2 resolves slot 2 per intermediate group r: a copy survives when no
// other copy at group r goes to the same temporary destination group. Its
// source is acked (slots 3–4) and leaves the conflict graph; survivors are
// left in e.bucket keyed by temporary group. With degrees set the acked
// packets leave e.srcDeg and e.tmpDeg. Returns conflicting couplers and the
// number of survivors.
func (e *Engine) slot2(pend []int32, acked []bool, m int, dv, gv divisor, degrees bool) (conflicts, m2 int) {
	g := int(gv.d)
	sorted, surv, keys, tmp := e.bucket[:m], e.surv, e.keys, e.scratch[:m]
	e.sortByGroup(keys[:m], surv[:m], sorted, g)
	for i, c := range sorted {
		tmp[i] = gv.mod(c.x) // temporary group
	}
	cnt := e.cnt
	for r := range g {
		lo, hi := int(e.start[r]), m
		if r+1 < g {
			hi = int(e.start[r+1])
		}
		b, tb := sorted[lo:hi], tmp[lo:hi]
		for _, t := range tb {
			cnt[t]++
			if cnt[t] == 2 {
				conflicts++
			}
		}
		for i, c := range b {
			t := tb[i]
			surv[m2] = c
			keys[m2] = t
			keep := cnt[t] == 1
			acked[c.k] = keep // each packet has at most one copy
			m2 += int(b2u(keep))
		}
		for _, t := range tb {
			cnt[t] = 0
		}
	}
	if degrees {
		for i, c := range surv[:m2] {
			e.srcDeg[dv.div(pend[c.k])]--
			e.tmpDeg[keys[i]]--
		}
	}
	e.sortByGroup(keys[:m2], surv[:m2], e.bucket[:m2], g)
	return conflicts, m2
}

// deliver resolves a delivery (sub-)slot per temporary group t: copies sent
// to the same destination group collide on c(group(π(p)), t) and, their
// originals having been deleted at the slot-4 ack, are lost. With split set
// only copies of sub-slot j are sent. Returns conflicting couplers and losses.
func (e *Engine) deliver(copies []copyAt, dv, gv divisor, split bool, j int) (conflicts, lost int) {
	cnt := e.cnt
	// dg[i]: destination group of copies[i], or −1 if it is not sent now.
	dg := e.scratch[:len(copies)]
	for i, c := range copies {
		G := dv.div(c.x)
		if split && int(gv.div(c.x-G*int32(dv.d))) != j {
			G = -1
		}
		dg[i] = G
	}
	g := int(gv.d)
	for t := range g {
		lo, hi := int(e.start[t]), len(copies)
		if t+1 < g {
			hi = int(e.start[t+1])
		}
		b := dg[lo:hi]
		for _, G := range b {
			if G >= 0 {
				cnt[G]++
				if cnt[G] == 2 {
					conflicts++
				}
			}
		}
		for _, G := range b {
			if G >= 0 && cnt[G] > 1 {
				lost++
			}
		}
		for _, G := range b {
			if G >= 0 {
				cnt[G] = 0
			}
		}
	}
	return conflicts, lost
}

// compactSparse: compact removes few acked packets (fewer than one in
// compactSparse of the pending ones) by moving the runs between them, found
// in e.ord (slot 1's survivors in increasing order, a superset of the acked
// packets); otherwise it makes one branch-free pass. Both give the same
// pending list; a variable so that tests can force either way.
var compactSparse = 16

// compact removes the m acked originals from pend, keeping the order,
// clears acked and returns the new length; m1 is the number of slot 1's
// survivors (e.ord[:m1]).
func (e *Engine) compact(pend []int32, acked []bool, m, m1 int) int {
	if m == 0 {
		return len(pend)
	}
	if m1*compactSparse < len(pend) {
		w, prev := -1, 0
		for _, k := range e.ord[:m1] {
			if !acked[k] {
				continue
			}
			acked[k] = false
			if w < 0 {
				w = int(k)
			} else {
				w += copy(pend[w:], pend[prev+1:k])
			}
			prev = int(k)
		}
		return w + copy(pend[w:], pend[prev+1:])
	}
	// Branch-free pass.
	w := 0
	for k, p := range pend {
		pend[w] = p
		w += 1 - int(b2u(acked[k]))
		acked[k] = false
	}
	return w
}

// checkRun validates Run's arguments and fills o's defaults.
func checkRun(sh pops.Shape, dst []int32, o Options) (Options, error) {
	if err := CheckShape(sh); err != nil {
		return o, err
	}
	if err := o.check(); err != nil {
		return o, err
	}
	if len(dst) != sh.N() {
		return o, errLen(len(dst), sh.N())
	}
	if o.Mutant != NoMutant {
		return o, fmt.Errorf("mutant %q: the fast engine runs only the router as written (use RunOnModel)", o.Mutant)
	}
	return o.fill(sh), nil
}

func errLen(got, n int) error {
	return fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", got, n)
}
