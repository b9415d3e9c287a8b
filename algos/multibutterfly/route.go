package multibutterfly

import (
	"fmt"
	"math"

	mb "routecheck/models/multibutterfly"
)

// BatchesFor returns L = ⌈1/(α(β+1))⌉ (§3.2). It panics unless α > 0 and
// β ≥ 0.
func BatchesFor(alpha, beta float64) int {
	if !(alpha > 0) || !(beta >= 0) {
		panic("multibutterfly: BatchesFor needs α > 0 and β ≥ 0")
	}
	x := 1 / (alpha * (beta + 1))
	// Guard floating error at exact integers (1/(α(β+1)) = 289 must give 289).
	if r := math.Round(x); math.Abs(x-r) < 1e-9*r {
		return int(r)
	}
	return int(math.Ceil(x))
}

// Batch returns the batch of a packet for destination q: q mod L.
func Batch(q int32, L int) int { return int(q) % L }

// IterationObserver sees the state after every iteration t ≥ 1 (and t = 0,
// the initial state). It must not modify or retain the state: without
// Options.Check the state's Pos and Count are the engine's own arrays, so a
// write would change the run; with Check they are the model's state, and
// the next step re-checks it.
type IterationObserver func(t int, s *mb.State)

// Options control Run. The zero value runs until every packet is delivered
// or DefaultMaxIterations iterations have passed, without checks.
type Options struct {
	// MaxIterations caps the run (0: DefaultMaxIterations(N, L)).
	MaxIterations int
	// Check runs mb.CheckInvariants after every step and checks that no node
	// holds two packets of one batch.
	Check bool
	// AfterIteration, if set, is called after every iteration.
	AfterIteration IterationObserver
	// Fault plants a fault for the claims ledger's power checks (props);
	// the zero value NoFault is the algorithm, and nothing else sets it.
	Fault Fault
}

// Fault is a planted fault: a deliberately wrong variant of the algorithm,
// used only to show that the claims' checks can fail (props). NoFault, the
// zero value, is the real algorithm.
type Fault uint8

// The planted faults.
const (
	NoFault Fault = iota
	// FaultIgnoreBatch moves a packet into a node that already holds a
	// packet of its batch (the §3.2 rule skipped).
	FaultIgnoreBatch
	// FaultIgnoreBit moves a packet along any activated edge, whether or
	// not it leads into the output set its destination bit names (Run), or
	// lies on its route (RunComm).
	FaultIgnoreBit
	// FaultLowestPriority considers a node's lowest-priority packet
	// (highest batch) instead of its highest.
	FaultLowestPriority
)

// DefaultMaxIterations is a generous cap: 64·(log N + L + 4).
func DefaultMaxIterations(logN, L int) int { return 64 * (logN + L + 4) }

// Result summarizes a run.
type Result struct {
	// Iterations and Steps (= 2d·Iterations) until the last packet reached
	// its output, when Complete.
	Iterations, Steps int
	Complete          bool
	Delivered         int
	Moves             int
	// MaxBuffer is the largest number of packets any non-input node held
	// after any step (inputs start with one packet each).
	MaxBuffer int
}

// runStepModel is Run as it was before the fast engine (fast.go): the
// algorithm's view as per-node packet lists, every edge of the active class
// visited, every step through mb.StepInto. Run falls back to it where the
// engine's assumptions fail; TestEngineMatchesStepModel compares the two.
// Same contract as Run.
func runStepModel(s mb.State, o Options) (Result, mb.State, error) {
	net, L := s.Net, s.L
	if net == nil {
		return Result{}, s, fmt.Errorf("multibutterfly: state has no network")
	}
	if len(s.Dest) != len(s.Pos) {
		return Result{}, s, fmt.Errorf("multibutterfly: %d packet positions but %d destinations", len(s.Pos), len(s.Dest))
	}
	for p, v := range s.Pos {
		if v < 0 || int(v) >= net.Nodes() {
			return Result{}, s, fmt.Errorf("multibutterfly: packet %d at node %d, outside the network's %d nodes", p, v, net.Nodes())
		}
		if d := s.Dest[p]; d < 0 || int(d) >= net.N {
			return Result{}, s, fmt.Errorf("multibutterfly: packet %d has destination %d, outside [0, %d)", p, d, net.N)
		}
	}
	maxIt := o.MaxIterations
	if maxIt <= 0 {
		maxIt = DefaultMaxIterations(net.LogN, L)
	}
	d2 := 2 * net.D
	byClass := edgeClasses(net.Edges, d2, allStages)
	// at[v]: packets at v (the algorithm's local view, kept in step with
	// the model).
	at := make([][]int32, net.Nodes())
	for p, v := range s.Pos {
		at[v] = append(at[v], int32(p))
	}
	cur, next := s.Clone(), mb.State{}
	var res Result
	for p := range cur.Pos {
		if cur.Delivered(p) {
			res.Delivered++
		}
	}
	if o.AfterIteration != nil {
		o.AfterIteration(0, &cur)
	}
	if res.Delivered == len(cur.Pos) {
		res.Complete = true
		return res, cur, nil
	}
	moves := make([]mb.Move, 0, net.N)
	for t := 1; t <= maxIt; t++ {
		parity := t % 2 // odd iterations: edges leaving odd stages
		for c := range d2 {
			moves = moves[:0]
			for _, ei := range byClass[parity][c] {
				e := net.Edges[ei]
				var p int32
				if o.Fault == FaultLowestPriority {
					p = lowest(at[e.From], cur.Dest, L)
				} else {
					p = highest(at[e.From], cur.Dest, L)
				}
				if p < 0 || o.Fault != FaultIgnoreBit && e.Lower != net.GoesLower(cur.Dest[p], int(e.Stage)) {
					continue
				}
				k := Batch(cur.Dest[p], L)
				if o.Fault != FaultIgnoreBatch && holdsBatch(at[e.To], cur.Dest, L, k) {
					continue
				}
				moves = append(moves, mb.Move{Packet: p, Edge: ei})
			}
			ev, err := apply(&next, cur, at, moves)
			if err != nil {
				return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
			}
			// The model accepted the moves, so each head is on one active
			// line: at[to] is what it was right after to's own move.
			for _, m := range moves {
				to := net.Edges[m.Edge].To
				if s, _ := net.StageOf(to); s > 0 && len(at[to]) > res.MaxBuffer {
					res.MaxBuffer = len(at[to])
				}
			}
			res.Moves += ev.Moves
			res.Delivered += len(ev.Delivered)
			cur, next = next, cur
			if o.Check {
				if err := mb.CheckInvariants(cur); err != nil {
					return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
				}
				if err := onePerBatch(cur, at); err != nil {
					return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
				}
			}
		}
		if o.AfterIteration != nil {
			o.AfterIteration(t, &cur)
		}
		if res.Delivered == len(cur.Pos) {
			res.Iterations, res.Steps, res.Complete = t, t*d2, true
			return res, cur, nil
		}
	}
	res.Iterations, res.Steps = maxIt, maxIt*d2
	return res, cur, nil
}

