package mbflytest_test

import (
	"fmt"
	"math/rand/v2"

	amb "routecheck/algos/multibutterfly"
	mb "routecheck/models/multibutterfly"
	"routecheck/props/mbflytest"
)

// hasty is a deliberately broken toy router: on §3.2's schedule (nodes of
// stage parity t mod 2 send in iteration t, over the edges of colour
// step mod 2d) a node sends its first packet toward its destination's
// output set — without asking whether the head has room.
type hasty struct{ net *mb.Network }

func (h *hasty) Init(net *mb.Network, L int) { h.net = net }

func (h *hasty) Route(v *mb.View, _ *rand.Rand, moves []mb.Move) []mb.Move {
	d2 := 2 * h.net.D
	if v.Stage%2 != (v.Step/d2+1)%2 {
		return moves
	}
	p := v.Buffer[0]
	for _, e := range v.Out {
		if e.Colour == int32(v.Step%d2) && e.Lower == h.net.GoesLower(p.Dest, v.Stage) {
			return append(moves, mb.Move{Packet: p.Packet, Edge: e.Edge})
		}
	}
	return moves
}

// The suite catches it at once: with buffers of one packet, a stage-1 node
// ⟨1, 3⟩ (node 7) receives a second packet while it still holds the first,
// in step 6 (iteration 2, colour 2) of routing inputs 2 and 3 to outputs 2
// and 3 (perm.None = −1: no packet).
func Example() {
	fs := mbflytest.Check(func() mb.Router { return &hasty{} }, mbflytest.Options{Sizes: []int{4}, L: 1, ReplayDir: "-"})
	f := fs[0]
	fmt.Println(f.Property, f.Family, "N =", f.Instance.N, "step", f.Step)
	fmt.Println(f.Message)
	fmt.Println(f.Instance.Perm)
	// Output:
	// buffer exhaustive N = 4 step 6
	// multibutterfly: buffer over capacity: node 7 holds 2 packets, over the capacity L = 1
	// [-1 -1 2 3]
}

// yielding is §3.2's router with a cheat: it remembers how many packets
// each node held when it served it, and a node sends nothing in a step in
// which the node just before it (same stage, row − 1), served earlier in
// the same step, held two or more — as if the busier neighbour had
// priority. Holding back is legal; but a node knows the buffers at the
// heads of its own edges, not its neighbour's, and the locality property
// catches the router that does.
type yielding struct {
	amb.Priority
	held map[int32]int
	step map[int32]int
}

func (y *yielding) Route(v *mb.View, rng *rand.Rand, moves []mb.Move) []mb.Move {
	y.held[v.Node], y.step[v.Node] = len(v.Buffer), v.Step
	if y.step[v.Node-1] == v.Step && y.held[v.Node-1] >= 2 && v.Row > 0 {
		return moves
	}
	return y.Priority.Route(v, rng, moves)
}

func newYielding() mb.Router {
	return &yielding{held: map[int32]int{}, step: map[int32]int{-1: -1}}
}

// The cheat first changes a decision where a stage-1 node's neighbour
// holds two packets, which on the 8-input networks happens in step 8 of
// the first family (a uniform random permutation); every other property
// passes.
func Example_locality() {
	fs := mbflytest.Check(newYielding, mbflytest.Options{Sizes: []int{8}, ReplayDir: "-"})
	for _, f := range fs {
		fmt.Println(f.Property, f.Family, "N =", f.Instance.N, "step", f.Step)
	}
	// Output:
	// locality uniform N = 8 step 8
}
