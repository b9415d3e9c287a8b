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
	const sec5 = seed003 + " §5 (before Theorem 3)"
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
	props.Register(withDet3Faults(props.Claim{ID: "mesh/sec-5/cor-1-carries-over", Source: sec5 + ": 'Corollary 1 carries over'", Kind: props.Exact, Recorded: props.Holds, Class: props.Reading,
		Statement: "With ALLOCATE', the routing in Phase 1 (between the local rearrangements) takes exactly k·n/4 steps (k·n/8 with coloring) and at its end each PU holds exactly k packets.",
		Scope:     scope,
		Notes:     "Reading of 'carries over': the exact statement of Corollary 1 for the main Phase 1, with k·n'² packets per submesh dealt evenly over its rows (L1) and the arrivals at a submesh spread evenly over its columns (P1). It depends on ALLOCATE' balancing exactly (mesh/sec-5/allocate-prime-balance) and on our even spreading, which replaces the paper's dynamic 'first PU storing less than Q' rule. The without-coloring sweep runs first; the evidence is that of the coloured one.",
	}, cor1))

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
	props.Register(withPowerNote(props.Claim{ID: "mesh/sec-5/lemma-9-analogue", Source: sec5 + ": 'the analogue of Lemma 9 can be proven similarly to Lemma 13'", Kind: props.Bound, Recorded: props.Holds, Class: props.Reading,
		Statement: "With ALLOCATE', the routing in Phase 3 takes at most k·n/4 + 2·(n²/n'³)·log(n/n') + n/n' steps.",
		Scope:     "as mesh/sec-5/cor-1-carries-over, without coloring (Lemma 9's setting)",
		Notes:     "The paper does not state the analogue; it is read from the pattern of Lemmas 8, 9 and 13: Lemma 9's additive n²·log n is twice Lemma 8's n²·log n/2, and Lemma 13 replaces Lemma 8's with (n²/n'³)·log(n/n') + n/n' (primes restored, as for Lemma 13), so Lemma 9's becomes 2·(n²/n'³)·log(n/n') + n/n'. Measured, Phase 3 is at most k·n/4 on the structured families (transpose and reflect attain it) and far below on uniform traffic. Planted fault: ALLOCATE' skipped (then transpose needs 96 > 68 steps at n = 8, n' = 2, k = 16). (The off-by-one extraction stays within the bound: no fault here.)",
		Check:     faithful(lemma9),
		Faults:    []props.Fault{{Name: faultSkipAllocate, Check: func(env props.Env) props.Outcome { return lemma9(env, skipAllocate) }}},
	}))
}
