package popsds

import (
	"fmt"
	"slices"

	"routecheck/models/pops"
)

// Phase names the part of the router a slot belongs to.
type Phase int

// The phases, in the order a sub-network goes through them (the final
// rounds come after every sub-network).
const (
	// PhaseSort: the odd-even merge sort of a sub-network (2 slots a stage).
	PhaseSort Phase = iota
	// PhaseShift: the two neighbour shifts of the run information (4 slots).
	PhaseShift
	// PhaseInfo: run starts and ends report to group h and the broadcasts
	// (5 slots).
	PhaseInfo
	// PhaseWave: the wave slots of a sub-network.
	PhaseWave
	// PhaseFinal: the final rounds (d/g slots).
	PhaseFinal
)

func (p Phase) String() string {
	switch p {
	case PhaseSort:
		return "sort"
	case PhaseShift:
		return "shift"
	case PhaseInfo:
		return "info"
	case PhaseWave:
		return "wave"
	case PhaseFinal:
		return "final"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// SlotSchedule is one slot's communication pattern in the sense of Theorem
// 2.8's rigidity (000_de3be866f009217f.txt §II-C): for each processor i the
// set of groups it sends to, C_out(i, t) (nil when it sends nothing, packet
// or ack), and the group it listens to, c_in(i, t) (−1 when it does not
// listen). What is sent, what is kept and what is dropped are not part of it.
type SlotSchedule struct {
	Phase  Phase
	To     [][]int32
	Listen []int32
}

// Schedule runs RouteWith with an observer and returns, beside its result,
// the communication pattern of every slot (index t−1 for slot t). o.Observe
// must be nil (Schedule sets it).
func Schedule(sh pops.Shape, dst []int32, o Options) ([]SlotSchedule, Result, error) {
	if o.Observe != nil {
		return nil, Result{}, fmt.Errorf("popsds.Schedule: Options.Observe must be nil")
	}
	var sched []SlotSchedule
	o.Observe = func(_ int, ph Phase, _ pops.State, acts []pops.Action) {
		s := SlotSchedule{Phase: ph, To: make([][]int32, len(acts)), Listen: make([]int32, len(acts))}
		for i, a := range acts {
			if a.Send >= 0 || a.Ack >= 0 {
				to := slices.Clone(a.To)
				slices.Sort(to)
				s.To[i] = to
			}
			s.Listen[i] = a.Listen
		}
		sched = append(sched, s)
	}
	res, err := RouteWith(sh, dst, o)
	return sched, res, err
}

// Diff is the first place two schedules differ: slot (from 1) and
// processor, with what each schedule does there.
type Diff struct {
	Slot, Proc int
	Phase      Phase
	ToA, ToB   []int32
	LisA, LisB int32
}

func (d Diff) String() string {
	return fmt.Sprintf("slot %d (%s), processor %d: sends to %v / %v, listens to %d / %d", d.Slot, d.Phase, d.Proc, d.ToA, d.ToB, d.LisA, d.LisB)
}

// FirstDiff compares two schedules on the slots whose phase keep accepts
// (nil: every slot) and returns the first difference, or ok = false when
// they agree there. Schedules of different lengths differ at the first slot
// one of them lacks (reported with Proc −1).
func FirstDiff(a, b []SlotSchedule, keep func(Phase) bool) (Diff, bool) {
	for t := range max(len(a), len(b)) {
		if t >= len(a) || t >= len(b) {
			return Diff{Slot: t + 1, Proc: -1}, true
		}
		if a[t].Phase != b[t].Phase {
			return Diff{Slot: t + 1, Proc: -1, Phase: a[t].Phase}, true
		}
		if keep != nil && !keep(a[t].Phase) {
			continue
		}
		for i := range a[t].Listen {
			if a[t].Listen[i] != b[t].Listen[i] || !slices.Equal(a[t].To[i], b[t].To[i]) || (a[t].To[i] == nil) != (b[t].To[i] == nil) {
				return Diff{Slot: t + 1, Proc: i, Phase: a[t].Phase, ToA: a[t].To[i], ToB: b[t].To[i], LisA: a[t].Listen[i], LisB: b[t].Listen[i]}, true
			}
		}
	}
	return Diff{}, false
}
