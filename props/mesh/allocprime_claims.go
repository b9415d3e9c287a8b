package mesh

import (
	"fmt"
	"math"

	amesh "routecheck/algos/mesh"
	"routecheck/props"
)

// §5 of 003_8774480fe7c747cc.txt, the sentence before Theorem 3: "As
// Corollary 1 carries over, and the analogue of Lemma 9 can be proven
// similarly to Lemma 13, we get …" — both analogues for ALLOCATE'
// (algos/mesh.NewPlanPrime).

// Lemma9PrimeBound is the reading of the analogue of Lemma 9 for ALLOCATE':
// Phase 3 takes at most k·n/div + 2·(n²/n'³)·log(n/n') + n/n' steps (div =
// 4; 8 with coloring): Lemma 9's additive term n²·log n is twice Lemma 8's
// n²·log n/2, and Lemma 13 turns Lemma 8's into (n²/n'³)·log(n/n') + n/n'.
func Lemma9PrimeBound(n, np, k, div int) float64 {
	g := float64(n / np)
	return float64(k*n)/float64(div) + 2*g*g/float64(np)*math.Log2(g) + g
}

func init() {
	scope := "DET_3_PHASE_ROUTE with ALLOCATE' (NewPlanPrime), farthest-first, with and without coloring; (n, n', k) ∈ " + fmt.Sprint(primeSizes(props.Small)) + " at the small and default budgets (a NewPlanPrime run costs 15 phases and the local edge colourings), those of " + fmt.Sprint(primeSizes(props.Large)) + " at the large; uniform random, transpose, reflect and row-to-col"
	// small caps the sizes at the small budget's below Large.
	small := func(env props.Env) props.Env {
		if env.Budget != props.Large {
			env.Budget = props.Small
		}
		return env
	}
	cor1 := func(env props.Env, alloc allocFn) props.Outcome {
		env = small(env)
		for _, coloring := range []bool{false, true} {
			div := 4
			if coloring {
				div = 8
			}
			o := primeCheck(env, alloc, coloring, func(n, np, k int, r amesh.KKResult, _ []int) string {
				if s, q := r.PhaseSteps[amesh.PrimePhase1], r.EndQueue[amesh.PrimePhase1]; s != k*n/div || q != k {
					return fmt.Sprintf("coloring %v: Phase 1 takes %d steps (want k·n/%d = %d) and leaves up to %d packets in a PU (want k = %d)", coloring, s, div, k*n/div, q, k)
				}
				return ""
			}, func(n, np, k int, r amesh.KKResult) string {
				return fmt.Sprintf("%d steps, end queue %d", r.PhaseSteps[amesh.PrimePhase1], r.EndQueue[amesh.PrimePhase1])
			})
			if o.Verdict != props.Holds || coloring {
				return o
			}
		}
		return props.Outcome{}
	}
	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/sec-5/cor-1-carries-over", Shares: primeShares,
		Scope: scope,
	}), cor1))

	lemma9 := func(env props.Env, alloc allocFn) props.Outcome {
		env = small(env)
		var sl slackMax
		return sl.on(primeCheck(env, alloc, false, func(n, np, k int, r amesh.KKResult, _ []int) string {
			b := Lemma9PrimeBound(n, np, k, 4)
			sl.see(float64(r.PhaseSteps[amesh.PrimePhase3]), b)
			if s := r.PhaseSteps[amesh.PrimePhase3]; float64(s) > b {
				return fmt.Sprintf("Phase 3 takes %d steps > k·n/4 + 2·(n²/n'³)·log(n/n') + n/n' = %.4g", s, b)
			}
			return ""
		}, func(n, np, k int, r amesh.KKResult) string {
			return fmt.Sprintf("%d steps (bound %.4g)", r.PhaseSteps[amesh.PrimePhase3], Lemma9PrimeBound(n, np, k, 4))
		}))
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-5/lemma-9-analogue", Shares: primeShares,
		Check:  faithful(lemma9),
		Faults: []props.Fault{{Name: faultSkipAllocate, Check: func(env props.Env) props.Outcome { return lemma9(env, skipAllocate) }}},
	})))
}
