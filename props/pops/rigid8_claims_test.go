package pops

import (
	"slices"
	"strings"
	"testing"

	"routecheck/algos/popsds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props"
)

// nextPerm walks all n! permutations once, in increasing lexicographic
// order, starting after the identity.
func TestNextPermLexicographic(t *testing.T) {
	p := perm.Identity(5)
	seen := map[string]bool{string(fmtPerm(p)): true}
	prev := slices.Clone(p)
	count := 1
	for nextPerm(p) {
		if slices.Compare(prev, p) >= 0 {
			t.Fatalf("%v after %v", p, prev)
		}
		if seen[fmtPerm(p)] {
			t.Fatalf("%v twice", p)
		}
		seen[fmtPerm(p)] = true
		prev = slices.Clone(p)
		count++
	}
	if count != 120 {
		t.Fatalf("%d permutations of 5", count)
	}
	if q := []int32{0, 1, 2, 3, 4, 5, 6, 7}; !nextPerm(q) || !slices.Equal(q, []int32{0, 1, 2, 3, 4, 5, 7, 6}) {
		t.Fatalf("successor of the identity: %v", q)
	}
}

func fmtPerm(p []int32) string {
	b := make([]byte, len(p))
	for i, v := range p {
		b[i] = byte('0' + v)
	}
	return string(b)
}

// The rigid part compares every slot at d = g and only the sort and shift
// slots at d > g (where the reports and waves depend on the data).
func TestRigidPart(t *testing.T) {
	if rigidPart(mpops.Shape{D: 4, G: 4}) != nil {
		t.Fatal("d = g: not every slot compared")
	}
	keep := rigidPart(mpops.Shape{D: 8, G: 4})
	for ph, want := range map[popsds.Phase]bool{popsds.PhaseSort: true, popsds.PhaseShift: true, popsds.PhaseInfo: false, popsds.PhaseWave: false, popsds.PhaseFinal: false} {
		if keep(ph) != want {
			t.Fatalf("d > g: phase %v kept = %v", ph, keep(ph))
		}
	}
}

// The full-rigidity check finds the hand-traced counterexample of
// algos/popsds TestNonRigidCounterexample: POPS(2,2) passes (every
// permutation), and on POPS(4,2) the first permutation after the identity
// whose pattern differs is the swap of 5 and 6 (the swap of 6 and 7, the
// first one, leaves sub-network 0's keys unchanged and sub-network 1's run
// structure too: destinations 2, 3, 7, 6 and 2, 3, 6, 7 have the same
// residues in the same ranks).
func TestRigidCounterexample(t *testing.T) {
	o := checkRigid8(popsds.None, func(mpops.Shape) func(popsds.Phase) bool { return nil })(props.Env{Budget: props.Small, Seed: props.DefaultSeed})
	if o.Verdict != props.Violated {
		t.Fatalf("verdict %v: %s", o.Verdict, o.Evidence)
	}
	cx := o.Counterexample.(map[string]any)
	// The strongest witness: slot 13, processor 1 listens to group 1 / 0
	// (the group of its key, 1 / 0; see algos/popsds TestNonRigidCounterexample).
	if cx["d"] != 4 || cx["g"] != 2 || !slices.Equal(cx["permB"].([]int32), []int32{0, 1, 2, 3, 4, 6, 5, 7}) || cx["slot"] != 13 || cx["processor"] != 1 ||
		cx["kind"] != "listen group" || cx["proofRelevant"] != true || cx["listensA"] != int32(1) || cx["listensB"] != int32(0) {
		t.Fatalf("counterexample %v", cx)
	}
}

// The DataRelay fault of rigid-part is caught with a witness that breaks
// the proof's reading; the under-approximating Reach feed of log-n is
// caught by held ⊆ P.
func TestRigid8Faults(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	o := checkRigid8(popsds.DataRelay, rigidPart)(env)
	if o.Verdict != props.Violated || o.Counterexample.(map[string]any)["proofRelevant"] != true {
		t.Fatalf("DataRelay: %v %s", o.Verdict, o.Evidence)
	}
	if o := checkRigid8Log(1, dropRelayHop())(env); o.Verdict != props.Violated || !strings.Contains(o.Evidence, "before slot") {
		t.Fatalf("relay hop dropped: %v %s", o.Verdict, o.Evidence)
	}
	if o := checkRigid8Log(1, nil)(env); o.Verdict != props.Holds {
		t.Fatalf("log-n: %v %s", o.Verdict, o.Evidence)
	}
}

// conj-2.14's evidence compares the slots with ⌈log₂ n⌉ and stays
// inconclusive; Corollary 2.4's router (popsds with the AKS-family sorter)
// is measured.
func TestDetEvidence(t *testing.T) {
	o := checkDetEvidence("x", true)(props.Env{Budget: props.Small, Seed: props.DefaultSeed})
	if o.Verdict != props.Inconclusive || !strings.Contains(o.Evidence, "Comparison: ") || !strings.Contains(o.Evidence, "Corollary 2.4") {
		t.Fatalf("%v %s", o.Verdict, o.Evidence)
	}
}
