package multibutterfly

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// runner is one way of running §3.2's routing: Run, runStepModel, or an
// engine with a planted difference.
type runner func(s mb.State, o Options) (Result, mb.State, error)

// trace is everything a run returns or shows: the result, the final state,
// the error (its text and whether it is a capacity error), and the
// positions and counts the observer saw after every iteration.
type trace struct {
	res      Result
	fin      mb.State
	err      string
	capacity bool
	pos      [][]int32
	count    [][]int32
}

func traceOf(run runner, s mb.State, o Options) trace {
	var tr trace
	o.AfterIteration = func(_ int, x *mb.State) {
		tr.pos = append(tr.pos, append([]int32(nil), x.Pos...))
		tr.count = append(tr.count, append([]int32(nil), x.Count...))
	}
	var err error
	tr.res, tr.fin, err = run(s, o)
	if err != nil {
		tr.err, tr.capacity = err.Error(), errors.Is(err, mb.ErrCapacity)
	}
	return tr
}

// diff returns how two traces differ, "" if they do not.
func diff(a, b trace) string {
	switch {
	case a.res != b.res:
		return fmt.Sprintf("results %+v and %+v", a.res, b.res)
	case a.err != b.err || a.capacity != b.capacity:
		return fmt.Sprintf("errors %q (capacity %v) and %q (capacity %v)", a.err, a.capacity, b.err, b.capacity)
	case !reflect.DeepEqual(a.pos, b.pos) || !reflect.DeepEqual(a.count, b.count):
		return fmt.Sprintf("observed states differ (%d and %d iterations seen)", len(a.pos), len(b.pos))
	case !reflect.DeepEqual(a.fin, b.fin):
		return "final states differ"
	}
	return ""
}

// diffCase is one instance of the differential test.
type diffCase struct {
	desc string
	s    mb.State
	o    Options
}

