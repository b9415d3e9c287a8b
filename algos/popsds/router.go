package popsds

import (
	"fmt"
	"math/bits"

	"routecheck/algos/popsdet"
	asn "routecheck/algos/sortnet"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
)

// Mutant is a planted fault (for the claims' power checks); None is the
// router as described in the package comment.
type Mutant int

const (
	// None is the router as written.
	None Mutant = iota
	// SkipStage skips the last stage of every sub-network's odd-even merge
	// sort (and its 2 slots).
	SkipStage
	// FlipComparator flips the direction of the first comparator of the
	// last sort stage: its low wire keeps the maximum.
	FlipComparator
	// FewerWaves spends one wave slot fewer than the budget min(g, d/g).
	FewerWaves
	// SharedRelay gives, in the first sort stage, one packet the relay of
	// another packet of the same source group (two senders on one coupler).
	SharedRelay
	// SkipHome makes the sort phase non-rigid (Theorem 2.8's definition):
	// a comparator wire whose packet is already at its destination
	// processor does not send it, so who sends depends on the permutation.
	SkipHome
	// DataRelay makes the sort phase non-rigid the way Theorem 2.8's proof
	// cares about: a packet whose destination is odd is relayed by its own
	// source processor (which sends it to its own group and listens there)
	// instead of the plan's relay, so which group a processor listens to,
	// and whom it hears, depend on the data.
	DataRelay
	// MergeDataRelay is DataRelay in the rigid variant's merge stages (see
	// rigid.go): a merge-stage packet with an odd destination is relayed by
	// its own source processor. The faithful router has no merge stages.
	MergeDataRelay
	// MergeKeepOwn makes the rigid variant's last merge stage a no-op on the
	// data: its slots run as planned, but every wire keeps its own packet
	// instead of the comparator's minimum or maximum.
	MergeKeepOwn
)

func (m Mutant) String() string {
	switch m {
	case None:
		return "none"
	case SkipStage:
		return "last merge stage skipped"
	case FlipComparator:
		return "one comparator direction flipped"
	case FewerWaves:
		return "one wave slot fewer"
	case SharedRelay:
		return "two packets share a relay in the first sort stage"
	case SkipHome:
		return "a sort-phase sender whose packet is home skips its send"
	case DataRelay:
		return "a sort-phase packet with an odd destination is relayed by its source"
	case MergeDataRelay:
		return "a merge-stage packet with an odd destination is relayed by its source"
	case MergeKeepOwn:
		return "the last merge stage's comparators keep their own packets"
	}
	return fmt.Sprintf("Mutant(%d)", int(m))
}

// CheckShape returns an error unless g ≥ 2 is a power of two, d is a
// positive multiple of g, and dg fits the model.
func CheckShape(sh pops.Shape) error {
	if _, err := pops.NewShape(sh.D, sh.G); err != nil {
		return err
	}
	if sh.G < 2 || sh.G&(sh.G-1) != 0 {
		return fmt.Errorf("g = %d: the [8] router needs g a power of two ≥ 2 (hypercube simulation on POPS(g,g))", sh.G)
	}
	if sh.D%sh.G != 0 {
		return fmt.Errorf("d = %d: the [8] router needs d a multiple of g = %d", sh.D, sh.G)
	}
	return nil
}

func lg(g int) int { return bits.Len(uint(g)) - 1 }

// SortSlots is the slot count of one POPS(g, g) sort: 2 slots for each of
// the L(L+1)/2 steps of Batcher's odd-even merge sort on g² = 2^L items,
// i.e. 4 log²g + 2 log g.
func SortSlots(g int) int {
	l := 2 * lg(g)
	return l * (l + 1)
}

// InfoSlots is the number of run-information slots per sub-network.
const InfoSlots = 9

// WaveBudget is the number of wave slots per sub-network: min(g, d/g).
func WaveBudget(sh pops.Shape) int { return min(sh.G, sh.D/sh.G) }

