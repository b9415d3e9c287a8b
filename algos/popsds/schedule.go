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
	// PhaseMerge: the rigid variant's cross-sub-network merge stages (see
	// rigid.go); the faithful router has none.
	PhaseMerge
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
	case PhaseMerge:
		return "merge"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// SlotSchedule is one slot's communication pattern in the sense of Theorem
// 2.8's rigidity (000_de3be866f009217f.txt §II-C): for each processor i the
// set of groups it sends to, C_out(i, t) (nil when it sends nothing), whether
// that message is a header-only ack rather than a packet, the group it
// listens to, c_in(i, t) (−1 when it does not listen), and the sender it
// hears: the one processor of group c_in(i, t) whose message goes to i's
// group (−1: no sender there, −2: two or more, a conflict). What is sent,
// what is kept and what is dropped are not part of it.
type SlotSchedule struct {
	Phase  Phase
	To     [][]int32
	Ack    []bool
	Listen []int32
	Hears  []int32
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
		n := len(acts)
		s := SlotSchedule{Phase: ph, To: make([][]int32, n), Ack: make([]bool, n), Listen: make([]int32, n), Hears: make([]int32, n)}
		for i, a := range acts {
			if a.Send >= 0 || a.Ack >= 0 {
				to := slices.Clone(a.To)
				slices.Sort(to)
				s.To[i] = to
				s.Ack[i] = a.Send < 0
			}
			s.Listen[i] = a.Listen
		}
		for i := range acts {
			s.Hears[i] = -1
			b := s.Listen[i]
			if b < 0 {
				continue
			}
			for j := int(b) * sh.D; j < (int(b)+1)*sh.D; j++ {
				if slices.Contains(s.To[j], int32(sh.Group(i))) {
					if s.Hears[i] == -1 {
						s.Hears[i] = int32(j)
					} else {
						s.Hears[i] = -2
					}
				}
			}
		}
		sched = append(sched, s)
	}
	res, err := RouteWith(sh, dst, o)
	return sched, res, err
}

// DiffKind ranks the ways two slot patterns can differ at a processor, the
// strongest (the most relevant to Theorem 2.8's proof) first.
type DiffKind int

const (
	// DiffListen: the processor listens to two different groups.
	DiffListen DiffKind = iota
	// DiffSender: it listens to the same group but hears a different
	// unique sender (both hear exactly one).
	DiffSender
	// DiffTargets: it sends a packet in both, to different sets of groups.
	DiffTargets
	// DiffOther: send against silence, packet against ack, an ack's
	// targets, listening against not listening, or hearing one sender
	// against none or several.
	DiffOther
	// DiffLength: the schedules differ in length or in a slot's phase
	// (Proc −1).
	DiffLength
)

func (k DiffKind) String() string {
	switch k {
	case DiffListen:
		return "listen group"
	case DiffSender:
		return "sender heard"
	case DiffTargets:
		return "packet targets"
	case DiffOther:
		return "send/silence or ack"
	case DiffLength:
		return "length or phase"
	}
	return fmt.Sprintf("DiffKind(%d)", int(k))
}

// ProofRelevant says whether a difference of this kind breaks what
// Theorem 2.8's proof uses — that the sender j a listener i hears at slot t
// is fixed by (i, t), so P(i,t) ⊆ P(i,t−1) ∪ P(j,t−1) — rather than only the
// paper's literal definition (every send set and listen group fixed,
// silence included).
func (k DiffKind) ProofRelevant() bool { return k == DiffListen || k == DiffSender }

// Diff is a place two schedules differ: slot (from 1) and processor, with
// what each schedule does there (A first, then B).
type Diff struct {
	Kind         DiffKind
	Slot, Proc   int
	Phase        Phase
	ToA, ToB     []int32
	AckA, AckB   bool
	LisA, LisB   int32
	HearA, HearB int32
}

func (d Diff) String() string {
	if d.Proc < 0 {
		return fmt.Sprintf("%s difference at slot %d", d.Kind, d.Slot)
	}
	msg := func(to []int32, ack bool) string {
		switch {
		case to == nil:
			return "nothing"
		case ack:
			return fmt.Sprintf("an ack to %v", to)
		}
		return fmt.Sprintf("a packet to %v", to)
	}
	return fmt.Sprintf("%s difference at slot %d (%s), processor %d: sends %s / %s, listens to %d / %d, hears %d / %d",
		d.Kind, d.Slot, d.Phase, d.Proc, msg(d.ToA, d.AckA), msg(d.ToB, d.AckB), d.LisA, d.LisB, d.HearA, d.HearB)
}

// kindAt classifies the difference of a and b at processor i (ok = false
// when they agree there).
func kindAt(a, b SlotSchedule, i int) (DiffKind, bool) {
	switch {
	case a.Listen[i] >= 0 && b.Listen[i] >= 0 && a.Listen[i] != b.Listen[i]:
		return DiffListen, true
	case a.Listen[i] == b.Listen[i] && a.Hears[i] >= 0 && b.Hears[i] >= 0 && a.Hears[i] != b.Hears[i]:
		return DiffSender, true
	case a.To[i] != nil && b.To[i] != nil && !a.Ack[i] && !b.Ack[i] && !slices.Equal(a.To[i], b.To[i]):
		return DiffTargets, true
	case (a.To[i] == nil) != (b.To[i] == nil) || a.Ack[i] != b.Ack[i] || !slices.Equal(a.To[i], b.To[i]) ||
		a.Listen[i] != b.Listen[i] || a.Hears[i] != b.Hears[i]:
		return DiffOther, true
	}
	return 0, false
}

// Diffs compares two schedules on the slots whose phase keep accepts (nil:
// every slot) and returns the first difference of each kind that occurs,
// strongest kind first (empty when they agree there). Slots past the
// shorter schedule, or whose phases differ, give one DiffLength.
func Diffs(a, b []SlotSchedule, keep func(Phase) bool) []Diff {
	var first [DiffLength + 1]*Diff
	for t := range max(len(a), len(b)) {
		if t >= len(a) || t >= len(b) || a[t].Phase != b[t].Phase {
			if first[DiffLength] == nil {
				first[DiffLength] = &Diff{Kind: DiffLength, Slot: t + 1, Proc: -1}
			}
			if t >= len(a) || t >= len(b) {
				break
			}
			continue
		}
		if keep != nil && !keep(a[t].Phase) {
			continue
		}
		for i := range a[t].Listen {
			k, ok := kindAt(a[t], b[t], i)
			if !ok || first[k] != nil {
				continue
			}
			first[k] = &Diff{Kind: k, Slot: t + 1, Proc: i, Phase: a[t].Phase, ToA: a[t].To[i], ToB: b[t].To[i], AckA: a[t].Ack[i], AckB: b[t].Ack[i],
				LisA: a[t].Listen[i], LisB: b[t].Listen[i], HearA: a[t].Hears[i], HearB: b[t].Hears[i]}
		}
	}
	var out []Diff
	for _, d := range first {
		if d != nil {
			out = append(out, *d)
		}
	}
	return out
}

// FirstDiff returns the strongest witness of Diffs (the first difference of
// the strongest kind that occurs), or ok = false when the schedules agree.
func FirstDiff(a, b []SlotSchedule, keep func(Phase) bool) (Diff, bool) {
	if ds := Diffs(a, b, keep); len(ds) > 0 {
		return ds[0], true
	}
	return Diff{}, false
}
