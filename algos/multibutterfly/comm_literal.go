package multibutterfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
)

// RunCommLiteral is RunComm under the literal reading of §4.1–4.2: a packet
// that reaches its destination node keeps occupying that node's one buffer
// (mb.StepCommKeep) — §4 does not say that a destination absorbs its packet
// — and the run is complete when every packet sits at its destination
// (CommState.DoneKeep). Everything else is RunComm's rule: on an activated
// edge ⟨t, q⟩ → ⟨t+1, q'⟩ on the route of the packet p at ⟨t, q⟩, the two
// nodes exchange when p has higher priority than the packet at ⟨t+1, q'⟩
// (empty = lowest). It returns the iterations used (maxIter, 0: RunComm's
// default cap, when not complete) and the final state; an error is a model
// violation or, with check, a broken invariant (mb.CheckComm).
func RunCommLiteral(s mb.CommState, A, maxIter int, check bool) (CommResult, mb.CommState, error) {
	return RunCommLiteralOrder(s, A, maxIter, check, NearestRowFirst)
}

// RunCommLiteralOrder is RunCommLiteral with the batches' row order given
// (RunCommLiteral: NearestRowFirst).
func RunCommLiteralOrder(s mb.CommState, A, maxIter int, check bool, order RowOrder) (CommResult, mb.CommState, error) {
	net := s.Net
	if maxIter <= 0 {
		maxIter = commDefaultCap(net.LogN, A)
	}
	d2 := 2 * net.D
	byClass := edgeClasses(net.Edges, d2, allStages)
	rule := commRule(net, A, order, NoFault)
	cur := s.Clone()
	var res CommResult
	if cur.DoneKeep() {
		res.Complete = true
		return res, cur, nil
	}
	var ex []int32
	for t := 1; t <= maxIter; t++ {
		for c := range d2 {
			ex = rule.exchanges(ex[:0], byClass[t%2][c], cur.Buf, cur.Dest)
			next, err := mb.StepCommKeep(cur, ex)
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
		if cur.DoneKeep() {
			res.Iterations, res.Complete = t, true
			res.Steps, res.SimSteps = t*d2, t*(3*net.D+1)
			return res, cur, nil
		}
	}
	res.Iterations, res.Steps, res.SimSteps = maxIter, maxIter*d2, maxIter*(3*net.D+1)
	return res, cur, nil
}
