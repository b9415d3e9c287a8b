package pops

import (
	"fmt"
	"math"
	"strings"

	"routecheck/props"
)

// The Chernoff bounds of Theorem 3.8's proof (§III-B, before Equation 17),
// checked exactly (issue 12: every sentence that states a number). In step s
// of stage 1 each of the |S_a| packets of group a participates
// independently with probability g/d_s, so P_a ~ Bin(|S_a|, g/d_s) and
// E[P_a] = |S_a|g/d_s ≤ g. The proof states, "for every δ > 0",
//
//	Pr[P_a < (1 − δ)|S_a|g/d_s] ≤ e^{−δ²|S_a|g/(2d_s)} ≤ e^{−δ²d_{s+1}g/(2d_s)} ≤ e^{−δ²g/4}
//	Pr[P_a > (1 + δ)g]          ≤ e^{−δ²|S_a|g/(2d_s)} ≤ e^{−δ²d_{s+1}g/(2d_s)} ≤ e^{−δ²g/4}
//
// (the later steps need |S_a| ≥ d_{s+1} ≥ d_s/2, true for the groups the
// proof uses). The lower tail is the standard Chernoff bound. The upper one
// with 2 in the denominator is not a Chernoff bound: the standard forms are
// e^{−δ²μ/3} (δ ≤ 1) and e^{−δ²μ/(2+δ)}, and the exact binomial tail
// exceeds e^{−δ²μ/2} once δ is large enough.

// lnBinomUpper is ln Pr[Bin(n, p) > k] (−Inf when k ≥ n), summed in log
// space from the exact terms C(n, j) p^j (1−p)^{n−j}, j = k+1 … n.
func lnBinomUpper(n int, p float64, k int) float64 {
	return lnBinomRange(n, p, max(k+1, 0), n)
}

// lnBinomLower is ln Pr[Bin(n, p) < x]: the terms j = 0 … ⌈x⌉ − 1.
func lnBinomLower(n int, p float64, x float64) float64 {
	return lnBinomRange(n, p, 0, min(int(math.Ceil(x))-1, n))
}

// lnBinomRange is ln Σ_{j=lo}^{hi} C(n, j) p^j (1−p)^{n−j} (−Inf if empty).
func lnBinomRange(n int, p float64, lo, hi int) float64 {
	if lo > hi {
		return math.Inf(-1)
	}
	lf := func(m int) float64 { v, _ := math.Lgamma(float64(m + 1)); return v }
	lp, lq := math.Log(p), math.Log1p(-p)
	terms := make([]float64, 0, hi-lo+1)
	top := math.Inf(-1)
	for j := lo; j <= hi; j++ {
		t := lf(n) - lf(j) - lf(n-j) + float64(j)*lp + float64(n-j)*lq
		if p == 1 { // only j = n has mass
			t = math.Inf(-1)
			if j == n {
				t = 0
			}
		}
		terms = append(terms, t)
		top = max(top, t)
	}
	if math.IsInf(top, -1) {
		return top
	}
	s := 0.0
	for _, t := range terms {
		s += math.Exp(t - top)
	}
	return top + math.Log(s)
}

// chernoffCase is one instance: group size |S_a| = s, degree bound d_s,
// threshold k (the event P_a > k, with δ = k/g − 1).
type chernoffCase struct{ g, ds, s, k int }

func (c chernoffCase) delta() float64 { return float64(c.k)/float64(c.g) - 1 }

// lnUpper is ln Pr[P_a > (1+δ)g] for the case.
func (c chernoffCase) lnUpper() float64 {
	return lnBinomUpper(c.s, float64(c.g)/float64(c.ds), c.k)
}

// lnSup is ln of the supremum of Pr[P_a > (1+δ)g] over the δ with (1+δ)g
// in [k − 1, k): there the event is P_a ≥ k, and every form's bound falls
// with δ, so the worst δ of the interval is just below k/g − 1, where the
// bound tends to its value at δ = k/g − 1 (since 2026-11-25; before, the
// search compared Pr[P_a > k] there and left out the mass at k).
func (c chernoffCase) lnSup() float64 {
	return lnBinomRange(c.s, float64(c.g)/float64(c.ds), c.k, c.s)
}

