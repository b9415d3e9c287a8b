package pops

import (
	"slices"
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
	if cx["d"] != 4 || cx["g"] != 2 || !slices.Equal(cx["permB"].([]int32), []int32{0, 1, 2, 3, 4, 6, 5, 7}) || cx["slot"] != 11 || cx["processor"] != 1 {
		t.Fatalf("counterexample %v", cx)
	}
}
