package mesh

import (
	"fmt"
	"math"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// §6 of 003_8774480fe7c747cc.txt, "All obtained results carry on with
// leading terms half as large as for meshes", for the results that
// torus_claims.go does not cover (Theorem 1's time and Phase 1 are there):
// Lemmas 7–9, Theorem 2, and Theorem 3 with ALLOCATE′. Every torus run is
// the tie-splitting stand-in for [4]'s ring routing (algos/mesh
// .RouteKKTorusSplit, torus step model); the planted faults that need the
// mesh run it on the fast engine.

// KKShift is a k-k family of the torus claims only: PU (i, j) sends all k
// packets to ((i + n/2 − 1) mod n, (j + n/2 − 1) mod n), a cyclic shift
// by n/2 − 1 in both coordinates. The shorter way round every ring is the
// same way for all of its packets, so a shorter-way ring routing loads one
// direction of every link with k·(n/2 − 1) packets in Phase 2 and leaves
// the other idle.
const KKShift KKFamily = "shift"

// genTorusKK is GenKK extended with KKShift.
func genTorusKK(f KKFamily, n, k int, seed uint64) [][]amesh.Dest {
	if f != KKShift {
		return GenKK(f, n, k, seeds.Rand(seed))
	}
	s := n/2 - 1
	out := make([][]amesh.Dest, n*n)
	for p := range out {
		d := amesh.Dest{Row: int32((p/n + s) % n), Col: int32((p%n + s) % n)}
		out[p] = make([]amesh.Dest, k)
		for r := range out[p] {
			out[p][r] = d
		}
	}
	return out
}

// torus6Families are the families of the uncoloured torus runs: the k-k
// families of the mesh claims, then KKShift.
var torus6Families = append(append([]KKFamily(nil), KKFamilies...), KKShift)

// torus6Sizes are the (n, k) of the uncoloured torus runs, at every budget
// (the torus runs on the step model): k = 16·n at n = 4 and 8, and k = 64·n
// at n = 4, where k·n/8 outgrows n²·log n and the mesh's leading term is
// visible against the halved one.
var torus6Sizes = [][2]int{{4, 64}, {8, 128}, {4, 256}}

// torus6Run is one uncoloured DET_3_PHASE_ROUTE run on the torus.
type torus6Run struct {
	n, k int
	f    KKFamily
	seed uint64
	r    amesh.KKResult
}

// torus6Memo holds the uncoloured torus runs per seed (the Lemma 7, 8 and
// 9 claims read the same runs; they share "mesh/sec-6/torus6-runs", so
// `routecheck claims` runs them one after the other and only the first
// routes).
var torus6Memo runMemo[uint64, torus6Run]

// torus6Route routes dst uncoloured with ALLOCATE replaced by alloc unless
// nil, on the torus (split ties) or, when mesh is set, on the mesh with
// the fast engine (a planted fault).
func torus6Route(n int, dst [][]amesh.Dest, alloc allocFn, mesh bool) (amesh.KKResult, error) {
	if mesh {
		return det3Run(n, dst, alloc, false)
	}
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Allocator: alloc})
	if err != nil {
		return amesh.KKResult{}, err
	}
	return amesh.RouteKKTorusSplit(pl)
}

// torus6Runs hands judge the uncoloured runs at every size of torus6Sizes
// (in order) and family of torus6Families (in order) until it returns an
// outcome (judgeRuns): with the real ALLOCATE on the torus they are routed
// once per seed (memoized); for a planted fault (alloc, or the mesh) each
// run is routed only when it is reached, so a fault caught early costs
// little.
func torus6Runs(env props.Env, alloc allocFn, mesh bool, judge func(torus6Run) *props.Outcome) *props.Outcome {
	fams := len(torus6Families)
	route := func(i int) (torus6Run, error) {
		n, k, fi := torus6Sizes[i/fams][0], torus6Sizes[i/fams][1], i%fams
		f := torus6Families[fi]
		seed := seeds.Derive(env.Seed, 0x7060, uint64(n), uint64(k), uint64(fi))
		r, err := torus6Route(n, genTorusKK(f, n, k, seed), alloc, mesh)
		if err != nil {
			return torus6Run{}, fmt.Errorf("n = %d, k = %d, %s: %w", n, k, f, err)
		}
		return torus6Run{n, k, f, seed, r}, nil
	}
	memo := &torus6Memo
	if alloc != nil || mesh {
		memo = nil
	}
	return judgeRuns(memo, env.Seed, len(torus6Sizes)*fams, route, judge)
}

