package meshtest

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/mesh"
	"routecheck/props/internal/suite"
)

// Locality is the property that a PU's moves depend only on what the PU
// may know: the instance run with one Router shared by every PU (as every
// other property runs it) and run with a fresh Router per PU
// (newRouter() once per PU, on its first Route call; PU p's calls go to
// its own value) must make the same moves, step by step, from the same
// random stream (the PUs are asked in the same order). A router keeping
// only per-PU memory cannot tell the runs apart; one that reads, at PU p,
// what it kept from PU q's view is caught.
const Locality = "locality"

// checkLocality runs in both ways and returns the locality failure, or
// nil.
func checkLocality(newRouter NewRouter, in Instance, o Options) *Failure {
	tape := suite.NewTape(func(a, b mesh.Moves) bool { return a == b }, nil, func(step, pu int) string {
		return fmt.Sprintf("step %d, PU %d", step+1, pu)
	})
	shared := newRouter()
	_, f1 := Simulate(mesh.RouterFunc(func(v mesh.View, rng *rand.Rand) mesh.Moves {
		m := shared.Route(v, rng)
		tape.Note(v.Step, v.PU, m)
		return m
	}), in, o.Seed, o)
	tape.PerNode()
	pool := suite.NewPool(newRouter, nil)
	_, f2 := Simulate(mesh.RouterFunc(func(v mesh.View, rng *rand.Rand) mesh.Moves {
		m := pool.For(v.PU).Route(v, rng)
		tape.Note(v.Step, v.PU, m)
		return m
	}), in, o.Seed, o)
	if d := tape.Diff(suite.Outcome(f1), suite.Outcome(f2)); d != "" {
		return &Failure{Property: Locality, Instance: in, Step: tape.Step() + 1, Message: d}
	}
	return nil
}
