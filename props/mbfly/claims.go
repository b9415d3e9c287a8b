package mbfly

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
	"routecheck/models/perm"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// Claims of Upfal, "An O(log N) Deterministic Packet-Routing Scheme"
// (004_8aa7b4c265a7324b.txt): §2 (expanders, concentrators, splitters),
// §3 (the multi-butterfly and its batched priority routing) and the printed
// constants of §3.3 and §4.3.
//
// Readings fixed before checking (repeated in the claims' notes):
//   - Addressing: "the s bit" of a destination counts from the most
//     significant bit (the only reading under which a packet in A_{s,j}
//     has destination prefix j, as the paper says next).
//   - Iterations: odd iterations activate the edges leaving odd stages
//     (edges point forward; Claim 3.2's proof: "let s be odd; in iteration
//     t−1 stage s is sending").
//   - Priority rule: only v's highest-priority packet is considered when an
//     edge v→u is activated, and it moves only along an edge into the output
//     set its destination bit names; "currently" is per step.
//   - Folding (Corollary 2.1's proof): right vertex b and b + m/2 become one.
//   - "log" is log₂ in the printed coefficients (with ln the disagreements
//     below only grow).
//   - The design network of the simulation claims: random splitters with
//     d = 32, α = 1/32, β = 7 (so L = 4 = 1/(α(β+1)) exactly), each splitter
//     verified exactly to be an (α, β)-splitter (N ≤ 64: enumeration of
//     every |X| ≤ ⌊αm⌋ ≤ 2). Splitters with ⌊αm⌋ = 0 satisfy Definition 2.2
//     vacuously.

const mbflySrc = "004_8aa7b4c265a7324b.txt"

var mbflyReadings = "Readings: destination bit s counted from the most significant bit; odd iterations activate edges leaving odd stages; only a node's highest-priority packet is considered on an activated edge, and only into the output set its bit names; folding identifies b with b + m/2; log = log₂."

