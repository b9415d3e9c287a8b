package popsdet

import (
	"cmp"
	"fmt"
	"sync"

	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
)

// Exchange returns the exchange permutation of a stage on n wires: π(I) = J
// and π(J) = I for every comparator [I:J], π(x) = x on the other wires (the
// proof of Lemma 2.2 allows any extension). It returns an error when the
// stage is not valid on n wires.
func Exchange(n int, st sortnet.Stage) ([]int32, error) {
	if err := (sortnet.Network{N: n, Stages: []sortnet.Stage{st}}).Validate(); err != nil {
		return nil, err
	}
	pi := perm.Identity(n)
	for _, c := range st {
		pi[c.I], pi[c.J] = c.J, c.I
	}
	return pi, nil
}

// StagePlan is a comparator stage compiled for POPS(d, g): the Theorem 2.1
// schedule of an exchange permutation, and each processor's role.
type StagePlan struct {
	Plan
	// Partner[i] is the other wire of i's comparator, or −1.
	Partner []int32
	// Low[i] is true when i is the I (minimum) side of its comparator.
	Low []bool
}

// CompileStage compiles st with the exchange permutation extended by fixed
// points (Exchange).
func CompileStage(sh pops.Shape, st sortnet.Stage) (StagePlan, error) {
	if err := CheckShape(sh); err != nil {
		return StagePlan{}, err
	}
	pi, err := Exchange(sh.N(), st)
	if err != nil {
		return StagePlan{}, err
	}
	return CompileStageWith(sh, st, pi)
}

// CompileStageWith compiles st with the permutation pi, which must be a
// permutation of N_n agreeing with the stage's exchanges (π(I) = J, π(J) = I)
// and arbitrary elsewhere, as Lemma 2.2's proof allows.
func CompileStageWith(sh pops.Shape, st sortnet.Stage, pi []int32) (StagePlan, error) {
	n := sh.N()
	if err := (sortnet.Network{N: n, Stages: []sortnet.Stage{st}}).Validate(); err != nil {
		return StagePlan{}, err
	}
	pl, err := NewPlan(sh, pi)
	if err != nil {
		return StagePlan{}, err
	}
	sp := StagePlan{Plan: pl, Partner: make([]int32, n), Low: make([]bool, n)}
	for i := range sp.Partner {
		sp.Partner[i] = -1
	}
	for _, c := range st {
		if pi[c.I] != c.J || pi[c.J] != c.I {
			return StagePlan{}, fmt.Errorf("permutation sends %d to %d and %d to %d, comparator [%d:%d] needs an exchange", c.I, pi[c.I], c.J, pi[c.J], c.I, c.J)
		}
		sp.Partner[c.I], sp.Partner[c.J] = c.J, c.I
		sp.Low[c.I] = true
	}
	return sp, nil
}

// Simulate runs the compiled stage on the slot model: processor i holds
// vals[i]; the routing delivers to every processor the packet of the
// processor π⁻¹(i), whose value it reads; a comparator's I side keeps the
// minimum, its J side the maximum, and every other processor keeps its own
// value. It returns the new values (vals is not modified) and the run.
// An error means a model violation or a delivery missing at a comparator.
func Simulate[T cmp.Ordered](sp StagePlan, vals []T) ([]T, Result, error) {
	n := sp.Shape.N()
	if len(vals) != n {
		return nil, Result{}, fmt.Errorf("%d values for n = %d processors", len(vals), n)
	}
	res, err := runStage(sp)
	if err != nil {
		return nil, res, err
	}
	return applyStage(sp, vals), res, nil
}

// runStage routes the stage's exchange permutation on the slot model and
// checks that every comparator processor ends holding its partner's packet.
// Nothing here depends on the values compared, so SortRouter runs it once
// per stage.
func runStage(sp StagePlan) (Result, error) {
	res, st, err := Run(sp.Plan, nil)
	if err != nil {
		return res, err
	}
	for j := range sp.Shape.N() {
		if sp.Partner[j] < 0 {
			continue
		}
		// What processor j received, read from the model's final state.
		from := int32(-1)
		for _, it := range st.Buf[j] {
			if it.Kind == pops.Delivered {
				from = it.Packet
			}
		}
		if from != sp.Partner[j] {
			return res, fmt.Errorf("processor %d holds packet %d at the end, wanted its partner's %d", j, from, sp.Partner[j])
		}
	}
	return res, nil
}

// applyStage is the comparator stage on vals, valid once runStage has
// confirmed that every comparator processor received its partner's value:
// the I side keeps the minimum, the J side the maximum, every other
// processor its own value. vals is not modified.
func applyStage[T cmp.Ordered](sp StagePlan, vals []T) []T {
	out := make([]T, len(vals))
	for j, v := range vals {
		out[j] = v
		if from := sp.Partner[j]; from >= 0 {
			if sp.Low[j] {
				out[j] = min(v, vals[from])
			} else {
				out[j] = max(v, vals[from])
			}
		}
	}
	return out
}

