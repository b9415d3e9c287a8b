package popstest_test

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/pops"
	"routecheck/props/popstest"
)

// TestHeld: §III-A's three accountings on a hand-built memory. Processor 0
// of POPS(2,1) holds its original, a copy of packet 1, and packet 1
// accepted in this very slot (a Delivered event): 3 items; with delivered
// packets leaving after their arrival slot the fresh one still counts (3);
// on a feeding line the original does not (2). A delivered packet of an
// earlier slot counts only under MemoryAll.
func TestHeld(t *testing.T) {
	st, err := pops.NewState(pops.Shape{D: 2, G: 1}, []int32{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	st.Buf[0] = []pops.Item{{Packet: 0, Kind: pops.Original}, {Packet: 1, Kind: pops.Copy}, {Packet: 1, Kind: pops.Delivered}}
	fresh := pops.Events{Delivered: []int32{1}}
	for m, want := range map[popstest.Memory]int{popstest.MemoryAll: 3, popstest.MemoryDeliveredLeave: 3, popstest.MemoryFeedingLine: 2} {
		if got := popstest.Held(m, st, fresh, 0); got != want {
			t.Errorf("fresh delivery, %v: %d, want %d", m, got, want)
		}
	}
	for m, want := range map[popstest.Memory]int{popstest.MemoryAll: 3, popstest.MemoryDeliveredLeave: 2, popstest.MemoryFeedingLine: 1} {
		if got := popstest.Held(m, st, pops.Events{}, 0); got != want {
			t.Errorf("delivered earlier, %v: %d, want %d", m, got, want)
		}
	}
}

// TestSlotCheck: the per-slot properties on runs whose outcome is known
// by hand. The direct toy on POPS(2,1) with the swap [1 0] sends both
// packets on the one coupler c(0,0) in slot 1: a conflict (reported only
// where the slot is declared conflict-free) and both packets lost
// (conservation). The slot-clock tdm router delivers the swap without a
// conflict, holding at most 2 packets (its original and the delivered
// one), 1 on a feeding line.
func TestSlotCheck(t *testing.T) {
	run := func(r pops.Router, o popstest.Options) popstest.SlotReport {
		chk := popstest.NewSlotCheck(o)
		_, err := pops.Drive(pops.Shape{D: 2, G: 1}, []int32{1, 0}, r, rand.New(rand.NewPCG(1, 2)), pops.DriveOptions{MaxSlots: 20,
			Observe: func(_ int, _ []pops.Action, _, after pops.State, ev pops.Events) error {
				chk.Observe(after, ev)
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		return chk.Report()
	}
	all := func(int) bool { return true }
	rep := run(direct{}, popstest.Options{ConflictFree: all})
	if f, ok := rep.Broke("conflicts"); !ok || f.Slot != 1 {
		t.Errorf("direct, slot 1 declared conflict-free: %+v, want a conflict in slot 1", rep)
	}
	if f, ok := rep.Broke("conservation"); !ok || f.Slot != 1 {
		t.Errorf("direct: %+v, want both packets lost in slot 1", rep)
	}
	if rep := run(direct{}, popstest.Options{}); len(rep.Failures) != 1 || rep.Failures[0].Property != "conservation" {
		t.Errorf("direct, no slot declared conflict-free: %+v, want conservation alone", rep.Failures)
	}
	rep = run(&tdm{}, popstest.Options{ConflictFree: all, MaxBuffer: 1})
	if f, ok := rep.Broke("buffer"); !ok || len(rep.Failures) != 1 {
		t.Errorf("tdm, buffer 1: %+v, want the buffer failure alone", rep.Failures)
	} else if f.Message != rep.Over(popstest.MemoryAll, 1) {
		t.Errorf("the buffer failure %q and Over's wording %q differ", f.Message, rep.Over(popstest.MemoryAll, 1))
	}
	if got := [3]int{rep.Peaks[0].Held, rep.Peaks[1].Held, rep.Peaks[2].Held}; got != [3]int{2, 2, 1} {
		t.Errorf("tdm peaks %v, want [2 2 1]", got)
	}
	if rep.Over(popstest.MemoryAll, 2) != "" || rep.Over(popstest.MemoryFeedingLine, 0) == "" {
		t.Errorf("Over: at the peak %q, below it %q", rep.Over(popstest.MemoryAll, 2), rep.Over(popstest.MemoryFeedingLine, 0))
	}
	if rep := run(&tdm{}, popstest.Options{MaxBuffer: 1, Memory: popstest.MemoryFeedingLine}); len(rep.Failures) != 0 {
		t.Errorf("tdm, buffer 1 on a feeding line: %+v, want none", rep.Failures)
	}
}
