package suitecheck

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	asn "routecheck/algos/sortnet"
	"routecheck/internal/hunt"
	mbf "routecheck/models/butterfly"
	"routecheck/models/mesh"
	mmb "routecheck/models/multibutterfly"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
	msot "routecheck/models/sot"
	"routecheck/props/bflytest"
	"routecheck/props/mbflytest"
	"routecheck/props/meshtest"
	"routecheck/props/popstest"
	"routecheck/props/sortnettest"
	"routecheck/props/sottest"
)

// Broken toy routers, one per network: routers the CLI does not have.

type popsIdle struct{}

func (popsIdle) Start(pops.Shape, *rand.Rand)           {}
func (popsIdle) Act(pops.Local, *rand.Rand) pops.Action { return pops.Idle() }

type sotPanics struct{ msot.Router }

func (r sotPanics) Node(v msot.View, rng *rand.Rand) msot.Action {
	if v.T == 2 {
		panic("toy router gives up at step 2")
	}
	return r.Router.Node(v, rng)
}

type bflyIdle struct{}

func (bflyIdle) Launch(mbf.Shape, mbf.Packet, *rand.Rand) (int32, uint64) { return 0, 0 }
func (bflyIdle) Route(mbf.View, *rand.Rand) []mbf.Forward                 { return nil }

type mbflyIdle struct{}

func (mbflyIdle) Init(*mmb.Network, int)                                   {}
func (mbflyIdle) Route(_ *mmb.View, _ *rand.Rand, m []mmb.Move) []mmb.Move { return m }

func stuck() mesh.Router {
	return mesh.RouterFunc(func(mesh.View, *rand.Rand) mesh.Moves { return mesh.Still })
}

// failed is what a suite reported: the first failure's property, step and
// replay text, and (for a toy) the number of failures the suite's own
// CheckFile finds on the file with the same router — the Go call the CLI
// prints.
type failed struct {
	property string
	step     int
	replay   string
	again    func(path string) (int, error)
}

type suiteCase struct {
	name, kind string
	// toy runs the suite on a broken router the CLI does not have; ours on
	// one of routecheck's routers, named oursName, that is a planted fault
	// or breaks a bound declared tighter than it meets.
	toy, ours func(t *testing.T, dir string) failed
	oursName  string
}

func first[F any](t *testing.T, fs []F, get func(F) failed) failed {
	t.Helper()
	if len(fs) == 0 {
		t.Fatal("the suite caught nothing")
	}
	return get(fs[0])
}

