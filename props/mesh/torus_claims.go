package mesh

import (
	"fmt"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// §6 of 003_8774480fe7c747cc.txt: "The algorithm can also be applied for
// routing on tori. ALLOCATE is performed in the same manner. For the
// one-dimensional routing operations in Phase 2 and Phase 3, one should
// apply the efficient algorithm from [4]. All obtained results carry on
// with leading terms half as large as for meshes." The one-dimensional
// algorithm of [4] is not implemented; algos/mesh runs the torus with a
// stand-in (each packet the shorter way round its ring, rightward/upward
// when both ways are n/2 long, farthest-first per link) on the step model.

// The ring routings torusRun runs.
const (
	torusSplit  = ""        // the ties split (algos/mesh.TorusSplitTies)
	torusOneWay = "one-way" // the shorter-way stand-in, ties all one way
	torusMesh   = "mesh"    // the mesh: no wrap-around links (a planted fault)
)

// torusRun routes dst with DET_3_PHASE_ROUTE on the step model: on the
// torus with the ring routing variant (torusSplit or torusOneWay), or on
// the mesh (torusMesh).
func torusRun(n int, dst [][]amesh.Dest, coloring bool, variant string) (amesh.KKResult, error) {
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Coloring: coloring})
	if err != nil {
		return amesh.KKResult{}, err
	}
	switch variant {
	case torusMesh:
		return amesh.RouteKK(pl, amesh.Options{Model: true})
	case torusOneWay:
		return amesh.RouteKK(pl, amesh.Options{Model: true, Torus: true})
	}
	return amesh.RouteKKTorusSplit(pl)
}

// torusSizes are the (n, k) of the torus claims (step model: kept small).
func torusSizes(b props.Budget) [][2]int {
	s := [][2]int{{4, 16}, {4, 64}, {8, 16}, {8, 64}}
	if b >= props.Default {
		s = append(s, [2]int{4, 256})
	}
	if b == props.Large {
		s = append(s, [2]int{8, 192}, [2]int{16, 64})
	}
	return s
}

// torusPhase1 is a claim that Phase 1 of DET_3_PHASE_ROUTE on the torus
// takes exactly want(n, class) steps, class = k (k/2 with coloring), at
// every size of torusSizes, with and without coloring, on every family.
type torusPhase1 struct {
	tag   uint64                          // seeds.Derive tag of the distributions
	want  func(n, class int) int          // the exact Phase 1 time
	says  func(n, class, want int) string // a violation's text after "Phase 1 takes … steps"
	aside func(n, class int) string       // the evidence's remark on each size
	head  string                          // the evidence's first words
}

// check is the claim's check with the ring routing variant (torusRun).
func (p torusPhase1) check(variant string) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		for _, nk := range torusSizes(env.Budget) {
			n, k := nk[0], nk[1]
			for _, coloring := range []bool{false, true} {
				class := k
				if coloring {
					class = k / 2
				}
				want := p.want(n, class)
				for fi, f := range KKFamilies {
					seed := seeds.Derive(env.Seed, p.tag, uint64(n), uint64(k), uint64(fi))
					r, err := torusRun(n, GenKK(f, n, k, seeds.Rand(seed)), coloring, variant)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					if r.PhaseSteps[0] != want {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, coloring %v, %s: Phase 1 takes %d steps%s", n, k, coloring, f, r.PhaseSteps[0], p.says(n, class, want)),
							Counterexample: KKCase{amesh.Det3, coloring, n, k, f, seed}}
					}
				}
				ev = append(ev, fmt.Sprintf("n=%d k=%d coloring=%v: %d (%s)", n, k, coloring, want, p.aside(n, class)))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: p.head + strings.Join(ev, "; ")}
	}
}

// torusCase is a case of the torus bound claims.
type torusCase struct {
	f    KKFamily
	seed uint64
	dst  [][]amesh.Dest
	r    amesh.KKResult
}

