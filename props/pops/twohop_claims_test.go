package pops

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"routecheck/algos/popstwohop"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popslower"
	"routecheck/props"
)

// The text's partner rule fails against shift on POPS(17,34), T = 2, even
// with the lowest-first completion. By hand: c_out(i,1) = (i+1) mod 34 hits
// every group 17 times, so a_0 = 0. Processor 308 (group 18, ℓ = 2) shoots
// at group 3; the lowest other candidate is 36 (group 2, ℓ = 2). Group 3's
// listeners 51..67 listen to (i+1) mod 34 = 18..33, 0: they hear group 18
// but not group 2. So p_308 is relayed alone (by processor 51) and in slot
// 2 goes to group 0 on c(0,3), which processor 1 hears ((1+2) mod 34 = 3);
// the only other packets bound for group 0 start there (sources 0..14 take
// destinations 2..16). Routed at slot 2.
//
// The repaired rule skips the unheard groups 2..16 and takes 342 (group 20,
// ℓ = 2, alone on c(3,20), heard by processor 53): both are relayed through
// group 3 and collide on c(0,3) in slot 2.
func TestThm212ShiftCounterexampleByHand(t *testing.T) {
	sh := mpops.Shape{D: 17, G: 34}
	s := popstwohop.Shift(sh)
	c, err := popslower.NewThm212(sh, twoHops(s), 2, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.A0 != 0 {
		t.Fatalf("a_0 = %d, want 0", c.A0)
	}
	for _, tc := range []struct {
		rule    popslower.PartnerRule
		partner int32
		routed  bool
	}{{popslower.PartnerLowest, 36, true}, {popslower.PartnerReliable, 342, false}} {
		marks, err := c.Mark(308, tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		want := []popslower.Mark{{Packet: 308, At: 2, With: -1}, {Packet: tc.partner, At: 1, With: 308}}
		if !slices.Equal(marks, want) {
			t.Fatalf("%v: marks %v, want %v", tc.rule, marks, want)
		}
		r, err := runMarking(c, s, marks, nil, "lowest")
		if err != nil {
			t.Fatal(err)
		}
		if r.res.Routed[308] != tc.routed || (tc.routed && r.res.RoutedAt[308] != 2) {
			t.Errorf("%v: p_308 routed %v at %d, want routed = %v (at slot 2)", tc.rule, r.res.Routed[308], r.res.RoutedAt[308], tc.routed)
		}
		relayedPartner := slices.Contains(r.res.Relayed[0], tc.partner)
		if relayedPartner == tc.routed || !slices.Contains(r.res.Relayed[0], 308) {
			t.Errorf("%v: slot-1 relays %v: p_308 must be relayed, partner %d relayed = %v", tc.rule, r.res.Relayed[0], tc.partner, !tc.routed)
		}
		if (r.broken == 0) != tc.routed {
			t.Errorf("%v: broken = %d", tc.rule, r.broken)
		}
	}
}

// The construction's verdicts do not hinge on the ledger's seed: the
// repaired construction holds and the text's rule fails for other seeds too.
func TestThm212OtherSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds per seed")
	}
	for _, seed := range []uint64{1, 2, 3} {
		env := props.Env{Budget: props.Small, Seed: seed}
		if o := checkThm212(popslower.PartnerAsNeeded)(env); o.Verdict != props.Holds {
			t.Errorf("seed %d: repaired construction: %s: %s", seed, o.Verdict, o.Evidence)
		}
		if o, _ := searchMarking(env, true, popslower.PartnerLowest, thm212Cases(props.Small)); o.Verdict != props.Violated {
			t.Errorf("seed %d: text's partner rule: %s: %s", seed, o.Verdict, o.Evidence)
		}
	}
}

func TestSpreadPick(t *testing.T) {
	xs := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if got := spreadPick(xs, 4); !slices.Equal(got, []int32{0, 2, 5, 7}) {
		t.Errorf("spreadPick(10, 4) = %v", got)
	}
	if got := spreadPick(xs, 0); len(got) != 10 {
		t.Errorf("spreadPick(10, 0) has %d", len(got))
	}
}

// checkLemma211Plain is the check as it was before the table was shared
// (each judgement computing its own P'(a_0)s); TestLemma211TableMatchesPlain
// compares the two.
func checkLemma211Plain(allowance float64) func(props.Env) props.Outcome {
	return lemmaCheck(0x0211, func(sh mpops.Shape, T int, ss []lemmaSchedule) (string, *props.Outcome) {
		bound := float64(sh.N())/2 - allowance*float64(T*sh.G)*math.Sqrt(float64(sh.G))
		smallest, maxPairs := sh.N(), 0
		for _, s := range ss {
			a0, _ := popslower.LightGroup(sh, s.out, T)
			for _, ex := range []bool{false, true} {
				p := popslower.NotShooting(sh, s.out, T, a0, ex)
				r, pairs := popslower.RobustSubset(sh, s.out, T, p)
				inst := map[string]any{"d": sh.D, "g": sh.G, "T": T, "schedule": s.name, "a0": a0, "exclude_a0": ex}
				if !popslower.IsRobust(sh, s.out, T, r) {
					return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: the removal left a set that is not √g-robust", sh, T, s.name), Counterexample: inst}
				}
				if float64(len(r)) < bound || pairs > (T/2)*sh.G {
					return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: |P'(a_0)| = %d < dg/2 − Tg√g = %.1f (%d pairs marked)", sh, T, s.name, len(r), bound, pairs), Counterexample: inst}
				}
				smallest, maxPairs = min(smallest, len(r)), max(maxPairs, pairs)
			}
		}
		return fmt.Sprintf("%v T=%d: smallest |P'(a_0)| %d ≥ %.1f, most pairs marked %d", sh, T, smallest, bound, maxPairs), nil
	})
}

// Lemma 2.11's check on the shared table against the plain check, at the
// small budget: the same outcome (verdict, evidence, counterexample) for the
// claim (allowance 1) and for an allowance that makes it fail (−1: the bound
// above dg/2, so the first row is the violation, with its counterexample).
// The comparison is not vacuous: the planted fault (allowance 0) on the
// table differs from the plain claim (their bounds are in the evidence).
func TestLemma211TableMatchesPlain(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	var plainClaim props.Outcome
	for _, a := range []float64{1, -1} {
		got, want := checkLemma211(a)(env), checkLemma211Plain(a)(env)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("allowance %g: table %+v, plain %+v", a, got, want)
		}
		if a == 1 {
			plainClaim = want
		}
		if a == -1 && got.Verdict != props.Violated {
			t.Fatalf("allowance −1 not violated: %+v", got)
		}
	}
	if reflect.DeepEqual(checkLemma211(0)(env), plainClaim) {
		t.Fatal("the planted fault and the plain claim compare equal: the comparison cannot tell them apart")
	}
}
