package multibutterfly_test

import (
	"fmt"

	"routecheck/internal/seeds"
	"routecheck/models/multibutterfly"
)

// An (8, 2)-multi-butterfly: 4 stages of 8 nodes, every non-output node with
// d = 2 edges into each output set; one packet moved one hop.
func Example() {
	net, _ := multibutterfly.Build(8, 2, seeds.Rand(1))
	s, _ := multibutterfly.Init(net, 3, []int32{5, 0, 1, 2, 3, 4, 6, 7})
	// Packet 0 (destination 5 = 101₂) goes lower at stage 0.
	var edge int32 = -1
	for _, e := range net.Out[s.Pos[0]] {
		if net.Edges[e].Lower == net.GoesLower(5, 0) {
			edge = e
			break
		}
	}
	next, ev, err := multibutterfly.Step(s, []multibutterfly.Move{{Packet: 0, Edge: edge}})
	st, k := net.StageOf(next.Pos[0])
	fmt.Println(net.Nodes(), len(net.Edges), ev.Moves, err)
	fmt.Println(st, k >= 4, multibutterfly.CheckInvariants(next))
	// Output:
	// 32 96 1 <nil>
	// 1 true <nil>
}
