package sot

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/oracles/sotforms"
)

// The enumerator behind the exhaustive Greedy-a claim visits each of the
// (n−1)^n target vectors without self-addressing exactly once.
func TestSotNextVector(t *testing.T) {
	for n := 2; n <= 5; n++ {
		d := make([]int, n)
		for i := range d {
			d[i] = sotOther(i, 0)
		}
		seen := map[string]bool{}
		for {
			for i, x := range d {
				if x == i || x < 0 || x >= n {
					t.Fatalf("n = %d: bad vector %v", n, d)
				}
			}
			seen[fmt.Sprint(d)] = true
			if !sotNextVector(d) {
				break
			}
		}
		if want := int(math.Pow(float64(n-1), float64(n))); len(seen) != want {
			t.Errorf("n = %d: %d vectors, want %d", n, len(seen), want)
		}
	}
}

// sotEachRelation visits C(n+per, per)^n relations (a multiset of at most
// per targets for each of n processors), all distinct.
func TestSotEachRelation(t *testing.T) {
	for _, c := range []struct{ n, per, want int }{{3, 2, 1000}, {4, 1, 625}, {2, 3, 100}} {
		seen := map[string]bool{}
		sotEachRelation(c.n, c.per, func(n int, rel []perm.Pair) bool {
			seen[fmt.Sprint(rel)] = true
			return true
		})
		if len(seen) != c.want {
			t.Errorf("n = %d, per = %d: %d relations, want %d", c.n, c.per, len(seen), c.want)
		}
	}
}

// The float64 recurrence used for the limits agrees with the exact one.
func TestSotFloatAntidiagonal(t *testing.T) {
	for _, p := range []*big.Rat{big.NewRat(3, 4), big.NewRat(3, 5), big.NewRat(1, 3)} {
		P := sotforms.PTable(30, p)
		for _, K := range []int{1, 2, 7, 30} {
			got := sotFloatAntidiagonal(K, sotforms.Float(p))
			for k := 0; k <= K; k++ {
				if math.Abs(got[k]-sotforms.Float(P[k][K-k])) > 1e-12 {
					t.Fatalf("p = %s: P(%d,%d) float %v, exact %v", p.RatString(), k, K-k, got[k], sotforms.Float(P[k][K-k]))
				}
			}
		}
	}
}

// A hand-worked wave on SOT(3): P0 → P2, P1 → P2, P2 → P0. P0's packet
// turns into column 0 after 1 move, P1's after 2, so P0's wins target 2;
// P2's packet is alone. The packets delivered undeflected are 0 and 2.
func TestSotWinnersByHand(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 2}, {Src: 2, Dst: 0}}
	var undeflected []int32
	obs := func(_ *msot.State, _ []msot.Action, _ *msot.State, ev *msot.Events) {
		for _, d := range ev.Delivered {
			if d.Defl == 0 {
				undeflected = append(undeflected, d.ID)
			}
		}
	}
	if _, _, err := asot.Route(asot.GreedyA, 3, rel, nil, asot.Options{MaxSteps: 3, Observe: obs}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(undeflected) != "[0 2]" {
		t.Fatalf("undeflected deliveries %v, want [0 2]", undeflected)
	}
	if msg := sotCheckWinners(3, rel, 0, nil); msg != "" {
		t.Fatal(msg)
	}
}

