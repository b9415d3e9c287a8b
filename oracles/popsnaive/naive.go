package popsnaive

import (
	"fmt"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Step performs one slot of POPS(d, g) the slow, obvious way. It has the
// same contract as pops.Step: it returns the next state and the slot's
// events, or an error wrapping pops.ErrActions when an action is impossible
// (the error text differs from pops.Step's). s and a are never modified.
//
// Events list their entries in a fixed order (receptions by processor,
// conflicts by (To, From), deliveries by processor, losses by packet), but
// callers comparing with pops.Step should compare them as sets.
func Step(s pops.State, a []pops.Action) (pops.State, pops.Events, error) {
	d, g := s.Shape.D, s.Shape.G
	n := d * g
	group := func(i int) int { return i / d }

	// 1. Every action must be something the hardware can do.
	if len(a) != n {
		return pops.State{}, pops.Events{}, fmt.Errorf("%w: popsnaive: %d actions given, POPS(%d,%d) has %d processors",
			pops.ErrActions, len(a), d, g, n)
	}
	for i := 0; i < n; i++ {
		if problem := illegal(s, i, a[i]); problem != "" {
			return pops.State{}, pops.Events{}, fmt.Errorf("%w: popsnaive: processor %d %s", pops.ErrActions, i, problem)
		}
	}

	// 2. For every coupler c(b, src), count its senders by looking at every
	// processor. carrier[b][src] is the only sender, -1 when there is none,
	// -2 when there are several.
	var ev pops.Events
	carrier := make([][]int, g)
	for b := 0; b < g; b++ {
		carrier[b] = make([]int, g)
		for src := 0; src < g; src++ {
			senders := 0
			who := -1
			for j := 0; j < n; j++ {
				if group(j) != src || !sends(a[j]) {
					continue
				}
				if containsInt32(a[j].To, int32(b)) {
					senders++
					who = j
				}
			}
			switch {
			case senders == 0:
				carrier[b][src] = -1
			case senders == 1:
				carrier[b][src] = who
			default:
				carrier[b][src] = -2
				ev.Conflicts = append(ev.Conflicts, pops.Coupler{To: int32(b), From: int32(src)})
			}
		}
	}

	// 3. A fresh next state: same packets and flags, buffers without the
	// dropped entries (indices into the buffer at the start of the slot).
	next := pops.State{
		Shape:     s.Shape,
		Dst:       append([]int32(nil), s.Dst...),
		Buf:       make([][]pops.Item, n),
		Delivered: append([]bool(nil), s.Delivered...),
		Lost:      append([]bool(nil), s.Lost...),
		Slot:      s.Slot + 1,
	}
	for i := 0; i < n; i++ {
		for k, it := range s.Buf[i] {
			if !containsInt32(a[i].Drop, int32(k)) {
				next.Buf[i] = append(next.Buf[i], it)
			}
		}
	}

	// 4. Every listener reads its coupler c(group(i), Listen).
	for i := 0; i < n; i++ {
		if a[i].Listen == -1 {
			continue
		}
		c := pops.Coupler{To: int32(group(i)), From: a[i].Listen}
		j := carrier[c.To][c.From]
		if j < 0 {
			continue // silent coupler or conflict: nothing arrives
		}
		msg := message(s, j, a[j])
		ev.Received = append(ev.Received, pops.Reception{Proc: int32(i), Coupler: c, Msg: msg})
		if msg.Kind != pops.PacketMsg {
			continue // an ack stores nothing
		}
		p := msg.Packet
		if a[i].Keep == pops.KeepAll {
			next.Buf[i] = append(next.Buf[i], pops.Item{Packet: p, Kind: pops.Copy})
			continue
		}
		// KeepOwn: accepted only at the packet's destination.
		if s.Dst[p] != int32(i) {
			continue
		}
		next.Buf[i] = append(next.Buf[i], pops.Item{Packet: p, Kind: pops.Delivered})
		if next.Delivered[p] {
			ev.Duplicated = append(ev.Duplicated, p)
		} else {
			next.Delivered[p] = true
			ev.Delivered = append(ev.Delivered, p)
		}
	}

	// 5. A packet that exists, is not delivered and has no Original or Copy
	// left anywhere is lost (once).
	for p := 0; p < n; p++ {
		if s.Dst[p] == perm.None || next.Delivered[p] || next.Lost[p] {
			continue
		}
		if !heldSomewhere(next, int32(p)) {
			next.Lost[p] = true
			ev.Lost = append(ev.Lost, int32(p))
		}
	}
	return next, ev, nil
}

// illegal returns why processor i cannot perform act in state s, or "".
func illegal(s pops.State, i int, act pops.Action) string {
	n, g := s.Shape.D*s.Shape.G, s.Shape.G
	holds := len(s.Buf[i])
	switch {
	case act.Send < -1 || int(act.Send) >= holds:
		return fmt.Sprintf("sends buffer entry %d but holds %d packets", act.Send, holds)
	case act.Ack < -1 || int(act.Ack) >= n:
		return fmt.Sprintf("acks packet %d, packets are 0..%d", act.Ack, n-1)
	case act.Send != -1 && act.Ack != -1:
		return "sends a packet and an ack together"
	case sends(act) && len(act.To) == 0:
		return "sends a message to no coupler"
	case !sends(act) && len(act.To) != 0:
		return "names couplers but sends nothing"
	case act.Listen < -1 || int(act.Listen) >= g:
		return fmt.Sprintf("listens to group %d, groups are 0..%d", act.Listen, g-1)
	case act.Keep != pops.KeepAll && act.Keep != pops.KeepOwn:
		return fmt.Sprintf("has unknown Keep %d", act.Keep)
	}
	for x, b := range act.To {
		if b < 0 || int(b) >= g {
			return fmt.Sprintf("sends to group %d, groups are 0..%d", b, g-1)
		}
		for y, b2 := range act.To {
			if x != y && b == b2 {
				return fmt.Sprintf("sends to group %d twice", b)
			}
		}
	}
	for x, k := range act.Drop {
		if k < 0 || int(k) >= holds {
			return fmt.Sprintf("drops buffer entry %d but holds %d packets", k, holds)
		}
		for y, k2 := range act.Drop {
			if x != y && k == k2 {
				return fmt.Sprintf("drops buffer entry %d twice", k)
			}
		}
	}
	return ""
}

// sends reports whether an (already checked) action transmits a message.
func sends(act pops.Action) bool { return act.Send != -1 || act.Ack != -1 }

// message is what processor j puts on its couplers.
func message(s pops.State, j int, act pops.Action) pops.Message {
	if act.Send != -1 {
		return pops.Message{Kind: pops.PacketMsg, Packet: s.Buf[j][act.Send].Packet}
	}
	return pops.Message{Kind: pops.AckMsg, Packet: act.Ack}
}

// heldSomewhere reports whether some processor stores packet p as an
// Original or a Copy.
func heldSomewhere(s pops.State, p int32) bool {
	for _, buf := range s.Buf {
		for _, it := range buf {
			if it.Packet == p && (it.Kind == pops.Original || it.Kind == pops.Copy) {
				return true
			}
		}
	}
	return false
}

func containsInt32(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