// torusBoundRows runs the cases of the torus bound claims: at each (n, k)
// of (4, 16), (4, 64), (8, 64), (4, 256) in that order, one distribution
// of each family (in family order) routed with coloring on the torus
// (variant as in torusRun), each judged as soon as it is routed, before
// the next is routed (so a routing error in a later case cannot hide what
// an earlier one found). judge gets the bound b = k·n/4 + 1.5·n²·log n
// (Theorem 1 with its leading term halved and its proof constant 1.5), the
// parts of the size's cases before and the evidence lines of the sizes
// before; it returns the case's part of its size's line, or an outcome
// that ends the check. A routing error is inconclusive. A size's line is
// label(n, k, b) then its parts joined by ", "; after the last size the
// outcome is done(lines). The distributions are drawn with tag 0x70b:
// every torus bound claim sees the same ones.
func torusBoundRows(env props.Env, variant string, label func(n, k int, b float64) string, judge func(n, k int, b float64, c torusCase, parts, lines []string) (string, *props.Outcome), done func(lines []string) props.Outcome) props.Outcome {
	return torusBoundRowsBy(env, func(n int, dst [][]amesh.Dest) (amesh.KKResult, error) { return torusRun(n, dst, true, variant) }, label, judge, done)
}

// torusBoundRowsBy is torusBoundRows with the routing given (coloring on).
func torusBoundRowsBy(env props.Env, route func(n int, dst [][]amesh.Dest) (amesh.KKResult, error), label func(n, k int, b float64) string, judge func(n, k int, b float64, c torusCase, parts, lines []string) (string, *props.Outcome), done func(lines []string) props.Outcome) props.Outcome {
	var lines []string
	for _, nk := range [][2]int{{4, 16}, {4, 64}, {8, 64}, {4, 256}} {
		n, k := nk[0], nk[1]
		b := float64(k*n)/4 + 1.5*float64(nlogn2(n))
		var parts []string
		for fi, f := range KKFamilies {
			seed := seeds.Derive(env.Seed, 0x70b, uint64(n), uint64(k), uint64(fi))
			dst := GenKK(f, n, k, seeds.Rand(seed))
			r, err := route(n, dst)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			part, stop := judge(n, k, b, torusCase{f, seed, dst, r}, slices.Clip(parts), lines)
			if stop != nil {
				return *stop
			}
			parts = append(parts, part)
		}
		lines = append(lines, label(n, k, b)+strings.Join(parts, ", "))
	}
	return done(lines)
}

