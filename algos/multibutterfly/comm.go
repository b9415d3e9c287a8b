package multibutterfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
)

// Section 4.2's scheme on the §4.1 network (models/multibutterfly
// CommNetwork), as stated, with these readings:
//   - Batches: with A = ⌈1/α⌉, batch k holds the packets whose destination
//     ⟨2 log n + r, q⟩ has r = ⌊k/A⌋ and q mod A = k mod A (the printed set
//     "{⟨s, q⟩ | s = ⌊k/⌈1/α⌉⌋, q = k mod ⌈1/α⌉}" names a single node; we
//     read s as the row within the last log n + 1 stages and q modulo A).
//     So k = r·A + (q mod A); lower k has priority.
//   - Iterations alternate parities as in §3.2; an iteration is 2d steps,
//     step c activates the active edges of colour c (expander colours
//     0…d−1, splitter colours 0…2d−1, direct edges colour 0).
//   - On an activated edge ⟨t, q⟩ → ⟨t+1, q'⟩ the two nodes exchange
//     buffers when the packet p at ⟨t, q⟩ has higher priority than the
//     packet at ⟨t+1, q'⟩ (empty = lowest) and the edge is on p's route:
//     any expander edge; in the multi-butterfly the edge into the output
//     set p's destination-column bit names (bit comparison); a direct edge
//     only before p's destination row. A delivered packet is absorbed (see
//     CommState).

// CommBatch returns the batch of a packet for destination node dest, rows
// nearest first (NearestRowFirst): r = row − 2 log n.
func CommBatch(net *mb.CommNetwork, A int, dest int32) int {
	return CommBatchOrder(net, A, dest, NearestRowFirst)
}

// RowOrder is the order of destination rows among §4.2's batches. The
// printed batch set "s = ⌊k/⌈1/α⌉⌋" does not say from which end of the last
// log n + 1 stages s counts; both orders fit it.
type RowOrder int

const (
	// NearestRowFirst (the zero value, CommBatch's order): r = row − 2 log n,
	// so packets for the first destination row have the highest priority.
	NearestRowFirst RowOrder = iota
	// FarthestRowFirst: r' = log n − r, so packets for the last row (3 log n)
	// have the highest priority.
	FarthestRowFirst
)

// String names the order.
func (o RowOrder) String() string {
	switch o {
	case NearestRowFirst:
		return "nearest-row-first"
	case FarthestRowFirst:
		return "farthest-row-first"
	}
	return fmt.Sprintf("RowOrder(%d)", int(o))
}

// CommBatchOrder returns the batch r·A + (q mod A) of a packet for
// destination node dest = ⟨2 log n + row, q⟩, with r = row under
// NearestRowFirst and r = log n − row under FarthestRowFirst. It panics on
// an unknown order.
func CommBatchOrder(net *mb.CommNetwork, A int, dest int32, order RowOrder) int {
	r := int(dest)/net.N - 2*net.LogN
	switch order {
	case NearestRowFirst:
	case FarthestRowFirst:
		r = net.LogN - r
	default:
		panic(fmt.Sprintf("multibutterfly: unknown row order %d", int(order)))
	}
	return r*A + int(dest)%net.N%A
}

// CommResult summarizes a §4 run.
type CommResult struct {
	Iterations int
	// Steps is 2d per iteration on the 3N-node network; SimSteps is the
	// paper's count for the N-processor simulation, (3d + 1) per iteration.
	Steps, SimSteps int
	Complete        bool
	Exchanges       int
}

// RunComm routes s with A = ⌈1/α⌉ until every packet is delivered or
// maxIter iterations have passed (0: 64(3 log n + A + 4)). With check,
// mb.CheckComm runs after every step. An error is a model violation or a
// broken invariant.
func RunComm(s mb.CommState, A, maxIter int, check bool) (CommResult, mb.CommState, error) {
	return RunCommFault(s, A, maxIter, check, NoFault)
}

// RunCommFault is RunComm with a planted fault (props' power checks only;
// only FaultIgnoreBit changes RunComm: exchanges along edges off the
// forward packet's route).
func RunCommFault(s mb.CommState, A, maxIter int, check bool, fault Fault) (CommResult, mb.CommState, error) {
	return runComm(s, A, maxIter, check, fault, nil)
}

