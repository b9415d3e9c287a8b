package sot

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// fast is the fast path of a run: the same node rule as Router + Run, on a
// compact state of its own instead of msot.State and msot.StepInto. A node
// input holds a packet id (−1: empty); a packet's birth step and
// deflections live in per-packet arrays; a bitmap marks the nodes that hold
// a packet and another the processors with packets left to send, so a step
// visits only those nodes, in increasing node order (the order Router reads
// its random numbers in). Injection is first in first out from a cursor per
// list (what Router.pending computes: under every rule the injected packets
// of a list are a prefix of it). Nothing is checked against the model's
// physics here: TestFastMatchesModel runs both paths on random relations
// for every algorithm and compares every packet's delivery step and
// deflections.
type fast struct {
	alg       Algorithm
	rule      rule
	rng       *rand.Rand
	n, nn     int
	row, col  []uint16      // position of node v
	dst       []int32       // per packet: target processor
	born      []int32       // per packet: injection step
	defl      []int32       // per packet: deflections so far
	in        [2][2][]int64 // per buffer and input: packed flights (see pack), −1 empty
	occ       [2][]uint64   // nodes holding a packet, per buffer
	procs     []uint64      // processor nodes with packets left to send
	left      []int         // per processor: packets not yet injected
	own       [][]int32     // greedy: per processor, its packets in order
	cursor    []int         // greedy: next index of own[x]
	lists     [][][]int32   // scheduled: per processor and target
	lcur      [][]int
	cur       int // which buffer holds the current state
	t         int32
	delivered int
	// arrive, if non-nil, receives every packet's delivery step (T after
	// the step that absorbed it); the tests compare it with the model.
	arrive []int32
	// waves, if non-nil (len n), counts the packets injected at step τ < n
	// and delivered undeflected in waves[τ] (FreshWaves).
	waves []int
	// idleK > 1: processors inject only in rounds ⌊t/n⌋ ≡ 0 (mod idleK)
	// (RouteIdle); noInject is set for the steps of the other rounds.
	idleK    int
	noInject bool
	res      Result
	S        [2]entry
	ids      [2]int32
}

// pack is packet id on a link: its id and its target travel together
// (id<<16 | target; n ≤ msot.MaxN < 2^16), so a hop reads no per-packet
// array.
func (f *fast) pack(id int32) int64 { return int64(id)<<16 | int64(f.dst[id]) }

// Node inputs: 0 from the left (InH), 1 from up (InV).
const (
	inLeft = 0
	inUp   = 1
)

// newFast validates the parameters and builds the engine's state for rel
// on SOT(n) at step 0.
func newFast(alg Algorithm, n int, rel []perm.Pair, rng *rand.Rand) (*fast, error) {
	ru, err := ruleOf(alg)
	if err != nil {
		return nil, err
	}
	if alg.Random() && rng == nil {
		return nil, fmt.Errorf("algorithm %s is randomized: it needs a *rand.Rand", alg)
	}
	if n < 2 || n > msot.MaxN {
		return nil, fmt.Errorf("sot: n = %d, allowed 2 ≤ n ≤ %d", n, msot.MaxN)
	}
	if len(rel) > 1<<31-4 {
		return nil, fmt.Errorf("sot: %d packets, at most %d allowed", len(rel), 1<<31-4)
	}
	nn := n * n
	f := &fast{alg: alg, rule: ru, rng: rng, n: n, nn: nn,
		row: make([]uint16, nn), col: make([]uint16, nn),
		dst: make([]int32, len(rel)), born: make([]int32, len(rel)), defl: make([]int32, len(rel)),
		procs: make([]uint64, (nn+63)/64), left: make([]int, n), own: make([][]int32, n)}
	for v := range nn {
		f.row[v], f.col[v] = uint16(v/n), uint16(v%n)
	}
	for b := range 2 {
		for d := range 2 {
			f.in[b][d] = make([]int64, nn)
			for v := range f.in[b][d] {
				f.in[b][d][v] = -1
			}
		}
		f.occ[b] = make([]uint64, (nn+63)/64)
	}
	for k, p := range rel {
		if p.Src < 0 || int(p.Src) >= n || p.Dst < 0 || int(p.Dst) >= n {
			return nil, fmt.Errorf("sot: packet %d goes %d → %d, processors are 0…%d", k, p.Src, p.Dst, n-1)
		}
		f.dst[k] = p.Dst
		f.own[p.Src] = append(f.own[p.Src], int32(k))
	}
	for x, ids := range f.own {
		f.left[x] = len(ids)
		if len(ids) > 0 {
			v := x*n + n - 1 - x
			f.procs[v>>6] |= 1 << (v & 63)
		}
	}
	if ru.scheduled {
		f.lists = make([][][]int32, n)
		f.lcur = make([][]int, n)
		for x, ids := range f.own {
			f.lists[x] = Semisort(n, ids, rel).Lists()
			f.lcur[x] = make([]int, n)
		}
	} else {
		f.cursor = make([]int, n)
	}
	return f, nil
}

