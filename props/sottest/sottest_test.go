package sottest_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/oracles/sotforms"
	"routecheck/props/internal/suite"
	"routecheck/props/sottest"
)

// local is a constructor of fresh routers of alg (a fresh value per call,
// so the locality property's router per node is one).
func local(t testing.TB, alg asot.Algorithm) sottest.NewRouter {
	if _, err := asot.Local(alg); err != nil {
		t.Fatal(err)
	}
	return func() msot.Router {
		r, _ := asot.Local(alg)
		return r
	}
}

// declared are the bounds we declare for our own algorithms:
//   - greedy-a, greedy-b, greedy-b-edge-first, greedy-c: completion within
//     algos/sot.DefaultMaxSteps (the paper proves no bound for Algorithm 1;
//     the ledger's sot/alg/<alg>/completes claims use the same cap);
//   - scheduled (Algorithm 2): completion within n·W + n − 1 steps, W the
//     largest number of packets one processor has for another (§4.3, the
//     claim sot/sec4.3/time-from-w), and no deflection at all (§3.2: it
//     "completely avoids deflections");
//   - the literal readings (greedy-a-literal, scheduled-literal): no
//     completion bound — greedy-a-literal livelocks by design
//     (sot/alg-1/greedy-a-literal), and scheduled-literal deflects
//     (sot/alg-2/literal-processor-rule) — so only legality, invariants and
//     deliveries are checked; since their runs last the whole horizon
//     (8n + 4K steps), they stop at n = 16.
func declared(alg asot.Algorithm) sottest.Options {
	switch alg {
	case asot.GreedyA, asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC:
		return sottest.Options{MaxSteps: func(n int, rel []perm.Pair) int { return asot.DefaultMaxSteps(n, len(rel)) }}
	case asot.Scheduled:
		return sottest.Options{
			MaxSteps: func(n int, rel []perm.Pair) int {
				_, W := sotforms.ScheduledTime(n, rel)
				return n*W + n - 1
			},
			MaxDeflections: func(int) int { return 0 },
		}
	}
	return sottest.Options{Sizes: []int{2, 3, 4, 5, 6, 7, 8, 16}}
}

// Our own algorithms go through the same door as a stranger's router.
func TestOurRouters(t *testing.T) {
	for _, alg := range asot.Algorithms {
		t.Run(string(alg), func(t *testing.T) {
			o := declared(alg)
			o.ReplayDir = t.TempDir()
			sottest.Run(t, local(t, alg), o)
		})
	}
}

// faulty wraps a real router and rewrites one node's action.
type faulty struct {
	msot.Router
	edit func(v msot.View, a msot.Action) msot.Action
}

func (f faulty) Node(v msot.View, rng *rand.Rand) msot.Action {
	return f.edit(v, f.Router.Node(v, rng))
}