// The literal Greedy-a livelock, worked by hand on SOT(2) (P0 at (0,1), P1
// at (1,0)): P1 has two packets for P0 and adds both; neither is in column
// j = 0 nor came from up, so protocol a sends packet 0 right and packet 1
// down, into column 0 — P0's column is 1. Packet 1 then circles column 0.
func TestSotLiteralTrap(t *testing.T) {
	rel := []perm.Pair{{Src: 1, Dst: 0}, {Src: 1, Dst: 0}}
	res, final, err := asot.Route(asot.GreedyALiteral, 2, rel, nil, asot.Options{MaxSteps: 41, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Delivered != 1 || !final.IsDelivered(0) || final.IsDelivered(1) {
		t.Fatalf("after 41 steps: %+v, packet 1 delivered = %v", res, final.IsDelivered(1))
	}
	if got := sotTrapped(&final); got != 1 {
		t.Fatalf("trapped packet %d, want 1", got)
	}
	// The text's reading delivers both.
	if res, _, _ := asot.Route(asot.GreedyA, 2, rel, nil, asot.Options{}); !res.Complete {
		t.Fatalf("greedy-a: %+v", res)
	}
}

// SotRouterProperty, the body the fuzz target runs, passes on rapid's
// random runs (every algorithm, arbitrary relations).
func TestSotRouterProperty(t *testing.T) {
	rapid.Check(t, SotRouterProperty)
}

// SotLegal agrees with the model on random states and actions
// (SotStepProperty, also a fuzz target).
func TestSotStepProperty(t *testing.T) {
	rapid.Check(t, SotStepProperty)
}

// The shrunk counterexample of sot/lemma-1/remark/literal, worked by hand
// on SOT(3) (P0 at (0,2), P1 at (1,1), P2 at (2,0); column 0 leads to P2).
// P0 sends packets 0 (→P2), 1, 2 (→P1) and 3 (→P2) at steps 0–3; P1 sends 4
// (→P2) at step 0. At step 2 packet 0 comes down column 0 into (1,0) as
// packet 4 arrives there from the left: 4 is deflected (same wave). It
// circles row 1 and is back at (1,0) at step 5 — exactly when packet 3,
// sent at step 3, comes down column 0: a packet of A_0 deflected by one of
// A_3.
func TestSotRemarkCounterexample(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 2}, {Src: 0, Dst: 1}, {Src: 0, Dst: 1}, {Src: 0, Dst: 2}, {Src: 1, Dst: 2}}
	rep := SotCheckedRun(asot.GreedyA, 3, rel, nil, 40, true)
	if rep.Problem != "" || !rep.Result.Complete {
		t.Fatalf("%s %+v", rep.Problem, rep.Result)
	}
	want := []SotDeflection{
		{Step: 2, ID: 4, Born: 0, By: 0, ByBorn: 0, Node: [2]int{1, 0}},
		{Step: 5, ID: 4, Born: 0, By: 3, ByBorn: 3, Node: [2]int{1, 0}},
	}
	if fmt.Sprint(rep.Deflections) != fmt.Sprint(want) {
		t.Fatalf("deflections %+v, want %+v", rep.Deflections, want)
	}
}

// The planted mutant routers are what their names say on rapid's random
// runs: the livelock and priority mutants (sotNoTurnToP0, sotShutP0,
// sotLeftFirst) and the skewed schedule (sotSkewP0) only ever produce
// legal actions, so a claim catches them by its own test, not by the
// model; the store-and-forward and duplicate mutants (sotKeepFromUp,
// sotResendInFlight) produce an illegal action whenever they change one.
func TestSotMutantsLegality(t *testing.T) {
	mutants := []struct {
		name  string
		f     sotTamper
		legal bool
	}{
		{"sotNoTurnToP0", sotNoTurnToP0, true},
		{"sotShutP0", sotShutP0, true},
		{"sotLeftFirst", sotLeftFirst, true},
		{"sotSkewP0", sotSkewP0, true},
		{"sotKeepFromUp", sotKeepFromUp, false},
		{"sotResendInFlight", sotResendInFlight, false},
	}
	rapid.Check(t, func(t *rapid.T) {
		n, rel := GenSotRelation(t, 5, 4, true)
		m := mutants[rapid.IntRange(0, len(mutants)-1).Draw(t, "mutant")]
		alg := asot.GreedyB
		if m.name == "sotSkewP0" {
			alg = asot.Scheduled
		}
		s, r, a := sotStart(t, alg, n, rel)
		for range 6 * n {
			r.Actions(&s, a)
			b := append([]msot.Action(nil), a...)
			m.f(&s, b)
			changed := fmt.Sprint(a) != fmt.Sprint(b)
			if legal := SotLegal(&s, b); changed && legal != m.legal {
				t.Fatalf("%s at step %d: changed actions legal = %v", m.name, s.T, legal)
			}
			if !SotLegal(&s, b) {
				return
			}
			next, _, err := msot.Step(s, b)
			if err != nil {
				t.Fatal(err)
			}
			s = next
		}
	})
}