// Slots is the router's slot count on POPS(d, g), the same for every
// permutation: (d/g)·(SortSlots(g) + InfoSlots + WaveBudget) + d/g.
func Slots(sh pops.Shape) int { return SlotsWithDepth(sh, SortSlots(sh.G)/2) }

// SlotsWithDepth is the slot count with a sorter of the given depth on g²
// wires in place of Batcher's: (d/g)·(2·depth + InfoSlots + WaveBudget) + d/g.
func SlotsWithDepth(sh pops.Shape, depth int) int {
	k := sh.D / sh.G
	return k*(2*depth+InfoSlots+WaveBudget(sh)) + k
}

// Options configures RouteWith.
type Options struct {
	// Mutant plants a fault; None is the router as written.
	Mutant Mutant
	// Sorter, if set, is the sorting network used on the g² wires of each
	// sub-network in place of Batcher's odd-even merge sort (Corollary 2.4
	// plugs in an AKS-family network). It must sort; a network that does
	// not leaves packets undelivered, which the result reports.
	Sorter *sortnet.Network
	// Observe, if set, is called once per slot just before the model steps
	// it, with the slot number (from 1), the phase, the state the slot
	// starts from and every processor's action (see schedule.go). It must
	// not modify them; it changes nothing the router does.
	Observe func(slot int, ph Phase, st pops.State, acts []pops.Action)
	// Rigid selects the repaired, rigid completion (rigid.go, "pops-ds-rigid")
	// in place of the run-information completion: after the sub-network
	// sorts, the remaining stages of Batcher's odd-even merge sort on all n
	// wires, then one fixed permutation to the destinations.
	Rigid bool
}

// Result is what a run did, as the slot model reports it.
type Result struct {
	// Slots stepped, and their split by phase.
	Slots, SortSlots, InfoSlots, WaveSlots, FinalSlots int
	// MergeSlots: the rigid variant's merge stages (0 for the faithful one).
	MergeSlots int
	// Conflicts counts couplers with two or more senders over all slots.
	Conflicts int
	// Delivered, Lost and Duplicated count packets as the model reports them.
	Delivered, Lost, Duplicated int
	// Misheard counts receptions the router expected and did not get (or
	// got from another packet); 0 for the router as written.
	Misheard int
	// Completed is true when every packet was delivered.
	Completed bool
}

type router struct {
	sh          pops.Shape
	n, d, g, k  int
	m           int // g², items per sub-network
	mut         Mutant
	st          pops.State
	res         Result
	acts        []pops.Action
	dropSent    []bool
	cur         []int32 // wire packet held by each processor (−1: none)
	park        []int32 // parked packet (−1: none)
	transit     []int32 // relay copy to forward (−1: none)
	nw          sortnet.Network
	stagePlans  []stagePlan
	shiftR      popsdet.Plan
	shiftL      popsdet.Plan
	parkedCount []int   // per group h: packets of key h parked so far (O_h)
	rcv         []int32 // index in ev.Received of each processor's reception, or −1
	ev          pops.Events
	observe     func(int, Phase, pops.State, []pops.Action)
	phase       Phase
	mergePlans  []roundPlan // rigid variant: the merge stages
	finalPlan   roundPlan   // rigid variant: sorted rank → destination
}

type stagePlan struct {
	plan popsdet.Plan
	comp []sortnet.Comparator // on wires
}

// local is the POPS(g,g) processor of wire r: group r mod g, offset ⌊r/g⌋.
func (rt *router) local(r int) int { return (r%rt.g)*rt.g + r/rt.g }

// glob maps a POPS(g,g) processor of sub-network j to the POPS(d,g) one.
func (rt *router) glob(j, l int) int { return (l/rt.g)*rt.d + j*rt.g + l%rt.g }

func (rt *router) proc(j, r int) int { return rt.glob(j, rt.local(r)) }

func (rt *router) h(p int32) int { return int(rt.st.Dst[p]) % rt.g }

func (rt *router) key(p int32) int64 { return int64(rt.h(p))*int64(rt.n) + int64(rt.st.Dst[p]) }

