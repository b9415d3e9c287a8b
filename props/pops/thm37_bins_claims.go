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
// whose second step needs E|C̄| ≥ g/e, i.e. (1 − 1/g)^m ≥ 1/e. With m ≤
// |S_a| ≤ d_s ≤ g (d = g), m = g is allowed — at step 1 every group has all
// g packets, and most (a, b) have none of a's going to b — and (1 − 1/g)^g
// < 1/e for every g ≥ 2. The repair uses (1 − 1/g)^g ≥ (1 − 1/g)/e: the
// bound e^{−δ²(1−1/g)²g/(2e²)}.

// binsExponentGap is E|C̄|²/(2g) − c·g/(2e²) for m packets over g colors:
// the step holds (for every δ) iff it is ≥ 0. c = 1 is the paper's
// exponent, c = (1 − 1/g)² the repair's.
func binsExponentGap(g, m int, c float64) float64 {
	e := float64(g) * math.Pow(1-1/float64(g), float64(m))
	return e*e/(2*float64(g)) - c*float64(g)/(2*math.E*math.E)
}

// checkBinsStep checks the step for g = 2 … gMax and m = 0 … g (the first
// failure, g ascending then m, is the counterexample); repaired selects the
// repaired exponent.
func checkBinsStep(repaired bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gMax := env.Budget.Pick(64, 1024, 1024)
		name := "e^{−δ²g/(2e²)}"
		if repaired {
			name = "e^{−δ²(1−1/g)²g/(2e²)}"
		}
		firstG, firstM, fails, failsBelowG := 0, 0, 0, 0
		for g := 2; g <= gMax; g++ {
			c := 1.0
			if repaired {
				c = (1 - 1/float64(g)) * (1 - 1/float64(g))
			}
			for m := 0; m <= g; m++ {
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
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("first case (g ascending, then m): g = %d, m = |S_a \\ D_b| = %d: E|C̄| = g(1 − 1/g)^m = %.4f, so e^{−δ²E²/(2g)} = e^{−%.4f·δ²} > %s = e^{−%.4f·δ²} for every δ > 0; %d failing (g, m) with g ≤ %d, %d of them with m < g",
				firstG, firstM, e, e*e/(2*float64(firstG)), name, cg*float64(firstG)/(2*math.E*math.E), fails, gMax, failsBelowG),
				Counterexample: map[string]any{"g": firstG, "m": firstM}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("e^{−δ²E[|C̄|]²/(2g)} ≤ %s for every g = 2 … %d and m = 0 … g", name, gMax)}
	}
}

func init() {
	const src = seed000 + " Theorem 3.7 (proof, the balls-and-bins bound before Equation 4)"
	props.Register(props.Claim{ID: "pops/thm-3.7/bins-bound-step", Source: src, Kind: props.Bound, Recorded: props.Violated, Class: props.Paper,
		Statement: "e^{−δ²E[|C̄_{a,b̄}|]²/(2g)} ≤ e^{−δ²g/(2e²)} for every δ > 0, where E|C̄_{a,b̄}| = g(1 − 1/g)^{|S_a \\ D_b|} and |S_a \\ D_b| ≤ d_s ≤ g.",
		Scope:     "g = 2 … 64 (small), … 1024 (default, large); m = |S_a \\ D_b| = 0 … g; floating point with a 10⁻¹² margin (the failing gaps are ≥ 10⁻³ of the exponent)",
		Notes:     "The step needs E|C̄| ≥ g/e, i.e. (1 − 1/g)^m ≥ 1/e, which holds for m ≤ g − 1 and fails at m = g for every g ≥ 2 since (1 − 1/g)^g < 1/e. m = g happens: at the first step of Theorem 3.7 every group holds g packets, and a temporary destination group b that none of a's packets target gives S_a \\ D_b = S_a. The slip is small (the exponent is short by a factor (1 − 1/g)^{2g}e² ≈ 1 − 1/g) and the repaired bound e^{−δ²(1−1/g)²g/(2e²)} (pops/thm-3.7/bins-bound-step-repaired) changes no conclusion.",
		Check:     checkBinsStep(false)})
	props.Register(props.Claim{ID: "pops/thm-3.7/bins-bound-step-repaired", Source: src + " (repaired)", Kind: props.Bound, Recorded: props.Holds, Class: props.Beyond,
		Statement: "e^{−δ²E[|C̄_{a,b̄}|]²/(2g)} ≤ e^{−δ²(1−1/g)²g/(2e²)} for every δ > 0 and |S_a \\ D_b| ≤ g (from (1 − 1/g)^g ≥ (1 − 1/g)/e).",
		Scope:     "g = 2 … 64 (small), … 1024 (default, large); m = 0 … g",
		Notes:     "Not the paper's text (class beyond): the step as it should read. Planted fault: the paper's exponent, which fails at m = g.",
		Check:     checkBinsStep(true),
		Faults:    []props.Fault{{Name: "the paper's exponent g/(2e²)", Check: checkBinsStep(false)}}})
}
