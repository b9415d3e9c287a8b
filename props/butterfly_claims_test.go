package props

import (
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
)

// The violated congestion-lower-bound claim's counterexample replays from
// its JSON-able fields alone: the instance routes in fewer steps than its
// node congestion, on the step model too (not only the engine).
func TestBflyLowerBoundCounterexampleReplays(t *testing.T) {
	cs, err := Claims("^bfly/sec2/congestion-lower-bound/buffered$")
	if err != nil || len(cs) != 1 {
		t.Fatalf("claim lookup: %v", err)
	}
	r := Run(cs[0], Env{Budget: Small, Seed: DefaultSeed})
	if r.Verdict != Violated {
		t.Fatalf("verdict %s", r.Verdict)
	}
	m, ok := r.Counterexample.(map[string]any)
	if !ok {
		t.Fatalf("counterexample %T", r.Counterexample)
	}
	in := m["instance"].(BflyInstance)
	if in.Mode != mb.Buffered.String() || in.Strict {
		t.Fatalf("instance %+v is not in the claim's model", in)
	}
	ps, err := in.Packets()
	if err != nil {
		t.Fatal(err)
	}
	res, err := ab.RunOnModel(in.Options(), ps, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if c := ab.MaxCongestion(in.Options().Shape, ps); res.Steps >= c {
		t.Errorf("replayed on the step model: %d steps, congestion %d — not a counterexample", res.Steps, c)
	}
}

// A simulation cell recalled from the cache equals a fresh computation,
// and runs use distinct streams (two runs of a cell differ somewhere in
// the grid).
func TestBflySimCellDeterministic(t *testing.T) {
	a, err := simCell("strict", 6, 2, 5, 77, 3)
	if err != nil {
		t.Fatal(err)
	}
	simMu.Lock()
	delete(simCache, simKey{"strict", 6, 2, 5, 77, 3})
	simMu.Unlock()
	b, err := simCell("strict", 6, 2, 5, 77, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("recomputed cell differs: %+v vs %+v", a, b)
	}
	if a.avg.SD == 0 && a.max.SD == 0 {
		t.Error("three runs gave identical results: streams not distinct?")
	}
	if _, _, err := BflySimRun(&ab.Engine{}, "nonsense", 4, 0, 1, 1, 0); err == nil {
		t.Error("unknown reading accepted")
	}
}

// Zero exceedances never make a size inconsistent, however small the
// paper's bound (the Wilson lower bound of 0/R is 0; in floating point it
// comes out near 1e-17).
func TestJudgeExceedZero(t *testing.T) {
	o := judgeExceed([]bflyExceed{{label: "x", e: 0, R: 50, q: 1e-30}}, "")
	if o.Verdict != Consistent {
		t.Errorf("0/50 against 1e-30: %s (%s)", o.Verdict, o.Evidence)
	}
	o = judgeExceed([]bflyExceed{{label: "x", e: 5, R: 50, q: 1e-30, first: 1}}, "")
	if o.Verdict != Inconsistent || o.Counterexample == nil {
		t.Errorf("5/50 against 1e-30: %s", o.Verdict)
	}
}