// chernoffForms are the two upper-tail bounds the proof states, as ln of
// the bound: e^{−δ²|S_a|g/(2d_s)} and e^{−δ²g/4}.
var chernoffForms = []struct {
	name string
	ln   func(c chernoffCase, delta float64) float64
}{
	{"e^{−δ²|S_a|g/(2d_s)}", func(c chernoffCase, delta float64) float64 {
		return -delta * delta * float64(c.s) * float64(c.g) / (2 * float64(c.ds))
	}},
	{"e^{−δ²g/4}", func(c chernoffCase, delta float64) float64 { return -delta * delta * float64(c.g) / 4 }},
	// The repair: the upper-tail form e^{−δ²μ/(2+δ)}, valid for every
	// δ > 0 (P_a > (1+δ)g implies P_a > (1+δ)μ since μ ≤ g).
	{"e^{−δ²|S_a|g/((2+δ)d_s)}", func(c chernoffCase, delta float64) float64 {
		return -delta * delta * float64(c.s) * float64(c.g) / ((2 + delta) * float64(c.ds))
	}},
}

// chernoffSearch looks for the first case, in the order g = 2 … gMax, d_s =
// g+1 … mult·g, |S_a| = d_s down to ⌈d_s/2⌉ (the groups the proof's chain
// covers, largest mean first), k = g+1 … |S_a|−1, where the exact upper
// tail exceeds the form's bound (by a relative 10⁻⁹, far above the
// log-space sum's rounding). It returns the case, the two logs, and false
// when none is found.
func chernoffSearch(form, gMax, mult int) (chernoffCase, float64, float64, bool) {
	for g := 2; g <= gMax; g++ {
		for ds := g + 1; ds <= mult*g; ds++ {
			for s := ds; 2*s >= ds; s-- {
				for k := g + 1; k < s; k++ {
					c := chernoffCase{g, ds, s, k}
					lp, lb := c.lnSup(), chernoffForms[form].ln(c, c.delta())
					if lp > lb+1e-9 {
						return c, lp, lb, true
					}
				}
			}
		}
	}
	return chernoffCase{}, 0, 0, false
}

// checkChernoffUpper: the form's bound for every δ > 0 — violated with the
// first counterexample of chernoffSearch over g ≤ gMax, d_s ≤ mult·g, else
// holds.
func checkChernoffUpper(form int, gMax [3]int, mult int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gm := env.Budget.Pick(gMax[0], gMax[1], gMax[2])
		c, lp, lb, found := chernoffSearch(form, gm, mult)
		if !found {
			return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("no case with g ≤ %d, d_s ≤ %dg, d_s/2 ≤ |S_a| ≤ d_s, δ → k/g − 1 from below (the event P_a ≥ k) where the binomial tail exceeds %s", gm, mult, chernoffForms[form].name)}
		}
		ev := fmt.Sprintf("first case found (g ascending, then d_s, then |S_a| from d_s down, then δ): g = %d, d_s = %d, |S_a| = %d, δ → %.2f from below: Pr[P_a ≥ %d] = %.4g > %s = %.4g (ratio %.3f)",
			c.g, c.ds, c.s, c.delta(), c.k, math.Exp(lp), chernoffForms[form].name, math.Exp(lb), math.Exp(lp-lb))
		if form == 0 { // lead with an instance at a size the paper's experiments use
			big := chernoffCase{64, 1024, 1024, 128}
			if lpb, lbb := big.lnUpper(), chernoffForms[0].ln(big, 1); lpb > lbb+1e-9 {
				ev = fmt.Sprintf("at POPS(1024, 64)'s first step (g = 64, d_s = |S_a| = 1024, δ = 1): Pr[P_a > 128] = %.4g > %s = e^{−32} = %.4g; %s", math.Exp(lpb), chernoffForms[0].name, math.Exp(lbb), ev)
			}
		}
		return props.Outcome{Verdict: props.Violated, Evidence: ev,
			Counterexample: map[string]any{"g": c.g, "d_s": c.ds, "S_a": c.s, "delta": c.delta(), "tail": math.Exp(lp), "bound": math.Exp(lb)}}
	}
}

