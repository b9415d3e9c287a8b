package props

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"routecheck/algos/mesh"
	"routecheck/internal/seeds"
)

// KKFamily names a k-k distribution family.
type KKFamily string

// The families: uniformly random, and three structured adversaries.
const (
	KKUniform   KKFamily = "uniform"
	KKTranspose KKFamily = "transpose"  // (i, j) sends all k packets to (j, i)
	KKReflect   KKFamily = "reflect"    // (i, j) sends all k packets to (n−1−i, n−1−j)
	KKRowToCol  KKFamily = "row-to-col" // (i, j) sends k/n packets to each PU of row j
)

// KKFamilies lists them.
var KKFamilies = []KKFamily{KKUniform, KKTranspose, KKReflect, KKRowToCol}

// GenKK builds a k-k distribution of a family (row-to-col needs n | k).
func GenKK(f KKFamily, n, k int, r *rand.Rand) [][]mesh.Dest {
	out := make([][]mesh.Dest, n*n)
	switch f {
	case KKUniform:
		slots := make([]mesh.Dest, 0, n*n*k)
		for p := range n * n {
			for range k {
				slots = append(slots, mesh.Dest{Row: int32(p / n), Col: int32(p % n)})
			}
		}
		r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
		for p := range out {
			out[p] = slots[p*k : (p+1)*k]
		}
		return out
	}
	for p := range out {
		i, j := int32(p/n), int32(p%n)
		ds := make([]mesh.Dest, k)
		for t := range ds {
			switch f {
			case KKTranspose:
				ds[t] = mesh.Dest{Row: j, Col: i}
			case KKReflect:
				ds[t] = mesh.Dest{Row: int32(n) - 1 - i, Col: int32(n) - 1 - j}
			case KKRowToCol:
				ds[t] = mesh.Dest{Row: j, Col: int32(t / (k / n))}
			}
		}
		out[p] = ds
	}
	return out
}

// kkSizes are the (n, k) the mesh claims cover at a budget: n a power of
// two, k ∈ {2n, n², n²·log n} (all multiples of 2n, as coloring needs).
func kkSizes(b Budget) [][2]int {
	var out [][2]int
	for _, n := range []int{4, 8, 16, 32}[:b.Pick(2, 3, 4)] {
		out = append(out, [2]int{n, 2 * n}, [2]int{n, n * n}, [2]int{n, n * n * floorLog2(n)})
	}
	return out
}

// KKCase is a counterexample of the k-k claims.
type KKCase struct {
	Algorithm mesh.Algorithm `json:"algorithm"`
	Coloring  bool           `json:"coloring"`
	N         int            `json:"n"`
	K         int            `json:"k"`
	Family    KKFamily       `json:"family"`
	Seed      uint64         `json:"seed"`
}

// kkCheck runs Det3 on every size and family of the budget and applies
// bad to each result (a non-empty string is a violation).
func kkCheck(env Env, coloring bool, bad func(n, k int, r mesh.KKResult) string, describe func(n, k int, r mesh.KKResult) string) Outcome {
	var ev []string
	for _, nk := range kkSizes(env.Budget) {
		n, k := nk[0], nk[1]
		for fi, f := range KKFamilies {
			seed := env.Seed ^ uint64(n*1000003+k*101+fi)
			dst := GenKK(f, n, k, seeds.Rand(seed))
			pl, err := mesh.NewPlan(mesh.Det3, n, dst, nil, mesh.Options{Coloring: coloring})
			if err != nil {
				return Outcome{Verdict: Inconclusive, Evidence: err.Error()}
			}
			r, err := mesh.RouteKK(pl, mesh.Options{})
			if err != nil {
				return Outcome{Verdict: Inconclusive, Evidence: err.Error()}
			}
			if msg := bad(n, k, r); msg != "" {
				return Outcome{Verdict: Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %s", n, k, f, msg),
					Counterexample: KKCase{mesh.Det3, coloring, n, k, f, seed}}
			}
			if f == KKUniform || f == KKReflect {
				ev = append(ev, fmt.Sprintf("n=%d k=%d %s: %s", n, k, f, describe(n, k, r)))
			}
		}
	}
	return Outcome{Verdict: Holds, Evidence: fmt.Sprintf("%d families × sizes %v; e.g. %s", len(KKFamilies), kkSizes(env.Budget), strings.Join(ev, "; "))}
}

func nlogn2(n int) int { return n * n * floorLog2(n) }