// diffCases draws the instances: random splitters (mb.Build, d = 1 … 4,
// N = 2 … 128) and the explicit MGG networks of the claims (d = 8, both
// folds, N = 2 … 64); L from 1 to 16, 32, 63, 64 (the engine's bitmap
// limit, bit 63) and 65 (over the engine's 64 batches: the fallback); full and partial permutations; every planted
// fault; with and without Check; sometimes a small iteration cap (runs
// that stop early), sometimes a start in mid-run (a state the reference
// reached after some iterations, as mutkill's rerun of a finished state).
func diffCases(t *testing.T, count int, tag uint64) []diffCase {
	t.Helper()
	var cs []diffCase
	nets := map[string]*mb.Network{}
	for r := range count {
		rng := seeds.Rand(0x5eed, tag, uint64(r))
		var net *mb.Network
		var err error
		kind := ""
		switch rng.IntN(8) {
		case 0:
			n := 1 << (1 + rng.IntN(6))
			kind = fmt.Sprintf("MGG N=%d", n)
			if net = nets[kind]; net == nil {
				net, err = mb.BuildMGG(n)
			}
		case 1:
			n := 1 << (1 + rng.IntN(6))
			kind = fmt.Sprintf("MGG-shifted N=%d", n)
			if net = nets[kind]; net == nil {
				net, err = mb.BuildMGGShifted(n)
			}
		default:
			// Three seeds per shape, cached, so random networks also
			// come back to a reused engine.
			n, d, seed := 1<<(1+rng.IntN(7)), 1+rng.IntN(4), rng.IntN(3)
			kind = fmt.Sprintf("random N=%d d=%d seed %d", n, d, seed)
			if net = nets[kind]; net == nil {
				net, err = mb.Build(n, d, seeds.Rand(0x5eed, tag, uint64(n), uint64(d), uint64(seed), 0xb1d))
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		nets[kind] = net
		L := []int{1, 2, 3, 4, 5, 6, 8, 11, 16, 32, 63, 64, 65}[rng.IntN(13)]
		p := perm.Random(net.N, rng)
		if rng.IntN(4) == 0 {
			for i := range p {
				if rng.IntN(3) == 0 {
					p[i] = perm.None
				}
			}
		}
		s, err := mb.Init(net, L, p)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Fault: Fault(rng.IntN(4)), Check: rng.IntN(3) == 0}
		switch {
		case rng.IntN(5) == 0:
			o.MaxIterations = 1 + rng.IntN(6)
		case o.Fault != NoFault && rng.IntN(8) != 0:
			// A fault run that never finishes would go on to the default
			// cap of 64(log N + L + 4) iterations; most stop sooner.
			o.MaxIterations = 10 + rng.IntN(40)
		}
		if rng.IntN(6) == 0 { // start mid-run, from the reference's state
			stop := 1 + rng.IntN(8)
			runStepModel(s, Options{Fault: o.Fault, MaxIterations: stop, AfterIteration: func(it int, x *mb.State) {
				if it == stop {
					s = x.Clone()
				}
			}})
		}
		cs = append(cs, diffCase{fmt.Sprintf("case %d: %s L=%d perm %v, %+v", r, kind, L, p, o), s, o})
	}
	return cs
}

// TestEngineMatchesStepModel is the engine's differential test: on 3,000
// drawn instances (diffCases) Run returns what runStepModel returns — the
// result, the final state, the error, and every state the observer sees —
// and the same holds for one Engine reused across all of them. A fault run
// that overfills a buffer must fail with the model's own error, which some
// instances must reach; so must complete and capped runs.
func TestEngineMatchesStepModel(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 600
	}
	engines := map[*mb.Network]*Engine{}
	var complete, capped, capacity, fallback int
	for _, c := range diffCases(t, count, 1) {
		want := traceOf(runStepModel, c.s, c.o)
		if d := diff(want, traceOf(Run, c.s, c.o)); d != "" {
			t.Fatalf("%s: Run and runStepModel differ: %s", c.desc, d)
		}
		e := engines[c.s.Net]
		if e == nil {
			e = NewEngine(c.s.Net)
			engines[c.s.Net] = e
		}
		if d := diff(want, traceOf(e.Run, c.s, c.o)); d != "" {
			t.Fatalf("%s: a reused Engine and runStepModel differ: %s", c.desc, d)
		}
		switch {
		case want.capacity:
			capacity++
		case want.err == "" && want.res.Complete:
			complete++
		case want.err == "":
			capped++
		}
		if !e.fits(c.s) {
			fallback++
		}
	}
	t.Logf("%d complete, %d capped, %d over capacity, %d on the fallback", complete, capped, capacity, fallback)
	if complete == 0 || capped == 0 || capacity == 0 || fallback == 0 {
		t.Errorf("the instances miss a kind of run: %d complete, %d capped, %d over capacity, %d on the fallback", complete, capped, capacity, fallback)
	}
}

// TestEngineLargeMatchesStepModel: the benchmarks' shape (d = 3, L = 4,
// random permutation) at N = 2^10, and N = 2^9 with L = 8, on both paths
// (0.04 s: it runs in -short too).
func TestEngineLargeMatchesStepModel(t *testing.T) {
	for i, c := range []struct{ logN, d, L int }{{10, 3, 4}, {9, 2, 8}} {
		rng := seeds.Rand(0x1a29e, uint64(i))
		net, err := mb.Build(1<<c.logN, c.d, rng)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := mb.Init(net, c.L, perm.Random(net.N, rng))
		want := traceOf(runStepModel, s, Options{})
		if !want.res.Complete {
			t.Fatalf("%+v: the reference run does not complete: %+v", c, want.res)
		}
		if d := diff(want, traceOf(Run, s, Options{})); d != "" {
			t.Errorf("%+v: %s", c, d)
		}
	}
}