// RouteFast routes rel on SOT(n) with alg until every packet is delivered
// or maxSteps steps have passed (maxSteps ≤ 0: DefaultMaxSteps) and returns
// the same Result as Route with Options{MaxSteps: maxSteps} — the same
// decisions, the same random numbers drawn in the same order from rng — on
// the engine's own compact state (no msot.State, no per-step model check,
// no observer or tamper hook). It returns an error for an unknown algorithm,
// a randomized one without rng, n outside [2, msot.MaxN] or a packet whose
// processors lie outside [0, n).
func RouteFast(alg Algorithm, n int, rel []perm.Pair, rng *rand.Rand, maxSteps int) (Result, error) {
	f, err := newFast(alg, n, rel, rng)
	if err != nil {
		return Result{}, err
	}
	return f.run(maxSteps), nil
}

// Trace is RouteFast that also returns, per packet id, the step after
// which it was delivered (0: not delivered within the run) and its
// deflections (at delivery, or so far for a packet still on a link).
func Trace(alg Algorithm, n int, rel []perm.Pair, rng *rand.Rand, maxSteps int) (res Result, arrive, defl []int32, err error) {
	f, err := newFast(alg, n, rel, rng)
	if err != nil {
		return Result{}, nil, nil, err
	}
	f.arrive = make([]int32, len(rel))
	res = f.run(maxSteps)
	return res, f.arrive, f.defl, nil
}

// RouteIdle is RouteFast with processors that inject only in rounds
// (blocks of n steps) ⌊t/n⌋ ≡ 0 (mod k) and inject nothing in the other
// k − 1 of every k rounds, where passing packets still move (k ≤ 1: every
// round, RouteFast itself). It is the run of Route with a tamper that drops
// every injection of those rounds (props/sot's planted fault sotIdleRounds;
// the packet stays pending), on the fast engine: the node decides as
// always (under the literal rules with its own packets, drawing the same
// random numbers) and an own packet's output is then left empty. Its
// errors are RouteFast's.
func RouteIdle(alg Algorithm, n int, rel []perm.Pair, rng *rand.Rand, maxSteps, k int) (Result, error) {
	f, err := newFast(alg, n, rel, rng)
	if err != nil {
		return Result{}, err
	}
	f.idleK = k
	return f.run(maxSteps), nil
}

// run steps until done or maxSteps.
func (f *fast) run(maxSteps int) Result {
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps(f.n, len(f.dst))
	}
	for f.delivered < len(f.dst) && f.res.Steps < maxSteps {
		f.step()
		f.res.Steps++
	}
	f.res.Complete = f.delivered == len(f.dst)
	f.res.Delivered = f.delivered
	return f.res
}

// pending returns up to max packets processor x may send now (first in
// first out) without consuming them.
func (f *fast) pending(x, max int, out []int32) []int32 {
	var list []int32
	var c int
	if f.rule.scheduled {
		y := (x + int(f.t)) % f.n
		list, c = f.lists[x][y], f.lcur[x][y]
	} else {
		list, c = f.own[x], f.cursor[x]
	}
	for k := c; k < len(list) && len(out) < max; k++ {
		out = append(out, list[k])
	}
	return out
}

// consume marks the next packet of processor x's current list injected.
func (f *fast) consume(x int) {
	if f.rule.scheduled {
		f.lcur[x][(x+int(f.t))%f.n]++
	} else {
		f.cursor[x]++
	}
	f.left[x]--
	if f.left[x] == 0 {
		v := x*f.n + f.n - 1 - x
		f.procs[v>>6] &^= 1 << (v & 63)
	}
}

