package pops

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Observer sees every slot of a model run: the step (1-based), the slot within
// the step (1-based), the actions taken, the state before and after, and the
// events. It must not modify its arguments, nor keep the actions after it
// returns (the run reuses their To and Drop slices from slot to slot).
type Observer func(step, slot int, acts []pops.Action, before, after pops.State, ev pops.Events)

// responsible reports whether processor i relays in slots 1 and 2: the
// lowest-index processor of its group with its residue mod g.
func responsible(sh pops.Shape, i int) bool { return i-sh.Group(i)*sh.D < sh.G }

func find(buf []pops.Item, p int32, kind pops.ItemKind) int32 {
	for k, it := range buf {
		if it.Packet == p && it.Kind == kind {
			return int32(k)
		}
	}
	panic(fmt.Sprintf("pops router: packet %d (%v) not in buffer", p, kind))
}

// modelRun is the local knowledge of every processor during a model run.
type modelRun struct {
	sh   pops.Shape
	dst  []int32
	o    Options
	st   pops.State
	acts []pops.Action
	res  Result
	obs  Observer
	step int

	pending  []bool  // source: original not yet acked
	choice   []int32 // source: intermediate group this step, -1 none
	gotAck   []bool  // source: ack arrived this step
	relayPkt []int32 // relay: header of the copy relayed this step
	relayAck []bool
	tempPkt  []int32 // temporary-group processor: copy held
	tempFrom []int32

	// Reused memory: fresh counts, per processor, the packets accepted
	// there in the slot; to and drop back the actions' To (one group) and
	// Drop (up to two indices) slices.
	fresh []int32
	to    []int32
	drop  []int32
}

// Decider makes a step's random choices: given the step (1-based), the
// number m of pending packets (indexed 0…m-1 in increasing packet order) and
// the participation probability p, it returns the participants' indices
// (increasing) and their intermediate groups. RunOnModel's decider draws from
// its rng; exhaustive checks enumerate instead.
type Decider func(step, m int, p float64) (part, groups []int32)

// RunOnModel routes the partial permutation dst on POPS(sh) with the
// randomized router of §III, slot by slot on the slot model. obs may be nil.
// It returns an error for a shape outside the router's scope, bad options, or
// a model violation (an action the hardware rejects: a router bug).
func RunOnModel(sh pops.Shape, dst []int32, rng *rand.Rand, o Options, obs Observer) (Result, error) {
	var part, groups []int32
	g := sh.G
	return RunOnModelWith(sh, dst, func(_, m int, p float64) ([]int32, []int32) {
		part, groups = choose(rng, g, p, m, part, groups)
		return part, groups
	}, o, obs)
}

// RunOnModelWith is RunOnModel with the random choices made by decide.
func RunOnModelWith(sh pops.Shape, dst []int32, decide Decider, o Options, obs Observer) (Result, error) {
	if err := CheckShape(sh); err != nil && !o.OutOfScope {
		return Result{}, err
	}
	if err := o.check(); err != nil {
		return Result{}, err
	}
	o = o.fill(sh)
	st, err := pops.NewState(sh, dst)
	if err != nil {
		return Result{}, err
	}
	n, g := sh.N(), sh.G
	m := &modelRun{
		sh: sh, dst: dst, o: o, st: st, obs: obs,
		acts:     make([]pops.Action, n),
		res:      Result{Conflicts: make([]int, o.Variant.SlotsPerStep(sh))},
		pending:  make([]bool, n),
		choice:   make([]int32, n),
		gotAck:   make([]bool, n),
		relayPkt: make([]int32, n),
		relayAck: make([]bool, n),
		tempPkt:  make([]int32, n),
		tempFrom: make([]int32, n),
		fresh:    make([]int32, n),
		to:       make([]int32, n),
		drop:     make([]int32, 2*n),
	}
	for p := range m.pending {
		m.pending[p] = dst[p] != perm.None
	}
	m.idle()
	srcDeg, tmpDeg := make([]int32, g), make([]int32, g)
	var pend []int32
	for {
		pend = pend[:0]
		clear(srcDeg)
		clear(tmpDeg)
		for i := range n {
			if m.pending[i] {
				pend = append(pend, int32(i))
				srcDeg[sh.Group(i)]++
				tmpDeg[dst[i]%int32(g)]++
			}
		}
		if len(pend) == 0 {
			m.res.Completed = true
			break
		}
		if m.step == o.MaxSteps {
			break
		}
		m.step++
		if o.trace(m.step) {
			m.res.MaxDegree = append(m.res.MaxDegree, max(maxOf(srcDeg), maxOf(tmpDeg)))
		}
		for i := range n {
			m.choice[i], m.gotAck[i], m.relayPkt[i], m.relayAck[i] = -1, false, -1, false
			m.tempPkt[i], m.tempFrom[i] = -1, -1
		}
		part, groups := decide(m.step, len(pend), o.participation(sh, m.step))
		if len(part) != len(groups) {
			return m.res, fmt.Errorf("decider returned %d participants and %d groups", len(part), len(groups))
		}
		for j, k := range part {
			if k < 0 || int(k) >= len(pend) || groups[j] < 0 || int(groups[j]) >= g {
				return m.res, fmt.Errorf("decider choice (%d, %d) out of range", k, groups[j])
			}
			m.choice[pend[k]] = groups[j]
		}
		if err := m.step5(); err != nil {
			return m.res, err
		}
		left := int32(0)
		for i := range n {
			if m.gotAck[i] || m.o.Mutant == MutantNoAckWait && m.choice[i] >= 0 {
				m.pending[i] = false
			}
			if m.pending[i] {
				left++
			}
		}
		if o.trace(m.step) {
			m.res.Remaining = append(m.res.Remaining, left)
		}
	}
	m.res.Steps = m.step
	for p := range dst {
		if m.st.Delivered[p] {
			m.res.Delivered++
		}
		if m.st.Lost[p] {
			m.res.Lost++
		}
	}
	return m.res, nil
}

