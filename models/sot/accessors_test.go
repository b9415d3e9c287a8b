package sot

import (
	"testing"

	"routecheck/models/perm"
)

// InFlight counts packets on either input, packet 0 included: SOT(3), P0
// (0,2) sends its only packet right (to (0,0), an input from the left) or
// down (to (1,2), an input from up); one packet is in flight either way.
func TestInFlight(t *testing.T) {
	for _, act := range []Action{{Right: Inject(0)}, {Down: Inject(0)}} {
		s := fresh(t, 3, []perm.Pair{{Src: 0, Dst: 1}})
		if k := s.InFlight(); k != 0 {
			t.Fatalf("%d in flight before any step", k)
		}
		s = mustStep(t, s, map[int]Action{s.ProcNode(0): act})
		if k := s.InFlight(); k != 1 {
			t.Errorf("after %+v: %d in flight, want 1", act, k)
		}
	}
}

// Action.Out returns the slot of the named output; a slot that injects
// nothing carries no packet (id −1, the package's "none"); an empty input
// is addressed to no processor, so a router comparing Dst with its own
// processor index never takes it for a packet of its own.
func TestSlotAccessors(t *testing.T) {
	a := Action{Right: FromLeft, Down: FromUp}
	if a.Out(Right) != FromLeft || a.Out(Down) != FromUp {
		t.Fatalf("Out: right %v, down %v", a.Out(Right), a.Out(Down))
	}
	for _, x := range []Slot{None, FromLeft, FromUp} {
		if id, ok := x.Packet(); ok || id != -1 {
			t.Errorf("%v.Packet() = %d, %v; want -1, false", x, id, ok)
		}
	}
	if id, ok := Inject(0).Packet(); !ok || id != 0 {
		t.Errorf("Inject(0).Packet() = %d, %v", id, ok)
	}
	if NoPacket.ID >= 0 || NoPacket.Dst >= 0 {
		t.Errorf("NoPacket = %+v names a packet or a processor", NoPacket)
	}
}
