package mesh

import (
	"fmt"
	"math"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// Corollary 2 of 003_8774480fe7c747cc.txt and the sentence after it ("for
// k < log n the new algorithm is even better than the randomized
// algorithm"): the algebra from Theorem 3, the corollary's two conclusions
// together, and the comparison measured.

// cor2Grid is the (n, k) grid of the algebraic claims: n = 2^a, 2 ≤ a ≤ 40,
// k = 2^b, 0 ≤ b ≤ 30, plus k = 3·2^b (not powers of two).
func cor2Grid() [][2]float64 {
	var g [][2]float64
	for a := 2; a <= 40; a++ {
		for b := 0; b <= 30; b++ {
			g = append(g, [2]float64{math.Ldexp(1, a), math.Ldexp(1, b)}, [2]float64{math.Ldexp(1, a), 3 * math.Ldexp(1, b)})
		}
	}
	return g
}

// Cor2Side is f(n, k) = √n·(log n/k)^{1/4}, the threshold of Corollary 2's
// n' = ω(f).
func Cor2Side(n, k float64) float64 { return math.Sqrt(n) * math.Pow(math.Log2(n)/k, 0.25) }

// Cor2Term is Corollary 2's additive time term k^{3/4}·√n·log^{1/4} n.
func Cor2Term(n, k float64) float64 {
	return math.Pow(k, 0.75) * math.Sqrt(n) * math.Pow(math.Log2(n), 0.25)
}

// thm3Terms are Theorem 3's additive time terms k·n' and (n²/n'^e)·log n
// (e = 3 in the reading; the printed "n²/n³" is e = 3 with n' → n, see
// mesh/cor-2/theorem-3-terms) and its queue term (n²/n'⁴)·log n.
func thm3Terms(n, k, np float64, e float64, printed bool) (t1, t2, queue float64) {
	den := math.Pow(np, e)
	if printed {
		den = math.Pow(n, e)
	}
	return k * np, n * n / den * math.Log2(n), n * n / math.Pow(np, 4) * math.Log2(n)
}

func init() {
	terms := func(printed bool) props.Outcome {
		worst := 0.0
		for _, nk := range cor2Grid() {
			n, k := nk[0], nk[1]
			f := Cor2Side(n, k)
			t1, t2, q := thm3Terms(n, k, f, 3, printed)
			c := Cor2Term(n, k)
			for _, x := range []float64{t1 / c, t2 / c, q / k} {
				worst = max(worst, math.Abs(x-1))
				if math.Abs(x-1) > 1e-9 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %g, k = %g, n' = f = %.6g: k·n' = %.6g, (n²/n'³)·log n = %.6g, Corollary 2's term %.6g; queue term %.6g against k", n, k, f, t1, t2, c, q),
						Counterexample: map[string]any{"n": n, "k": k, "n_prime": f, "k_n_prime": t1, "second_term": t2, "cor2_term": c, "queue_term": q}}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("at n' = f = √n·(log n/k)^{1/4} both of Theorem 3's time terms equal k^{3/4}·√n·log^{1/4} n and the queue term (n²/n'⁴)·log n equals k, on all %d grid points (n = 2^2 … 2^40, k = 2^b and 3·2^b up to 3·2^30; largest relative difference %.2g)", len(cor2Grid()), worst)}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/cor-2/theorem-3-terms",
		Check:  func(props.Env) props.Outcome { return terms(false) },
		Faults: []props.Fault{{Name: "Theorem 3's second term as printed, (n²/n³)·log n", Check: func(props.Env) props.Outcome { return terms(true) }}},
	})))

	props.Register(ledger.Text(props.Claim{ID: "mesh/cor-2/as-stated",
		Check: func(props.Env) props.Outcome {
			n := math.Ldexp(1, 20)
			k := n
			f := Cor2Side(n, k)
			var ev []string
			for e := 0; e <= 20; e++ {
				g := math.Ldexp(1, e)
				t1, t2, q := thm3Terms(n, k, g*f, 3, false)
				tr, qr := (t1+t2)/Cor2Term(n, k), q/k
				ev = append(ev, fmt.Sprintf("g=%g: time/term %.4g, queue excess/k %.3g", g, tr, qr))
				if qr < 0.01 && tr > 10 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = k = 2^20: no n' = g·f gives both; at g = %g the queue excess is %.3g·k but the time term is %.4g× Corollary 2's (%s)", g, qr, tr, strings.Join(ev, "; ")),
						Counterexample: map[string]any{"n": n, "k": k, "g": g, "n_prime": g * f, "time_over_cor2_term": tr, "queue_excess_over_k": qr}}
				}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
		}}))

	below := func(p float64) props.Outcome {
		for _, nk := range cor2Grid() {
			n, k := nk[0], nk[1]
			better := math.Pow(k, p)*math.Sqrt(n)*math.Pow(math.Log2(n), 0.25) < math.Sqrt(k*n*math.Log2(n))*(1-1e-12) // equal at k = log n
			if better != (k < math.Log2(n)) {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %g, k = %g (log n = %g): Corollary 2's term is %s Lemma 2's", n, k, math.Log2(n), map[bool]string{true: "below", false: "not below"}[better]),
					Counterexample: map[string]any{"n": n, "k": k}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("k^{3/4}·√n·log^{1/4} n < (k·n·log n)^{1/2} exactly when k < log n on all %d grid points", len(cor2Grid()))}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/cor-2/beats-rand-when-k-below-log-n",
		Check:  func(props.Env) props.Outcome { return below(0.75) },
		Faults: []props.Fault{{Name: "Corollary 2's exponent 3/4 printed as 2/3", Check: func(props.Env) props.Outcome { return below(2.0 / 3) }}},
	})))

	props.Register(ledger.Text(props.Claim{ID: "mesh/cor-2/beats-rand-measured",
		Check: func(env props.Env) props.Outcome {
			sizes := [][2]int{{16, 2}}
			if env.Budget >= props.Default {
				sizes = append(sizes, [2]int{32, 2}, [2]int{32, 4})
			}
			var ev []string
			var cex any
			for _, nk := range sizes {
				n, k := nk[0], nk[1]
				best, bestNp := -1, 0
				for _, np := range []int{2, 4, 8} {
					worst := 0
					for fi, f := range KKFamilies[:3] {
						r, _, err := a2Prime(n, np, GenKK(f, n, k, seeds.Rand(env.Seed, 0xc02, uint64(n), uint64(k), uint64(fi))), true, nil)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						worst = max(worst, r.Steps)
					}
					if best < 0 || worst < best {
						best, bestNp = worst, np
					}
				}
				xs, err := randSlowest(env.Seed, 0xc03, amesh.Rand3, n, k, 5, KKFamilies[:3])
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				slices.Sort(xs)
				med := xs[2]
				ev = append(ev, fmt.Sprintf("n=%d k=%d: ALLOCATE' best n'=%d %d steps vs RAND_3 median %d (ratio %.3f)", n, k, bestNp, best, med, float64(best)/float64(med)))
				if best >= med && cex == nil {
					cex = map[string]any{"n": n, "k": k, "n_prime": bestNp, "det3_prime_steps": best, "rand3_median_steps": med}
				}
			}
			if cex != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: cex}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
		}}))
}