// SimulateStage compiles st (exchange extended by fixed points) and simulates
// it on vals: Lemma 2.2.
func SimulateStage[T cmp.Ordered](sh pops.Shape, st sortnet.Stage, vals []T) ([]T, Result, error) {
	sp, err := CompileStage(sh, st)
	if err != nil {
		return nil, Result{}, err
	}
	return Simulate(sp, vals)
}

// SortRouter is the on-line router of Corollary 2.4 in its direct version:
// sort the n packets by destination with a comparator network on n = dg
// wires, each stage simulated by Lemma 2.2. Its schedules are compiled from
// the network alone, and so is each stage's run on the slot model (the
// routing of the stage's exchange permutation does not depend on the keys
// compared): a stage is simulated the first time a Route reaches it and its
// outcome (slot counts, or the error) is kept for every later Route. A
// SortRouter is safe for concurrent use.
type SortRouter struct {
	sh     pops.Shape
	nw     sortnet.Network
	stages []StagePlan
	runs   []stageRun // runs[k] is stages[k] on the slot model, once
}

// stageRun is runStage's outcome for one stage, computed once. The stage
// plan it is computed from is fixed when the router is built and never
// modified, so the stage index is the whole key.
type stageRun struct {
	once sync.Once
	res  Result
	err  error
}

// run returns runStage(r.stages[k]), simulating the stage on first use.
func (r *SortRouter) run(k int) (Result, error) {
	sr := &r.runs[k]
	sr.once.Do(func() { sr.res, sr.err = runStage(r.stages[k]) })
	return sr.res, sr.err
}

// NewSortRouter compiles nw for POPS(sh). It returns an error for a bad
// shape, a network that is invalid or not on n = dg wires. It does not check
// that nw sorts: a network that does not sort leaves packets undelivered,
// and Route reports it.
func NewSortRouter(sh pops.Shape, nw sortnet.Network) (*SortRouter, error) {
	if err := CheckShape(sh); err != nil {
		return nil, err
	}
	if nw.N != sh.N() {
		return nil, fmt.Errorf("network on %d wires for %v: need n = d·g = %d wires", nw.N, sh, sh.N())
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	r := &SortRouter{sh: sh, nw: nw, stages: make([]StagePlan, len(nw.Stages)), runs: make([]stageRun, len(nw.Stages))}
	for k, st := range nw.Stages {
		sp, err := CompileStage(sh, st)
		if err != nil {
			return nil, fmt.Errorf("stage %d: %w", k, err)
		}
		r.stages[k] = sp
	}
	return r, nil
}

// Slots is Depth · Slots(shape): stages × (1 or 2⌈d/g⌉).
func (r *SortRouter) Slots() int { return len(r.stages) * Slots(r.sh) }

// SortResult is what Route did.
type SortResult struct {
	// Stages and Slots simulated; Slots = Stages · (1 or 2⌈d/g⌉).
	Stages, Slots int
	// Conflicts, Lost and Duplicated are summed over the stage routings.
	Conflicts, Lost, Duplicated int
	// Holder[j] is the packet processor j holds at the end.
	Holder []int32
	// Delivered counts processors j holding the packet destined to j.
	Delivered int
}

// Route routes the permutation dst: processor i starts with packet i, whose
// key is its destination dst[i]; every stage moves packets by Lemma 2.2
// (comparing keys), so a sorting network leaves packet π⁻¹(j) at processor j.
// An error means a bad permutation or a model violation.
func (r *SortRouter) Route(dst []int32) (SortResult, error) {
	n := r.sh.N()
	if len(dst) != n {
		return SortResult{}, fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", len(dst), n)
	}
	if err := perm.Validate(dst, true); err != nil {
		return SortResult{}, err
	}
	keys := append([]int32(nil), dst...) // keys[i]: destination of the packet at i
	var res SortResult
	for k, sp := range r.stages {
		rr, err := r.run(k)
		if err != nil {
			return res, fmt.Errorf("stage %d: %w", k, err)
		}
		keys = applyStage(sp, keys)
		res.Stages++
		res.Slots += rr.Slots
		res.Conflicts += rr.Conflicts
		res.Lost += rr.Lost
		res.Duplicated += rr.Duplicated
	}
	src := perm.Inverse(dst) // packets are named by their source
	res.Holder = make([]int32, n)
	for j, key := range keys {
		res.Holder[j] = src[key]
		if key == int32(j) {
			res.Delivered++
		}
	}
	return res, nil
}

// OddEvenTransposition is the n-stage odd-even transposition sorting network:
// stage s has the comparators [i:i+1] for i ≡ s (mod 2). It is the classical
// n-round parallel bubble sort and sorts every input (the tests confirm it
// with sortnet.Sorts01Exhaustive); it is here as a simple sorting network for
// tests and claims, not an efficient one (Batcher's networks live in
// routecheck/algos/sortnet).
func OddEvenTransposition(n int) sortnet.Network {
	nw := sortnet.Network{N: n}
	for s := range n {
		var st sortnet.Stage
		for i := s % 2; i+1 < n; i += 2 {
			st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + 1)})
		}
		nw.Stages = append(nw.Stages, st)
	}
	return nw
}
