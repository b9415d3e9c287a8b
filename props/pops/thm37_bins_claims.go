package pops

import (
	"fmt"
	"math"

	"routecheck/props"
)

// Theorem 3.7's proof, between Equations 3 and 4 (issue 12: every sentence
// that states a number). For a group a and a temporary destination group
// b, C̄_{a,b̄} is the set of colors not chosen by the m = |S_a \ D_b|
// packets of a going elsewhere; E|C̄| = g(1 − 1/g)^m, and the proof writes
//
//	Pr[|C̄| < (1 − δ)E|C̄|] ≤ e^{−δ²E[|C̄|]²/(2g)} ≤ e^{−δ²g/(2e²)},
//
// whose second step needs E|C̄| ≥ g/e, i.e. (1 − 1/g)^m ≥ 1/e. The
// sentence says "for every node a ∈ S", where m ≤ |S_a| ≤ d_s ≤ g (d = g)
// allows m = g (a has no packet going to b), and (1 − 1/g)^g < 1/e for
// every g ≥ 2. But the proof uses Equation 4 only for a = a_j, the group
// of a packet j ∈ D_b, where m ≤ |S_a| − 1 ≤ g − 1 and the step holds. The
// repair for every a uses (1 − 1/g)^g ≥ (1 − 1/g)/e: the bound
// e^{−δ²(1−1/g)²g/(2e²)}.

// binsExponentGap is E|C̄|²/(2g) − c·g/(2e²) for m packets over g colors:
// the step holds (for every δ) iff it is ≥ 0. c = 1 is the paper's
// exponent, c = (1 − 1/g)² the repair's.
func binsExponentGap(g, m int, c float64) float64 {
	e := float64(g) * math.Pow(1-1/float64(g), float64(m))
	return e*e/(2*float64(g)) - c*float64(g)/(2*math.E*math.E)
}

// checkBinsStep checks the step for g = 2 … gMax and m = 0 … g − below
// (the first failure, g ascending then m, is the counterexample); repaired
// selects the repaired exponent. below = 0 is the range the proof's
// sentence states (m ≤ |S_a| ≤ g); below = 1 the range the proof uses
// (Equation 4 is applied to a = a_j, the group of a packet j ∈ D_b, so j ∈
// S_a ∩ D_b and m = |S_a \ D_b| ≤ |S_a| − 1 ≤ g − 1).
func checkBinsStep(repaired bool, below int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gMax := env.Budget.Pick(64, 1024, 1024)
		name := "e^{−δ²g/(2e²)}"
		if repaired {
			name = "e^{−δ²(1−1/g)²g/(2e²)}"
		}
		mTop := "g"
		if below > 0 {
			mTop = fmt.Sprintf("g − %d", below)
		}
		firstG, firstM, fails, failsBelowG := 0, 0, 0, 0
		for g := 2; g <= gMax; g++ {
			c := 1.0
			if repaired {
				c = (1 - 1/float64(g)) * (1 - 1/float64(g))
			}
			for m := 0; m <= g-below; m++ {
				if binsExponentGap(g, m, c) < -1e-12 {
					if fails == 0 {
						firstG, firstM = g, m
					}
					fails++
					if m < g {
						failsBelowG++
					}
				}
			}
		}
		if fails > 0 {
			e := float64(firstG) * math.Pow(1-1/float64(firstG), float64(firstM))
			cg := 1.0
			if repaired {
				cg = (1 - 1/float64(firstG)) * (1 - 1/float64(firstG))
			}
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("first case (g ascending, then m): g = %d, m = |S_a \\ D_b| = %d: E|C̄| = g(1 − 1/g)^m = %.4f, so e^{−δ²E²/(2g)} = e^{−%.4f·δ²} > %s = e^{−%.4f·δ²} for every δ > 0; %d failing (g, m) with g ≤ %d, m ≤ %s, %d of them with m < g",
				firstG, firstM, e, e*e/(2*float64(firstG)), name, cg*float64(firstG)/(2*math.E*math.E), fails, gMax, mTop, failsBelowG),
				Counterexample: map[string]any{"g": firstG, "m": firstM}}
		}
		tight := math.Inf(1) // smallest gap relative to the bound's exponent
		for g := 2; g <= gMax; g++ {
			c := 1.0
			if repaired {
				c = (1 - 1/float64(g)) * (1 - 1/float64(g))
			}
			tight = min(tight, binsExponentGap(g, g-below, c)/(c*float64(g)/(2*math.E*math.E)))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("e^{−δ²E[|C̄|]²/(2g)} ≤ %s for every g = 2 … %d and m = 0 … %s; smallest slack at m = %s: the exponent exceeds the bound's by %.3g of it", name, gMax, mTop, mTop, tight)}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.7/bins-bound-step",
		Check: checkBinsStep(false, 0)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.7/bins-bound-step-used",
		Check:  checkBinsStep(false, 1),
		Faults: []props.Fault{{Name: "m = |S_a \\ D_b| allowed up to g (a with no packet in D_b)", Check: checkBinsStep(false, 0)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.7/bins-bound-step-repaired",
		Check:  checkBinsStep(true, 0),
		Faults: []props.Fault{{Name: "the paper's exponent g/(2e²)", Check: checkBinsStep(false, 0)}}}))
}
