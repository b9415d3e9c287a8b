package popsdet

import (
	"fmt"

	"routecheck/models/bipartite"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Slots is the slot count of Theorem 2.1: 1 when d = 1, 2⌈d/g⌉ when d > 1.
func Slots(sh pops.Shape) int {
	if sh.D == 1 {
		return 1
	}
	return 2 * ceilDiv(sh.D, sh.G)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// Plan is an off-line schedule of Theorem 2.1 for one permutation. Packet p
// (which starts at processor p) moves in round Round[p]: in slot
// 2·Round[p]+1 from p to processor Relay[p], in slot 2·Round[p]+2 from there
// to Dst[p]. For d = 1 there is a single slot, every Round is 0 and every
// Relay is −1 (packets go directly). The fields are exported so that tests can
// tamper with a plan and see the model catch it.
type Plan struct {
	Shape pops.Shape
	Dst   []int32
	Round []int32
	Relay []int32
}

// Slots is the number of slots the plan takes (Slots(Shape)).
func (pl Plan) Slots() int { return Slots(pl.Shape) }

// CheckShape returns an error unless d, g ≥ 1 and dg fits the model.
func CheckShape(sh pops.Shape) error {
	_, err := pops.NewShape(sh.D, sh.G)
	return err
}

// NewPlan computes the schedule of Theorem 2.1 for the permutation dst of
// N_n, n = dg (see the package comment). It returns an error for a bad shape
// or when dst is not a full permutation. Cost: König's colouring
// O(n·(g + k)) with k = g⌈d/g⌉ < d + g colours, plus the equitable balancing
// (nothing to do when g divides d; at most n path swaps otherwise);
// O(n + g·k) space.
func NewPlan(sh pops.Shape, dst []int32) (Plan, error) {
	if err := CheckShape(sh); err != nil {
		return Plan{}, err
	}
	n := sh.N()
	if len(dst) != n {
		return Plan{}, fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", len(dst), n)
	}
	if err := perm.Validate(dst, true); err != nil {
		return Plan{}, err
	}
	pl := Plan{Shape: sh, Dst: append([]int32(nil), dst...), Round: make([]int32, n), Relay: make([]int32, n)}
	if sh.D == 1 {
		for p := range pl.Relay {
			pl.Relay[p] = -1
		}
		return pl, nil
	}
	g := sh.G
	m := bipartite.Multigraph{L: g, R: g, Edges: make([]bipartite.Edge, n)}
	for p, q := range dst {
		m.Edges[p] = bipartite.Edge{U: int32(sh.Group(p)), V: int32(sh.Group(int(q)))}
	}
	k := g * ceilDiv(sh.D, g)
	col, err := bipartite.Equitable(m, k)
	if err != nil {
		panic("popsdet: colouring a d-regular group multigraph failed: " + err.Error())
	}
	used := make([]int32, k) // relays of colour class c handed out so far
	for p, c := range col {  // p increasing: relays in order of source processor
		h := int(c) % g
		if int(used[c]) >= sh.D {
			panic(fmt.Sprintf("popsdet: colour class %d has more than d = %d packets", c, sh.D))
		}
		pl.Round[p] = c / int32(g)
		pl.Relay[p] = int32(h*sh.D) + used[c]
		used[c]++
	}
	return pl, nil
}

// Observer sees every slot of a run: the slot (1-based), the actions, the
// state before and after, and the events. It must not modify its arguments.
type Observer func(slot int, acts []pops.Action, before, after pops.State, ev pops.Events)

// Result is what a run of a plan on the slot model did.
type Result struct {
	// Slots is the number of slots stepped.
	Slots int
	// Conflicts counts couplers with two or more senders, over all slots.
	Conflicts int
	// Delivered, Lost and Duplicated count packets as the model reports them.
	Delivered, Lost, Duplicated int
	// Completed is true when every packet was delivered.
	Completed bool
}

// Run executes the plan on the slot model: pops.Step for every slot, then
// pops.CheckInvariants. It returns the final state. An error means a model
// violation (an action the hardware rejects) or a broken model invariant —
// for a plan from NewPlan, a bug. obs may be nil.
func Run(pl Plan, obs Observer) (Result, pops.State, error) {
	sh := pl.Shape
	st, err := pops.NewState(sh, pl.Dst)
	if err != nil {
		return Result{}, pops.State{}, err
	}
	n := sh.N()
	if len(pl.Round) != n || len(pl.Relay) != n {
		return Result{}, st, fmt.Errorf("plan for %v has %d rounds and %d relays, want %d", sh, len(pl.Round), len(pl.Relay), n)
	}
	acts := make([]pops.Action, n)
	var res Result
	for s := range pl.Slots() {
		for i := range acts {
			acts[i] = pops.Idle()
		}
		if err := pl.actions(st, s, acts); err != nil {
			return res, st, fmt.Errorf("slot %d: %w", s+1, err)
		}
		next, ev, err := pops.Step(st, acts)
		if err != nil {
			return res, st, fmt.Errorf("model violation in slot %d: %w", s+1, err)
		}
		if err := pops.CheckInvariants(next); err != nil {
			return res, st, fmt.Errorf("after slot %d: %w", s+1, err)
		}
		res.Slots++
		res.Conflicts += len(ev.Conflicts)
		res.Duplicated += len(ev.Duplicated)
		if obs != nil {
			obs(s+1, acts, st, next, ev)
		}
		st = next
	}
	for p := range n {
		if st.Delivered[p] {
			res.Delivered++
		}
		if st.Lost[p] {
			res.Lost++
		}
	}
	res.Completed = res.Delivered == n
	return res, st, nil
}

// RunPerm plans and runs the permutation dst on POPS(sh).
func RunPerm(sh pops.Shape, dst []int32, obs Observer) (Result, error) {
	pl, err := NewPlan(sh, dst)
	if err != nil {
		return Result{}, err
	}
	res, _, err := Run(pl, obs)
	return res, err
}

func find(buf []pops.Item, p int32, kind pops.ItemKind) int32 {
	for k, it := range buf {
		if it.Packet == p && it.Kind == kind {
			return int32(k)
		}
	}
	return -1
}

// actions fills acts for slot s (0-based) from what each processor holds.
// Every sender drops what it sends in the same slot.
func (pl Plan) actions(st pops.State, s int, acts []pops.Action) error {
	sh := pl.Shape
	if sh.D == 1 {
		for p, q := range pl.Dst {
			k := find(st.Buf[p], int32(p), pops.Original)
			if k < 0 {
				return fmt.Errorf("processor %d does not hold packet %d", p, p)
			}
			acts[p].Send, acts[p].To, acts[p].Drop = k, []int32{int32(sh.Group(int(q)))}, []int32{k}
			acts[q].Listen, acts[q].Keep = int32(sh.Group(p)), pops.KeepOwn
		}
		return nil
	}
	round, second := int32(s/2), s%2 == 1
	for p, q := range pl.Dst {
		if pl.Round[p] != round {
			continue
		}
		r := int(pl.Relay[p])
		if r < 0 || r >= sh.N() {
			return fmt.Errorf("packet %d has relay %d, outside [0, %d)", p, r, sh.N())
		}
		h := int32(sh.Group(r))
		if !second {
			k := find(st.Buf[p], int32(p), pops.Original)
			if k < 0 {
				return fmt.Errorf("processor %d does not hold packet %d", p, p)
			}
			if acts[p].Send >= 0 {
				return fmt.Errorf("processor %d would send twice", p)
			}
			acts[p].Send, acts[p].To, acts[p].Drop = k, []int32{h}, []int32{k}
			if acts[r].Listen >= 0 {
				return fmt.Errorf("relay %d would listen to two couplers", r)
			}
			acts[r].Listen, acts[r].Keep = int32(sh.Group(p)), pops.KeepAll
			continue
		}
		k := find(st.Buf[r], int32(p), pops.Copy)
		if k < 0 {
			// The copy never arrived (a conflict in the first slot): the
			// model has already reported the packet lost.
			continue
		}
		if acts[r].Send >= 0 {
			return fmt.Errorf("relay %d would send twice", r)
		}
		acts[r].Send, acts[r].To, acts[r].Drop = k, []int32{int32(sh.Group(int(q)))}, []int32{k}
		acts[q].Listen, acts[q].Keep = h, pops.KeepOwn
	}
	return nil
}