// step performs one step of every node that holds a packet or is a
// processor with packets left, in increasing node order.
func (f *fast) step() {
	cb, nb := f.cur, 1-f.cur
	occ, nocc := f.occ[cb], f.occ[nb]
	procs := f.procs[:len(occ)]
	f.noInject = f.idleK > 1 && (int(f.t)/f.n)%f.idleK != 0
	if f.rule.proto == protoA && !f.rule.literal {
		for w := range occ {
			m := occ[w] | procs[w]
			occ[w] = 0
			for m != 0 {
				v := w<<6 | bits.TrailingZeros64(m)
				m &= m - 1
				f.nodeA(v, cb, nb, nocc)
			}
		}
	} else {
		for w := range occ {
			m := occ[w] | procs[w]
			occ[w] = 0
			for m != 0 {
				v := w<<6 | bits.TrailingZeros64(m)
				m &= m - 1
				f.node(v, cb, nb, nocc)
			}
		}
	}
	f.cur = nb
	f.t++
}

// nodeA is node for protocol a with Greedy-a's processor rule (GreedyA,
// Scheduled), specialized: the packet from up goes down and the one from
// the left right; otherwise a packet from the left turns down in its
// target column; then a processor whose Right output is free injects its
// next packet there. A packet on a link is never at its target (it is
// absorbed on arrival), so going down it is deflected only in its target
// row, going right only in its target column (a self-addressed packet
// injected at its own processor is the exception: both links are good).
func (f *fast) nodeA(v, cb, nb int, nocc []uint64) {
	n := f.n
	i, j := int(f.row[v]), int(f.col[v])
	inL, inU := f.in[cb][inLeft], f.in[cb][inUp]
	L, U := inL[v], inU[v]
	inL[v], inU[v] = -1, -1
	right, down := int64(-1), int64(-1)
	switch {
	case U >= 0:
		down, right = U, L
	case L >= 0:
		if n-1-int(L&0xffff) == j {
			down = L
		} else {
			right = L
		}
	}
	if right < 0 && i+j == n-1 && !f.noInject {
		var buf [1]int32
		if p := f.pending(i, 1, buf[:0]); len(p) == 1 {
			right = f.pack(p[0])
			f.born[p[0]] = f.t
			f.res.Injections++
			f.consume(i)
		}
	}
	if right >= 0 {
		jj := j + 1
		if jj == n {
			jj = 0
		}
		x := int(right & 0xffff)
		if n-1-x == j && x != i {
			f.defl[right>>16]++
			f.res.Deflections++
		}
		if x == i && n-1-x == jj {
			f.deliver(int32(right >> 16))
		} else {
			w := i*n + jj
			f.in[nb][inLeft][w] = right
			nocc[w>>6] |= 1 << (w & 63)
		}
	}
	if down >= 0 {
		ii := i + 1
		if ii == n {
			ii = 0
		}
		x := int(down & 0xffff)
		if x == i && n-1-x != j {
			f.defl[down>>16]++
			f.res.Deflections++
		}
		if x == ii && n-1-x == j {
			f.deliver(int32(down >> 16))
		} else {
			w := ii*n + j
			f.in[nb][inUp][w] = down
			nocc[w>>6] |= 1 << (w & 63)
		}
	}
}

