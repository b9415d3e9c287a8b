package pops

import (
	"math/rand/v2"

	"routecheck/models/pops"
)

// LocalRouter is the randomized router of §III (and Theorem 3.8's stage 1)
// written as a pops.Router: every processor decides its slot from its own
// memory and what it heard, as the paper's processors do. It is the third
// implementation of the same rules, beside RunOnModel (the bulk slot-model
// run) and the fast Engine, and the one the conformance suite
// (props/popstest) runs exactly as it runs a stranger's router. Its random
// choices are drawn per processor (coin, then intermediate group), so its
// runs are not stream-identical with RunOnModel's; the rules are.
//
// Memory per processor (each slice entry is read and written only while
// that processor acts): pending (its packet not yet acked), choice (the
// intermediate group this step, −1 none), gotAck; as a relay, the copy it
// took in slot 1 and whether the temporary group acked it; as a processor of
// a temporary group, the copy it took in slot 2 and the relay group it came
// from.
type LocalRouter struct {
	o        Options
	sh       pops.Shape
	started  []bool
	pending  []bool
	choice   []int32
	gotAck   []bool
	relayPkt []int32
	relayDst []int32 // the header of the relayed copy, kept after the copy is forwarded
	relayAck []bool
	tempPkt  []int32
	tempFrom []int32
}

// NewLocalRouter returns the §III router with options o (Variant, CEps,
// KeepCoin, Mutant; MaxSteps and the trace options are the driver's
// business and ignored). Shapes with d < g are outside the router's scope:
// there Act leaves every processor idle.
func NewLocalRouter(o Options) *LocalRouter { return &LocalRouter{o: o} }

// Start implements pops.Router.
func (r *LocalRouter) Start(sh pops.Shape, _ *rand.Rand) {
	r.sh = sh
	r.o = r.o.fill(sh)
	n := sh.N()
	r.started = make([]bool, n)
	r.pending = make([]bool, n)
	r.choice = make([]int32, n)
	r.gotAck = make([]bool, n)
	r.relayPkt = make([]int32, n)
	r.relayDst = make([]int32, n)
	r.relayAck = make([]bool, n)
	r.tempPkt = make([]int32, n)
	r.tempFrom = make([]int32, n)
	for i := range n {
		r.reset(i)
	}
}

func (r *LocalRouter) reset(i int) {
	r.choice[i], r.gotAck[i], r.relayPkt[i], r.relayDst[i], r.relayAck[i] = -1, false, -1, -1, false
	r.tempPkt[i], r.tempFrom[i] = -1, -1
}

func index(buf []pops.Item, p int32, kind pops.ItemKind) int32 {
	for k, it := range buf {
		if it.Packet == p && it.Kind == kind {
			return int32(k)
		}
	}
	return -1
}

// Act implements pops.Router.
func (r *LocalRouter) Act(v pops.Local, rng *rand.Rand) pops.Action {
	a := pops.Idle()
	sh, i := r.sh, int(v.Proc())
	if CheckShape(sh) != nil {
		return a
	}
	g := int32(sh.G)
	per := r.o.Variant.SlotsPerStep(sh)
	step, k := v.Slot()/per+1, v.Slot()%per+1 // the slot about to run: step, slot k of it
	buf := v.Buf()
	if !r.started[i] {
		r.started[i] = true
		r.pending[i] = index(buf, int32(i), pops.Original) >= 0
	}
	// What the previous slot taught this processor.
	for _, rc := range v.Heard() {
		switch {
		case k == 2 && rc.Msg.Kind == pops.PacketMsg:
			r.relayPkt[i], r.relayDst[i] = rc.Msg.Packet, v.Dest(rc.Msg.Packet)
		case k == 3 && rc.Msg.Kind == pops.PacketMsg:
			r.tempPkt[i], r.tempFrom[i] = rc.Msg.Packet, rc.Coupler.From
		case k == 4 && rc.Msg.Kind == pops.AckMsg && rc.Msg.Packet == r.relayPkt[i]:
			r.relayAck[i] = true
		case k == 5 && rc.Msg.Kind == pops.AckMsg && rc.Msg.Packet == int32(i):
			r.gotAck[i] = true
		}
	}
	relay := i-sh.Group(i)*sh.D < sh.G // the lowest-index processor of its group with its residue
	// The temporary group of the copy this processor relays.
	temp := func() int32 {
		if r.o.Mutant == MutantTempByGroup {
			return int32(sh.Group(int(r.relayDst[i])) % sh.G)
		}
		return r.relayDst[i] % g
	}
	switch {
	case k == 1:
		// A new step: the last one's ack ends the packet's duty; then the
		// coin and the random intermediate group.
		if r.gotAck[i] || r.o.Mutant == MutantNoAckWait && r.choice[i] >= 0 {
			r.pending[i] = false
		}
		r.reset(i)
		if r.pending[i] {
			if p := r.o.participation(sh, step); p >= 1 || rng.Float64() < p {
				r.choice[i] = int32(rng.IntN(sh.G))
			}
		}
		if r.choice[i] >= 0 {
			a.Send, a.To = index(buf, int32(i), pops.Original), []int32{r.choice[i]}
			if r.o.Mutant == MutantNoAckWait {
				a.Drop = []int32{a.Send}
			}
		}
		if relay {
			a.Listen, a.Keep = int32(i%sh.G), pops.KeepAll
		}
	case k == 2:
		if p := r.relayPkt[i]; p >= 0 {
			c := index(buf, p, pops.Copy)
			a.Send, a.To = c, []int32{temp()}
			if r.o.Mutant != MutantRelayKeeps {
				a.Drop = []int32{c}
			}
		}
		if relay {
			a.Listen, a.Keep = int32(i%sh.G), pops.KeepAll
		}
	case k == 3:
		if p := r.tempPkt[i]; p >= 0 {
			a.Ack, a.To = p, []int32{r.tempFrom[i]}
		}
		if r.relayPkt[i] >= 0 {
			a.Listen = temp()
		}
	case k == 4:
		if p := r.relayPkt[i]; p >= 0 && r.relayAck[i] {
			a.Ack, a.To = p, []int32{int32(sh.Group(int(p)))}
		}
		if r.choice[i] >= 0 {
			a.Listen = r.choice[i]
		}
	default: // delivery sub-slot j = k − 5
		j := k - 5
		if j == 0 && r.gotAck[i] && r.o.Mutant != MutantNoAckWait {
			a.Drop = append(a.Drop, index(buf, int32(i), pops.Original))
		}
		if p := r.tempPkt[i]; p >= 0 && (r.o.Variant != SplitDelivery || subSlot(sh, v.Dest(p)) == j) {
			c := index(buf, p, pops.Copy)
			a.Send, a.To = c, []int32{int32(sh.Group(int(v.Dest(p))))}
			a.Drop = append(a.Drop, c)
		}
		a.Listen, a.Keep = int32(i%sh.G), pops.KeepOwn
	}
	// An item the rules expect but the memory lacks (only a planted
	// mutant gets here) is simply not sent or dropped.
	if a.Send < 0 && a.Ack < 0 {
		a.Send, a.To = -1, nil
	}
	drop := a.Drop[:0]
	for _, d := range a.Drop {
		if d >= 0 {
			drop = append(drop, d)
		}
	}
	a.Drop = drop
	return a
}
