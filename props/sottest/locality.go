package sottest

import (
	"fmt"
	"math/rand/v2"

	msot "routecheck/models/sot"
	"routecheck/props/internal/suite"
)

// The locality property: the instance run with one Router shared by every
// node (as every other property runs it) and with a fresh Router per node
// (newRouter() once per node, on its first call; node (i, j)'s calls go to
// its own value) must give the same actions, step by step, from the same
// random stream (the nodes are asked in the same order). A deflection node
// has no memory and a processor only its own (models/sot.Router's
// contract), so a local router cannot tell the runs apart; one that reads,
// at one node, what it kept from another's view is caught.

// taped notes a router's actions on tape.
type taped struct {
	node func(v int) msot.Router
	tape *suite.Tape[msot.Action]
}

func (t taped) Node(v msot.View, rng *rand.Rand) msot.Action {
	k := v.I*v.N + v.J
	a := t.node(k).Node(v, rng)
	t.tape.Note(v.T, k, a)
	return a
}

// checkLocality runs in both ways and returns the locality failure, or
// nil.
func checkLocality(newRouter NewRouter, in Instance, o Options) *Failure {
	tape := suite.NewTape(func(a, b msot.Action) bool { return a == b }, nil, func(t, v int) string {
		return fmt.Sprintf("step %d, node (%d,%d)", t, v/in.N, v%in.N)
	})
	f1 := runInstance(func() msot.Router {
		r := newRouter()
		return taped{func(int) msot.Router { return r }, tape}
	}, in, o)
	tape.PerNode()
	f2 := runInstance(func() msot.Router {
		return taped{suite.NewPool(newRouter, nil).For, tape}
	}, in, o)
	if d := tape.Diff(suite.Outcome(f1), suite.Outcome(f2)); d != "" {
		return &Failure{Property: "locality", Family: in.Family, Step: tape.Step(), Message: d, Instance: in}
	}
	return nil
}