// Route routes the permutation dst on POPS(sh) with the router (or the
// planted fault m) and returns what the slot model reported. An error means
// a bad shape or permutation, or an action the model rejects (a bug).
func Route(sh pops.Shape, dst []int32, m Mutant) (Result, error) {
	return RouteWith(sh, dst, Options{Mutant: m})
}

// newRouter checks RouteWith's parameters and sets a router up before its
// first sort: every processor holds its own packet on its wire, nothing is
// parked or in transit, and the model state is fresh from pops.NewState.
func newRouter(sh pops.Shape, dst []int32, o Options) (*router, error) {
	m := o.Mutant
	if err := CheckShape(sh); err != nil {
		return nil, err
	}
	if len(dst) != sh.N() {
		return nil, fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", len(dst), sh.N())
	}
	if err := perm.Validate(dst, true); err != nil {
		return nil, err
	}
	st, err := pops.NewState(sh, dst)
	if err != nil {
		return nil, err
	}
	rt := &router{sh: sh, n: sh.N(), d: sh.D, g: sh.G, k: sh.D / sh.G, m: sh.G * sh.G, mut: m, st: st, observe: o.Observe}
	if o.Sorter != nil {
		if o.Sorter.N != rt.m {
			return nil, fmt.Errorf("sorter on %d wires: need g² = %d", o.Sorter.N, rt.m)
		}
		if err := o.Sorter.Validate(); err != nil {
			return nil, err
		}
		rt.nw = *o.Sorter
	}
	if err := rt.compile(); err != nil {
		return nil, err
	}
	if o.Rigid {
		if err := rt.compileRigid(); err != nil {
			return nil, err
		}
	}
	rt.acts = make([]pops.Action, rt.n)
	rt.dropSent = make([]bool, rt.n)
	rt.cur = make([]int32, rt.n)
	rt.park = make([]int32, rt.n)
	rt.transit = make([]int32, rt.n)
	for p := range rt.cur {
		rt.cur[p], rt.park[p], rt.transit[p] = int32(p), -1, -1
	}
	rt.parkedCount = make([]int, rt.g)
	return rt, nil
}

// RouteWith is Route with options (a planted fault, another sorter).
func RouteWith(sh pops.Shape, dst []int32, o Options) (Result, error) {
	rt, err := newRouter(sh, dst, o)
	if err != nil {
		return Result{}, err
	}
	if o.Rigid {
		return rt.routeRigid()
	}
	for j := range rt.k {
		if err := rt.sort(j); err != nil {
			return rt.res, err
		}
		if err := rt.info(j); err != nil {
			return rt.res, err
		}
	}
	for t := range rt.k {
		if err := rt.final(t); err != nil {
			return rt.res, err
		}
	}
	rt.tally()
	return rt.res, nil
}

// tally counts the delivered and lost packets of the finished run into
// rt.res (the faithful and the rigid completion end the same way).
func (rt *router) tally() {
	for p := range rt.n {
		if rt.st.Delivered[p] {
			rt.res.Delivered++
		}
		if rt.st.Lost[p] {
			rt.res.Lost++
		}
	}
	rt.res.Completed = rt.res.Delivered == rt.n
}

func (rt *router) compile() error {
	var err error
	if rt.nw.Stages == nil {
		if rt.nw, err = asn.OddEvenMergeSort(rt.m); err != nil {
			return err
		}
	}
	gg := pops.Shape{D: rt.g, G: rt.g}
	for s, stg := range rt.nw.Stages {
		pi := perm.Identity(rt.m)
		for _, c := range stg {
			a, b := rt.local(int(c.I)), rt.local(int(c.J))
			pi[a], pi[b] = int32(b), int32(a)
		}
		var pl popsdet.Plan
		if pl, err = popsdet.NewPlan(gg, pi); err != nil {
			return err
		}
		if s == 0 && rt.mut == SharedRelay {
			shareRelay(&pl, stg, rt)
		}
		rt.stagePlans = append(rt.stagePlans, stagePlan{plan: pl, comp: stg})
	}
	right, left := make([]int32, rt.m), make([]int32, rt.m)
	for r := range rt.m {
		right[rt.local(r)] = int32(rt.local((r + 1) % rt.m))
		left[rt.local(r)] = int32(rt.local((r + rt.m - 1) % rt.m))
	}
	if rt.shiftR, err = popsdet.NewPlan(gg, right); err != nil {
		return err
	}
	rt.shiftL, err = popsdet.NewPlan(gg, left)
	return err
}