// torus6Check judges every run (families filtered by fams unless nil): bad
// returns the value, the bound and whether the run breaks the claim. The
// first run that breaks it is the counterexample; else the claim holds
// with the slack and, per size, each family's value.
func torus6Check(env props.Env, alloc allocFn, mesh bool, fams func(KKFamily) bool, what string, judge func(r torus6Run) (value, bound float64, bad bool)) props.Outcome {
	var sl slackMax
	var ev, parts []string
	lastFam := torus6Families[len(torus6Families)-1]
	flush := func(r torus6Run, b string) {
		if parts != nil {
			ev = append(ev, fmt.Sprintf("n=%d k=%d%s: %s", r.n, r.k, b, strings.Join(parts, ", ")))
			parts = nil
		}
	}
	bound := ""
	stop := torus6Runs(env, alloc, mesh, func(r torus6Run) *props.Outcome {
		endOfSize := r.f == lastFam
		if fams == nil || fams(r.f) {
			v, b, bad := judge(r)
			if bad {
				return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %s %g against the bound %.0f (phases %v, largest queue at each phase end %v)", r.n, r.k, r.f, what, v, b, r.r.PhaseSteps, r.r.EndQueue),
					Counterexample: KKCase{amesh.Det3, false, r.n, r.k, r.f, r.seed}}
			}
			sl.see(v, b)
			bound = fmt.Sprintf(" (bound %.0f)", b)
			parts = append(parts, fmt.Sprintf("%s %g", r.f, v))
		}
		if endOfSize {
			flush(r, bound)
		}
		return nil
	})
	if stop != nil {
		return *stop
	}
	return sl.on(props.Outcome{Verdict: props.Holds, Evidence: what + ": " + strings.Join(ev, "; ")})
}

// torus6Scope is the scope of the uncoloured torus claims.
const torus6Scope = "DET_3_PHASE_ROUTE with ALLOCATE, no coloring (the lemmas' setting), on the n×n torus step model with the tie-splitting stand-in for [4] (algos/mesh.RouteKKTorusSplit); (n, k) ∈ {(4, 64), (8, 128), (4, 256)} at every budget; uniform random, transpose, reflect, row-to-col and the cyclic shift by n/2 − 1 in both coordinates (props/mesh.KKShift)"

const (
	faultTorusMesh   = "the mesh instead of the torus (no wrap-around links; fast engine)"
	torus6Shares     = "mesh/sec-6/torus6-runs"
	torus6StandInNot = "Class construction: the outcome is decided by our ring routing (the tie-splitting shorter-way stand-in), not by [4]'s algorithm, which is not in the seeds."
)

