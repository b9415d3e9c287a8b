package pops

import (
	"fmt"
	"math"
	"strings"

	"routecheck/algos/popsobl"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props"
)

// Theorem 2.6 (§II-B) run against oblivious routers (issue 12): the
// expected routing time of a random permutation grows like
// Ω(log g / log log g) for any oblivious deterministic router.

// oblRouter routes dst on POPS(g,g) and returns the slots taken.
type oblRouter struct {
	name string
	run  func(sh mpops.Shape, dst []int32) (int, error)
}

func oblFamily(name string, fam func(mpops.Shape) popsobl.Family) oblRouter {
	return oblRouter{name: name, run: func(sh mpops.Shape, dst []int32) (int, error) {
		r, err := popsobl.Execute(sh, dst, fam(sh), 64*sh.N())
		if err != nil {
			return 0, err
		}
		if r.Delivered != sh.N() {
			return 0, fmt.Errorf("%s: %d of %d delivered", name, r.Delivered, sh.N())
		}
		return r.Slots, nil
	}}
}

// oblRouters returns the two oblivious routers of algos/popsobl that the
// Theorem 2.6 and Corollary 2.7 claims run, the direct one and the
// deterministic two-hop one, followed by more (a new slice each call).
func oblRouters(more ...oblRouter) []oblRouter {
	return append([]oblRouter{oblFamily("direct", popsobl.Direct), oblFamily("two-hop", popsobl.TwoHop)}, more...)
}

// constantRouter is the planted fault: a router whose time does not grow
// (Theorem 2.1's off-line bound, 2 slots at d = g).
var constantRouter = oblRouter{name: "a constant-time (off-line, not oblivious) router: 2 slots", run: func(mpops.Shape, []int32) (int, error) { return 2, nil }}

// checkObliviousGrowth: for each router, the mean slots over random
// permutations increase significantly at each squaring of g (one-sided
// Welch z, α split over routers and steps) → consistent; a significant
// decrease → inconsistent; else inconclusive.
func checkObliviousGrowth(routers []oblRouter) func(props.Env) props.Outcome {
	return checkObliviousGrowthAt(routers, []dLaw{{"", func(g int) int { return g }}}, "POPS(g,g)")
}

// dLaw is d as a function of g (d = Θ(g)); name, if not empty, heads the
// evidence rows of its runs.
type dLaw struct {
	name string
	d    func(g int) int
}

// checkObliviousGrowthAt is checkObliviousGrowth on POPS(law.d(g), g) for
// every law (α split over laws, routers and steps too); shapes names them
// in the evidence.
func checkObliviousGrowthAt(routers []oblRouter, laws []dLaw, shapes string) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gs := []int{4, 16, 64}
		if env.Budget == props.Large {
			gs = append(gs, 256)
		}
		runsAt := func(g int) int {
			if g >= 64 {
				return env.Budget.Pick(8, 20, 60)
			}
			return env.Budget.Pick(30, 100, 200)
		}
		a := sec3Alpha / float64(len(laws)*len(routers)*(len(gs)-1))
		crit := -stats.Z(2 * a) // one-sided: Z(2a) is the two-sided value at 2a
		var ev, flat []string
		for _, law := range laws {
			for _, rt := range routers {
				name := rt.name
				if law.name != "" {
					name = law.name + ", " + rt.name
				}
				var prev stats.Summary
				var row []string
				for i, g := range gs {
					sh := mpops.Shape{D: law.d(g), G: g}
					rng := seeds.Rand(env.Seed, 26, uint64(g))
					if sh.D != g {
						rng = seeds.Rand(env.Seed, 26, uint64(g), uint64(sh.D))
					}
					xs := make([]float64, runsAt(g))
					for r := range xs {
						s, err := rt.run(sh, perm.Random(sh.N(), rng))
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						xs[r] = float64(s)
					}
					cur := stats.Summarize(xs)
					lg := math.Log(float64(g))
					row = append(row, fmt.Sprintf("g = %d: %.2f slots (÷ ln g/ln ln g = %.2f)", g, cur.Mean, cur.Mean/(lg/math.Log(lg))))
					if i > 0 {
						// Zero spread at both sizes makes the means exact: equal
						// means are then certainly no growth (z = −∞).
						z := stats.WelchZ(cur, prev)
						if cur.Mean == prev.Mean {
							z = 0
							if cur.SD == 0 && prev.SD == 0 {
								z = math.Inf(-1)
							}
						}
						switch {
						case z < crit:
							cex := map[string]any{"router": rt.name, "g_from": gs[i-1], "g_to": g, "z": z}
							if law.name != "" {
								cex["d"] = law.name
							}
							return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("%s: the mean time falls (or, with no spread, stays) from g = %d to %d (z = %.2f): %s", name, gs[i-1], g, z, strings.Join(row, ", ")),
								Counterexample: cex}
						case z <= -crit:
							flat = append(flat, fmt.Sprintf("%s g = %d → %d (z = %.2f)", name, gs[i-1], g, z))
						}
					}
					prev = cur
				}
				ev = append(ev, name+": "+strings.Join(row, ", "))
			}
		}
		head := fmt.Sprintf("%s, %d random permutations per g (%d at g ≥ 64), run on the slot model (popsobl.Execute); one-sided Welch z per squaring of g at α = %.1e: ", shapes, runsAt(4), runsAt(64), a)
		if len(flat) > 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: head + "no significant increase at " + strings.Join(flat, "; ") + ". " + strings.Join(ev, "; ")}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: head + "the mean time increases significantly at every step. " + strings.Join(ev, "; ")}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.6/oblivious-random-growth",
		Check:  checkObliviousGrowth(oblRouters()),
		Faults: []props.Fault{{Name: constantRouter.name, Check: checkObliviousGrowth([]oblRouter{constantRouter})}}}))
}
