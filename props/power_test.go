package props

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// falsifyClaim is a claim whose check reads Falsify's answer the way every
// rapid-checked claim does: no counterexample means holds.
func falsifyClaim(prop func(t *rapid.T) any) Claim {
	return Claim{ID: "test/falsify", Source: "test", Statement: "test", Kind: Invariant, Recorded: Holds,
		Check: func(env Env) Outcome {
			if cex, rep := Falsify(env, 50, prop); cex != nil {
				return Outcome{Verdict: Violated, Evidence: rep, Counterexample: cex}
			}
			return Outcome{Verdict: Holds, Evidence: "no counterexample"}
		},
		Faults: []Fault{{Name: "always caught", Check: func(Env) Outcome { return Outcome{Verdict: Violated} }}},
	}
}

// TestFalsifyNeverPassesOnACrash plants the two ways rapid can fail without
// a counterexample from the property (issue 9, item 1): both must come out
// inconclusive with the reason, never holds.
func TestFalsifyNeverPassesOnACrash(t *testing.T) {
	env := Env{Budget: Small, Seed: DefaultSeed}
	cases := []struct {
		name, reason string
		prop         func(t *rapid.T) any
	}{
		{"panicking property", "the property panicked: planted panic", func(t *rapid.T) any {
			if rapid.IntRange(0, 10).Draw(t, "x") >= 3 {
				panic("planted panic")
			}
			return nil
		}},
		{"generator that cannot draw", "could not draw enough valid cases", func(t *rapid.T) any {
			rapid.IntRange(0, 1000).Filter(func(int) bool { return false }).Draw(t, "never")
			return nil
		}},
		{"nil dereference", "the property panicked", func(t *rapid.T) any {
			var m map[string][]int
			_ = m["a"][rapid.IntRange(0, 3).Draw(t, "i")]
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Run(falsifyClaim(c.prop), env)
			if r.Verdict != Inconclusive || r.CheckVerdict != Inconclusive {
				t.Fatalf("verdict %s (check %s), want inconclusive; evidence: %s", r.Verdict, r.CheckVerdict, r.Evidence)
			}
			if !strings.Contains(r.Evidence, c.reason) {
				t.Errorf("evidence does not give the reason %q: %s", c.reason, r.Evidence)
			}
		})
	}
	// The same harness still passes a true property and finds a false one.
	if r := Run(falsifyClaim(func(t *rapid.T) any { rapid.IntRange(0, 10).Draw(t, "x"); return nil }), env); r.Verdict != Holds {
		t.Errorf("true property: %s (%s)", r.Verdict, r.Evidence)
	}
	r := Run(falsifyClaim(func(t *rapid.T) any {
		if x := rapid.IntRange(0, 100).Draw(t, "x"); x >= 7 {
			return x
		}
		return nil
	}), env)
	if r.Verdict != Violated || r.Counterexample != 7 {
		t.Errorf("false property: %s, counterexample %v (want violated, shrunk to 7)", r.Verdict, r.Counterexample)
	}
}

