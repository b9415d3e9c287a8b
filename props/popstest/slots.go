package popstest

import (
	"fmt"
	"slices"

	"routecheck/models/pops"
)

// The per-slot properties live here, once: the suite's own runs (Drive)
// feed a SlotCheck after every slot, and so does any other driver of the
// slot model — routecheck's claims about the §III router
// (props/pops, driving algos/pops.RunOnModel) judge conflicts, losses,
// duplicates and memory with it rather than with a count of their own.

// Memory says which packets count against a buffer bound (a processor's
// memory after a slot). The three are §III-A's three accountings
// (000_de3be866f009217f.txt, last paragraph).
type Memory int

const (
	// MemoryAll counts every item a processor holds: originals, copies and
	// delivered packets (the zero value).
	MemoryAll Memory = iota
	// MemoryDeliveredLeave lets a delivered packet leave the slot after it
	// arrives: it counts only in the slot it is accepted in.
	MemoryDeliveredLeave
	// MemoryFeedingLine is MemoryDeliveredLeave with the originals waiting
	// on an external feeding line: they do not count.
	MemoryFeedingLine
)

var memoryNames = [...]string{"every packet held", "delivered packets leave after their arrival slot", "delivered packets leave, originals on a feeding line"}

func (m Memory) String() string {
	if m >= 0 && int(m) < len(memoryNames) {
		return memoryNames[m]
	}
	return fmt.Sprintf("Memory(%d)", int(m))
}

// Held is the number of packets processor i holds after a slot under m:
// after is the state after the slot and ev its events (a packet accepted
// at i in this slot, first time or again, is fresh). Cost O(|Buf[i]| +
// |events|).
func Held(m Memory, after pops.State, ev pops.Events, i int) int {
	fresh := 0
	for _, p := range ev.Delivered {
		if int(after.Dst[p]) == i {
			fresh++
		}
	}
	for _, p := range ev.Duplicated {
		if int(after.Dst[p]) == i {
			fresh++
		}
	}
	if m < 0 || int(m) >= len(memoryNames) {
		panic(fmt.Sprintf("popstest: Held: unknown %v", m))
	}
	return held(after, i, fresh)[m]
}

// held is what processor i holds under each Memory, given the packets
// accepted at i in the slot (fresh): the one place the accountings are
// defined.
func held(after pops.State, i, fresh int) [3]int {
	o, c, _ := after.Occupancy(i)
	return [3]int{len(after.Buf[i]), o + c + fresh, c + fresh}
}

// SlotFailure is a property broken in a slot: the property (invariants,
// conservation, buffer or conflicts), the slot (1-based, counted from
// the start of the run) and what happened.
type SlotFailure struct {
	Property string
	Slot     int
	Message  string
}

// Peak is the most packets one processor held after any slot under one
// Memory accounting, and where it was first reached.
type Peak struct {
	Held, Slot, Proc int
}

// SlotReport is what a SlotCheck found: the first failure of each
// property, in the order found, and the peak memory under each Memory
// accounting.
type SlotReport struct {
	Failures []SlotFailure
	Peaks    [3]Peak
}

// Broke returns the failure of property, if the run broke it.
func (r SlotReport) Broke(property string) (SlotFailure, bool) {
	for _, f := range r.Failures {
		if f.Property == property {
			return f, true
		}
	}
	return SlotFailure{}, false
}

// Over words, when a processor held more than max packets under m after
// some slot, the buffer failure the suite reports for that bound (with
// the slot the peak was first reached), and returns "" otherwise: the
// buffer property for a bound the run was not checked against.
func (r SlotReport) Over(m Memory, max int) string {
	if p := r.Peaks[m]; p.Held > max {
		return bufferMessage(p.Proc, p.Held, max, m)
	}
	return ""
}

// Terse is r without the failures' messages (what a cache of many runs
// keeps; the properties, slots and peaks stay).
func (r SlotReport) Terse() SlotReport {
	r.Failures = slices.Clone(r.Failures)
	for i := range r.Failures {
		r.Failures[i].Message = ""
	}
	return r
}

func bufferMessage(proc, held, max int, m Memory) string {
	s := fmt.Sprintf("processor %d holds %d packets, more than the declared %d", proc, held, max)
	if m != MemoryAll {
		s += " (" + m.String() + ")"
	}
	return s
}

// SlotCheck checks, slot by slot, the properties of a run of the slot model
// that do not depend on the router: the model's invariants
// (pops.CheckInvariants: invariants), no packet lost or delivered twice
// (the model's Lost and Duplicated events: conservation), no processor
// over the declared buffer bound (Options.MaxBuffer under Options.Memory:
// buffer), and no conflict in a slot declared conflict-free
// (Options.ConflictFree: conflicts). Feed it every slot in order with
// Observe; Report says what it found. The zero value is not usable: use
// NewSlotCheck.
type SlotCheck struct {
	o      Options
	report SlotReport
	broke  map[string]bool
	fresh  []int // per processor: packets accepted there in the slot
}

// NewSlotCheck returns a check for the bounds declared in o (MaxBuffer,
// Memory, ConflictFree; the rest of o is ignored).
func NewSlotCheck(o Options) *SlotCheck {
	return &SlotCheck{o: o, broke: map[string]bool{}}
}

func (c *SlotCheck) fail(prop string, slot int, format string, a ...any) {
	if !c.broke[prop] {
		c.broke[prop] = true
		c.report.Failures = append(c.report.Failures, SlotFailure{prop, slot, fmt.Sprintf(format, a...)})
	}
}

// Observe checks one slot: after is the state after it (after.Slot is the
// slot's number) and ev its events. Cost O(n + items + events).
func (c *SlotCheck) Observe(after pops.State, ev pops.Events) {
	slot := after.Slot
	if err := pops.CheckInvariants(after); err != nil {
		c.fail("invariants", slot, "%v", err)
	}
	if len(ev.Lost) > 0 {
		c.fail("conservation", slot, "packets %v lost (no original or copy left, undelivered)", ev.Lost)
	}
	if len(ev.Duplicated) > 0 {
		c.fail("conservation", slot, "packets %v delivered a second time", ev.Duplicated)
	}
	if len(ev.Conflicts) > 0 && c.o.ConflictFree != nil && c.o.ConflictFree(slot) {
		c.fail("conflicts", slot, "couplers %v have two or more senders in a slot declared conflict-free", ev.Conflicts)
	}
	if len(c.fresh) != len(after.Buf) {
		c.fresh = make([]int, len(after.Buf))
	}
	clear(c.fresh)
	for _, p := range ev.Delivered {
		c.fresh[after.Dst[p]]++
	}
	for _, p := range ev.Duplicated {
		c.fresh[after.Dst[p]]++
	}
	for i := range after.Buf {
		hs := held(after, i, c.fresh[i])
		for m, h := range hs {
			if h > c.report.Peaks[m].Held {
				c.report.Peaks[m] = Peak{h, slot, i}
			}
		}
		if c.o.MaxBuffer > 0 && (c.o.Memory < 0 || int(c.o.Memory) >= len(hs)) {
			c.fail("buffer", slot, "Options.Memory = %d: allowed 0 (MemoryAll), 1 (MemoryDeliveredLeave), 2 (MemoryFeedingLine)", int(c.o.Memory))
		} else if c.o.MaxBuffer > 0 {
			if h := hs[c.o.Memory]; h > c.o.MaxBuffer {
				c.fail("buffer", slot, "%s", bufferMessage(i, h, c.o.MaxBuffer, c.o.Memory))
			}
		}
	}
}

// Report returns what the check found so far.
func (c *SlotCheck) Report() SlotReport { return c.report }