func (m *modelRun) idle() {
	for i := range m.acts {
		m.acts[i] = pops.Idle()
	}
}

// toGroup returns processor i's To slice holding the single group b (in
// the run's reused memory).
func (m *modelRun) toGroup(i int, b int32) []int32 {
	m.to[i] = b
	return m.to[i : i+1 : i+1]
}

// addDrop appends buffer index k to processor i's Drop (at most two per
// slot: a relayed or delivered copy, and an acked original), in the run's
// reused memory.
func (m *modelRun) addDrop(i int, k int32) {
	if len(m.acts[i].Drop) == 0 {
		m.acts[i].Drop = m.drop[2*i : 2*i : 2*i+2]
	}
	m.acts[i].Drop = append(m.acts[i].Drop, k)
}

// slot steps the model with the prepared actions and returns the events.
func (m *modelRun) slot(k int) (pops.Events, error) {
	step := m.o.Step
	if step == nil {
		step = pops.Step
	}
	next, ev, err := step(m.st, m.acts)
	if err != nil {
		return ev, fmt.Errorf("model violation in step %d slot %d: %w", m.step, k, err)
	}
	m.res.Conflicts[k-1] += len(ev.Conflicts)
	m.res.Duplicated += len(ev.Duplicated)
	fresh := m.fresh
	clear(fresh)
	for _, p := range ev.Delivered {
		fresh[m.dst[p]]++
	}
	for _, p := range ev.Duplicated {
		fresh[m.dst[p]]++
	}
	for i := range next.Buf {
		o, c, dl := next.Occupancy(i)
		f := int(fresh[i])
		m.res.MaxMem[0] = max(m.res.MaxMem[0], o+c+dl)
		m.res.MaxMem[1] = max(m.res.MaxMem[1], o+c+f)
		m.res.MaxMem[2] = max(m.res.MaxMem[2], c+f)
	}
	if m.obs != nil {
		m.obs(m.step, k, m.acts, m.st, next, ev)
	}
	m.st = next
	m.idle()
	return ev, nil
}

func (m *modelRun) listenRelay() {
	for i := range m.acts {
		if responsible(m.sh, i) {
			m.acts[i].Listen, m.acts[i].Keep = int32(i%m.sh.G), pops.KeepAll
		}
	}
}

func (m *modelRun) listenDest() {
	for i := range m.acts {
		m.acts[i].Listen, m.acts[i].Keep = int32(i%m.sh.G), pops.KeepOwn
	}
}

// slots12 runs slots 1 and 2, common to both variants: sources send copies to
// their random intermediate group, relays forward them to the temporary
// destination group Δ(π(p)) = π(p) mod g.
func (m *modelRun) slots12() error {
	for i := range m.acts {
		if m.choice[i] >= 0 {
			m.acts[i].Send, m.acts[i].To = find(m.st.Buf[i], int32(i), pops.Original), m.toGroup(i, m.choice[i])
			if m.o.Mutant == MutantNoAckWait {
				m.addDrop(i, m.acts[i].Send)
			}
		}
	}
	m.listenRelay()
	ev, err := m.slot(1)
	if err != nil {
		return err
	}
	for _, rc := range ev.Received {
		if rc.Msg.Kind == pops.PacketMsg {
			m.relayPkt[rc.Proc] = rc.Msg.Packet
		}
	}
	for i := range m.acts {
		if p := m.relayPkt[i]; p >= 0 {
			k := find(m.st.Buf[i], p, pops.Copy)
			m.acts[i].Send, m.acts[i].To = k, m.toGroup(i, m.temp(p))
			if m.o.Mutant != MutantRelayKeeps {
				m.addDrop(i, k)
			}
		}
	}
	m.listenRelay()
	if ev, err = m.slot(2); err != nil {
		return err
	}
	for _, rc := range ev.Received {
		if rc.Msg.Kind == pops.PacketMsg {
			m.tempPkt[rc.Proc], m.tempFrom[rc.Proc] = rc.Msg.Packet, rc.Coupler.From
		}
	}
	return nil
}