func init() {
	notShift := func(f KKFamily) bool { return f != KKShift }
	// Lemma 7 on the torus: the end-of-Phase-2 queue (a function of the
	// plan; the torus routes the same plan).
	lemma7 := func(alloc allocFn) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			return torus6Check(env, alloc, false, nil, "largest queue at the end of Phase 2", func(r torus6Run) (float64, float64, bool) {
				b := float64(r.k + nlogn2(r.n))
				return float64(r.r.EndQueue[1]), b, float64(r.r.EndQueue[1]) >= b
			})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-lemma-7-queue", Shares: torus6Shares,
		Check:  lemma7(nil),
		Faults: []props.Fault{{Name: faultSkipAllocate, Check: lemma7(skipAllocate)}},
	})))

	halvedQueue := func(env props.Env) props.Outcome {
		return torus6Check(env, nil, false, nil, "largest queue at the end of Phase 2", func(r torus6Run) (float64, float64, bool) {
			b := float64(r.k)/2 + float64(nlogn2(r.n))
			return float64(r.r.EndQueue[1]), b, float64(r.r.EndQueue[1]) >= b
		})
	}
	props.Register(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-lemma-7-halved", Shares: torus6Shares,
		Check: halvedQueue,
	}))

	// Lemma 8 on the torus: Phase 2 within k·n/4 + n²·log n/2.
	lemma8 := func(fams func(KKFamily) bool, mesh bool) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			return torus6Check(env, nil, mesh, fams, "Phase 2 steps", func(r torus6Run) (float64, float64, bool) {
				b := float64(r.k*r.n)/4 + float64(nlogn2(r.n))/2
				return float64(r.r.PhaseSteps[1]), b, float64(r.r.PhaseSteps[1]) > b
			})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-lemma-8-halved", Shares: torus6Shares,
		Scope:  strings.Replace(torus6Scope, " and the cyclic shift by n/2 − 1 in both coordinates (props/mesh.KKShift)", " (the shift family is mesh/sec-6/torus-lemma-8-shift)", 1),
		Check:  lemma8(notShift, false),
		Faults: []props.Fault{{Name: faultTorusMesh, Check: lemma8(notShift, true)}},
	})))
	props.Register(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-lemma-8-shift", Shares: torus6Shares,
		Check: lemma8(nil, false),
	}))

	// Lemma 9 on the torus: Phase 3 within k·n/8 + n²·log n.
	lemma9 := func(mesh bool) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			return torus6Check(env, nil, mesh, nil, "Phase 3 steps", func(r torus6Run) (float64, float64, bool) {
				b := float64(r.k*r.n)/8 + float64(nlogn2(r.n))
				return float64(r.r.PhaseSteps[2]), b, float64(r.r.PhaseSteps[2]) > b
			})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-lemma-9-halved", Shares: torus6Shares,
		Check:  lemma9(false),
		Faults: []props.Fault{{Name: faultTorusMesh, Check: lemma9(true)}},
	})))
}

// Theorem 2 on the torus: uniform traffic with coloring.

// torusThm2Bound is Theorem 2's bound with constant 1 and its leading term
// halved: k·n/8 + n²·log n + (k·n³·log n)^{1/2}.
func torusThm2Bound(n, k int) float64 {
	return float64(k*n)/8 + float64(nlogn2(n)) + math.Sqrt(float64(k)*float64(n*n*n*floorLog2(n)))
}

// torusThm2Sizes are the (n, k) of the Theorem 2 torus claim and the
// uniform runs per size: k = 1024 at n = 4 is where the mesh's k·n/4
// exceeds the halved bound (it needs k·n/8 > n² log n + (k·n³ log n)^{1/2}).
func torusThm2Sizes(b props.Budget) (sizes [][2]int, runs int) {
	return [][2]int{{4, 128}, {8, 128}, {4, 1024}}, b.Pick(1, 2, 4)
}

func init() {
	thm2 := func(mesh bool) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			sizes, runs := torusThm2Sizes(env.Budget)
			var sl slackMax
			var ev []string
			for _, nk := range sizes {
				n, k := nk[0], nk[1]
				b := torusThm2Bound(n, k)
				worst, ratio := 0, 0.0
				for run := range runs {
					seed := seeds.Derive(env.Seed, 0x7061, uint64(n), uint64(k), uint64(run))
					dst := GenKK(KKUniform, n, k, seeds.Rand(seed))
					rm, err := det3Run(n, dst, nil, true)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					r := rm
					if !mesh {
						if r, err = torusRun(n, dst, true, torusSplit); err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
					}
					sl.see(float64(r.Steps), b)
					if float64(r.Steps) > b {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, uniform run %d: %d steps %v > k·n/8 + n² log n + (k·n³·log n)^{1/2} = %.0f", n, k, run, r.Steps, r.PhaseSteps, b),
							Counterexample: KKCase{amesh.Det3, true, n, k, KKUniform, seed}}
					}
					worst = max(worst, r.Steps)
					ratio = max(ratio, float64(r.Steps)/float64(rm.Steps))
				}
				ev = append(ev, fmt.Sprintf("n=%d k=%d: %d ≤ %.0f (k·n/8 = %d; torus/mesh ≤ %.3f)", n, k, worst, b, k*n/8, ratio))
			}
			return sl.on(props.Outcome{Verdict: props.Holds, Evidence: "slowest uniform run: " + strings.Join(ev, "; ")})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-thm-2-uniform",
		Check:  thm2(false),
		Faults: []props.Fault{{Name: faultTorusMesh, Check: thm2(true)}},
	})))
}

