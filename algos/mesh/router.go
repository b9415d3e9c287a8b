package mesh

import (
	"math/rand/v2"

	"routecheck/models/mesh"
)

// GridFarthestFirst is the farthest-first strategy of §2 on the grid step
// model, as a models/mesh.Router: every packet not at its target goes along
// its row to the target's column, then along the column to the target's
// row (on the torus the shorter way round, rightward/upward when both are
// n/2 long), and on each link the packet with the most still to travel on
// that axis goes first (ties: earliest in the queue). On a target in the
// same row or column — every phase of the k-k algorithms — this is exactly
// the §2 strategy on each row or column; RouteKK's step-model phases run
// through it. It uses only the PU's own queue and keeps no state.
var GridFarthestFirst mesh.Router = mesh.RouterFunc(gridFarthestFirst)

func gridFarthestFirst(v mesh.View, _ *rand.Rand) mesh.Moves {
	mv := mesh.Still
	n := v.N
	r, c := v.PU/n, v.PU%n
	var best [4]int
	for k, it := range v.Queue {
		tr, tc := int(it.Target)/n, int(it.Target)%n
		var d mesh.Dir
		var way int
		switch {
		case tc != c:
			way = ringWay(n, c, tc, v.Torus)
			d = mesh.Left
			if way > 0 {
				d = mesh.Right
			}
		case tr != r:
			way = ringWay(n, r, tr, v.Torus)
			d = mesh.Down
			if way > 0 {
				d = mesh.Up
			}
		default:
			continue
		}
		if dist := max(way, -way); dist > best[d] {
			best[d], mv[d] = dist, int32(k)
		}
	}
	return mv
}
