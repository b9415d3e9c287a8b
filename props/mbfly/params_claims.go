package mbfly

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"routecheck/models/expander"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Issue 13, "the paper's own parameters": each printed parameter set of
// 004_8aa7b4c265a7324b.txt checked against the hypotheses of the results it
// is used with (Theorem 2.1 / Corollary 2.1 for the expanders and
// splitters, §4.4's "d is a power of 2", §3.3's degree-4 trees). Condition
// (1), condition (2) and L are checked by mbfly/sec3.3/cond-1-printed,
// mbfly/sec4.3/cond-2-printed and mbfly/sec3.3/printed-L.

func init() {
	registerParams()
}

// paramHyp is one hypothesis of one result at one printed set: ok, and a
// line of evidence.
type paramHyp struct {
	ok   bool
	line string
}

// thm211Alpha0 is Theorem 2.1(1)'s α₀ = (1/β)(βe^{1+β})^{−1/(d−β−1)} (the
// theorem gives expanders for some α > α₀, hence for every α ≤ α₀); valid
// only for β < d − 1. Corollary 2.1(1)'s α₀ is the same formula at 2β.
func thm211Alpha0(d int, beta float64) float64 {
	return 1 / beta * math.Exp(-(math.Log(beta)+1+beta)/(float64(d)-beta-1))
}

// hypRandom checks Theorem 2.1(1) (splitter false) or Corollary 2.1(1)
// (splitter true) at (d, α, β).
func hypRandom(name string, d int, alpha, beta *big.Rat, splitter bool) paramHyp {
	b := mbflyforms.F(beta)
	res, eb := "Theorem 2.1(1) (expanders)", b
	if splitter {
		res, eb = "Corollary 2.1(1) (splitters)", 2*b
	}
	if !(eb < float64(d-1)) {
		return paramHyp{false, fmt.Sprintf("%s, %s: needs %sβ < d − 1, but %g ≥ %d", name, res, map[bool]string{true: "2", false: ""}[splitter], eb, d-1)}
	}
	a0 := thm211Alpha0(d, eb)
	a := mbflyforms.F(alpha)
	return paramHyp{a <= a0, fmt.Sprintf("%s, %s: α = %.4g %s α₀ = %.4g", name, res, a, map[bool]string{true: "≤", false: ">"}[a <= a0], a0)}
}

// hypExplicit checks Theorem 2.1(2) (splitter false: β ≤ d/((d−4)α+4)) or
// Corollary 2.1(2) (splitter true: β ≤ d/(2(d−4)α+8)) exactly, and that
// d − 1 is prime; it notes whether d − 1 ≡ 1 (mod 4), the hypothesis of
// the cited construction [8].
func hypExplicit(name string, d int, alpha, beta *big.Rat, splitter bool) paramHyp {
	den := new(big.Rat).Mul(big.NewRat(int64(d-4), 1), alpha)
	res := "Theorem 2.1(2) (expanders)"
	if splitter {
		res = "Corollary 2.1(2) (splitters)"
		den.Mul(den, big.NewRat(2, 1)).Add(den, big.NewRat(8, 1))
	} else {
		den.Add(den, big.NewRat(4, 1))
	}
	bmax := new(big.Rat).Quo(big.NewRat(int64(d), 1), den)
	p := d - 1
	ok := beta.Cmp(bmax) <= 0 && expander.IsPrime(p)
	return paramHyp{ok, fmt.Sprintf("%s, %s: p = d − 1 = %d prime %v (≡ %d mod 4; [8] needs 1); β = %s %s %s ≈ %.4f", name, res, p, expander.IsPrime(p), p%4, beta.RatString(), map[bool]string{true: "≤", false: ">"}[beta.Cmp(bmax) <= 0], bmax.RatString(), mbflyforms.F(bmax))}
}

// paramsRow is one claim that a printed set satisfies the hypotheses of
// the results supplying its networks: hyp (hypRandom or hypExplicit) for
// each entry of splitter in order (false: the expanders' Theorem 2.1, true:
// the splitters' Corollary 2.1), and optionally a planted fault, the same
// check with the printed β replaced by faultBeta.
type paramsRow struct {
	claim     props.Claim
	name      string
	set       mbflyforms.ParamSet
	hyp       func(name string, d int, alpha, beta *big.Rat, splitter bool) paramHyp
	splitter  []bool
	fault     string
	faultBeta *big.Rat
}