// checkChernoffAtProofDelta checks the three bounds at δ = g^{−1/3}, the
// value the proof sets, on a grid of g, d_s and |S_a|; scale multiplies
// every exponent (1 for the claim; 2 for the planted fault, a bound twice
// as strong). It reports the smallest slack ln(bound) − ln(Pr).
func checkChernoffAtProofDelta(scale float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gs := []int{4, 16, 64, 256, 1024}[:env.Budget.Pick(4, 5, 5)]
		slack := []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
		names := []string{"lower tail e^{−δ²|S_a|g/(2d_s)}", "upper tail " + chernoffForms[0].name, "upper tail " + chernoffForms[1].name}
		cases := 0
		for _, g := range gs {
			delta := math.Pow(float64(g), -1.0/3)
			for _, m := range []int{2, 4, 16, 64} {
				ds := g * m
				for _, s := range []int{ds, (3*ds + 3) / 4, (ds + 1) / 2} {
					c := chernoffCase{g: g, ds: ds, s: s, k: int(math.Floor((1 + delta) * float64(g)))}
					p := float64(g) / float64(ds)
					mu := float64(s) * p
					lns := []float64{lnBinomLower(s, p, (1-delta)*mu), c.lnUpper(), c.lnUpper()}
					bounds := []float64{-delta * delta * mu / 2, chernoffForms[0].ln(c, delta), chernoffForms[1].ln(c, delta)}
					for i := range lns {
						sl := scale*bounds[i] - lns[i]
						if sl < 0 {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s fails at g = %d, d_s = %d, |S_a| = %d, δ = g^{−1/3} = %.3f: Pr = %.4g > bound %.4g", names[i], g, ds, s, delta, math.Exp(lns[i]), math.Exp(scale*bounds[i])),
								Counterexample: map[string]any{"g": g, "d_s": ds, "S_a": s, "bound": names[i], "scale": scale}}
						}
						slack[i] = min(slack[i], sl)
					}
					cases++
				}
			}
		}
		var ev []string
		for i, n := range names {
			ev = append(ev, fmt.Sprintf("%s: smallest ln(bound/Pr) = %.2f", n, slack[i]))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("δ = g^{−1/3}, g ∈ %v, d_s/g ∈ {2, 4, 16, 64}, |S_a| ∈ {d_s, ⌈3d_s/4⌉, ⌈d_s/2⌉} (%d cases), binomial tails summed term by term in log space: %s", gs, cases, strings.Join(ev, "; "))}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/chernoff-upper-tail",
		Check: checkChernoffUpper(0, [3]int{4, 8, 8}, 64)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/chernoff-g-over-4",
		Check: checkChernoffUpper(1, [3]int{4, 8, 8}, 64)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/chernoff-upper-tail-repaired",
		Check:  checkChernoffUpper(2, [3]int{3, 4, 4}, 16),
		Faults: []props.Fault{{Name: "the paper's upper-tail form e^{−δ²|S_a|g/(2d_s)}", Check: checkChernoffUpper(0, [3]int{3, 4, 4}, 16)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/chernoff-at-proof-delta",
		Check:  checkChernoffAtProofDelta(1),
		Faults: []props.Fault{{Name: "every exponent doubled (e^{−δ²|S_a|g/d_s}, e^{−δ²g/2})", Check: checkChernoffAtProofDelta(2)}}}))
}

// lnThm38Failure is ln of the failure bound at the end of Theorem 3.8's
// proof, 9g·e^{−δ²(1−δ)⁴g^{5/6}/(8e²)} + 4g·e^{−δ²g/4}, at g = 2^k with
// δ = g^{dexp} (the proof sets δ = g^{−1/3}); computed in log space so that
// g up to 2^400 is representable.
func lnThm38Failure(k int, dexp float64) float64 {
	lg := float64(k) * math.Ln2
	g := math.Exp2(float64(k))
	d := math.Pow(g, dexp)
	t1 := math.Log(9) + lg - d*d*math.Pow(1-d, 4)*math.Pow(g, 5.0/6)/(8*math.E*math.E)
	t2 := math.Log(4) + lg - d*d*g/4
	m := max(t1, t2)
	return m + math.Log(math.Exp(t1-m)+math.Exp(t2-m))
}