func init() {
	stand := torusPhase1{tag: 0x70a,
		want: func(n, class int) int { return class * (n + 2) / 8 },
		says: func(_, _, want int) string {
			return fmt.Sprintf(" on the torus, want (class)·(n + 2)/8 = %d", want)
		},
		aside: func(n, class int) string { return fmt.Sprintf("a tie-splitting ring routing: %d", class*n/8) },
		head:  "Phase 1 exactly (class)·(n + 2)/8 on all four families: "}
	props.Register(withPowerNote(props.Claim{ID: "mesh/sec-6/torus-stand-in-phase-1", Source: seed003 + " §6 (tori: 'one should apply the efficient algorithm from [4]')", Kind: props.Exact, Recorded: props.Holds, Class: props.Construction,
		Statement: "What the shorter-way stand-in for [4]'s one-dimensional routing changes: on the n×n torus, Phase 1 of DET_3_PHASE_ROUTE (every PU sending c = (class size)/n packets to every PU of its ring) takes exactly c·n·(n + 2)/8 steps, k/4 (k/8 with coloring) more than the c·n²/8 = k·n/8 that any ring routing needs and a routing that splits the distance-n/2 packets evenly between the two ways attains.",
		Scope:     "DET_3_PHASE_ROUTE with ALLOCATE on the torus step model (algos/mesh Options.Torus), with and without coloring; (n, k) ∈ {(4, 16), (4, 64), (8, 16), (8, 64)} (small), + (4, 256) (default), + (8, 192), (16, 64) (large); uniform random, transpose, reflect and row-to-col",
		Notes:     "Derivation. On a ring of n (even) PUs where every PU sends c packets to every other, the packets at distance d < n/2 cross d links the shorter way; all c·n packets at distance n/2 go rightward in the stand-in. A rightward link carries c·(1 + 2 + … + (n/2 − 1)) + c·n/2 = c·n·(n + 2)/8 packets, and farthest-first finishes in exactly that many steps (measured on every case). Every ring routing must spend c·n·Σ_d min(d, n − d) = c·n·n²/4 link crossings over 2n directed links, so it needs at least c·n²/8 steps, which splitting the distance-n/2 packets evenly between both ways attains. So the stand-in costs an extra c·n/4 = (class size)/4 steps per row phase; for k ≫ n² log n this is not within Theorem 1's O(n² log n) (see mesh/sec-6/torus-one-way-exceeds). Planted fault (written before running): the mesh instead of the torus (the wrap-around links missing), where Phase 1 takes (class)·n/4.",
		Check:     stand.check(torusOneWay),
		Faults:    []props.Fault{{Name: "the mesh instead of the torus (no wrap-around links)", Check: stand.check(torusMesh)}},
	}))

	// exceeds looks for a case where the torus run (the ring routing
	// variant: the one-way stand-in, or the tie-splitting routing as the
	// planted fault) takes more than k·n/4 + 1.5·n²·log n; finding one is
	// the claim.
	exceeds := func(variant string) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			label := func(n, k int, _ float64) string { return fmt.Sprintf("n=%d k=%d: ", n, k) }
			return torusBoundRows(env, variant, label, func(n, k int, b float64, c torusCase, parts, ev []string) (string, *props.Outcome) {
				rt := c.r
				rm, err := det3Run(n, c.dst, nil, true)
				if err != nil {
					return "", &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				part := fmt.Sprintf("%s %d/%d = %.3f", c.f, rt.Steps, rm.Steps, float64(rt.Steps)/float64(rm.Steps))
				if float64(rt.Steps) > b {
					upTo := append(slices.Clip(ev), label(n, k, b)+strings.Join(append(parts, part), ", "))
					return "", &props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("n = %d, k = %d, %s: the torus takes %d steps %v > k·n/4 + 1.5·n² log n = %.0f (the mesh %d %v); torus/mesh up to there: %s", n, k, c.f, rt.Steps, rt.PhaseSteps, b, rm.Steps, rm.PhaseSteps, strings.Join(upTo, "; ")),
						Counterexample: KKCase{amesh.Det3, true, n, k, c.f, c.seed}}
				}
				return part, nil
			}, func(ev []string) props.Outcome {
				return props.Outcome{Verdict: props.Violated, Evidence: "no case exceeds k·n/4 + 1.5·n² log n; torus/mesh: " + strings.Join(ev, "; ")}
			})
		}
	}
	props.Register(withPowerNote(props.Claim{ID: "mesh/sec-6/torus-one-way-exceeds", Source: seed003 + " §6 ('All obtained results carry on with leading terms half as large as for meshes'), with the shorter-way stand-in for [4]", Kind: props.LowerBound, Recorded: props.Holds, Class: props.Construction,
		Statement: "The shorter-way stand-in for [4]'s ring routing (every distance-n/2 packet one way) does not give §6's halved bound: on the n×n torus DET_3_PHASE_ROUTE with ALLOCATE, coloring and the stand-in exceeds k·n/4 + 1.5·n²·log n (Theorem 1 with its leading term halved and its proof constant 1.5) at some size run.",
		Scope:     "torus step model with the stand-in, coloring; (n, k) = (4, 16), (4, 64), (8, 64), (4, 256) in that order at every budget (the first size and family that exceed the bound are reported); uniform random, transpose, reflect and row-to-col; the mesh on the fast engine for the ratio",
		Notes: "[2026-11-24] Review: this was mesh/sec-6/torus-halved, recorded violated against the paper's sentence; but the excess is arithmetic of our stand-in, not shown to be an erratum, so it is restated as what it shows about the construction (holds). The paper's sentence with a tie-splitting ring routing is mesh/sec-6/torus-halved-split. " +
			"Derivation (before running): the stand-in sends every distance-n/2 packet one way, which costs (k/2)/4 extra steps in Phase 1 and in Phase 3 of each colour class (mesh/sec-6/torus-stand-in-phase-1), a Θ(k) term that outgrows 1.5·n²·log n once k is large: at n = 4, k = 256, reflect, the torus takes 320 = 96 + 128 + 96 steps against k·n/4 + 1.5·n² log n = 304, while Phase 2 (reflect sends every packet of a column across) is exactly halved against the mesh (128 against 256). The evidence reports the torus/mesh ratio of the cases run up to the first excess (0.56–0.84 over the sizes, tending to (n + 2)/(2n) on the structured families). " +
			"Planted fault (written before running): the ties split evenly (algos/mesh.TorusSplitTies, the routing of torus-halved-split) in place of the stand-in; it stays within the bound at every case, so the check reports no excess.",
		Check:  exceeds(torusOneWay),
		Faults: []props.Fault{{Name: "the distance-n/2 ties split evenly between both ways (algos/mesh.TorusSplitTies) in place of the one-way stand-in", Check: exceeds(torusSplit)}},
	}))
}

