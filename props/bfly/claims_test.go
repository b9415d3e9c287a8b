package bfly

import (
	"strings"
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
	"routecheck/props"
)

// The violated congestion-lower-bound claim's counterexample replays from
// its JSON-able fields alone: the instance routes in fewer steps than its
// node congestion, on the step model too (not only the engine).
func TestBflyLowerBoundCounterexampleReplays(t *testing.T) {
	cs, err := props.Claims("^bfly/sec2/congestion-lower-bound/buffered$")
	if err != nil || len(cs) != 1 {
		t.Fatalf("claim lookup: %v", err)
	}
	r := props.Run(cs[0], props.Env{Budget: props.Small, Seed: props.DefaultSeed})
	if r.Verdict != props.Violated {
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
	simCache.forget(simKey{"strict", 6, 2, 5, 77, 3})
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
// paper's bound (P(Bin(R, q) ≥ 0) = 1).
func TestJudgeExceedZero(t *testing.T) {
	o := judgeExceed([]bflyExceed{{label: "x", e: 0, R: 50, q: 1e-30}}, "")
	if o.Verdict != props.Consistent {
		t.Errorf("0/50 against 1e-30: %s (%s)", o.Verdict, o.Evidence)
	}
	o = judgeExceed([]bflyExceed{{label: "x", e: 5, R: 50, q: 1e-30, first: 1}}, "")
	if o.Verdict != props.Inconsistent || o.Counterexample == nil {
		t.Errorf("5/50 against 1e-30: %s", o.Verdict)
	}
}

// judgeExceed decides by the exact binomial tail, not a Wilson bound. With
// q = 3/(4·4096) ≈ 1.83e-4 (Theorem 2 at N = 2^12) and R = 60, computed
// independently as Σ_{k≥e} C(60,k) q^k (1−q)^{60−k}:
//
//	e = 1: 0.01093  (Wilson's lower bound 3.7e-4 > q wrongly rejected this)
//	e = 3: 2.08e-7
//	e = 4: 5.44e-10 ≤ Alpha = 1e-9
//
// so with one cell e ≤ 3 is consistent and e = 4 inconsistent.
func TestJudgeExceedExactTail(t *testing.T) {
	q := 3 / (4 * 4096.0)
	for _, c := range []struct {
		e    int
		want props.Verdict
	}{{1, props.Consistent}, {3, props.Consistent}, {4, props.Inconsistent}, {60, props.Inconsistent}} {
		o := judgeExceed([]bflyExceed{{label: "x", e: c.e, R: 60, q: q, first: c.e}}, "")
		if o.Verdict != c.want {
			t.Errorf("%d/60 against %.3g: %s, want %s (%s)", c.e, q, o.Verdict, c.want, o.Evidence)
		}
	}
	// Bonferroni: two cells halve α to 5e-10 < 5.44e-10, so e = 4 is no
	// longer enough.
	o := judgeExceed([]bflyExceed{{label: "x", e: 4, R: 60, q: q}, {label: "y", e: 0, R: 60, q: q}}, "")
	if o.Verdict != props.Consistent {
		t.Errorf("4/60 with two cells: %s (%s)", o.Verdict, o.Evidence)
	}
}

// A claim none of whose cells can fail is Inconclusive, not consistent:
// every cell unreachable, or q^R > α (0.5^5 = 0.031).
func TestJudgeExceedCannotFail(t *testing.T) {
	o := judgeExceed([]bflyExceed{{label: "x", R: 50, q: 1e-9, unreachable: "impossible"}, {label: "y", e: 5, R: 5, q: 0.5}}, "")
	if o.Verdict != props.Inconclusive {
		t.Errorf("got %s, want inconclusive (%s)", o.Verdict, o.Evidence)
	}
	o = judgeExceed([]bflyExceed{{label: "x", R: 50, q: 1e-9, unreachable: "impossible"}, {label: "y", R: 50, q: 1e-3}}, "")
	if o.Verdict != props.Consistent {
		t.Errorf("got %s, want consistent (%s)", o.Verdict, o.Evidence)
	}
}

// Cells with the same pool are also judged together. Three cells of 3/15
// against q = 1/256 are each consistent (P(Bin(15, q) ≥ 3) = 2.6e-5,
// computed independently as Σ_{k≥3} C(15,k) q^k (1−q)^{15−k}), but
// pooled, 9 of 45 has tail 1.65e-13 ≤ Alpha/4 (three cells and one pool).
// Unpooled they stay consistent; a pool whose cells' bounds differ is
// never judged.
func TestJudgeExceedPooled(t *testing.T) {
	q := 1 / 256.0
	cells := func(pool string) []bflyExceed {
		var cs []bflyExceed
		for _, l := range []string{"a", "b", "c"} {
			cs = append(cs, bflyExceed{label: l, e: 3, R: 15, q: q, first: l, pool: pool})
		}
		return cs
	}
	if o := judgeExceed(cells(""), ""); o.Verdict != props.Consistent {
		t.Errorf("unpooled: %s, want consistent (%s)", o.Verdict, o.Evidence)
	}
	o := judgeExceed(cells("N"), "")
	if o.Verdict != props.Inconsistent || !strings.Contains(o.Evidence, "N pooled: 9 of 45") || o.Counterexample != "a" {
		t.Errorf("pooled: %s, want inconsistent on 9 of 45 with a's run (%s, %v)", o.Verdict, o.Evidence, o.Counterexample)
	}
	mixed := cells("N")
	mixed[2].q = q / 2
	if o := judgeExceed(mixed, ""); o.Verdict != props.Consistent || !strings.Contains(o.Evidence, "bounds differ") {
		t.Errorf("pool of different q: %s, want consistent with the pool reported unjudged (%s)", o.Verdict, o.Evidence)
	}
}