// node decides and moves node v's packets: the rule's decide, with S
// built the same way (from the left, from up, then at a processor the
// packets it adds) and the protocol (rule.protocol for b and c, so the
// random numbers are drawn by the same code in the same order).
func (f *fast) node(v, cb, nb int, nocc []uint64) {
	n := f.n
	i, j := int(f.row[v]), int(f.col[v])
	var S [2]entry   // slot and target, as decide sees them
	var ids [2]int32 // the packets' ids
	k := 0
	inL, inU := f.in[cb][inLeft], f.in[cb][inUp]
	if x := inL[v]; x >= 0 {
		S[k], ids[k] = entry{msot.FromLeft, int32(x & 0xffff)}, int32(x>>16)
		k++
		inL[v] = -1
	}
	if x := inU[v]; x >= 0 {
		S[k], ids[k] = entry{msot.FromUp, int32(x & 0xffff)}, int32(x>>16)
		k++
		inU[v] = -1
	}
	isProc := i+j == n-1
	ru := f.rule
	if isProc && ru.literal && k < 2 {
		for _, id := range f.pending(i, 2-k, f.ids[:0]) {
			S[k], ids[k] = entry{msot.Inject(id), f.dst[id]}, id
			k++
		}
	}
	out := [2]int32{-1, -1} // Right, Down: packet ids
	if k > 0 {
		var first int
		var right bool
		if ru.proto == protoA {
			first, right = 0, true
			found := false
			for q := range k {
				if S[q].slot == msot.FromUp {
					first, right, found = q, false, true
					break
				}
			}
			if !found {
				for q := range k {
					if n-1-int(S[q].dst) == j {
						first, right = q, false
						break
					}
				}
			}
		} else {
			first, right = ru.protocol(n, i, j, S[:k], f.rng)
		}
		a, b := 0, 1 // output of S[first], of the other
		if !right {
			a, b = 1, 0
		}
		out[a] = f.send(S[first].slot, ids[first], i)
		if k == 2 {
			out[b] = f.send(S[1-first].slot, ids[1-first], i)
		}
	}
	if isProc && !ru.literal && out[0] < 0 && !f.noInject {
		if p := f.pending(i, 1, f.ids[:0]); len(p) == 1 {
			out[0] = f.send(msot.Inject(p[0]), p[0], i)
		}
	}
	for d, id := range out {
		if id < 0 {
			continue
		}
		x := int(f.dst[id])
		dx, dy := x-i, n-1-x-j
		if dx < 0 {
			dx += n
		}
		if dy < 0 {
			dy += n
		}
		if dx+dy != 0 && ((d == 0 && dy == 0) || (d == 1 && dx == 0)) {
			f.defl[id]++
			f.res.Deflections++
		}
		var wn, ii, jj int
		if d == 0 {
			ii, jj = i, j+1
			if jj == n {
				jj = 0
			}
		} else {
			ii, jj = i+1, j
			if ii == n {
				ii = 0
			}
		}
		wn = ii*n + jj
		if ii == x && jj == n-1-x {
			f.deliver(id)
			continue
		}
		f.in[nb][d][wn] = int64(id)<<16 | int64(x)
		nocc[wn>>6] |= 1 << (wn & 63)
	}
}

// send returns id, injecting it first (at processor x) if slot says it is
// an own packet; in an idle round (RouteIdle) an own packet is not
// injected and send returns −1 (the output stays empty).
func (f *fast) send(slot msot.Slot, id int32, x int) int32 {
	if slot >= 3 {
		if f.noInject {
			return -1
		}
		f.born[id] = f.t
		f.res.Injections++
		f.consume(x)
	}
	return id
}

// deliver absorbs packet id at the end of the current step.
func (f *fast) deliver(id int32) {
	f.delivered++
	lat := int(f.t) + 1 - int(f.born[id])
	f.res.SumLatency += int64(lat)
	f.res.MaxLatency = max(f.res.MaxLatency, lat)
	if f.defl[id] == 0 && f.born[id] < int32(f.n) {
		f.res.FirstRound++
		if f.waves != nil {
			f.waves[f.born[id]]++
		}
	}
	if f.arrive != nil {
		f.arrive[id] = f.t + 1
	}
}

// state returns the engine's current state as the model's msot.State
// (start is the run's initial state: its Rel and Own are shared). The
// injected packets are the prefixes before the cursors; the delivered ones
// are the injected ones not on a link (a packet leaves the links only by
// delivery).
func (f *fast) state(start *msot.State) msot.State {
	n := f.n
	K := len(f.dst)
	s := msot.State{N: n, T: int(f.t), Rel: start.Rel, Own: start.Own,
		InH: make([]msot.Flight, f.nn), InV: make([]msot.Flight, f.nn),
		Injected: make([]uint64, (K+63)/64), Delivered: make([]uint64, (K+63)/64)}
	mark := func(ids []int32) {
		for _, id := range ids {
			s.Injected[id>>6] |= 1 << (id & 63)
			s.Delivered[id>>6] |= 1 << (id & 63)
		}
		s.NInjected += len(ids)
	}
	if f.rule.scheduled {
		for x := range f.lists {
			for y, l := range f.lists[x] {
				mark(l[:f.lcur[x][y]])
			}
		}
	} else {
		for x, l := range f.own {
			mark(l[:f.cursor[x]])
		}
	}
	s.NDelivered = s.NInjected
	for d, fl := range [2][]msot.Flight{s.InH, s.InV} {
		for v, x := range f.in[f.cur][d] {
			if x < 0 {
				fl[v] = msot.Empty
				continue
			}
			id := int32(x >> 16)
			fl[v] = msot.Flight{ID: id, Born: f.born[id], Defl: f.defl[id]}
			s.Delivered[id>>6] &^= 1 << (id & 63)
			s.NDelivered--
		}
	}
	return s
}
