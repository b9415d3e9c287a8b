package bflytest_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
	"routecheck/props/bflytest"
	"routecheck/props/internal/suite"
)

// wrap is a router made of functions, for the planted faults.
type wrap struct {
	launch func(mb.Shape, mb.Packet, *rand.Rand) (int32, uint64)
	route  func(mb.View, *rand.Rand) []mb.Forward
}

func (w wrap) Launch(sh mb.Shape, p mb.Packet, rng *rand.Rand) (int32, uint64) {
	return w.launch(sh, p, rng)
}
func (w wrap) Route(v mb.View, rng *rand.Rand) []mb.Forward { return w.route(v, rng) }

var greedy = ab.Greedy{}

// faulty is the greedy router with Route (or Launch) replaced.
func faulty(route func(mb.View, *rand.Rand) []mb.Forward) bflytest.NewRouter {
	return func() mb.Router { return wrap{greedy.Launch, route} }
}

// The suite catches each kind of fault it claims to, on a router that
// commits it; the same options pass the real router (so no catch is the
// bound or the shape failing everyone).
func TestSuiteCatches(t *testing.T) {
	nq := []mb.Shape{{LogN: 3, R: 1, Mode: mb.NodeQueue}}
	strict := []mb.Shape{{LogN: 3, R: 1, Mode: mb.Buffered, StrictBuffers: true}}
	runs := 0
	cases := []struct {
		name   string
		router bflytest.NewRouter
		o      bflytest.Options
		want   string // property
	}{
		{"two packets from one node", faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
			out := greedy.Route(v, rng)
			if q := v.Queues[0]; len(q) >= 2 {
				out = append(out, mb.Forward{Link: v.Link(q[1], v.Stage), Index: 1})
			}
			return out
		}), bflytest.Options{Shapes: nq}, "legal"},
		{"packet on the wrong link", faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
			out := greedy.Route(v, rng)
			for k := range out {
				out[k].Link ^= 1
			}
			return out
		}), bflytest.Options{Shapes: nq}, "legal"},
		{"send into an occupied strict buffer", func() mb.Router { return ab.Greedy{Options: ab.Options{Fault: ab.FaultIgnoreStrict}} },
			bflytest.Options{Shapes: strict}, "legal"},
		{"X out of range", func() mb.Router {
			return wrap{func(sh mb.Shape, _ mb.Packet, _ *rand.Rand) (int32, uint64) { return 1 << sh.R, 0 }, greedy.Route}
		}, bflytest.Options{Shapes: nq}, "launch"},
		{"stalls", faulty(func(mb.View, *rand.Rand) []mb.Forward { return nil }), bflytest.Options{Shapes: nq}, "terminates"},
		{"slower than declared", faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
			if v.Step%2 == 1 {
				return nil
			}
			return greedy.Route(v, rng)
		}), bflytest.Options{Shapes: nq, MaxSteps: func(sh mb.Shape, t int) int { return 3 * (sh.Stages() + t*sh.N()/2) / 2 }}, "terminates"},
		{"hoards at stage 2", faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
			if v.Stage == 2 && v.Step < 12 {
				return nil
			}
			return greedy.Route(v, rng)
		}), bflytest.Options{Shapes: []mb.Shape{{LogN: 4, R: 0, Mode: mb.NodeQueue}}, MaxQueue: func(sh mb.Shape, t int) int { return bflytest.CongestionBound(sh, t) - 1 }}, "queue-bound"},
		{"panics", faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
			if len(v.Queues[0]) > 1 {
				panic("boom")
			}
			return greedy.Route(v, rng)
		}), bflytest.Options{Shapes: nq}, "crash"},
		{"not reproducible", func() mb.Router {
			runs++
			r := runs
			return wrap{greedy.Launch, func(v mb.View, rng *rand.Rand) []mb.Forward {
				if v.Step == 0 && r%2 == 0 {
					return nil
				}
				return greedy.Route(v, rng)
			}}
		}, bflytest.Options{Shapes: nq}, "reproducible"},
		{"reads the next node's queue through its own memory", func() mb.Router { return &peekNext{held: map[[2]int]int{}} },
			bflytest.Options{Shapes: nq}, "locality"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.o.ReplayDir = t.TempDir()
			fs := bflytest.Check(c.router, c.o)
			if !slices.ContainsFunc(fs, func(f bflytest.Failure) bool { return f.Property == c.want }) {
				t.Fatalf("failures %v, want one of property %s", fs, c.want)
			}
			for _, f := range fs {
				if f.Instance != nil && !strings.Contains(f.Replay, "bflytest.ReplayFile") {
					t.Errorf("failure without a replay file: %v", f)
				}
			}
			// The real router passes the same options.
			if fs := bflytest.Check(func() mb.Router { return greedy }, c.o); len(fs) > 0 {
				t.Errorf("the greedy router fails the options of this case: %v", fs)
			}
		})
	}
}

// TestLocalityDeclared: the cheat declared as shared knowledge passes
// (every other property still checked), and its locality failure replays.
func TestLocalityDeclared(t *testing.T) {
	newRouter := func() mb.Router { return &peekNext{held: map[[2]int]int{}} }
	o := bflytest.Options{Shapes: []mb.Shape{{LogN: 3, R: 1, Mode: mb.NodeQueue}}, ReplayDir: t.TempDir()}
	fs := bflytest.Check(newRouter, o)
	if len(fs) != 1 || fs[0].Property != "locality" || !strings.Contains(fs[0].Message, "with a router per node it decides") {
		t.Fatalf("failures %v, want the locality one alone", fs)
	}
	path := suite.ReplayPath(fs[0].Replay)
	if again, err := bflytest.ReplayFile(newRouter, path, o); err != nil || len(again) != 1 || again[0].Property != "locality" {
		t.Errorf("replay of %s: %v, %v", path, again, err)
	}
	o.SharedKnowledge = "the toy sees the queue of the node its straight link leads to"
	if fs := bflytest.Check(newRouter, o); len(fs) != 0 {
		t.Errorf("declared: %v, want no failure", fs)
	}
}

// A fault the structured families miss is found by the random family and
// shrunk: a router that crashes when a node of stage ≥ 1 holds a packet
// from input 5 and one from input 6 (only partial and random permutations
// get both there in the same step), and the failure replays from its file.
func TestRandomShrinksAndReplays(t *testing.T) {
	bad := faulty(func(v mb.View, rng *rand.Rand) []mb.Forward {
		if len(v.Queues[0]) == 1 && v.Queues[0][0].Src == 6 && v.Stage == 2 && v.Step == 2 {
			panic("the rare case")
		}
		return greedy.Route(v, rng)
	})
	o := bflytest.Options{Shapes: []mb.Shape{{LogN: 3, R: 0, Mode: mb.NodeQueue}}, Perms: 1, Checks: 200, ReplayDir: t.TempDir()}
	fs := bflytest.Check(bad, o)
	i := slices.IndexFunc(fs, func(f bflytest.Failure) bool { return f.Family == "random" })
	if i < 0 {
		t.Fatalf("the random family did not catch it: %v", fs)
	}
	f := fs[i]
	if f.Property != "crash" || !strings.Contains(f.Message, "shrunk") || len(f.Instance.Packets) > 2 {
		t.Errorf("failure %v, want a crash shrunk to at most 2 packets", f)
	}
	path := suite.ReplayPath(f.Replay)
	again, err := bflytest.ReplayFile(bad, path, o)
	if err != nil || len(again) != 1 || again[0].Property != "crash" {
		t.Errorf("replay of %s: %v, %v", path, again, err)
	}
}