// temp is packet p's temporary group Δ(π(p)) = π(p) mod g (or the
// planted fault's group(π(p)) mod g).
func (m *modelRun) temp(p int32) int32 {
	if m.o.Mutant == MutantTempByGroup {
		return int32(m.sh.Group(int(m.dst[p])) % m.sh.G)
	}
	return m.dst[p] % int32(m.sh.G)
}

// ackTempToRelay: the temporary-group processor acks back over c(r, t); the
// relay listens to c(r, Δ(π(p))).
func (m *modelRun) ackTempToRelay(k int) error {
	for i := range m.acts {
		if p := m.tempPkt[i]; p >= 0 {
			m.acts[i].Ack, m.acts[i].To = p, m.toGroup(i, m.tempFrom[i])
		}
		if p := m.relayPkt[i]; p >= 0 {
			m.acts[i].Listen = m.temp(p)
		}
	}
	ev, err := m.slot(k)
	for _, rc := range ev.Received {
		if rc.Msg.Kind == pops.AckMsg && rc.Msg.Packet == m.relayPkt[rc.Proc] {
			m.relayAck[rc.Proc] = true
		}
	}
	return err
}

// ackRelayToSource: the relay acks over c(a, r); the source listens to
// c(a, r_i) for the group it chose.
func (m *modelRun) ackRelayToSource(k int) error {
	for i := range m.acts {
		if p := m.relayPkt[i]; p >= 0 && m.relayAck[i] {
			m.acts[i].Ack, m.acts[i].To = p, m.toGroup(i, int32(m.sh.Group(int(p))))
		}
		if m.choice[i] >= 0 {
			m.acts[i].Listen = m.choice[i]
		}
	}
	ev, err := m.slot(k)
	for _, rc := range ev.Received {
		if rc.Msg.Kind == pops.AckMsg && rc.Msg.Packet == rc.Proc {
			m.gotAck[rc.Proc] = true
		}
	}
	return err
}

// deliver is delivery sub-slot j (0-based, slot 5+j): temporary-group
// processors holding a copy of sub-slot j send it to the destination group
// over c(group(π(p)), t) and drop it; every processor i listens to
// c(group(i), Δ(i)) and accepts only its own packet. Faithful has the single
// sub-slot 0 that sends every copy.
func (m *modelRun) deliver(j int) error {
	for i := range m.acts {
		p := m.tempPkt[i]
		if p < 0 || m.o.Variant == SplitDelivery && subSlot(m.sh, m.dst[p]) != j {
			continue
		}
		k := find(m.st.Buf[i], p, pops.Copy)
		m.acts[i].Send, m.acts[i].To = k, m.toGroup(i, int32(m.sh.Group(int(m.dst[p]))))
		m.addDrop(i, k)
	}
	m.listenDest()
	_, err := m.slot(5 + j)
	return err
}

// subSlot is ⌊(x mod d)/g⌋, the delivery sub-slot of destination x.
func subSlot(sh pops.Shape, x int32) int { return int(x) % sh.D / sh.G }

// step5 is one step of §III-A: slots 1–4 as written, then delivery (one slot
// for Faithful, ⌈d/g⌉ sub-slots for SplitDelivery). The source deletes its
// original when the slot-4 ack arrives (the drop takes effect in slot 5).
func (m *modelRun) step5() error {
	if err := m.slots12(); err != nil {
		return err
	}
	if err := m.ackTempToRelay(3); err != nil {
		return err
	}
	if err := m.ackRelayToSource(4); err != nil {
		return err
	}
	for i := range m.acts {
		if m.gotAck[i] && m.o.Mutant != MutantNoAckWait {
			m.addDrop(i, find(m.st.Buf[i], int32(i), pops.Original))
		}
	}
	for j := range m.o.Variant.DeliverySlots(m.sh) {
		if err := m.deliver(j); err != nil {
			return err
		}
	}
	return nil
}

func maxOf(xs []int32) int32 {
	var m int32
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