// checkThm38OneMinusO1: the failure bound tends to 0 — it falls below 1 at
// some g = 2^k, k ≤ 400, decreases at every doubling from there on and is
// below 10⁻⁶ at 2^400 — else violated. dexp is δ's exponent (−1/3 for the
// claim). lnSteps, when set, adds the union bound's step-count factor: ln of
// the number of steps at g = 2^k (nil: the bound as printed, without it).
// The evidence reports the first g where the bound is < 1 (below it, the
// theorem's probability statement is vacuous).
func checkThm38OneMinusO1(dexp float64, lnSteps func(k int) float64, steps string) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		lnB := func(k int) float64 {
			v := lnThm38Failure(k, dexp)
			if lnSteps != nil {
				v += lnSteps(k)
			}
			return v
		}
		what := "the failure bound"
		if lnSteps != nil {
			what = "the failure bound times the number of steps " + steps
		}
		first := -1
		prev := math.Inf(1)
		for k := 1; k <= 400; k++ {
			v := lnB(k)
			if first < 0 && v < 0 {
				first = k
			}
			if first >= 0 && v >= prev {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("with δ = g^{%.3f}, %s rises from g = 2^%d to 2^%d (ln %.3g → %.3g) after falling below 1 at 2^%d", dexp, what, k-1, k, prev, v, first),
					Counterexample: map[string]any{"log2_g": k, "delta_exponent": dexp}}
			}
			prev = v
		}
		if first < 0 || prev > math.Log(1e-6) {
			below := "never below 1 for g ≤ 2^400"
			if first >= 0 {
				below = fmt.Sprintf("first below 1 at 2^%d", first)
			}
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("with δ = g^{%.3f}, %s is not below 10⁻⁶ at g = 2^400 (ln = %.3g; %s)", dexp, what, prev, below),
				Counterexample: map[string]any{"delta_exponent": dexp}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%s, 9g·e^{−δ²(1−δ)⁴g^{5/6}/(8e²)} + 4g·e^{−δ²g/4} at δ = g^{−1/3}, is ≥ 1 (vacuous) for every g = 2^k, k < %d (ln = %.2f at g = 2^10, %.2f at 2^50), first below 1 at g = 2^%d ≈ %.2g, then decreasing at every doubling to e^{%.3g} at 2^400",
			what, first, lnB(10), lnB(50), first, math.Exp2(float64(first)), prev)}
	}
}

// thm38Steps is ln of an upper bound on the stage-1 step count
// ⌈(c + ε(g))(d/g − 1)⌉ ≤ 4·d/g (c + ε = 4, Corollary 3.9's choice) at g =
// 2^k when ln(d/g) = lnRatio(k).
func thm38Steps(lnRatio func(k int) float64) func(k int) float64 {
	return func(k int) float64 { return math.Log(4) + lnRatio(k) }
}

// checkThm38UnionOverSteps is the union bound with its step factor restored,
// for d/g = g^K, K = 1 and 4 (both must tend to 0).
func checkThm38UnionOverSteps(env props.Env) props.Outcome {
	var ev []string
	for _, K := range []float64{1, 4} {
		o := checkThm38OneMinusO1(-1.0/3, thm38Steps(func(k int) float64 { return K * float64(k) * math.Ln2 }), fmt.Sprintf("⌈(c + ε)(d/g − 1)⌉ ≤ 4d/g at d/g = g^%g", K))(env)
		if o.Verdict != props.Holds {
			return o
		}
		ev = append(ev, o.Evidence)
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/success-one-minus-o1",
		Check:  checkThm38OneMinusO1(-1.0/3, nil, ""),
		Faults: []props.Fault{{Name: "δ = g^{−1/2} in place of g^{−1/3}", Check: checkThm38OneMinusO1(-0.5, nil, "")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/union-over-steps",
		Check:  checkThm38UnionOverSteps,
		Faults: []props.Fault{{Name: "d/g = e^{g^{1/6}/(4e²)} (the theorem's 'any d', beyond e^{o(g^{1/6})})", Check: checkThm38OneMinusO1(-1.0/3, thm38Steps(func(k int) float64 { return math.Pow(math.Exp2(float64(k)), 1.0/6) / (4 * math.E * math.E) }), "⌈(c + ε)(d/g − 1)⌉ ≤ 4d/g at d/g = e^{g^{1/6}/(4e²)}")}}}))
}
