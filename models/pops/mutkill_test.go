package pops

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"routecheck/models/perm"
)

// Tests for the gremlins survivors of router.go (issue 9 E; per mutant:
// docs/mutation/models_pops.md). Expected values come from the doc comments
// of Local.Dest, Quiescent and Drive.

// scripted plays a fixed action per (slot, processor) and records Dest.
type scripted struct {
	acts map[[2]int32]Action
	ask  map[[3]int32]int32 // (slot, proc, packet) → Dest seen
}

func (r *scripted) Start(Shape, *rand.Rand) { r.ask = map[[3]int32]int32{} }

func (r *scripted) Act(v Local, _ *rand.Rand) Action {
	for q := int32(0); q < 4; q++ {
		r.ask[[3]int32{int32(v.Slot()), v.Proc(), q}] = v.Dest(q)
	}
	if a, ok := r.acts[[2]int32{int32(v.Slot()), v.Proc()}]; ok {
		return a
	}
	return Idle()
}

// TestLocalDestAfterDropAndDiscard, on POPS(2,2) with dst = 3 2 1 0 (groups
// {0,1}, {2,3}). Slot 1: processor 0 sends its packet 0 to group 1 and drops
// it; processors 2 (KeepOwn: not its packet, read and discarded) and 3
// (KeepOwn: delivered) listen to group 0; processor 1 sends an ack naming
// packet 3 to group 0, which processor 0 hears. Before slot 2, by Dest's doc:
// processor 0 still knows its own packet's destination (3) though it no
// longer holds it; processor 2 knows packet 0's (3) from the packet it heard
// but not packet 1's (never seen); processor 0 does not learn packet 3's
// from an ack (None).
func TestLocalDestAfterDropAndDiscard(t *testing.T) {
	r := &scripted{acts: map[[2]int32]Action{
		{0, 0}: {Send: 0, Ack: -1, To: []int32{1}, Listen: 0, Drop: []int32{0}},
		{0, 1}: {Send: -1, Ack: 3, To: []int32{0}, Listen: -1},
		{0, 2}: {Send: -1, Ack: -1, Listen: 0, Keep: KeepOwn},
		{0, 3}: {Send: -1, Ack: -1, Listen: 0, Keep: KeepOwn},
	}}
	st, err := Drive(Shape{D: 2, G: 2}, []int32{3, 2, 1, 0}, r, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Delivered[0] || len(st.Buf[0]) != 0 || len(st.Buf[2]) != 1 {
		t.Fatalf("setup: delivered %v, buffers %v", st.Delivered, st.Buf)
	}
	for _, c := range []struct{ proc, pkt, want int32 }{
		{0, 0, 3},         // own packet, sent and dropped
		{2, 0, 3},         // heard, discarded (KeepOwn), not held
		{2, 1, perm.None}, // never seen; processor 2 heard only packet 0
		{0, 3, perm.None}, // named by an ack only
		{0, 1, perm.None}, // never seen
	} {
		if got := r.ask[[3]int32{1, c.proc, c.pkt}]; got != c.want {
			t.Errorf("before slot 2, processor %d: Dest(%d) = %d, want %d", c.proc, c.pkt, got, c.want)
		}
	}
}

// TestQuiescentCases: no packets at all is quiescent; every packet delivered
// or lost with only delivered items left is quiescent; one copy left is not.
func TestQuiescentCases(t *testing.T) {
	empty, err := NewState(Shape{D: 1, G: 2}, []int32{perm.None, perm.None})
	if err != nil {
		t.Fatal(err)
	}
	if !Quiescent(empty) {
		t.Errorf("a state without packets is not quiescent")
	}
	done := State{
		Shape:     Shape{D: 1, G: 2},
		Dst:       []int32{1, 0},
		Buf:       [][]Item{{{Packet: 1, Kind: Delivered}}, nil},
		Delivered: []bool{false, true},
		Lost:      []bool{true, false},
	}
	if err := CheckInvariants(done); err != nil {
		t.Fatal(err)
	}
	if !Quiescent(done) {
		t.Errorf("packet 1 delivered, packet 0 lost, nothing else held: not quiescent")
	}
	left := done.Clone()
	left.Buf[1] = []Item{{Packet: 1, Kind: Copy}}
	if err := CheckInvariants(left); err != nil {
		t.Fatal(err)
	}
	if Quiescent(left) {
		t.Errorf("a copy still held: quiescent")
	}
}

// TestDriveSlotLimit: Drive runs exactly MaxSlots slots of a router that
// never delivers (MaxSlots = 1 is allowed, 0 is not).
func TestDriveSlotLimit(t *testing.T) {
	for _, m := range []int{1, 3} {
		st, err := Drive(Shape{D: 1, G: 2}, []int32{1, 0}, &scripted{}, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: m})
		if err != nil || st.Slot != m || Quiescent(st) {
			t.Errorf("MaxSlots %d: slot %d, quiescent %v, error %v; want %d slots, not quiescent, no error", m, st.Slot, Quiescent(st), err, m)
		}
	}
	if _, err := Drive(Shape{D: 1, G: 2}, []int32{1, 0}, &scripted{}, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 0}); err == nil {
		t.Errorf("MaxSlots 0: no error")
	}
}

// TestDriveStops: an illegal action in slot 2 stops the run with an error
// naming slot 2 and wrapping ErrActions, returning the state before it; an
// Observe error stops the run after that slot; an Observe that returns nil
// sees every slot and stops nothing.
func TestDriveStops(t *testing.T) {
	sh, dst := Shape{D: 1, G: 2}, []int32{1, 0}
	bad := &scripted{acts: map[[2]int32]Action{{1, 0}: {Send: 5, Ack: -1, To: []int32{1}, Listen: -1}}}
	st, err := Drive(sh, dst, bad, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 4})
	if !errors.Is(err, ErrActions) || !strings.HasPrefix(err.Error(), "slot 2: ") || st.Slot != 1 {
		t.Errorf("illegal action in slot 2: state after slot %d, error %v", st.Slot, err)
	}
	stop := errors.New("stop")
	var seen []int
	st, err = Drive(sh, dst, &scripted{}, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 4,
		Observe: func(slot int, _ []Action, before, after State, _ Events) error {
			seen = append(seen, slot)
			if before.Slot != slot-1 || after.Slot != slot {
				t.Errorf("Observe(%d): before %d, after %d", slot, before.Slot, after.Slot)
			}
			if slot == 2 {
				return stop
			}
			return nil
		}})
	if err != stop || st.Slot != 2 || len(seen) != 2 {
		t.Errorf("Observe stops at slot 2: state after slot %d, slots seen %v, error %v", st.Slot, seen, err)
	}
	seen = nil
	st, err = Drive(sh, dst, &scripted{}, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 4,
		Observe: func(slot int, _ []Action, _, _ State, _ Events) error { seen = append(seen, slot); return nil }})
	if err != nil || st.Slot != 4 || len(seen) != 4 {
		t.Errorf("Observe returning nil: state after slot %d, slots seen %v, error %v", st.Slot, seen, err)
	}
}
