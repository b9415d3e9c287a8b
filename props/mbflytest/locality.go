package mbflytest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	mb "routecheck/models/multibutterfly"
	"routecheck/props/internal/suite"
)

// The locality property: the instance run with one Router shared by every
// node (as every other property runs it) and with a fresh Router per node
// (newRouter() once per node, Init'ed with the network and L on its first
// call, as RunRouter Inits the shared one; node v's Route calls go to its
// own value) must make the same moves, step by step, from the same random
// stream (the nodes are asked in the same order). The network is public
// (Init hands it to every router); what changes is local, so a router
// keeping only per-node memory cannot tell the runs apart, and one that
// reads, at one node, what it kept from another node's view is caught.

// taped sends node v's calls to node(v) and notes its moves on tape.
type taped struct {
	init func(net *mb.Network, L int)
	node func(v int) mb.Router
	tape *suite.Tape[[]mb.Move]
}

func (t taped) Init(net *mb.Network, L int) { t.init(net, L) }

func (t taped) Route(v *mb.View, rng *rand.Rand, moves []mb.Move) []mb.Move {
	n0 := len(moves)
	moves = t.node(int(v.Node)).Route(v, rng, moves)
	t.tape.Note(v.Step, int(v.Node), moves[n0:])
	return moves
}

// checkLocality runs in on net both ways and returns the locality
// failure, or nil.
func checkLocality(net *mb.Network, newRouter NewRouter, in Instance) *Failure {
	tape := suite.NewTape(slices.Equal[[]mb.Move], slices.Clone[[]mb.Move], func(step, v int) string {
		s, row := net.StageOf(int32(v))
		return fmt.Sprintf("step %d, node ⟨%d, %d⟩", step, s, row)
	})
	f1 := runOn(net, func() mb.Router {
		r := newRouter()
		return taped{r.Init, func(int) mb.Router { return r }, tape}
	}, in)
	tape.PerNode()
	f2 := runOn(net, func() mb.Router {
		var pool *suite.Pool[mb.Router]
		return taped{func(net *mb.Network, L int) {
			pool = suite.NewPool(newRouter, func(r mb.Router) { r.Init(net, L) })
		}, func(v int) mb.Router { return pool.For(v) }, tape}
	}, in)
	if d := tape.Diff(suite.Outcome(f1), suite.Outcome(f2)); d != "" {
		return &Failure{Property: "locality", Instance: in, Step: tape.Step(), Message: d}
	}
	return nil
}