// The suite catches each kind of fault it claims to.
func TestSuiteCatches(t *testing.T) {
	ga, _ := asot.Local(asot.GreedyA)
	sched, _ := asot.Local(asot.Scheduled)
	wrap := func(r msot.Router, edit func(msot.View, msot.Action) msot.Action) sottest.NewRouter {
		return func() msot.Router { return faulty{r, edit} }
	}
	greedyBound := declared(asot.GreedyA)
	cases := []struct {
		name      string
		newRouter sottest.NewRouter
		o         sottest.Options
		want      string
	}{
		{"keeps a packet (store and forward)", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.Left.ID >= 0 && v.Up.ID >= 0 {
				if a.Right == msot.FromUp {
					a.Right = msot.None
				} else {
					a.Down = msot.None
				}
			}
			return a
		}), sottest.Options{}, "legal"},
		{"duplicates a packet on both outputs", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.Left.ID >= 0 && v.Up.ID < 0 && v.Proc < 0 {
				a.Right, a.Down = msot.FromLeft, msot.FromLeft
			}
			return a
		}), sottest.Options{}, "legal"},
		{"a deflection node injects", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.Proc < 0 && v.Left.ID < 0 && v.Up.ID < 0 {
				a.Right = msot.Inject(0)
			}
			return a
		}), sottest.Options{}, "legal"},
		{"resends a packet in flight", func() msot.Router { return &resender{Router: ga} }, sottest.Options{}, "legal"},
		{"loses a packet (sends nothing)", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.T == 3 {
				return msot.Action{}
			}
			return a
		}), sottest.Options{}, "legal"},
		{"never turns to P0 (livelock)", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.J == v.N-1 && v.Left.Dst == 0 && v.Left.ID >= 0 && a.Down == msot.FromLeft {
				a.Right, a.Down = a.Down, a.Right
			}
			return a
		}), greedyBound, "completes"},
		{"over the declared deflection bound", func() msot.Router { return ga }, sottest.Options{MaxDeflections: func(int) int { return 0 }}, "deflections"},
		{"scheduled with a step bound one too small", func() msot.Router { return sched }, sottest.Options{MaxSteps: func(n int, rel []perm.Pair) int {
			T, _ := sotforms.ScheduledTime(n, rel)
			return T - 1
		}}, "completes"},
		{"panics", wrap(ga, func(v msot.View, a msot.Action) msot.Action {
			if v.T == 2 && v.Proc == 1 {
				panic("boom")
			}
			return a
		}), sottest.Options{}, "runs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.o.ReplayDir = t.TempDir()
			c.o.Sizes = []int{2, 3, 4, 5}
			fs := sottest.Check(c.newRouter, c.o)
			if len(fs) == 0 {
				t.Fatalf("no failure, want %s", c.want)
			}
			for _, f := range fs {
				if f.Property != c.want {
					t.Errorf("failure %v, want only %s", f, c.want)
				}
			}
			// the shrunk rapid instance and a replay that reproduces it
			var rnd *sottest.Failure
			for k := range fs {
				if fs[k].Family == "random" {
					rnd = &fs[k]
				}
			}
			if rnd == nil {
				t.Fatalf("rapid did not find %s: %v", c.want, fs)
			}
			t.Logf("shrunk: %v", rnd)
			path, ok := strings.CutPrefix(rnd.Replay, "routecheck replay ")
			path, _, _ = strings.Cut(path, " ")
			if !ok {
				t.Fatalf("replay %q", rnd.Replay)
			}
			o := c.o
			o.Replay = path
			again := sottest.Check(c.newRouter, o)
			if len(again) != 1 || again[0].Property != c.want || again[0].Step != rnd.Step {
				t.Errorf("replay of %s gave %v, want %s at step %d", path, again, c.want, rnd.Step)
			}
		})
	}
}

// resender forgets what it sent: a processor with a free Right output
// sends its first own packet again once it is in flight.
type resender struct {
	msot.Router
	sent map[int]int32
}

func (r *resender) Node(v msot.View, rng *rand.Rand) msot.Action {
	a := r.Router.Node(v, rng)
	if v.Proc < 0 {
		return a
	}
	if r.sent == nil {
		r.sent = map[int]int32{}
	}
	if id, ok := a.Right.Packet(); ok {
		if _, done := r.sent[v.Proc]; !done {
			r.sent[v.Proc] = id
		}
	}
	if id, ok := r.sent[v.Proc]; ok && a.Right == msot.None && v.Left.ID != id && v.Up.ID != id {
		a.Right = msot.Inject(id)
	}
	return a
}

// A bad replay file is a setup failure, never a pass.
func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"kind":"pops-router"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{bad, filepath.Join(dir, "missing.json")} {
		fs := sottest.Check(local(t, asot.GreedyA), sottest.Options{Replay: p})
		if len(fs) != 1 || fs[0].Property != "setup" {
			t.Errorf("%s: %v", p, fs)
		}
	}
}

func FuzzSotGreedyA(f *testing.F) {
	sottest.Fuzz(f, local(f, asot.GreedyA), declared(asot.GreedyA))
}

// TestLocality: the cheat passes every other property (its runs are legal
// and complete within Greedy-a's bound) and fails locality alone, with a
// replay that reproduces it; declared as shared knowledge, it passes.
func TestLocality(t *testing.T) {
	ga := local(t, asot.GreedyA)
	newRouter := func() msot.Router { return &lookAhead{ga(), map[[2]int]bool{}} }
	o := declared(asot.GreedyA)
	o.Sizes, o.ReplayDir = []int{2, 3, 4, 5}, t.TempDir()
	path := suite.Only(t, sottest.Check(newRouter, o), "locality", "with a router per node it decides", func(f sottest.Failure) (string, string, string) {
		return f.Property, f.Message, f.Replay
	})
	again, err := sottest.CheckFile(newRouter, path, o)
	if err != nil || len(again) != 1 || again[0].Property != "locality" {
		t.Errorf("replay %s: %v, %v; want the locality failure", path, again, err)
	}
	o.SharedKnowledge = "the toy sees the inputs of the node before it"
	if fs := sottest.Check(newRouter, o); len(fs) != 0 {
		t.Errorf("declared: %v, want no failure", fs)
	}
}
