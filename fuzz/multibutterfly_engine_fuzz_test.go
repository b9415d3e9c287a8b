package fuzz

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	amb "routecheck/algos/multibutterfly"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflynaive"
)

// multiButterflyEngineSeeds are f.Add seeds for FuzzMultiButterflyEngine,
// decoded as described at checkMultiButterflyEngine. More are in
// testdata/fuzz/FuzzMultiButterflyEngine/.
var multiButterflyEngineSeeds = [][]byte{
	{},                                      // N = 2, d = 1, L = 1, no fault, default cap, identity
	{3, 2, 1, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7}, // N = 16, d = 3, L = 2, no fault
	{4, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8}, // N = 32, d = 2, L = 1, FaultIgnoreBatch
	{2, 0, 3, 3, 9, 9, 9, 9, 9, 9, 9, 9, 9}, // N = 8, d = 1, L = 4, FaultLowestPriority, cap 9
	[]byte("routecheck multi-butterfly fast engine against the router on the step model"),
}

// FuzzMultiButterflyEngine checks the fast engine of §3.2's batched
// priority routing (algos/multibutterfly.Run) against the same algorithm
// as a node-local router stepped by the model (Priority through
// mb.RunRouter, every move validated by models/multibutterfly), on
// byte-decoded networks and partial permutations, with and without the
// planted faults of the algorithm (both sides get the same one): what
// TestPriorityMatchesRun compares, and for the fault-free algorithm also
// the naive oracle (TestAgreesWithNaive) and Run's own invariant checks.
func FuzzMultiButterflyEngine(f *testing.F) {
	for _, seed := range multiButterflyEngineSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := checkMultiButterflyEngine(data, amb.Run); err != nil {
			t.Fatal(err)
		}
	})
}

// mbEngine is the fast engine's signature (amb.Run; the planted-fault test
// passes wrong ones).
type mbEngine func(s mb.State, o amb.Options) (amb.Result, mb.State, error)

// checkMultiButterflyEngine decodes data as: log N (1–5), d (1–3), L
// (1–4), the fault (0–7: 1–3 the planted faults, the rest none), the
// iteration cap (0: the default 64·(log N + L + 4); else 1–40), a seed for
// the splitters (8 bytes), a permutation (Fisher–Yates) and one byte per
// input (no packet when ≡ 3 mod 4). Missing bytes decode as the low end, so
// every input is an instance. Then run must agree with Priority on the step
// model: both reject (the same class of model error, in the same
// iteration) or neither does, and then the same Complete, Moves,
// Delivered and MaxBuffer, Steps equal when the cap is reached and
// Iterations = ⌈router steps / 2d⌉ when complete, the same positions
// after every iteration and the same final state. Without a fault, run
// with Check must succeed and its trajectory must equal the naive
// oracle's.
func checkMultiButterflyEngine(data []byte, run mbEngine) error {
	c := &byteChoices{b: data}
	logN, d, L := c.intn(1, 5), c.intn(1, 3), c.intn(1, 4)
	N := 1 << logN
	fault := amb.NoFault
	if k := c.intn(0, 7); k >= 1 && k <= 3 {
		fault = amb.Fault(k)
	}
	maxIt := c.intn(0, 40)
	if maxIt == 0 {
		maxIt = amb.DefaultMaxIterations(logN, L)
	}
	seed := c.seed()
	net, err := mb.Build(N, d, rand.New(rand.NewPCG(seed, 0x3c)))
	if err != nil {
		return fmt.Errorf("Build(%d, %d): %v", N, d, err)
	}
	p := c.perm(N)
	for i := range p {
		if c.intn(0, 3) == 3 {
			p[i] = perm.None
		}
	}
	name := fmt.Sprintf("N = %d, d = %d, L = %d, fault %d, cap %d, seed %#x, perm %v", N, d, L, fault, maxIt, seed, p)
	s, err := mb.Init(net, L, p)
	if err != nil {
		return fmt.Errorf("%s: Init: %v", name, err)
	}
	d2 := 2 * d

	var fast [][]int32
	res, fin, ferr := run(s, amb.Options{MaxIterations: maxIt, Fault: fault, Check: fault == amb.NoFault,
		AfterIteration: func(_ int, x *mb.State) { fast = append(fast, slices.Clone(x.Pos)) }})
	slow := [][]int32{slices.Clone(s.Pos)}
	rres, rfin, rerr := mb.RunRouter(s, &amb.Priority{Fault: fault}, nil, mb.RouterOptions{MaxSteps: maxIt * d2,
		AfterStep: func(t int, x *mb.State, _ mb.Events) error {
			if t%d2 == 0 {
				slow = append(slow, slices.Clone(x.Pos))
			}
			return nil
		}})
	if fault == amb.NoFault && ferr != nil {
		return fmt.Errorf("%s: the algorithm without a fault: %v", name, ferr)
	}
	if (ferr == nil) != (rerr == nil) {
		return fmt.Errorf("%s: engine error %v, step model error %v", name, ferr, rerr)
	}
	if ferr != nil {
		var se *mb.StepError
		if !errors.As(rerr, &se) || errors.Is(ferr, mb.ErrCapacity) != errors.Is(rerr, mb.ErrCapacity) ||
			errors.Is(ferr, mb.ErrIllegal) != errors.Is(rerr, mb.ErrIllegal) || len(fast) != se.Step/d2+1 {
			return fmt.Errorf("%s: engine error %v after %d iterations, step model error %v", name, ferr, len(fast)-1, rerr)
		}
		return nil
	}
	if res.Complete != rres.Complete || res.Moves != rres.Moves || res.Delivered != rres.Delivered || res.MaxBuffer != rres.MaxBuffer {
		return fmt.Errorf("%s: engine %+v, step model %+v", name, res, rres)
	}
	if res.Complete && (res.Iterations != (rres.Steps+d2-1)/d2 || res.Steps != d2*res.Iterations) {
		return fmt.Errorf("%s: engine %d iterations (%d steps), step model %d steps", name, res.Iterations, res.Steps, rres.Steps)
	}
	if !res.Complete && (res.Iterations != maxIt || res.Steps != rres.Steps) {
		return fmt.Errorf("%s: cut at the cap: engine %d iterations (%d steps), step model %d steps", name, res.Iterations, res.Steps, rres.Steps)
	}
	if rres.Complete && rres.Steps%d2 != 0 {
		// the router stops at the last delivery; the rest of that
		// iteration moves nothing (stage log N has no out edges)
		slow = append(slow, slices.Clone(rfin.Pos))
	}
	if len(fast) != len(slow) {
		return fmt.Errorf("%s: engine observed %d states, step model %d", name, len(fast), len(slow))
	}
	for i := range fast {
		if !slices.Equal(fast[i], slow[i]) {
			return fmt.Errorf("%s: positions differ after iteration %d:\n  engine     %v\n  step model %v", name, i, fast[i], slow[i])
		}
	}
	if !reflect.DeepEqual(fin.Pos, rfin.Pos) || !reflect.DeepEqual(fin.Count, rfin.Count) {
		return fmt.Errorf("%s: final states differ", name)
	}
	if fault == amb.NoFault {
		want := mbflynaive.Run(net, L, s.Pos, s.Dest, maxIt)
		if !reflect.DeepEqual(fast, want) {
			return fmt.Errorf("%s: engine and naive oracle trajectories differ (%d vs %d iterations)", name, len(fast)-1, len(want)-1)
		}
	}
	return nil
}