// highest returns the packet of highest priority (lowest batch) among ps,
// ties (which the algorithm never creates) broken by the lower packet
// index; −1 for none.
func highest(ps []int32, dest []int32, L int) int32 {
	best, bk := int32(-1), math.MaxInt
	for _, p := range ps {
		if k := Batch(dest[p], L); k < bk || k == bk && p < best {
			best, bk = p, k
		}
	}
	return best
}

// lowest is highest's planted fault (FaultLowestPriority): the packet of
// lowest priority (highest batch), ties by the lower index; −1 for none.
func lowest(ps []int32, dest []int32, L int) int32 {
	best, bk := int32(-1), -1
	for _, p := range ps {
		if k := Batch(dest[p], L); k > bk || k == bk && p < best {
			best, bk = p, k
		}
	}
	return best
}

func holdsBatch(ps []int32, dest []int32, L, k int) bool {
	for _, p := range ps {
		if Batch(dest[p], L) == k {
			return true
		}
	}
	return false
}

// allStages is edgeClasses' stop for every edge.
const allStages = math.MaxInt

// edgeClasses lists the edges leaving stages below stop (allStages: every
// edge) by the parity of their stage and their colour (0 … colours−1): the
// edges active in iteration t with colour class c are
// edgeClasses(…)[t%2][c], in edge order.
func edgeClasses(edges []mb.Edge, colours, stop int) [2][][]int32 {
	var byClass [2][][]int32
	for p := range byClass {
		byClass[p] = make([][]int32, colours)
	}
	for i, e := range edges {
		if int(e.Stage) < stop {
			byClass[e.Stage%2][e.Colour] = append(byClass[e.Stage%2][e.Colour], int32(i))
		}
	}
	return byClass
}

// apply steps the model, mb.StepInto(next, cur, moves), and when it
// accepts the moves keeps the algorithm's view at (the packets at each
// node) in step with it.
func apply(next *mb.State, cur mb.State, at [][]int32, moves []mb.Move) (mb.Events, error) {
	ev, err := mb.StepInto(next, cur, moves)
	if err != nil {
		return ev, err
	}
	for _, m := range moves {
		e := cur.Net.Edges[m.Edge]
		at[e.From] = remove(at[e.From], m.Packet)
		at[e.To] = append(at[e.To], m.Packet)
	}
	return ev, nil
}

func remove(ps []int32, p int32) []int32 {
	for i, x := range ps {
		if x == p {
			ps[i] = ps[len(ps)-1]
			return ps[:len(ps)-1]
		}
	}
	panic("multibutterfly: packet missing from its node")
}

// onePerBatch checks the paper's "a node can store only one packet from each
// batch" against the model's positions (not the algorithm's view).
func onePerBatch(s mb.State, at [][]int32) error {
	seen := make(map[[2]int32]int32)
	for p, v := range s.Pos {
		if st, _ := s.Net.StageOf(v); st == 0 {
			continue // inputs start with one packet each
		}
		key := [2]int32{v, int32(Batch(s.Dest[p], s.L))}
		if q, ok := seen[key]; ok {
			return fmt.Errorf("node %d holds packets %d and %d of batch %d", v, q, p, key[1])
		}
		seen[key] = int32(p)
	}
	for v, ps := range at {
		if int(s.Count[v]) != len(ps) {
			return fmt.Errorf("algorithm's view of node %d (%d packets) differs from the model (%d)", v, len(ps), s.Count[v])
		}
	}
	return nil
}
