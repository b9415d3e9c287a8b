package pops

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/perm"
)

// Router is a routing policy on the slot model: before every slot it gives
// each processor's action from what that processor may know — its own
// memory, the headers of the packets it holds or has heard, the messages it
// received in the previous slot, the slot number, and whatever it chose to
// remember itself. Randomness comes only from the rng argument.
//
// The interface lives here, beside Step, because it is the contract between
// the physics and any algorithm: routecheck's own routers (algos/pops) and a
// stranger's are driven by the same Drive and checked by the same suite
// (props/popstest). A Router must keep its per-processor memory separate
// (one entry per processor, read and written only in that processor's Act):
// the suite's locality property enforces it by running each instance again
// with a fresh Router per processor (each Start seeing the bits the shared
// one's drew) and requiring the same actions; declare
// popstest.Options.SharedKnowledge if yours is centralised on purpose.
type Router interface {
	// Start begins a run on sh; it is called once, before the first Act.
	// rng is for draws made in Start only: a Router must not keep it for
	// Act (draw there from Act's rng). The locality property hands every
	// per-processor Start a copy of the generator, so a kept copy would
	// replay bits the run has already used and fail the property.
	Start(sh Shape, rng *rand.Rand)
	// Act returns processor v.Proc()'s action for the next slot. It must not
	// keep or modify v's slices.
	Act(v Local, rng *rand.Rand) Action
}

// Local is one processor's view before a slot.
type Local struct {
	st    *State
	proc  int32
	heard []Reception
}

// Proc is the processor.
func (v Local) Proc() int32 { return v.proc }

// Shape is the network's shape.
func (v Local) Shape() Shape { return v.st.Shape }

// Slot is the number of slots stepped so far (the next slot is Slot()+1).
func (v Local) Slot() int { return v.st.Slot }

// Buf is the processor's memory (read-only).
func (v Local) Buf() []Item { return v.st.Buf[v.proc] }

// Heard lists the messages the processor received in the previous slot.
func (v Local) Heard() []Reception { return v.heard }

// Dest is the destination in packet p's header when the processor holds p,
// heard p itself in the previous slot (a packet message carries its
// header), or p is its own packet (its source always knows it); else
// perm.None — an ack names a packet but does not carry its header.
func (v Local) Dest(p int32) int32 {
	if p == v.proc && v.st.Dst[p] != perm.None {
		return v.st.Dst[p]
	}
	for _, it := range v.st.Buf[v.proc] {
		if it.Packet == p {
			return v.st.Dst[p]
		}
	}
	for _, r := range v.heard {
		if r.Msg.Kind == PacketMsg && r.Msg.Packet == p {
			return v.st.Dst[p]
		}
	}
	return perm.None
}

// DriveOptions bound a Drive.
type DriveOptions struct {
	// MaxSlots stops a run that has not become quiescent; must be ≥ 1.
	MaxSlots int
	// Observe, if set, sees every slot (its error stops the run).
	Observe func(slot int, acts []Action, before, after State, ev Events) error
}

// Quiescent reports whether every packet is delivered or lost and nothing
// but delivered packets remains in any memory: a run is over.
func Quiescent(s State) bool {
	for p, d := range s.Dst {
		if d != perm.None && !s.Delivered[p] && !s.Lost[p] {
			return false
		}
	}
	for _, b := range s.Buf {
		for _, it := range b {
			if it.Kind != Delivered {
				return false
			}
		}
	}
	return true
}

// Drive runs r on the slot model from the state with packets dst until the
// state is Quiescent or o.MaxSlots slots have run. It returns the last
// state and an error when the router's actions are illegal (wrapping
// ErrActions) or Observe stops the run; a run cut by MaxSlots is not an
// error (the returned state is not quiescent). Cost per slot: n calls to Act
// plus one Step.
func Drive(sh Shape, dst []int32, r Router, rng *rand.Rand, o DriveOptions) (State, error) {
	if o.MaxSlots < 1 {
		return State{}, fmt.Errorf("pops: Drive needs MaxSlots ≥ 1, got %d", o.MaxSlots)
	}
	st, err := NewState(sh, dst)
	if err != nil {
		return State{}, err
	}
	r.Start(sh, rng)
	n := sh.N()
	acts := make([]Action, n)
	heard := make([][]Reception, n)
	for !Quiescent(st) && st.Slot < o.MaxSlots {
		for i := range n {
			acts[i] = r.Act(Local{st: &st, proc: int32(i), heard: heard[i]}, rng)
		}
		next, ev, err := Step(st, acts)
		if err != nil {
			return st, fmt.Errorf("slot %d: %w", st.Slot+1, err)
		}
		if o.Observe != nil {
			if err := o.Observe(next.Slot, acts, st, next, ev); err != nil {
				return next, err
			}
		}
		for i := range heard {
			heard[i] = heard[i][:0]
		}
		for _, rc := range ev.Received {
			heard[rc.Proc] = append(heard[rc.Proc], rc)
		}
		st = next
	}
	return st, nil
}
