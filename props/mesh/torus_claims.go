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
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-stand-in-phase-1",
		Check:  stand.check(torusOneWay),
		Faults: []props.Fault{{Name: "the mesh instead of the torus (no wrap-around links)", Check: stand.check(torusMesh)}},
	})))

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
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-one-way-exceeds",
		Check:  exceeds(torusOneWay),
		Faults: []props.Fault{{Name: "the distance-n/2 ties split evenly between both ways (algos/mesh.TorusSplitTies) in place of the one-way stand-in", Check: exceeds(torusSplit)}},
	})))
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
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-split-phase-1",
		Check: phase1.check(torusSplit),
		Faults: []props.Fault{
			{Name: faultOneWay, Check: phase1.check(torusOneWay)},
			{Name: faultMesh, Check: phase1.check(torusMesh)},
		}})))

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
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/torus-halved-split",
		Check: halved(torusSplit),
		Faults: []props.Fault{
			{Name: faultOneWay, Check: halved(torusOneWay)},
			{Name: faultMesh, Check: halved(torusMesh)},
		}})))
}