// TestEngineDiffCatchesPlanted: the differential test tells an engine with
// a planted bug from the step model. Each plant is a bug a rewrite could
// make: a node's batch bitmap keeps the bit of a packet that left (so the
// node refuses that batch forever), ties between packets of one batch
// broken by the higher index (only a batch-ignoring fault makes such
// ties), a step's over-capacity check skipped, Check's one-per-batch
// scratch left set (false alarms), a node's mask kept from the previous run
// of a reused engine.
func TestEngineDiffCatchesPlanted(t *testing.T) {
	cs := diffCases(t, 600, 2)
	for _, pl := range []plant{plantStaleMask, plantTieHigh, plantNoCapacity, plantSeenDirty, plantNoReset} {
		caught := ""
		engines := map[*mb.Network]*Engine{} // reused, as the claims use them
		for _, c := range cs {
			run := func(s mb.State, o Options) (Result, mb.State, error) {
				e := engines[s.Net]
				if e == nil {
					e = NewEngine(s.Net)
					e.plant = pl
					engines[s.Net] = e
				}
				return e.Run(s, o)
			}
			if d := diff(traceOf(runStepModel, c.s, c.o), traceOf(run, c.s, c.o)); d != "" {
				caught = c.desc + ": " + d
				break
			}
		}
		if caught == "" {
			t.Errorf("plant %d: no instance tells it from the step model", pl)
		} else {
			t.Logf("plant %d caught: %.200s", pl, caught)
		}
	}
}

// TestEngineFallback: where the engine's assumptions fail it runs the step
// model, so the answers still agree: a network whose colour class is not a
// matching (two out edges of one node share a colour; the model rejects
// the step that uses both), and more than 64 batches.
func TestEngineFallback(t *testing.T) {
	net, err := mb.Build(8, 2, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	bad := *net
	bad.Edges = append([]mb.Edge(nil), net.Edges...)
	// Recolour v's second out edge to its first's colour.
	e0, e1 := bad.Out[0][0], bad.Out[0][1]
	bad.Edges[e1].Colour = bad.Edges[e0].Colour
	if NewEngine(&bad).ok {
		t.Fatal("the engine takes a network with a colour used twice at node 0")
	}
	if !NewEngine(net).ok {
		t.Fatal("the engine refuses a network mb.Build made")
	}
	for _, L := range []int{2, 65} {
		s, _ := mb.Init(&bad, L, perm.Identity(8))
		if d := diff(traceOf(runStepModel, s, Options{Check: true}), traceOf(Run, s, Options{Check: true})); d != "" {
			t.Errorf("L = %d: %s", L, d)
		}
	}
}

// checkDesync runs Check runs of engines with the planted bugs pl (and a
// pick that goes stale on remove) on drawn instances the model accepts, and
// returns the first whose error is the engine's node check; an error of
// another kind is returned as err.
func checkDesync(t *testing.T, pl plant) (caught string, err error) {
	t.Helper()
	for _, c := range diffCases(t, 600, 3) {
		c.o.Check = true
		e := NewEngine(c.s.Net)
		if !e.fits(c.s) {
			continue
		}
		if _, _, err := e.Run(c.s, c.o); err != nil {
			continue // a fault the model itself rejects
		}
		e.plant = plantStaleTop | pl
		if _, _, err := e.Run(c.s, c.o); err != nil {
			if !strings.Contains(err.Error(), "engine: node") {
				return "", fmt.Errorf("%s: the plant gives %v, not the engine's check", c.desc, err)
			}
			return c.desc + ": " + err.Error(), nil
		}
	}
	return "", nil
}

// TestEngineCheckCatchesDesync: Check mode compares what the engine decides
// from (each node's list, batch mask and pick) with its packets, so an
// engine whose pick goes stale on remove fails a Check run with the
// engine's error, on some instance; and it does so only because every step
// with moves is re-checked: with that re-check planted away the same
// search finds no such error (or a later error of the model's).
func TestEngineCheckCatchesDesync(t *testing.T) {
	caught, err := checkDesync(t, plantNone)
	if err != nil {
		t.Fatal(err)
	}
	if caught == "" {
		t.Fatal("no Check run reports a stale pick")
	}
	t.Logf("caught: %.200s", caught)
	if caught, err := checkDesync(t, plantNoRecheck); err == nil && caught != "" {
		t.Errorf("with no re-check after a step with moves the stale pick is still caught as at every step: %.200s", caught)
	}
}