// TestPowerRule: a holds verdict stands only with a caught fault.
func TestPowerRule(t *testing.T) {
	env := Env{Budget: Small, Seed: DefaultSeed}
	holds := func(Env) Outcome { return Outcome{Verdict: Holds, Evidence: "fine"} }
	fault := func(v Verdict) Fault {
		return Fault{Name: "planted " + string(v), Check: func(Env) Outcome { return Outcome{Verdict: v, Evidence: "x"} }}
	}
	grouped := func(v Verdict, g string) Fault { f := fault(v); f.Group = g; return f }
	panicking := Fault{Name: "panics", Check: func(Env) Outcome { panic("boom") }}
	cases := []struct {
		name   string
		faults []Fault
		want   Verdict
		caught int
	}{
		{"no fault written", nil, Inconclusive, 0},
		{"fault not caught", []Fault{fault(Holds)}, Inconclusive, 0},
		{"fault inconclusive is not a catch", []Fault{fault(Inconclusive)}, Inconclusive, 0},
		{"a panicking fault is not a catch", []Fault{panicking}, Inconclusive, 0},
		{"one of two caught", []Fault{fault(Holds), fault(Violated)}, Holds, 1},
		{"inconsistent is a catch", []Fault{fault(Inconsistent)}, Holds, 1},
		// A Group (the two directions of one effect size) counts only whole.
		{"one direction of a group caught", []Fault{grouped(Holds, "±5 %"), grouped(Violated, "±5 %")}, Inconclusive, 1},
		{"a group caught whole", []Fault{grouped(Violated, "±5 %"), grouped(Inconsistent, "±5 %")}, Holds, 2},
		{"a group of one", []Fault{grouped(Violated, "solo")}, Holds, 1},
		{"a lone fault beside a partial group", []Fault{grouped(Violated, "±5 %"), grouped(Holds, "±5 %"), fault(Violated)}, Holds, 2},
		{"one group whole, another partial", []Fault{grouped(Violated, "a"), grouped(Holds, "a"), grouped(Violated, "b"), grouped(Violated, "b")}, Holds, 3},
		{"two partial groups", []Fault{grouped(Violated, "a"), grouped(Holds, "a"), grouped(Holds, "b"), grouped(Violated, "b")}, Inconclusive, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Run(Claim{ID: "test/power", Source: "s", Statement: "s", Kind: Invariant, Recorded: Holds, Check: holds, Faults: c.faults}, env)
			if r.Verdict != c.want || r.Caught() != c.caught || len(r.Power) != len(c.faults) || r.CheckVerdict != Holds {
				t.Errorf("verdict %s, caught %d of %d, check %s; want %s, %d caught", r.Verdict, r.Caught(), len(r.Power), r.CheckVerdict, c.want, c.caught)
			}
			if c.want == Inconclusive && !strings.Contains(r.Evidence, "no power") {
				t.Errorf("evidence does not say why: %s", r.Evidence)
			}
			if c.want == Inconclusive && c.caught > 0 && !strings.Contains(r.Evidence, "only part of a group") {
				t.Errorf("evidence does not name the partial group: %s", r.Evidence)
			}
		})
	}
	// Faults are not run when the verdict already came out the other way.
	ran := false
	r := Run(Claim{ID: "test/power", Source: "s", Statement: "s", Kind: Invariant, Recorded: Violated,
		Check:  func(Env) Outcome { return Outcome{Verdict: Violated} },
		Faults: []Fault{{Name: "f", Check: func(Env) Outcome { ran = true; return Outcome{} }}}}, env)
	if ran || r.Verdict != Violated {
		t.Errorf("violated claim: faults ran %v, verdict %s", ran, r.Verdict)
	}
}

// A slack that is not a finite number is an error inside the check: the
// claim comes out inconclusive (never holds, never matching a recorded
// holds), the JSON ledger still encodes it, and a fault whose slack is NaN
// is not a catch.
func TestNonFiniteSlackIsACrash(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, bad := range []float64{nan, inf, -inf} {
		c := Claim{ID: "test/nan-slack", Source: "test", Statement: "test", Kind: Bound, Recorded: Holds,
			Check:  func(Env) Outcome { return Outcome{Verdict: Holds, Evidence: "0/0", Slack: &bad} },
			Faults: []Fault{{Name: "always caught", Check: func(Env) Outcome { return Outcome{Verdict: Violated} }}}}
		r := Run(c, Env{Budget: Small, Seed: 1})
		if r.Verdict != Inconclusive || r.Matches || r.Slack != nil || !strings.Contains(r.Evidence, "not a finite number") {
			t.Errorf("slack %v: verdict %s, matches %v, slack %v, evidence %q", bad, r.Verdict, r.Matches, r.Slack, r.Evidence)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("slack %v: the result does not encode: %v", bad, err)
		}
		c.Check = func(Env) Outcome { s := 0.5; return Outcome{Verdict: Holds, Slack: &s} }
		c.Faults = []Fault{{Name: "NaN slack", Check: func(Env) Outcome { return Outcome{Verdict: Violated, Slack: &bad} }}}
		if r := Run(c, Env{Budget: Small, Seed: 1}); r.Caught() != 0 || r.Verdict != Inconclusive {
			t.Errorf("fault with slack %v: caught %d, verdict %s", bad, r.Caught(), r.Verdict)
		}
	}
}

// NotJudged reports what its check found without a verdict: inconclusive
// whatever the check says, the reason and the check's evidence kept, and
// no planted fault needed (Run does not ask for power on inconclusive).
func TestNotJudged(t *testing.T) {
	env := Env{Budget: Small, Seed: DefaultSeed}
	for _, v := range []Verdict{Holds, Consistent, Violated, Inconsistent, Inconclusive} {
		c := Claim{ID: "test/not-judged", Source: "s", Statement: "s", Kind: Exact, Recorded: Inconclusive,
			Check: NotJudged("no number in the text", func(Env) Outcome { return Outcome{Verdict: v, Evidence: "ratio 0.65"} })}
		r := Run(c, env)
		if r.Verdict != Inconclusive || !r.Matches {
			t.Errorf("check %s: verdict %s, matches %v; want inconclusive", v, r.Verdict, r.Matches)
		}
		for _, want := range []string{"not judged: no number in the text", "ratio 0.65", string(v)} {
			if !strings.Contains(r.Evidence, want) {
				t.Errorf("check %s: evidence %q lacks %q", v, r.Evidence, want)
			}
		}
	}
}
