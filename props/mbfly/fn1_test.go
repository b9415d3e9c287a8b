package mbfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// TestFn1RouteByHand: on N = 8 (d = 2, L = 2) with the slot tail the Batcher
// network of block size m has L·m wires: m = 2 gives 4 wires, depth 3 and
// 5 comparators; m = 4 gives 8 wires, depth 6 and (3² − 3 + 4)·2 − 1 = 19
// comparators (Knuth §5.3.4). Every permutation of 8 whose splitter part
// completes must come out of the Batcher networks in place; the literal
// tail (one wire per node) has depth 1 (m = 2) and 3 (m = 4).
//
// Costed per node line (node i holds wires 2i, 2i + 1; a level takes as many
// steps as the most comparators between different nodes' wires at one
// node, at least 1), Batcher's levels on 4 wires — [0:1][2:3], [0:2][1:3],
// [1:2] — cost 1 + 2 + 1 = 4; on 8 wires — [0:1][2:3][4:5][6:7],
// [0:2][1:3][4:6][5:7], [1:2][5:6], [0:4][1:5][2:6][3:7], [2:4][3:5],
// [1:2][3:4][5:6] — 1 + 2 + 1 + 2 + 2 + 2 = 10. With one wire per node
// every comparator joins two nodes and each level costs 1: the depth.
func TestFn1RouteByHand(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(5))
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int][3]int{{1, 2}: {3, 5, 4}, {2, 2}: {6, 19, 10}, {1, 1}: {1, 1, 1}, {2, 1}: {3, 5, 3}}
	complete := 0
	i := 0
	perm.Each(8, func(p []int32) bool {
		i++
		if i%53 != 0 {
			return true
		}
		for logM := 1; logM <= 2; logM++ {
			for _, tail := range []fn1Tail{fn1Slots, fn1Literal} {
				r, err := fn1Route(net, 2, p, logM, tail)
				if err != nil {
					t.Fatalf("perm %v m=%d: %v", p, 1<<logM, err)
				}
				if !r.stage.Complete {
					continue
				}
				complete++
				w := want[[2]int{logM, tail.perNode(2)}]
				if r.depth != w[0] || r.size != w[1] || r.nodeLine != w[2] || r.misplaced != "" {
					t.Fatalf("perm %v m=%d wires/node %d: depth %d size %d per node line %d (want %d, %d, %d), %s", p, 1<<logM, tail.perNode(2), r.depth, r.size, r.nodeLine, w[0], w[1], w[2], r.misplaced)
				}
			}
		}
		return true
	})
	if complete == 0 {
		t.Fatal("no run completed: nothing was checked")
	}
}