// shareRelay plants the SharedRelay fault: the second moving packet of the
// first source group that has two gets the first one's relay.
func shareRelay(pl *popsdet.Plan, stg sortnet.Stage, rt *router) {
	first := map[int]int{} // source group → local processor
	for _, c := range stg {
		for _, w := range []int32{c.I, c.J} {
			l := rt.local(int(w))
			a := l / rt.g
			if f, ok := first[a]; ok {
				pl.Relay[l] = pl.Relay[f]
				return
			}
			first[a] = l
		}
	}
}

func find(buf []pops.Item, p int32) int32 {
	for k, it := range buf {
		if it.Packet == p && it.Kind != pops.Delivered {
			return int32(k)
		}
	}
	return -1
}

// begin resets the actions for a slot.
func (rt *router) begin() {
	for i := range rt.acts {
		rt.acts[i] = pops.Idle()
		rt.dropSent[i] = false
	}
}

// send makes processor p send packet pk to the groups to (and drop it in
// the same slot when drop); it reports false when p does not hold pk.
func (rt *router) send(p int, pk int32, to []int32, drop bool) bool {
	k := find(rt.st.Buf[p], pk)
	if k < 0 {
		rt.res.Misheard++
		return false
	}
	rt.acts[p].Send, rt.acts[p].To = k, to
	rt.dropSent[p] = drop
	return true
}

func (rt *router) ack(p int, pk int32, to []int32) {
	rt.acts[p].Ack, rt.acts[p].To = pk, to
}

func (rt *router) listen(p, from int, keep pops.Keep) {
	rt.acts[p].Listen, rt.acts[p].Keep = int32(from), keep
}

// step drops what each processor no longer needs (and what it sends with
// drop set), steps the model, checks its invariants and returns the events.
func (rt *router) step() (pops.Events, error) {
	for p := range rt.n {
		var drop []int32
		seen := map[int32]bool(nil)
		for k, it := range rt.st.Buf[p] {
			if it.Kind == pops.Delivered {
				continue
			}
			want := it.Packet == rt.cur[p] || it.Packet == rt.park[p] || it.Packet == rt.transit[p]
			if rt.dropSent[p] && int32(k) == rt.acts[p].Send {
				want = false
			}
			if want {
				if seen == nil {
					seen = map[int32]bool{}
				}
				if seen[it.Packet] {
					want = false
				}
				seen[it.Packet] = true
			}
			if !want {
				drop = append(drop, int32(k))
			}
		}
		rt.acts[p].Drop = drop
	}
	if rt.observe != nil {
		rt.observe(rt.res.Slots+1, rt.phase, rt.st, rt.acts)
	}
	next, ev, err := pops.Step(rt.st, rt.acts)
	if err != nil {
		return ev, fmt.Errorf("popsds: slot %d: %w", rt.res.Slots+1, err)
	}
	if err := pops.CheckInvariants(next); err != nil {
		return ev, fmt.Errorf("popsds: after slot %d: %w", rt.res.Slots+1, err)
	}
	rt.st = next
	if rt.rcv == nil {
		rt.rcv = make([]int32, rt.n)
	}
	for i := range rt.rcv {
		rt.rcv[i] = -1
	}
	for k, r := range ev.Received {
		rt.rcv[r.Proc] = int32(k)
	}
	rt.ev = ev
	rt.res.Slots++
	rt.res.Conflicts += len(ev.Conflicts)
	rt.res.Duplicated += len(ev.Duplicated)
	return ev, nil
}

