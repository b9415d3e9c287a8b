package mesh

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/mesh"
)

// TorusSplitTies is a second stand-in for the one-dimensional torus routing
// of 003_8774480fe7c747cc.txt's reference [4] (§6), as a models/mesh.Router
// on the torus: like GridFarthestFirst every packet goes along its row to
// the target's column, then along the column, the shorter way round, and on
// each link the packet with the most still to travel goes first — but a
// packet exactly n/2 away (both ways equally long) may start either way: in
// each step a PU sends its farthest packets both ways, so two such packets
// leave in opposite directions. Once moved, a packet is closer one way and
// keeps to it. On the mesh (v.Torus false) it is GridFarthestFirst. It uses
// only the PU's own queue and keeps no state. Paper [4] (not available
// here) balances the two ways for arbitrary distributions; this only
// splits the ties, which is what Phase 1 of DET_3_PHASE_ROUTE needs to
// reach the k·n/8 that every ring routing needs (see the ledger's
// mesh/sec-6/torus-split-phase-1).
var TorusSplitTies mesh.Router = mesh.RouterFunc(torusSplitTies)

func torusSplitTies(v mesh.View, rng *rand.Rand) mesh.Moves {
	if !v.Torus || v.N%2 != 0 {
		return gridFarthestFirst(v, rng)
	}
	mv := mesh.Still
	n := v.N
	r, c := v.PU/n, v.PU%n
	var best [4]int
	// Two passes: first the packets with a unique shorter way, then the
	// ties, each taking whichever of its two links has a worse candidate.
	for pass := range 2 {
		for k, it := range v.Queue {
			tr, tc := int(it.Target)/n, int(it.Target)%n
			var fwd, bwd mesh.Dir
			var way int
			switch {
			case tc != c:
				way, fwd, bwd = ringWay(n, c, tc, true), mesh.Right, mesh.Left
			case tr != r:
				way, fwd, bwd = ringWay(n, r, tr, true), mesh.Up, mesh.Down
			default:
				continue
			}
			dist := max(way, -way)
			tie := 2*dist == n
			if tie != (pass == 1) {
				continue
			}
			d := bwd
			if way > 0 {
				d = fwd
			}
			if tie && (dist < best[fwd] || dist == best[fwd] && mv[fwd] >= 0) {
				// The forward link is taken by a packet as far (an earlier
				// tie) or farther: try the other way.
				d = bwd
			}
			if dist > best[d] {
				best[d], mv[d] = dist, int32(k)
			}
		}
	}
	return mv
}

// RouteKKTorusSplit runs the plan on the torus step model with
// TorusSplitTies (every phase through models/mesh.StepGrid) and measures it
// as RouteKK does; every packet must end each phase at its target.
func RouteKKTorusSplit(pl Plan) (KKResult, error) {
	return routePhases(pl, func(pos, tg []int32) (phaseRun, error) { return splitPhase(pl.N, pos, tg) })
}

// splitPhase is one phase of RouteKKTorusSplit.
func splitPhase(n int, pos, tg []int32) (phaseRun, error) {
	var res phaseRun
	g, err := loadPhaseGrid(n, pos, tg, true)
	if err != nil {
		return res, err
	}
	queueMax := func() int { return maxQueue(g) }
	res.phaseQ = queueMax()
	limit := 4*len(pos) + 4*n + 4 // every packet moves at least once in n steps of its line
	var moves []mesh.Moves
	for {
		var any bool
		moves, any = mesh.Decide(g, TorusSplitTies, nil, moves)
		if !any {
			break
		}
		if res.steps >= limit {
			return res, fmt.Errorf("mesh: phase not finished after %d steps", limit)
		}
		next, ev, err := mesh.StepGrid(g, moves)
		if err != nil {
			return res, err
		}
		g = next
		res.steps++
		res.moves += ev.Moved
		res.phaseQ = max(res.phaseQ, ev.MaxQueue)
	}
	for p, qu := range g.Queues {
		for _, it := range qu {
			if it.Target != int32(p) {
				return res, fmt.Errorf("mesh: packet %d stopped at PU %d, its target is %d", it.ID, p, it.Target)
			}
		}
	}
	res.endQ = queueMax()
	return res, nil
}