// RunCommObserved is RunComm calling observe with the state after every
// iteration t = 1, 2, … (the state is the run's own: observe must not keep
// or change it). An error from observe stops the run and is returned.
func RunCommObserved(s mb.CommState, A, maxIter int, check bool, observe func(t int, s mb.CommState) error) (CommResult, mb.CommState, error) {
	return runComm(s, A, maxIter, check, NoFault, observe)
}

func runComm(s mb.CommState, A, maxIter int, check bool, fault Fault, observe func(t int, s mb.CommState) error) (CommResult, mb.CommState, error) {
	net := s.Net
	if maxIter <= 0 {
		maxIter = commDefaultCap(net.LogN, A)
	}
	d2 := 2 * net.D
	byClass := edgeClasses(net.Edges, d2, allStages)
	rule := commRule(net, A, NearestRowFirst, fault)
	cur := s.Clone()
	var res CommResult
	if cur.CommDone() {
		res.Complete = true
		return res, cur, nil
	}
	var ex []int32
	for t := 1; t <= maxIter; t++ {
		for c := range d2 {
			ex = rule.exchanges(ex[:0], byClass[t%2][c], cur.Buf, cur.Dest)
			next, err := mb.StepComm(cur, ex)
			if err != nil {
				return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
			}
			cur = next
			res.Exchanges += len(ex)
			if check {
				if err := mb.CheckComm(cur); err != nil {
					return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
				}
			}
		}
		if observe != nil {
			if err := observe(t, cur); err != nil {
				return res, cur, fmt.Errorf("iteration %d: %w", t, err)
			}
		}
		if cur.CommDone() {
			res.Iterations, res.Complete = t, true
			res.Steps, res.SimSteps = t*d2, t*(3*net.D+1)
			return res, cur, nil
		}
	}
	res.Iterations, res.Steps, res.SimSteps = maxIter, maxIter*d2, maxIter*(3*net.D+1)
	return res, cur, nil
}

// commDefaultCap is RunComm's default iteration cap, 64(3 log n + A + 4).
func commDefaultCap(logN, A int) int { return 64 * (3*logN + A + 4) }

// exchangeRule is §4.2's rule on a network laid out as §4.1's (CommNetwork,
// and Thm43Network with its longer expander and direct parts): n nodes per
// stage, the multi-butterfly part from stage mid to mid + log n, Part[i]
// naming edge i's part.
type exchangeRule struct {
	edges        []mb.Edge
	part         []int8
	n, logN, mid int
	// batch is a packet's batch by its destination node; lower is first.
	batch func(dest int32) int
	// anyEdge (FaultIgnoreBit only) drops the route condition.
	anyEdge bool
}

// commRule is RunComm's rule on net: batches CommBatchOrder(net, A, ·,
// order).
func commRule(net *mb.CommNetwork, A int, order RowOrder, fault Fault) exchangeRule {
	return exchangeRule{edges: net.Edges, part: net.Part, n: net.N, logN: net.LogN, mid: net.LogN,
		batch:   func(dest int32) int { return CommBatchOrder(net, A, dest, order) },
		anyEdge: fault == FaultIgnoreBit}
}

// exchanges appends to ex the edges of class over which the end nodes
// exchange buffers given the packets in buf (−1: empty) and their
// destinations dest: the packet p at the tail has higher priority (lower
// batch) than the packet at the head (empty = lowest) and the edge is on
// p's route (onRoute).
func (r exchangeRule) exchanges(ex, class []int32, buf, dest []int32) []int32 {
	for _, ei := range class {
		e := r.edges[ei]
		p := buf[e.From]
		if p < 0 || !r.anyEdge && !r.onRoute(e, int(r.part[ei]), dest[p]) {
			continue
		}
		if q := buf[e.To]; q >= 0 && r.batch(dest[q]) <= r.batch(dest[p]) {
			continue
		}
		ex = append(ex, ei)
	}
	return ex
}

// onRoute reports whether edge e of the given part is on the route to
// node dest: any expander edge; in the multi-butterfly the edge into the
// output set that the destination column's bit names (bit comparison); a
// direct edge only before dest's row.
func (r exchangeRule) onRoute(e mb.Edge, part int, dest int32) bool {
	switch part {
	case 0:
		return true
	case 1:
		col := int(dest) % r.n
		return e.Lower == (col>>(r.logN-1-(int(e.Stage)-r.mid))&1 == 1)
	default:
		return int(e.Stage) < int(dest)/r.n
	}
}