// ceilLog2 is ⌈log₂ n⌉ (0 for n ≤ 1): the number of butterfly levels of
// an N-input network, N = n rounded up to a power of two.
func ceilLog2(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// mbflyPerms are the permutations a simulation claim routes on N: the
// structured families (identity, bit reversal, the transpose of the two
// halves of the address bits, reversal q ↦ N−1−q) and r random ones.
func mbflyPerms(n, r int, seed, tag uint64) [][]int32 {
	logN := ceilLog2(n)
	id := perm.Identity(n)
	rev, tr, flip := make([]int32, n), make([]int32, n), make([]int32, n)
	h := logN / 2
	for q := range n {
		x := 0
		for b := range logN {
			x |= (q >> b & 1) << (logN - 1 - b)
		}
		rev[q] = int32(x)
		lo, hi := q&(1<<h-1), q>>h
		tr[q] = int32(lo<<(logN-h) | hi)
		flip[q] = int32(n - 1 - q)
	}
	ps := [][]int32{id, rev, tr, flip}
	for i := range r {
		ps = append(ps, perm.Random(n, seeds.Rand(seed, 0xb0f2, tag, uint64(n), uint64(i))))
	}
	return ps
}

func init() {
	registerMbflyExact()
	registerMbflySim()
	registerMbflyPaths()
	registerMbflyComm()
	registerMbflyCert()
}

func registerMbflyExact() {
	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/cor-2.1/fold-halves-expansion",
		Check: func(env props.Env) props.Outcome {
			cases := env.Budget.Pick(40, 200, 1000)
			for i := range cases {
				rng := seeds.Rand(env.Seed, 0xb0f3, uint64(i))
				m := 8 + 2*rng.IntN(7)
				d := 1 + rng.IntN(6)
				g := expander.RandomRegular(m, d, rng)
				f := expander.Fold(g)
				kmax := min(m, 10)
				a, _, err := expander.MinNeighbours(g, kmax)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				b, w, _ := expander.MinNeighbours(f, kmax)
				for x := 1; x <= kmax; x++ {
					if 2*b[x] < a[x] {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("m=%d d=%d x=%d: fold %d < %d/2", m, d, x, b[x], a[x]), Counterexample: map[string]any{"m": m, "d": d, "graph": g.Adj, "X": w[x]}}

					}
				}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random graphs, every |X| ≤ min(m, 10)", cases)}
		},
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/thm-2.1/random-expander-witness",
		Check: func(env props.Env) props.Outcome {
			var ev []string
			ns := []int{16, 24, 32}
			if env.Budget == props.Small {
				ns = []int{16, 24}
			}
			for _, c := range []struct{ d, beta int }{{8, 2}, {6, 2}, {10, 3}} {
				b := float64(c.beta)
				a0 := 1 / b * math.Pow(b*math.Exp(1+b), -1/(float64(c.d)-b-1))
				for _, n := range ns {
					k := int(math.Floor(a0*float64(n))) + 1
					found := -1
					for r := range 20 {
						g := expander.RandomRegular(n, c.d, seeds.Rand(env.Seed, 0xb0f4, uint64(c.d), uint64(n), uint64(r)))
						ok, _, err := expander.Expands(g, k, b)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						if ok {
							found = r
							break
						}
					}
					if found < 0 {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("d=%d β=%d n=%d: no witness for |X| ≤ %d in 20 graphs", c.d, c.beta, n, k)}
					}
					ev = append(ev, fmt.Sprintf("d=%d β=%d α₀=%.4f n=%d: |X| ≤ %d (graph %d)", c.d, c.beta, a0, n, k, found))
				}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "witnesses: " + strings.Join(ev, "; ")}
		},
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/sec3.3/printed-L",
		Check: mbflySetsCheck(mbflyforms.Sec3Sets, func(p mbflyforms.ParamSet, note func(string, bool, map[string]any)) {
			L := mbflyforms.Batches(p.Alpha, p.Beta)
			note(fmt.Sprintf("%s: α = %s, β = %s: formula %d, printed %d", p.Name, p.Alpha.RatString(), p.Beta.RatString(), L, p.PrintedL), L == p.PrintedL,
				map[string]any{"set": p.Name, "alpha": p.Alpha.RatString(), "beta": p.Beta.RatString(), "formula_L": L, "printed_L": p.PrintedL})
		}),
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/sec3.3/cond-1-printed",
		Check: mbflySetsCheck(mbflyforms.Sec3Sets, func(p mbflyforms.ParamSet, note func(string, bool, map[string]any)) {
			lhs, g2, ok := mbflyforms.Cond1(p.Beta, p.Gamma, p.Theta)
			note(fmt.Sprintf("%s: left %.6f, γ² %.6f, holds %v", p.Name, mbflyforms.F(lhs), mbflyforms.F(g2), ok), ok,
				map[string]any{"set": p.Name, "beta": p.Beta.RatString(), "gamma": p.Gamma.RatString(), "theta": p.Theta, "lhs": mbflyforms.F(lhs), "gamma2": mbflyforms.F(g2)})
		}),
	}))

	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/thm-3.1/printed-constants",
		Check:  mbflyPrintedCheck(mbflyforms.Sec3Sets, mbflyThm31Coeff, func(p mbflyforms.ParamSet) []float64 { return []float64{p.PrintedCoeff} }),
		Faults: []props.Fault{{Name: "the printed coefficients' leading digit raised by one (100 → 200, 600 → 700)", Check: mbflyPrintedCheck(mbflyforms.Sec3Sets, mbflyThm31Coeff, func(p mbflyforms.ParamSet) []float64 { return []float64{bumpLeadingDigit(p.PrintedCoeff)} })}},
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/sec4.3/cond-2-printed",
		Check: mbflySetsCheck(mbflyforms.Sec4Sets, func(p mbflyforms.ParamSet, note func(string, bool, map[string]any)) {
			lhs, ok := mbflyforms.Cond2(p.Beta, p.Gamma, p.Theta)
			note(fmt.Sprintf("%s: left %.6f, holds %v", p.Name, mbflyforms.F(lhs), ok), ok,
				map[string]any{"set": p.Name, "beta": p.Beta.RatString(), "gamma": p.Gamma.RatString(), "theta": p.Theta, "lhs": mbflyforms.F(lhs)})
		}),
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/thm-4.1/printed-constants",
		Check: mbflyPrintedCheck(mbflyforms.Sec4Sets, func(p mbflyforms.ParamSet) []float64 {
			a, b, g := mbflyforms.F(p.Alpha), mbflyforms.F(p.Beta), mbflyforms.F(p.Gamma)
			return []float64{mbflyforms.Thm41Coefficient(p.D, a, b, g, p.Theta, false), mbflyforms.Thm43Coefficient(p.D, a, b, g, p.Theta, false)}
		}, func(p mbflyforms.ParamSet) []float64 { return []float64{p.PrintedCoeff, p.PrintedDegreeReduced} }),
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/sec3.2/batch-load",
		Check: func(env props.Env) props.Outcome {
			type set struct {
				name        string
				alpha, beta *big.Rat
			}
			sets := []set{{"design", mbflyforms.R(1, 32), mbflyforms.R(7, 1)}}
			for _, p := range mbflyforms.Sec3Sets {
				sets = append(sets, set{"paper " + p.Name, p.Alpha, p.Beta})
			}
			var first map[string]any
			var ev []string
			for _, st := range sets {
				L := mbflyforms.Batches(st.alpha, st.beta)
				ab := new(big.Rat).Mul(st.alpha, new(big.Rat).Add(st.beta, mbflyforms.R(1, 1)))
				found := false
				for logN := 1; logN <= 12 && !found; logN++ {
					n := int64(1) << logN
					for s := logN - 1; s >= 0 && !found; s-- { // smallest splitters first
						m := n >> s
						// batch k through splitter (s, 0): destinations q < m with q mod L = k; batch 0 is the largest
						load := (m + L - 1) / L
						bound := new(big.Rat).Mul(ab, big.NewRat(m, 1))
						if new(big.Rat).SetInt64(load).Cmp(bound) > 0 {
							found = true
							bf, _ := bound.Float64()
							ev = append(ev, fmt.Sprintf("%s (L = %d): N = %d, m = %d: batch 0 sends %d > α(β+1)m = %.4g", st.name, L, n, m, load, bf))
							if first == nil {
								first = map[string]any{"set": st.name, "L": L, "N": n, "stage": s, "splitter": 0, "m": m, "batch": 0, "load": load, "bound": bf}
							}
						}
					}
				}
			}
			if first != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: first}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "no splitter overloaded up to N = 2^12"}
		},
	}))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/claim-3.2/base-case",
		Check: func(env props.Env) props.Outcome {
			for logN := 1; logN <= 12; logN++ {
				n := 1 << logN
				for L := 2; L <= n; L++ {
					size := (n + L - 1) / L // |{q < n : q mod L = 0}|
					if size*L > n {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N = %d, L = %d: batch 0 has %d > N/L = %.4g packets (paper's L = 68: N = 128 gives 2 > 1.88)", n, L, size, float64(n)/float64(L)), Counterexample: map[string]any{"N": n, "L": L, "batch": 0, "size": size}}

					}
				}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "every batch ≤ N/L up to N = 2^12"}
		},
	}))
}

