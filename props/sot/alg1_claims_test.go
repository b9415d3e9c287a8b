package sot

import (
	"math/big"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props"
)

// The first Catalan numbers (Knuth, TAOCP 1, §2.3.4.4): 1, 1, 2, 5, 14, 42,
// 132, 429. Both the path count and the generating function must give them.
func TestSotCatalanByHand(t *testing.T) {
	want := []int64{1, 1, 2, 5, 14, 42, 132, 429}
	paths := sotCatalanPaths(len(want) - 1)
	gf := sotCatalanGF(len(want)-1, 4)
	for j, w := range want {
		if paths[j].Cmp(big.NewInt(w)) != 0 {
			t.Errorf("paths C_%d = %s, want %d", j, paths[j], w)
		}
		if gf[j].Cmp(big.NewRat(w, 1)) != 0 {
			t.Errorf("generating function C_%d = %s, want %d", j, gf[j].RatString(), w)
		}
	}
	// The planted fault's series is not integral: [z^0] of
	// (1 − √(1 − 3z))/(2z) is 3/4.
	if got := sotCatalanGF(0, 3)[0]; got.Cmp(big.NewRat(3, 4)) != 0 {
		t.Errorf("a = 3: [z^0] = %s, want 3/4", got.RatString())
	}
}

// The index-shift fault of sot/lemma-2/catalan-gf agrees at j = 0 (C_0 =
// C_1 = 1) and must be caught at j = 1 (C_1 = 1, C_2 = 2), not earlier.
func TestSotLemma2ShiftFaultCaughtAtOne(t *testing.T) {
	out := sotLemma2Check(4, 1)(props.Env{Budget: props.Small, Seed: 1})
	if out.Verdict != props.Violated {
		t.Fatalf("shift fault not caught: %+v", out)
	}
	if j, _ := out.Counterexample.(map[string]any)["j"].(int); j != 1 {
		t.Errorf("caught at j = %v, want 1: %s", out.Counterexample, out.Evidence)
	}
}

// sotDownProblem: on SOT(3) packet 0 goes P0 → P1. P0 sits at (0, 2);
// P1's target column is 1. Injecting it down is forbidden, injecting it
// right is not; after one step right it is at (0, 0), where going down
// (column 0 ≠ 1) is forbidden.
func TestSotDownProblemByHand(t *testing.T) {
	s, err := msot.NewState(3, []perm.Pair{{Src: 0, Dst: 1}})
	if err != nil {
		t.Fatal(err)
	}
	a := make([]msot.Action, 9)
	p0 := s.ProcNode(0)
	a[p0].Down = msot.Inject(0)
	if sotDownProblem(&s, a) == "" {
		t.Error("an own packet sent down was not reported")
	}
	a[p0] = msot.Action{Right: msot.Inject(0)}
	if p := sotDownProblem(&s, a); p != "" {
		t.Errorf("injection to the right reported: %s", p)
	}
	next, _, err := msot.Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	v := next.Node(0, 0)
	if next.InH[v].ID != 0 {
		t.Fatalf("packet not at (0,0): %+v", next.InH[v])
	}
	b := make([]msot.Action, 9)
	b[v].Down = msot.FromLeft
	if sotDownProblem(&next, b) == "" {
		t.Error("a packet going down outside its target column was not reported")
	}
	b[v] = msot.Action{Right: msot.FromLeft}
	if p := sotDownProblem(&next, b); p != "" {
		t.Errorf("a packet going right reported: %s", p)
	}
}

// sotSendDownOnce moves exactly one injection, once per run.
func TestSotSendDownOnce(t *testing.T) {
	s, err := msot.NewState(3, []perm.Pair{{Src: 0, Dst: 1}, {Src: 1, Dst: 2}})
	if err != nil {
		t.Fatal(err)
	}
	a := make([]msot.Action, 9)
	a[s.ProcNode(0)].Right = msot.Inject(0)
	a[s.ProcNode(1)].Right = msot.Inject(1)
	f := sotSendDownOnce()
	f(&s, a)
	if a[s.ProcNode(0)] != (msot.Action{Down: msot.Inject(0)}) || a[s.ProcNode(1)] != (msot.Action{Right: msot.Inject(1)}) {
		t.Fatalf("first call: %+v, %+v", a[s.ProcNode(0)], a[s.ProcNode(1)])
	}
	a[s.ProcNode(0)] = msot.Action{Right: msot.Inject(0)}
	f(&s, a)
	if a[s.ProcNode(0)] != (msot.Action{Right: msot.Inject(0)}) {
		t.Fatal("the fault fired twice")
	}
}
