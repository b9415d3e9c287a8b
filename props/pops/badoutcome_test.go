package pops

import (
	"testing"

	ap "routecheck/algos/pops"
)

// TestBadOutcomeAgreesWithFullReport guards badOutcome's shortcut: the
// exhaustive part judges a class from a report rebuilt from its stepOutcome
// (which properties broke, the peak memories, the model error) and reruns
// the class only when that report fails. A predicate that read anything
// else of PopsRunReport (Result, Packets, a failure's slot or message)
// would see zero values there and could pass a failing class silently. So
// for every per-step router claim, on every class of the shapes of n ≤ 5
// in its scope, under the router as written and each planted mutant (which
// make the predicates fail on many classes), the shortcut's decision must
// equal the predicate's on the full report of the same one-step run.
// (n ≤ 6 gives 132 764 failing triples but takes 7 s; n ≤ 5 gives 470 in
// 0.04 s, and a planted predicate reading Packets fails at POPS(2,1).)
func TestBadOutcomeAgreesWithFullReport(t *testing.T) {
	claims, fails := 0, 0
	for id, rr := range routerClaims {
		if !rr.stepOnly {
			continue
		}
		claims++
		_, _, _, keep := rr.scope()
		bad := func(r PopsRunReport) string {
			if s := modelBad(r); s != "" {
				return s
			}
			return rr.bad(r)
		}
		for _, mut := range append([]ap.Mutant{ap.NoMutant}, routerFaults...) {
			for _, dg := range stepShapes(5, keep) {
				sh, err := exhaustiveShape(rr.alg, mut, dg[0], dg[1])
				if err != nil {
					t.Fatalf("%s POPS(%d,%d): %v", id, dg[0], dg[1], err)
				}
				for i, o := range sh.outcomes {
					in := sh.class(i)
					full := bad(RunPops(in)) != ""
					short := rr.badOutcome(o, bad, in) != ""
					if full {
						fails++
					}
					if full != short {
						t.Fatalf("%s, mutant %v, POPS(%d,%d) class %d: full report says bad=%v, the exhaustive shortcut bad=%v", id, mut, dg[0], dg[1], i, full, short)
					}
				}
			}
		}
	}
	if claims < 10 {
		t.Errorf("%d per-step router claims, want the ten registered in claims.go", claims)
	}
	if fails == 0 {
		t.Error("no class failed under any mutant: the comparison saw only passing classes")
	}
	t.Logf("%d claims, %d failing (claim, mutant, class) triples agree", claims, fails)
}