var suiteCases = []suiteCase{
	{name: "pops", kind: "pops-suite", oursName: "pops-rand-5slot/mutant-relay-keeps",
		toy: func(t *testing.T, dir string) failed {
			nr := func() pops.Router { return popsIdle{} }
			o := popstest.Options{Shapes: []pops.Shape{{D: 2, G: 2}}, Exhaustive: -1, Checks: 5, ReplayDir: dir}
			return first(t, popstest.Check(nr, o), func(f popstest.Failure) failed {
				return failed{f.Property, f.Slot, f.Replay, func(p string) (int, error) {
					fs, err := popstest.CheckFile(nr, p, popstest.Options{})
					return len(fs), err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			// The relay that keeps its copies overfills the declared
			// buffer of 3 (props/popstest's own catch test).
			o := popstest.Options{Shapes: []pops.Shape{{D: 4, G: 4}}, Exhaustive: -1, Checks: 5, MaxBuffer: 3, MaxSlots: func(pops.Shape, []int32) int { return 400 },
				ReplayDir: dir, Router: "pops-rand-5slot/mutant-relay-keeps"}
			return first(t, popstest.Check(popsRouters[o.Router], o), func(f popstest.Failure) failed { return failed{f.Property, f.Slot, f.Replay, nil} })
		}},
	{name: "mesh", kind: "mesh-suite", oursName: "farthest-first",
		toy: func(t *testing.T, dir string) failed {
			o := meshtest.Options{Sizes: []int{3}, Ks: []int{}, Checks: 10, ReplayDir: dir}
			return first(t, meshtest.Check(stuck, o), func(f meshtest.Failure) failed {
				return failed{f.Property, f.Step, f.Replay, func(p string) (int, error) {
					fs, err := meshtest.CheckFile(stuck, p, meshtest.Options{})
					return len(fs), err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			// A 2-2 relation on the 4×4 mesh queues more than 2 packets
			// at a PU under farthest-first (props/meshtest's catch test).
			o := meshtest.Options{Sizes: []int{4}, Ks: []int{2}, Checks: 10, MaxQueue: func(meshtest.Instance) int { return 2 }, ReplayDir: dir, Router: "farthest-first"}
			return first(t, meshtest.Check(meshRouters[o.Router], o), func(f meshtest.Failure) failed { return failed{f.Property, f.Step, f.Replay, nil} })
		}},
	{name: "sot", kind: "sot-suite", oursName: "greedy-a",
		toy: func(t *testing.T, dir string) failed {
			nr := func() msot.Router { return sotPanics{sotRouters["greedy-a"]()} }
			o := sottest.Options{Sizes: []int{2, 3}, H: []int{1}, Scope: [][2]int{{2, 1}}, Checks: 10, ReplayDir: dir}
			return first(t, sottest.Check(nr, o), func(f sottest.Failure) failed {
				return failed{f.Property, f.Step, f.Replay, func(p string) (int, error) {
					fs, err := sottest.CheckFile(nr, p, sottest.Options{})
					return len(fs), err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			// Greedy-a deflects packets of a 2-relation on SOT(4): a
			// declared bound of no deflection fails.
			o := sottest.Options{Sizes: []int{4}, H: []int{2}, Scope: [][2]int{{2, 1}}, Checks: 10, MaxDeflections: func(int) int { return 0 }, ReplayDir: dir, Router: "greedy-a"}
			return first(t, sottest.Check(sotRouters[o.Router], o), func(f sottest.Failure) failed { return failed{f.Property, f.Step, f.Replay, nil} })
		}},
	{name: "bfly", kind: "bfly-suite", oursName: "greedy/fault-ignore-strict",
		toy: func(t *testing.T, dir string) failed {
			nr := func() mbf.Router { return bflyIdle{} }
			o := bflytest.Options{Shapes: []mbf.Shape{{LogN: 2, R: 0, Mode: mbf.NodeQueue}}, Perms: 1, Checks: 5, ReplayDir: dir}
			return first(t, bflytest.Check(nr, o), func(f bflytest.Failure) failed {
				return failed{f.Property, f.Step, f.Replay, func(p string) (int, error) {
					fs, err := bflytest.ReplayFile(nr, p, bflytest.Options{})
					return len(fs), err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			o := bflytest.Options{Shapes: []mbf.Shape{{LogN: 2, R: 1, Mode: mbf.Buffered, StrictBuffers: true}}, Perms: 2, Checks: 5, ReplayDir: dir, Router: "greedy/fault-ignore-strict"}
			return first(t, bflytest.Check(bflyRouters[o.Router], o), func(f bflytest.Failure) failed { return failed{f.Property, f.Step, f.Replay, nil} })
		}},
	{name: "mbfly", kind: "mbfly-suite", oursName: "priority/fault-ignore-bit",
		toy: func(t *testing.T, dir string) failed {
			nr := func() mmb.Router { return mbflyIdle{} }
			o := mbflytest.Options{Sizes: []int{4}, Nets: 1, Checks: 5, ReplayDir: dir}
			return first(t, mbflytest.Check(nr, o), func(f mbflytest.Failure) failed {
				return failed{f.Property, f.Step, f.Replay, func(p string) (int, error) {
					f, err := mbflytest.CheckFile(p, nr)
					if f == nil {
						return 0, err
					}
					return 1, err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			o := mbflytest.Options{Sizes: []int{8}, Nets: 1, Checks: 5, ReplayDir: dir, Router: "priority/fault-ignore-bit"}
			return first(t, mbflytest.Check(mbflyRouters[o.Router], o), func(f mbflytest.Failure) failed { return failed{f.Property, f.Step, f.Replay, nil} })
		}},
	{name: "sortnet", kind: "sortnet-network",
		toy: func(t *testing.T, dir string) failed {
			// One round of odd-even transposition: a network is data, so
			// the CLI runs it itself and reproduces the count.
			oneRound := func(n int) (sortnet.Network, error) {
				var st sortnet.Stage
				for i := 0; i+1 < n; i += 2 {
					st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + 1)})
				}
				return sortnet.Network{N: n, Stages: []sortnet.Stage{st}}, nil
			}
			return first(t, sortnettest.Check(oneRound, sortnettest.Options{Sizes: []int{5}, ReplayDir: dir}), func(f sortnettest.Failure) failed {
				return failed{f.Property, -1, f.Replay, func(p string) (int, error) {
					fs, err := sortnettest.CheckFile(p)
					return len(fs), err
				}}
			})
		},
		ours: func(t *testing.T, dir string) failed {
			// Batcher's odd-even merge sort on 8 wires has depth 6
			// (⌈lg 8⌉(⌈lg 8⌉+1)/2, Batcher 1968): declaring 5 fails bounds.
			o := sortnettest.Options{Sizes: []int{8}, MaxDepth: func(int) int { return 5 }, ReplayDir: dir}
			return first(t, sortnettest.Check(asn.OddEvenMergeSort, o), func(f sortnettest.Failure) failed { return failed{f.Property, -1, f.Replay, nil} })
		}},
}

// replayPath is the file a failure message names after "routecheck replay".
func replayPath(t *testing.T, replay string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(replay, "routecheck replay ")
	if !ok {
		t.Fatalf("the failure does not say 'routecheck replay PATH': %q", replay)
	}
	return strings.Fields(rest)[0]
}

// load reads a failure's file as `routecheck replay` does and checks that
// it records the property and step the failure names.
func load(t *testing.T, kind string, f failed) hunt.Case {
	t.Helper()
	path := replayPath(t, f.replay)
	c, err := hunt.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != kind || c.Metric != "property failures" || c.Value < 1 || int(c.Value) != len(c.Broke) {
		t.Fatalf("%s: kind %q, metric %q, value %g, %d broken; want %s, property failures, value = len(broke) ≥ 1", path, c.Kind, c.Metric, c.Value, len(c.Broke), kind)
	}
	found := false
	for _, b := range c.Broke {
		found = found || b.Property == f.property && b.Step == f.step
	}
	if !found {
		t.Errorf("%s: records %v, not the failure's %s at step %d", path, c.Broke, f.property, f.step)
	}
	return c
}

// A broken router the CLI does not have: its file is a case `routecheck
// replay` runs — with the paper's algorithm, saying so and printing the Go
// call — and that Go call, with the broken router, reproduces the recorded
// failure count. A network is data, so its file reproduces through the CLI
// itself.
func TestToyRouterFileReplays(t *testing.T) {
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			f := sc.toy(t, t.TempDir())
			c := load(t, sc.kind, f)
			rep, ok, err := hunt.Replay(c)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			t.Logf("%s", rep)
			if sc.kind == "sortnet-network" {
				if c.Router != "" || !ok {
					t.Errorf("the network's file (router %q) did not reproduce %g failures:\n%s", c.Router, c.Value, rep)
				}
			} else {
				for _, want := range []string{"is not one of routecheck's", "ran the paper's algorithm", "passes this instance", "import \"routecheck/props/", c.Path} {
					if !strings.Contains(rep, want) {
						t.Errorf("the report lacks %q:\n%s", want, rep)
					}
				}
				if !ok {
					t.Errorf("the paper's algorithm fails the toy's instance:\n%s", rep)
				}
				for _, n := range Routers()[sc.kind] {
					if n == c.Router {
						t.Errorf("router %q: want a name the CLI does not have", c.Router)
					}
				}
			}
			n, err := f.again(c.Path)
			if err != nil || float64(n) != c.Value {
				t.Errorf("the suite's CheckFile with the toy router: %d failures, %v; the file records %g", n, err, c.Value)
			}
		})
	}
}

// A failure of one of routecheck's routers (a planted fault, or a bound
// declared tighter than the router meets) replays green through the CLI:
// the same router, the same count and properties; and the file with
// another count recorded does not reproduce.
func TestOurRouterFileReplaysGreen(t *testing.T) {
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			f := sc.ours(t, t.TempDir())
			c := load(t, sc.kind, f)
			if c.Router != sc.oursName {
				t.Errorf("router %q, want %q", c.Router, sc.oursName)
			}
			rep, ok, err := hunt.Replay(c)
			t.Logf("%s", rep)
			if err != nil || !ok {
				t.Fatalf("replay: reproduced %v, %v:\n%s", ok, err, rep)
			}
			if strings.Contains(rep, "not one of routecheck's") || !strings.Contains(rep, f.property) {
				t.Errorf("the report does not run our router or name %s:\n%s", f.property, rep)
			}
			c.Value++
			if _, ok, err := hunt.Replay(c); ok || err != nil {
				t.Errorf("value %g: reproduced %v, %v; want not reproduced", c.Value, ok, err)
			}
		})
	}
}

// The files of earlier versions still replay through each suite's
// CheckFile: a bare meshtest instance, a "sottest" file, a bare bflytest
// instance, a "multi-butterfly" file, a bare SorterHunter network
// (and popstest's pops-suite cases without a router, and bare instances).
func TestOldFilesStillRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// popstest wrote pops-suite cases before (value 0, no router) and
	// read bare instances; both still run.
	for _, old := range []string{`{"kind": "pops-suite", "metric": "property failures", "value": 0, "instance": {"kind": "popstest", "d": 2, "g": 1, "perm": [1, 0], "seed": 1, "max_buffer": 3}}`,
		`{"kind": "popstest", "d": 2, "g": 1, "perm": [1, 0], "seed": 1}`} {
		if fs, err := popstest.CheckFile(func() pops.Router { return popsIdle{} }, write("p.json", old), popstest.Options{MaxSlots: func(pops.Shape, []int32) int { return 50 }}); err != nil || len(fs) != 1 || fs[0].Property != "terminates" {
			t.Errorf("old popstest file %s: %v, %v", old, fs, err)
		}
	}
	if fs, err := meshtest.CheckFile(stuck, write("m.json", `{"family":"perm/x","n":2,"torus":false,"src":[0],"dst":[3]}`), meshtest.Options{}); err != nil || len(fs) != 1 || fs[0].Property != meshtest.Termination {
		t.Errorf("old meshtest file: %v, %v", fs, err)
	}
	if fs, err := sottest.CheckFile(func() msot.Router { return sotPanics{sotRouters["greedy-a"]()} },
		write("s.json", `{"kind":"sottest","property":"runs","step":2,"message":"x","instance":{"family":"f","n":3,"seed":1,"rel":[[0,1],[1,2],[2,0]]}}`), sottest.Options{}); err != nil || len(fs) != 1 || fs[0].Property != "runs" {
		t.Errorf("old sottest file: %v, %v", fs, err)
	}
	if fs, err := bflytest.ReplayFile(func() mbf.Router { return bflyIdle{} },
		write("b.json", `{"kind":"bflytest-instance","log_n":1,"r":0,"mode":"node-queue","family":"f","seed":1,"packets":[{"src":0,"dst":1,"perm":1}]}`), bflytest.Options{}); err != nil || len(fs) != 1 || fs[0].Property != "terminates" {
		t.Errorf("old bflytest file: %v, %v", fs, err)
	}
	if f, err := mbflytest.CheckFile(write("mb.json", `{"network":"multi-butterfly","family":"f","instance":{"N":4,"d":2,"L":2,"net_seed":1,"router_seed":1,"perm":[1,0,3,2],"max_steps":50}}`),
		func() mmb.Router { return mbflyIdle{} }); err != nil || f == nil || f.Property != "termination" || f.Family != "f" {
		t.Errorf("old mbflytest file: %v, %v", f, err)
	}
	// One comparator on 3 wires leaves 0,1,0 → 0,1,0 unsorted.
	if fs, err := sortnettest.CheckFile(write("n.json", `{"N":3,"L":1,"D":1,"nw":[[0,1]]}`)); err != nil || len(fs) == 0 || fs[0].Property != "sorts-01" {
		t.Errorf("old sortnettest file: %v, %v", fs, err)
	}
}

// For a router the CLI does not have, the replay succeeds only when the
// paper's algorithm passes the instance under the recorded bounds: a
// single packet from corner to corner of the 3×3 mesh needs 4 steps, so
// farthest-first fails a recorded bound of 1 step too, and says so.
func TestForeignReplayFailsWhenThePaperFails(t *testing.T) {
	for _, c := range []struct {
		maxSteps int
		ok       bool
		says     string
	}{{1, false, "fails this instance too"}, {4, true, "the failure is your router's"}} {
		raw := fmt.Sprintf(`{"n": 3, "torus": false, "src": [0], "dst": [8], "max_steps": %d}`, c.maxSteps)
		rep, ok, err := hunt.Replay(hunt.Case{Kind: "mesh-suite", Metric: "property failures", Value: 1, Router: "mine",
			Broke: []hunt.Broken{{Property: meshtest.Termination, Step: c.maxSteps}}, Instance: json.RawMessage(raw)})
		if err != nil || ok != c.ok || !strings.Contains(rep, c.says) || !strings.Contains(rep, "(farthest-first)") {
			t.Errorf("max_steps %d: reproduced %v, %v, want %v saying %q:\n%s", c.maxSteps, ok, err, c.ok, c.says, rep)
		}
	}
}
