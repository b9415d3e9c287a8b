package multibutterfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
)

// §4.2's scheme on Theorem 4.3's network (models/multibutterfly
// Thm43Network), with RunComm's readings: batch r·A + (q mod A) for a
// destination ⟨FirstDirect + r, q⟩ (nearest row first), lower batches
// first; iterations alternate parity, 2d colour steps each; on an
// activated edge ⟨t, q⟩ → ⟨t+1, q'⟩ the nodes exchange when the packet at
// ⟨t, q⟩ has the higher priority and the edge is on its route (any
// expander edge, the bit-comparison output set in the multi-butterfly, a
// direct edge before its row); delivered packets are absorbed.

// Thm43Batch returns the batch of a packet for destination node dest.
func Thm43Batch(t *mb.Thm43Network, A int, dest int32) int {
	r := int(dest)/t.N - t.FirstDirect()
	return r*A + int(dest)%t.N%A
}

// RunThm43 routes s with A = ⌈1/α⌉ until every packet is delivered or
// maxIter iterations have passed (0: 64(Stages + A + 4)); with check,
// mb.CheckThm43 runs after every step. Result.Steps counts 2d per
// iteration (the 3N-node network); SimSteps (6d + 1) per iteration, the
// theorem's degree-10 simulation.
func RunThm43(s mb.Thm43State, A, maxIter int, check bool) (CommResult, mb.Thm43State, error) {
	return RunThm43Fault(s, A, maxIter, check, NoFault)
}

// RunThm43Fault is RunThm43 with a planted fault (props' power checks
// only; FaultIgnoreBit exchanges along edges off the packet's route, other
// faults change nothing).
func RunThm43Fault(s mb.Thm43State, A, maxIter int, check bool, fault Fault) (CommResult, mb.Thm43State, error) {
	t := s.Net
	if A < 1 {
		return CommResult{}, s, fmt.Errorf("multibutterfly: A = %d: must be ≥ 1", A)
	}
	if maxIter <= 0 {
		maxIter = 64 * (t.Stages() + A + 4)
	}
	d2 := 2 * t.D
	byClass := edgeClasses(t.Edges, d2, allStages)
	rule := exchangeRule{edges: t.Edges, part: t.Part, n: t.N, logN: t.LogN, mid: t.P,
		batch:   func(dest int32) int { return Thm43Batch(t, A, dest) },
		anyEdge: fault == FaultIgnoreBit}
	cur := mb.Thm43State{Net: t, Buf: append([]int32(nil), s.Buf...), Dest: append([]int32(nil), s.Dest...), Delivered: append([]bool(nil), s.Delivered...)}
	var next mb.Thm43State
	var res CommResult
	if cur.Done() {
		res.Complete = true
		return res, cur, nil
	}
	var ex []int32
	for it := 1; it <= maxIter; it++ {
		for c := range d2 {
			ex = rule.exchanges(ex[:0], byClass[it%2][c], cur.Buf, cur.Dest)
			if err := mb.StepThm43Into(&next, cur, ex); err != nil {
				return res, cur, fmt.Errorf("iteration %d, step %d: %w", it, c, err)
			}
			cur, next = next, cur
			res.Exchanges += len(ex)
			if check {
				if err := mb.CheckThm43(cur); err != nil {
					return res, cur, fmt.Errorf("iteration %d, step %d: %w", it, c, err)
				}
			}
		}
		if cur.Done() {
			res.Iterations, res.Complete = it, true
			res.Steps, res.SimSteps = it*d2, it*(6*t.D+1)
			return res, cur, nil
		}
	}
	res.Iterations, res.Steps, res.SimSteps = maxIter, maxIter*d2, maxIter*(6*t.D+1)
	return res, cur, nil
}