// got returns the message processor p received in the last slot.
func (rt *router) got(p int) (pops.Message, bool) {
	if k := rt.rcv[p]; k >= 0 {
		return rt.ev.Received[k].Msg, true
	}
	return pops.Message{}, false
}

// route2 moves copies of the packets held by the given sources (local
// processors of sub-network j) along plan pl in two slots (source → relay
// → π(source)) and returns, for each target local processor, the packet it
// received (−1 if none). Sources keep their packets.
func (rt *router) route2(j int, pl popsdet.Plan, srcs []int) (map[int]int32, error) {
	rt.begin()
	type mv struct {
		pk           int32
		from, relay  int
		target, tgtG int
	}
	var mvs []mv
	for _, l := range srcs {
		p := rt.glob(j, l)
		pk := rt.cur[p]
		relay := rt.glob(j, int(pl.Relay[l]))
		if rt.mut == SkipHome && rt.phase == PhaseSort && pk >= 0 && int(rt.st.Dst[pk]) == p {
			continue
		}
		if rt.mut == DataRelay && rt.phase == PhaseSort && pk >= 0 && rt.st.Dst[pk]%2 == 1 {
			relay = p
		}
		if pk < 0 || !rt.send(p, pk, []int32{int32(rt.sh.Group(relay))}, false) {
			continue
		}
		rt.listen(relay, rt.sh.Group(p), pops.KeepAll)
		tgt := rt.glob(j, int(pl.Dst[l]))
		mvs = append(mvs, mv{pk: pk, from: p, relay: relay, target: tgt, tgtG: rt.sh.Group(tgt)})
	}
	_, err := rt.step()
	if err != nil {
		return nil, err
	}
	for _, x := range mvs {
		if msg, ok := rt.got(x.relay); ok && msg.Kind == pops.PacketMsg && msg.Packet == x.pk {
			rt.transit[x.relay] = x.pk
		}
	}
	rt.begin()
	for _, x := range mvs {
		if rt.transit[x.relay] != x.pk {
			rt.res.Misheard++
			continue
		}
		if rt.send(x.relay, x.pk, []int32{int32(x.tgtG)}, true) {
			rt.listen(x.target, rt.sh.Group(x.relay), pops.KeepAll)
		}
	}
	_, err = rt.step()
	if err != nil {
		return nil, err
	}
	out := map[int]int32{}
	for _, x := range mvs {
		if rt.transit[x.relay] == x.pk {
			rt.transit[x.relay] = -1
		}
		if msg, ok := rt.got(x.target); ok && msg.Kind == pops.PacketMsg && msg.Packet == x.pk {
			out[x.target] = x.pk
		}
	}
	return out, nil
}

// sort runs the odd-even merge sort on sub-network j, 2 slots a stage.
func (rt *router) sort(j int) error {
	rt.phase = PhaseSort
	last := len(rt.stagePlans) - 1
	for s, sp := range rt.stagePlans {
		if s == last && rt.mut == SkipStage {
			continue
		}
		var srcs []int
		for _, c := range sp.comp {
			srcs = append(srcs, rt.local(int(c.I)), rt.local(int(c.J)))
		}
		before := rt.res.Slots
		recv, err := rt.route2(j, sp.plan, srcs)
		if err != nil {
			return err
		}
		rt.res.SortSlots += rt.res.Slots - before
		for ci, c := range sp.comp {
			pi, pj := rt.proc(j, int(c.I)), rt.proc(j, int(c.J))
			lo, hi, ok := rt.heard(recv, pi, pj)
			if !ok {
				continue
			}
			if s == last && ci == 0 && rt.mut == FlipComparator {
				lo, hi = hi, lo
			}
			rt.cur[pi], rt.cur[pj] = lo, hi
		}
	}
	return nil
}