// check runs the row's hypotheses, with β replaced by beta when non-nil
// (the planted fault).
func (r paramsRow) check(beta *big.Rat) func(props.Env) props.Outcome {
	if beta == nil {
		beta = r.set.Beta
	}
	return func(env props.Env) props.Outcome {
		var ev, bad []string
		for _, sp := range r.splitter {
			h := r.hyp(r.name, r.set.D, r.set.Alpha, beta, sp)
			ev = append(ev, h.line)
			if !h.ok {
				bad = append(bad, h.line)
			}
		}
		if len(bad) > 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: "fails: " + strings.Join(bad, "; ") + ". All: " + strings.Join(ev, "; "), Counterexample: map[string]any{"failed": bad}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

func registerParams() {
	s3n, s3e := mbflyforms.Sec3Sets[0], mbflyforms.Sec3Sets[1]
	s4n, s4e := mbflyforms.Sec4Sets[0], mbflyforms.Sec4Sets[1]
	for _, r := range []paramsRow{
		{
			claim: ledger.Text(props.Claim{
				ID: "mbfly/params/sec3.3-nonexplicit-hypotheses",
			}),
			name: "§3.3 non-explicit", set: s3n, hyp: hypRandom, splitter: []bool{true},
		},
		{
			claim: ledger.Text(props.Claim{
				ID: "mbfly/params/sec3.3-explicit-hypotheses",
			}),
			name: "§3.3 explicit", set: s3e, hyp: hypExplicit, splitter: []bool{true},
		},
		{
			claim: ledger.Text(props.Claim{
				ID: "mbfly/params/sec4.3-nonexplicit-hypotheses",
			}),
			name: "§4.3 non-explicit", set: s4n, hyp: hypRandom, splitter: []bool{false, true},
		},
		{
			claim: ledger.Text(props.Claim{
				ID: "mbfly/params/sec4.3-explicit-hypotheses",
			}),
			name: "§4.3 explicit", set: s4e, hyp: hypExplicit, splitter: []bool{false, true},
			fault: "the printed β shifted from 6.4 to 6.5 (fixed before running)", faultBeta: big.NewRat(65, 10),
		},
	} {
		if r.faultBeta == nil {
			r.claim.Check = r.check(nil)
			props.Register(r.claim)
		} else {
			props.Register(claimtab.WithFault(r.claim, r.check, nil, r.faultBeta, r.fault))
		}
	}

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/params/sec4.4-d-power-of-two",
		Check: func(env props.Env) props.Outcome {
			var bad []string
			for _, s := range mbflyforms.Sec4Sets {
				if s.D&(s.D-1) != 0 {
					bad = append(bad, fmt.Sprintf("%s: d = %d", s.Name, s.D))
				}
			}
			if len(bad) > 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: "not powers of two: " + strings.Join(bad, ", "), Counterexample: map[string]any{"d": []int{s4n.D, s4e.D}}}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "both powers of two"}
		},
	}))

	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/params/sec3.3-degree-4-figures",
		Check:  degree4Check(true),
		Faults: []props.Fault{{Name: "the tree factor 2 log₃ d without the ceiling (fixed before running)", Check: degree4Check(false)}},
	}))
}

// degree4Check checks §3.3's degree-4 figures with the factor 2⌈log₃ d⌉
// (ceil) or 2 log₃ d.
func degree4Check(ceil bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		printed := map[int]float64{10: 600, 60: 4800}
		var ev []string
		for _, s := range mbflyforms.Sec3Sets {
			f := 2 * math.Log(float64(s.D)) / math.Log(3)
			if ceil {
				k := 0
				for p := 1; p < s.D; p *= 3 {
					k++
				}
				f = float64(2 * k)
			}
			fromPrinted := s.PrintedCoeff * f
			computed := mbflyforms.Thm31Coefficient(s.D, mbflyforms.F(s.Beta), mbflyforms.F(s.Gamma), false) * f
			want := printed[s.D]
			sig := mbflyforms.SigDigits(want)
			ok := math.Abs(fromPrinted-want) < 1e-9*want && mbflyforms.RoundSig(computed, sig) == want
			ev = append(ev, fmt.Sprintf("d = %d: factor %.3f; printed coefficient %g → %.0f, computed → %.0f; printed %g", s.D, f, s.PrintedCoeff, fromPrinted, computed, want))
			if !ok {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: map[string]any{"d": s.D, "factor": f, "from_printed": fromPrinted, "computed": computed, "printed": want}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}
