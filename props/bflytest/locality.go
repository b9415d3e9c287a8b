package bflytest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	mb "routecheck/models/butterfly"
	"routecheck/props/internal/suite"
)

// The locality property: the instance routed with one Router shared by
// every node (as every other property runs it) and with a fresh Router
// per node (newRouter() once per node, on its first call; node (s, row)'s
// Route calls go to its own value, and a packet's Launch to the router of
// its source, input node (0, src)) must make the same decisions — each
// packet's transitions and header, each node's forwards — from the same
// random stream (the calls come in the same order). A router that keeps
// only per-node state cannot tell the runs apart; one that reads, at one
// node, what it kept from another node's view is caught.

// decision is one call's outcome: a Launch's (x, key) or a Route's
// forwards.
type decision struct {
	launch bool
	x      int32
	key    uint64
	fwd    []mb.Forward
}

func (d decision) String() string {
	if d.launch {
		return fmt.Sprintf("X = %d, key %d", d.x, d.key)
	}
	return fmt.Sprintf("forwards %v", d.fwd)
}

// taped sends node k's calls to node(k) and notes them on tape.
type taped struct {
	node func(k int) mb.Router
	tape *suite.Tape[decision]
}

func (t taped) Launch(sh mb.Shape, p mb.Packet, rng *rand.Rand) (int32, uint64) {
	x, key := t.node(int(p.Src)).Launch(sh, p, rng)
	t.tape.Note(-1, int(p.Src), decision{launch: true, x: x, key: key})
	return x, key
}

func (t taped) Route(v mb.View, rng *rand.Rand) []mb.Forward {
	k := v.Stage*v.N() + int(v.Row)
	f := t.node(k).Route(v, rng)
	t.tape.Note(v.Step, k, decision{fwd: f})
	return f
}

// checkLocality routes in both ways and returns the locality failure, or
// nil.
func checkLocality(newRouter NewRouter, in Instance, o Options) *Failure {
	N := in.Shape().N()
	tape := suite.NewTape(func(a, b decision) bool {
		return a.launch == b.launch && a.x == b.x && a.key == b.key && slices.Equal(a.fwd, b.fwd)
	}, func(d decision) decision {
		d.fwd = slices.Clone(d.fwd)
		return d
	}, func(step, k int) string {
		if step < 0 {
			return fmt.Sprintf("Launch at input %d", k)
		}
		return fmt.Sprintf("step %d, node (%d, %d)", step+1, k/N, k%N)
	})
	f1 := route(func() mb.Router {
		r := newRouter()
		return taped{func(int) mb.Router { return r }, tape}
	}, in, o, nil)
	tape.PerNode()
	f2 := route(func() mb.Router { return taped{suite.NewPool(newRouter, nil).For, tape} }, in, o, nil)
	if d := tape.Diff(suite.Outcome(f1), suite.Outcome(f2)); d != "" {
		return &Failure{Property: "locality", Family: in.Family, Shape: in.Shape(), Step: max(0, tape.Step()+1), Message: d, Instance: &in}
	}
	return nil
}