// mbflyThm31Coeff is Theorem 3.1's coefficient 2d(1 + ½log(1+β))/log(1/γ)
// for an assignment.
func mbflyThm31Coeff(p mbflyforms.ParamSet) []float64 {
	return []float64{mbflyforms.Thm31Coefficient(p.D, mbflyforms.F(p.Beta), mbflyforms.F(p.Gamma), false)}
}

// bumpLeadingDigit raises x's leading decimal digit by one (x > 0): the
// exact-value claims' planted fault (a printed digit changed).
func bumpLeadingDigit(x float64) float64 {
	return x + math.Pow(10, math.Floor(math.Log10(x)))
}

// mbflyPrintedCheck compares computed figures with printed ones, rounded
// to the printed number of significant digits.
func mbflyPrintedCheck(sets []mbflyforms.ParamSet, got, printed func(mbflyforms.ParamSet) []float64) func(props.Env) props.Outcome {
	return mbflySetsCheck(sets, func(p mbflyforms.ParamSet, note func(string, bool, map[string]any)) {
		g, w := got(p), printed(p)
		for i := range g {
			sig := mbflyforms.SigDigits(w[i])
			r := mbflyforms.RoundSig(g[i], sig)
			note(fmt.Sprintf("%s: computed %.1f → %g at %d digits, printed %g", p.Name, g[i], r, sig, w[i]), r == w[i],
				map[string]any{"set": p.Name, "computed": g[i], "printed": w[i], "digits": sig})
		}
	})
}

// mbflySetsCheck checks printed figures set by set: judge calls note once
// per figure with its evidence line, whether the figure is right, and its
// counterexample (kept only when the figure is wrong). Violated, with every
// wrong figure, when any is wrong; the evidence lists every figure.
func mbflySetsCheck(sets []mbflyforms.ParamSet, judge func(p mbflyforms.ParamSet, note func(ev string, ok bool, cex map[string]any))) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		var ev []string
		var bad []map[string]any
		for _, p := range sets {
			judge(p, func(e string, ok bool, cex map[string]any) {
				ev = append(ev, e)
				if !ok {
					bad = append(bad, cex)
				}
			})
		}
		if len(bad) > 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: bad}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}