func init() {
	const scope = "DET_3_PHASE_ROUTE with ALLOCATE, farthest-first; n ∈ {4, 8} (small budget), +16 (default), +32 (large); k ∈ {2n, n², n²·log n}; uniform random, transpose, reflect and row-to-col k-k distributions"
	Register(Claim{ID: "mesh/cor-1/phase-1-exact", Source: seed003 + " Corollary 1", Kind: Exact, Recorded: Holds,
		Statement: "The routing in Phase 1 takes exactly k·n/4 steps. At the end of Phase 1 each PU holds exactly k packets.",
		Scope:     scope + "; without coloring (the corollary's setting)",
		Check: func(env Env) Outcome {
			return kkCheck(env, false, func(n, k int, r mesh.KKResult) string {
				if r.PhaseSteps[0] != k*n/4 || r.EndQueue[0] != k {
					return fmt.Sprintf("phase 1: %d steps (want %d), largest queue at its end %d (want %d)", r.PhaseSteps[0], k*n/4, r.EndQueue[0], k)
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string { return fmt.Sprintf("%d steps", r.PhaseSteps[0]) })
		}})
	Register(Claim{ID: "mesh/cor-1/phase-1-exact-colored", Source: seed003 + " Corollary 1 with Theorem 1's coloring (derived)", Kind: Exact, Recorded: Holds,
		Statement: "With coloring (k/2 white packets allocated along rows, k/2 black along columns), Phase 1 takes exactly k·n/8 steps and leaves exactly k packets in every PU.",
		Scope:     scope + "; with coloring",
		Notes:     "Not stated in the paper: Corollary 1 applied to each colour class of k/2 packets, on disjoint links.",
		Check: func(env Env) Outcome {
			return kkCheck(env, true, func(n, k int, r mesh.KKResult) string {
				if r.PhaseSteps[0] != k*n/8 || r.EndQueue[0] != k {
					return fmt.Sprintf("phase 1: %d steps (want %d), largest queue at its end %d (want %d)", r.PhaseSteps[0], k*n/8, r.EndQueue[0], k)
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string { return fmt.Sprintf("%d steps", r.PhaseSteps[0]) })
		}})
	Register(Claim{ID: "mesh/lemma-7/queue-after-phase-2", Source: seed003 + " Lemma 7", Kind: Bound, Recorded: Holds,
		Statement: "At the end of Phase 2 a PU holds less than k + n²·log n packets.",
		Scope:     scope + "; without coloring",
		Check: func(env Env) Outcome {
			return kkCheck(env, false, func(n, k int, r mesh.KKResult) string {
				if r.EndQueue[1] >= k+nlogn2(n) {
					return fmt.Sprintf("queue %d ≥ k + n² log n = %d", r.EndQueue[1], k+nlogn2(n))
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string {
				return fmt.Sprintf("queue k + %d (bound k + %d)", r.EndQueue[1]-k, nlogn2(n))
			})
		}})
	Register(Claim{ID: "mesh/lemma-8/phase-2-time", Source: seed003 + " Lemma 8", Kind: Bound, Recorded: Holds,
		Statement: "The number of steps for the routing in Phase 2 is bounded by k·n/2 + n²·log n/2.",
		Scope:     scope + "; without coloring",
		Check: func(env Env) Outcome {
			return kkCheck(env, false, func(n, k int, r mesh.KKResult) string {
				if 2*r.PhaseSteps[1] > k*n+nlogn2(n) {
					return fmt.Sprintf("%d steps > %d", r.PhaseSteps[1], (k*n+nlogn2(n))/2)
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string {
				return fmt.Sprintf("%d steps (bound %d)", r.PhaseSteps[1], (k*n+nlogn2(n))/2)
			})
		}})
	Register(Claim{ID: "mesh/lemma-9/phase-3-time", Source: seed003 + " Lemma 9", Kind: Bound, Recorded: Holds,
		Statement: "The number of steps for the routing in Phase 3 is bounded by k·n/4 + n²·log n.",
		Scope:     scope + "; without coloring",
		Check: func(env Env) Outcome {
			return kkCheck(env, false, func(n, k int, r mesh.KKResult) string {
				if r.PhaseSteps[2] > k*n/4+nlogn2(n) {
					return fmt.Sprintf("%d steps > %d", r.PhaseSteps[2], k*n/4+nlogn2(n))
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string {
				return fmt.Sprintf("%d steps (bound %d)", r.PhaseSteps[2], k*n/4+nlogn2(n))
			})
		}})
	Register(Claim{ID: "mesh/thm-1/time", Source: seed003 + " Theorem 1", Kind: Bound, Recorded: Holds,
		Statement: "With ALLOCATE and coloring, DET_3_PHASE_ROUTE routes k-k distributions in k·n/2 + O(n²·log n) steps.",
		Scope:     scope + "; with coloring; the O(n² log n) term taken as 1.5·n²·log n, the sum of Lemmas 8 and 9's additive terms for each colour class of k/2 packets",
		Notes:     "The theorem hides the constant; the check uses the constant its own proof gives (Corollary 1 and Lemmas 8, 9 applied to each colour class of k/2 packets on disjoint links: (k/2)·n/4 + (k/2)·n/2 + n² log n/2 + (k/2)·n/4 + n² log n). The theorem's queue bound is a separate claim (mesh/thm-1/queue, violated; mesh/thm-1/queue-repaired).",
		Check: func(env Env) Outcome {
			return kkCheck(env, true, func(n, k int, r mesh.KKResult) string {
				if 2*r.Steps > k*n+3*nlogn2(n) {
					return fmt.Sprintf("%d steps > k·n/2 + 1.5·n² log n = %d", r.Steps, (k*n+3*nlogn2(n))/2)
				}
				return ""
			}, func(n, k int, r mesh.KKResult) string {
				return fmt.Sprintf("%d steps = %.3f·kn/2", r.Steps, float64(2*r.Steps)/float64(k*n))
			})
		}})
}