func init() {
	const faultOneWay = "the shorter-way stand-in (every distance-n/2 packet rightward/upward) in place of splitting the ties"
	const faultMesh = "the mesh instead of the torus (no wrap-around links)"
	phase1 := torusPhase1{tag: 0x70c,
		want: func(n, class int) int {
			c := class / n
			return c*n*(n-2)/8 + (c+1)/2*n/2
		},
		says: func(n, class, want int) string {
			return fmt.Sprintf(", want c·n·(n − 2)/8 + ⌈c/2⌉·n/2 = %d (c = %d)", want, class/n)
		},
		aside: func(n, class int) string { return fmt.Sprintf("lower bound c·n²/8 = %d", class/n*n*n/8) },
		head:  "Phase 1 exactly as derived on all four families: "}
	props.Register(withPowerNote(props.Claim{ID: "mesh/sec-6/torus-split-phase-1", Source: seed003 + " §6 (tori: 'one should apply the efficient algorithm from [4]')", Kind: props.Exact, Recorded: props.Holds, Class: props.Construction,
		Statement: "With the distance-n/2 packets allowed to leave both ways (algos/mesh.TorusSplitTies, a second stand-in for [4]), Phase 1 of DET_3_PHASE_ROUTE on the n×n torus takes exactly c·n·(n − 2)/8 + ⌈c/2⌉·n/2 steps, c = (class size)/n: for even c the c·n²/8 = (class size)·n/8 that every ring routing needs, half the mesh's.",
		Scope:     "as mesh/sec-6/torus-stand-in-phase-1, with RouteKKTorusSplit (torus step model)",
		Notes:     "Derivation as in mesh/sec-6/torus-stand-in-phase-1, with ⌈c/2⌉ instead of c of each PU's c distance-n/2 packets on a rightward link. The rule is only the tie split: [4] balances the two ways for arbitrary distributions, which Phases 2 and 3 could use. Planted faults (written before running): the one-way stand-in (caught wherever c ≥ 2) and the mesh.",
		Check:     phase1.check(torusSplit),
		Faults: []props.Fault{
			{Name: faultOneWay, Check: phase1.check(torusOneWay)},
			{Name: faultMesh, Check: phase1.check(torusMesh)},
		}}))

	halved := func(variant string) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			var sl slackMax
			label := func(n, k int, b float64) string { return fmt.Sprintf("n=%d k=%d (bound %.0f): ", n, k, b) }
			return torusBoundRows(env, variant, label, func(n, k int, b float64, c torusCase, _, _ []string) (string, *props.Outcome) {
				sl.see(float64(c.r.Steps), b)
				if float64(c.r.Steps) > b {
					return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %d steps %v > k·n/4 + 1.5·n² log n = %.0f", n, k, c.f, c.r.Steps, c.r.PhaseSteps, b),
						Counterexample: KKCase{amesh.Det3, true, n, k, c.f, c.seed}}
				}
				return fmt.Sprintf("%s %d", c.f, c.r.Steps), nil
			}, func(ev []string) props.Outcome {
				return sl.on(props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")})
			})
		}
	}
	props.Register(withPowerNote(props.Claim{ID: "mesh/sec-6/torus-halved-split", Source: seed003 + " §6 ('All obtained results carry on with leading terms half as large as for meshes')", Kind: props.Bound, Recorded: props.Holds, Class: props.Construction,
		Statement: "On the n×n torus, DET_3_PHASE_ROUTE with ALLOCATE and coloring routes k-k distributions in k·n/4 + 1.5·n²·log n steps (Theorem 1 with its leading term halved) — checked with the ties split (algos/mesh.TorusSplitTies).",
		Scope:     "the sizes, families and distributions of mesh/sec-6/torus-one-way-exceeds, with RouteKKTorusSplit (torus step model)",
		Notes:     "With the ties split the statement holds where the one-way stand-in breaks it (mesh/sec-6/torus-one-way-exceeds: n = 4, k = 256, reflect, 320 > 304; here 256 = k·n/4 exactly). Still not [4]'s algorithm: whether the 1.5 survives larger n is not known. Planted faults (written before running): the one-way stand-in (caught at n = 4, k = 256) and the mesh.",
		Check:     halved(torusSplit),
		Faults: []props.Fault{
			{Name: faultOneWay, Check: halved(torusOneWay)},
			{Name: faultMesh, Check: halved(torusMesh)},
		}}))
}