// Theorem 3 (ALLOCATE′, with Corollary 2's form) on the torus.

// torusThm3Sizes are the (n, n', k) of the Theorem 3 torus claim.
var torusThm3Sizes = [][3]int{{8, 2, 16}, {8, 4, 16}, {8, 2, 64}}

func init() {
	const c = 4 // mesh/thm-3/time's constant
	// thm3 checks the total bound (mainOnly false) or the main phases' bound.
	thm3 := func(mesh, mainOnly bool) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			var sl slackMax
			var ev []string
			for _, s := range torusThm3Sizes {
				n, np, k := s[0], s[1], s[2]
				f := float64(k*np) + float64(n*n)/float64(np*np*np)*math.Log2(float64(n))
				lim := float64(k*n)/4 + c*f
				limMain := float64(k*n)/4 + c*(float64(n*n)/float64(np*np*np)*math.Log2(float64(n))+float64(n/np))
				var parts []string
				for fi, fam := range KKFamilies {
					seed := seeds.Derive(env.Seed, 0x7062, uint64(n), uint64(np), uint64(k), uint64(fi))
					pl, err := amesh.NewPlanPrime(n, np, GenKK(fam, n, k, seeds.Rand(seed)), amesh.Options{Coloring: true})
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					var r amesh.KKResult
					if mesh {
						r, err = amesh.RouteKK(pl, amesh.Options{})
					} else {
						r, err = amesh.RouteKKTorusSplit(pl)
					}
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					main := r.PhaseSteps[amesh.PrimePhase1] + r.PhaseSteps[amesh.PrimePhase2] + r.PhaseSteps[amesh.PrimePhase3]
					if !mainOnly {
						sl.see(float64(r.Steps), lim)
					}
					if !mainOnly && float64(r.Steps) > lim {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, n' = %d, k = %d, %s: %d steps (main phases %d) > k·n/4 + %d·(k·n' + (n²/n'³)·log n) = %.4g", n, np, k, fam, r.Steps, main, c, lim),
							Counterexample: PrimeCase{N: n, NPrime: np, K: k, Coloring: true, Family: fam, Seed: seed}}
					}
					if mainOnly {
						sl.see(float64(main), limMain)
					}
					if mainOnly && float64(main) > limMain {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, n' = %d, k = %d, %s: the main phases take %d steps %v > k·n/4 + %d·((n²/n'³)·log n + n/n') = %.4g", n, np, k, fam, main, r.PhaseSteps, c, limMain),
							Counterexample: PrimeCase{N: n, NPrime: np, K: k, Coloring: true, Family: fam, Seed: seed}}
					}
					parts = append(parts, fmt.Sprintf("%s %d (main %d)", fam, r.Steps, main))
				}
				ev = append(ev, fmt.Sprintf("n=%d n'=%d k=%d (bound %.0f, main phases %.0f; k·n/4 = %d): %s", n, np, k, lim, limMain, k*n/4, strings.Join(parts, ", ")))
			}
			return sl.on(props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-thm-3",
		Check:  thm3(false, false),
		Faults: []props.Fault{{Name: faultTorusMesh, Check: thm3(true, false)}},
	})))
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-thm-3-main",
		Check:  thm3(false, true),
		Faults: []props.Fault{{Name: faultTorusMesh, Check: thm3(true, true)}},
	})))
}