// heard is one comparator (pi, pj) after its exchange round: if each
// processor received exactly the other's packet it returns the pair's
// packets in key order (lo for pi, hi for pj); otherwise the exchange was
// misheard (counted) and ok is false. The faithful sorts and the rigid
// merge both resolve their comparators with it.
func (rt *router) heard(recv map[int]int32, pi, pj int) (lo, hi int32, ok bool) {
	a, b := rt.cur[pi], rt.cur[pj]
	ra, okA := recv[pi] // pi received b
	rb, okB := recv[pj]
	if !okA || !okB || ra != b || rb != a {
		rt.res.Misheard++
		return 0, 0, false
	}
	if rt.key(b) < rt.key(a) {
		return b, a, true
	}
	return a, b, true
}

// info runs the 9 run-information slots and the waves of sub-network j.
func (rt *router) info(j int) error {
	g, m := rt.g, rt.m
	before := rt.res.Slots
	rt.phase = PhaseShift
	all := make([]int, m)
	for r := range m {
		all[r] = rt.local(r)
	}
	// Neighbour shifts: predecessor and successor keys.
	srcR := make([]int, 0, m)
	srcL := make([]int, 0, m)
	for r := range m {
		if r+1 < m {
			srcR = append(srcR, rt.local(r))
		}
		if r > 0 {
			srcL = append(srcL, rt.local(r))
		}
	}
	fromPred, err := rt.route2(j, rt.shiftR, srcR)
	if err != nil {
		return err
	}
	fromSucc, err := rt.route2(j, rt.shiftL, srcL)
	if err != nil {
		return err
	}
	isStart, isEnd := make([]bool, m), make([]bool, m)
	for r := range m {
		p := rt.proc(j, r)
		mine := rt.cur[p]
		if mine < 0 {
			continue
		}
		if r == 0 {
			isStart[r] = true
		} else if q, ok := fromPred[p]; ok {
			isStart[r] = rt.h(q) != rt.h(mine)
		} else {
			rt.res.Misheard++
		}
		if r == m-1 {
			isEnd[r] = true
		} else if q, ok := fromSucc[p]; ok {
			isEnd[r] = rt.h(q) != rt.h(mine)
		} else {
			rt.res.Misheard++
		}
	}
	// Run starts, then run ends, report to group h; listener offset x of
	// sub-network j in group h listens to c(h, x).
	report := func(flag []bool) (holder []int, rank []int, err error) {
		holder, rank = make([]int, g), make([]int, g)
		for i := range holder {
			holder[i], rank[i] = -1, -1
		}
		rt.begin()
		sentRank := map[[2]int]int{} // coupler (to, from) → rank of the sender
		for r := range m {
			p := rt.proc(j, r)
			if !flag[r] || rt.cur[p] < 0 {
				continue
			}
			hh := rt.h(rt.cur[p])
			rt.ack(p, int32(p), []int32{int32(hh)})
			sentRank[[2]int{hh, rt.sh.Group(p)}] = r
		}
		for hh := range g {
			for x := range g {
				rt.listen(hh*rt.d+j*g+x, x, pops.KeepAll)
			}
		}
		ev, err := rt.step()
		if err != nil {
			return nil, nil, err
		}
		for _, rc := range ev.Received {
			if rc.Msg.Kind != pops.AckMsg {
				continue
			}
			hh, x := int(rc.Coupler.To), int(rc.Coupler.From)
			if r, ok := sentRank[[2]int{hh, x}]; ok {
				holder[hh], rank[hh] = int(rc.Proc), r
			}
		}
		return holder, rank, nil
	}
	rt.phase = PhaseInfo
	sHold, sRank, err := report(isStart)
	if err != nil {
		return err
	}
	eHold, eRank, err := report(isEnd)
	if err != nil {
		return err
	}
	// E1: start holders tell the run's wires where their run starts.
	rt.begin()
	to := make([]int32, g)
	for i := range to {
		to[i] = int32(i)
	}
	for hh := range g {
		if sHold[hh] >= 0 {
			rt.ack(sHold[hh], int32(sHold[hh]), to)
		}
	}
	for r := range m {
		p := rt.proc(j, r)
		if rt.cur[p] >= 0 {
			rt.listen(p, rt.h(rt.cur[p]), pops.KeepAll)
		}
	}
	_, err = rt.step()
	if err != nil {
		return err
	}
	runStart := make([]int, m)
	for r := range m {
		runStart[r] = -1
		p := rt.proc(j, r)
		if rt.cur[p] < 0 {
			continue
		}
		if msg, ok := rt.got(p); ok && msg.Kind == pops.AckMsg {
			runStart[r] = sRank[rt.h(rt.cur[p])]
		} else {
			rt.res.Misheard++
		}
	}
	// E2, E3: start and end holders tell all of group h.
	bcast := func(hold []int) ([]bool, error) {
		rt.begin()
		for hh := range g {
			if hold[hh] >= 0 {
				rt.ack(hold[hh], int32(hold[hh]), []int32{int32(hh)})
			}
			for x := range rt.d {
				rt.listen(hh*rt.d+x, hh, pops.KeepAll)
			}
		}
		ev, err := rt.step()
		if err != nil {
			return nil, err
		}
		heard := make([]bool, g)
		for _, rc := range ev.Received {
			if rc.Msg.Kind == pops.AckMsg && int(rc.Coupler.To) == int(rc.Coupler.From) {
				heard[rc.Coupler.To] = true
			}
		}
		return heard, nil
	}
	hs, err := bcast(sHold)
	if err != nil {
		return err
	}
	he, err := bcast(eHold)
	if err != nil {
		return err
	}
	rt.res.InfoSlots += rt.res.Slots - before
	// Group h's receivers: ρ = O_h + m listens in wave ⌊m/g⌋ to the group of
	// rank s + m.
	type rcv struct{ proc, from int }
	waves := make([][]rcv, WaveBudget(rt.sh))
	for hh := range g {
		if hs[hh] != he[hh] {
			rt.res.Misheard++
			continue
		}
		if !hs[hh] {
			continue
		}
		s, c := sRank[hh], eRank[hh]-sRank[hh]+1
		for mm := range max(c, 0) {
			rho := rt.parkedCount[hh] + mm
			w := mm / g
			if rho >= rt.d || w >= len(waves) {
				rt.res.Misheard++
				continue
			}
			waves[w] = append(waves[w], rcv{proc: hh*rt.d + rho, from: (s + mm) % g})
		}
		rt.parkedCount[hh] += max(c, 0)
	}
	rt.phase = PhaseWave
	budget := len(waves)
	if rt.mut == FewerWaves {
		budget--
	}
	for w := range budget {
		rt.begin()
		for r := range m {
			p := rt.proc(j, r)
			if rt.cur[p] < 0 || runStart[r] < 0 || (r-runStart[r])/g != w || r < runStart[r] {
				continue
			}
			if rt.send(p, rt.cur[p], []int32{int32(rt.h(rt.cur[p]))}, true) {
				rt.cur[p] = -1
			}
		}
		for _, x := range waves[w] {
			rt.listen(x.proc, x.from, pops.KeepAll)
		}
		_, err := rt.step()
		if err != nil {
			return err
		}
		rt.res.WaveSlots++
		for _, x := range waves[w] {
			if msg, ok := rt.got(x.proc); ok && msg.Kind == pops.PacketMsg && rt.park[x.proc] < 0 {
				rt.park[x.proc] = msg.Packet
			} else {
				rt.res.Misheard++
			}
		}
	}
	return nil
}

// final runs round t: the parked packet for y = b·d + t·g + h goes from
// group h to y over c(b, h).
func (rt *router) final(t int) error {
	rt.phase = PhaseFinal
	rt.begin()
	for q := range rt.n {
		y := rt.park[q]
		if y >= 0 && int(rt.st.Dst[y])%rt.d/rt.g == t {
			dy := int(rt.st.Dst[y])
			if rt.send(q, y, []int32{int32(rt.sh.Group(dy))}, true) {
				rt.park[q] = -1
			}
		}
	}
	for y := range rt.n {
		if y%rt.d/rt.g == t {
			rt.listen(y, y%rt.g, pops.KeepOwn)
		}
	}
	_, err := rt.step()
	rt.res.FinalSlots++
	return err
}
