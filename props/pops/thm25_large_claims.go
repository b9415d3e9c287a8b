package pops

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"routecheck/algos/popsdet"
	"routecheck/algos/popsobl"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popslower"
	"routecheck/props"
)

// Theorem 2.5 at g where √g/2 ≥ 4 (issue 12). √g/2 is not far above what
// chance gives: a random permutation's congestion is 5, 8, 9 at g = 64
// (√g/2 = 4) on the direct, two-hop and hashed two-hop routers, and 7 (6–10
// over seeds), 12, 10 at g = 256 (√g/2 = 8). So what the construction adds
// is checked by the forced pairs' congestion (the K forced pairs alone) and
// by the planted faults; a random permutation in place of the constructed
// one is a planted fault, caught only where it falls below √g/2 (the direct
// router at g = 256 for some seeds; POPS(128,256) for d = Θ(g)). The
// construction is popslower.Theorem25Early
// (S_b computed for b = 0, 1, … until a node lies in ⌈√g/2⌉ of them), so
// POPS(256,256) costs a fraction of a second and POPS(1024,1024) a few.

// thm25LargeSizes are the g (= d) of the large-g claim at a budget.
func thm25LargeSizes(b props.Budget) []int { return []int{64, 256, 1024}[:b.Pick(1, 2, 3)] }

// thm25LargeShapes are POPS(g, g) for the g of thm25LargeSizes.
func thm25LargeShapes(b props.Budget) []mpops.Shape { return squareShapes(thm25LargeSizes(b)) }

// squareShapes are the POPS(g, g) of gs, in order.
func squareShapes(gs []int) []mpops.Shape {
	var out []mpops.Shape
	for _, g := range gs {
		out = append(out, mpops.Shape{D: g, G: g})
	}
	return out
}

// thm25ThetaShapes are the d ≠ g shapes of the d = Θ(g) claim: d = 2g and
// d = g/2 at g = 64 (small), and at g = 256 (default, large).
func thm25ThetaShapes(b props.Budget) []mpops.Shape {
	out := []mpops.Shape{{D: 128, G: 64}, {D: 32, G: 64}}
	if b != props.Small {
		out = append(out, mpops.Shape{D: 512, G: 256}, mpops.Shape{D: 128, G: 256})
	}
	return out
}

// thm25Label names a shape in evidence: "g=64 " for d = g (as before),
// "POPS(128,64) " otherwise.
func thm25Label(sh mpops.Shape) string {
	if sh.D == sh.G {
		return fmt.Sprintf("g=%d ", sh.G)
	}
	return fmt.Sprintf("POPS(%d,%d) ", sh.D, sh.G)
}

// thm25LargeFamilies are the oblivious routers attacked: direct, the
// deterministic two-hop one (obliviousFamilies), and Valiant's two-hop scheme with its
// intermediates fixed by a seed (a deterministic oblivious router that
// looks random).
func thm25LargeFamilies(sh mpops.Shape) []obliviousFamily {
	return append(obliviousFamilies(sh), obliviousFamily{"hashed two-hop (seed 25)", popsobl.Hashed(sh, 25)})
}

// thm25Large is one way of running the check: how the permutation is built
// and how it is routed. The claim uses the proof's construction and the
// oblivious router's own paths; each planted fault changes one of them.
type thm25Large struct {
	// shapes are the POPS(d, g) checked at a budget (nil: thm25LargeSizes
	// with d = g).
	shapes    func(props.Budget) []mpops.Shape
	construct func(sh mpops.Shape, fam popslower.Family, seed uint64) (popslower.Thm25Early, error)
	// route returns the slots the router takes on pi and whether every
	// packet was delivered.
	route func(sh mpops.Shape, fam popsobl.Family, pi []int32) (slots int, complete bool, err error)
}

var thm25LargeReal = thm25Large{
	construct: func(sh mpops.Shape, fam popslower.Family, _ uint64) (popslower.Thm25Early, error) {
		return popslower.Theorem25Early(sh, fam)
	},
	route: func(sh mpops.Shape, fam popsobl.Family, pi []int32) (int, bool, error) {
		r, err := popsobl.Execute(sh, pi, fam, 64*sh.N())
		return r.Slots, r.Delivered == sh.N(), err
	},
}

// thm25LargeOffline: the router is not oblivious — Theorem 2.1's off-line
// schedule, which sees the whole permutation, routes it in 2 slots at d = g
// whatever the paths the construction was shown.
var thm25LargeOffline = thm25Large{construct: thm25LargeReal.construct,
	route: func(sh mpops.Shape, _ popsobl.Family, pi []int32) (int, bool, error) {
		r, err := popsdet.RunPerm(sh, pi, nil)
		return r.Slots, r.Completed, err
	}}

// thm25LargeNoPath: the greedy step's condition that (a, b_i] crosses v is
// skipped — each b_i is given a seeded random free source instead.
var thm25LargeNoPath = thm25Large{route: thm25LargeReal.route,
	construct: func(sh mpops.Shape, fam popslower.Family, seed uint64) (popslower.Thm25Early, error) {
		res, err := popslower.Theorem25EarlyAnyD(sh, fam)
		if err != nil {
			return res, err
		}
		n := sh.N()
		rng := seeds.Rand(seed, 25, uint64(sh.G))
		pi := make([]int32, n)
		for i := range pi {
			pi[i] = -1
		}
		used := make([]bool, n)
		res.Forced = res.Forced[:0]
		for _, b := range res.Dests {
			a := rng.IntN(n)
			for pi[a] >= 0 || a == int(b) {
				a = rng.IntN(n)
			}
			pi[a], used[b] = b, true
			res.Forced = append(res.Forced, int32(a))
		}
		res.Perm = popslower.Extend(pi, used)
		return res, nil
	}}

// thm25LargeRandom: a random permutation instead of the constructed one
// (the one seeds.Rand(seed, 25, 1, g) draws), with every pair counted as
// forced — what a router meets without the construction.
// The shapes run largest first: the fault is caught iff some shape and
// router falls below √g/2, so the order changes only the cost and which
// failure is reported (the largest g, where chance falls below √g/2).
var thm25LargeRandom = thm25Large{shapes: reversed(thm25LargeShapes), route: thm25LargeReal.route, construct: thm25RandomPerm(thm25LargeReal.construct)}

// reversed returns shapes in the opposite order.
func reversed(shapes func(props.Budget) []mpops.Shape) func(props.Budget) []mpops.Shape {
	return func(b props.Budget) []mpops.Shape {
		out := shapes(b)
		slices.Reverse(out)
		return out
	}
}

// thm25RandomPerm wraps a construction: its result with the permutation
// replaced by a seeded random one and every source forced.
func thm25RandomPerm(construct func(mpops.Shape, popslower.Family, uint64) (popslower.Thm25Early, error)) func(mpops.Shape, popslower.Family, uint64) (popslower.Thm25Early, error) {
	return func(sh mpops.Shape, fam popslower.Family, seed uint64) (popslower.Thm25Early, error) {
		res, err := construct(sh, fam, seed)
		if err != nil {
			return res, err
		}
		res.Perm = perm.Random(sh.N(), seeds.Rand(seed, 25, 1, uint64(sh.G)))
		res.Forced, res.Dests = make([]int32, sh.N()), make([]int32, sh.N())
		for a, b := range res.Perm {
			res.Forced[a], res.Dests[a] = int32(a), b
		}
		return res, nil
	}
}

// thm25Theta is the claim's check on d ≠ g with the construction of
// Theorem25EarlyAnyD; thm25ThetaOffline and thm25ThetaNoPath are its
// planted faults.
var (
	thm25Theta = thm25Large{shapes: thm25ThetaShapes, route: thm25LargeReal.route,
		construct: func(sh mpops.Shape, fam popslower.Family, _ uint64) (popslower.Thm25Early, error) {
			return popslower.Theorem25EarlyAnyD(sh, fam)
		}}
	thm25ThetaOffline = thm25Large{shapes: thm25ThetaShapes, construct: thm25Theta.construct, route: thm25LargeOffline.route}
	thm25ThetaRandom  = thm25Large{shapes: reversed(thm25ThetaShapes), construct: thm25RandomPerm(thm25Theta.construct), route: thm25LargeReal.route}
)

// checkThm25Large runs the construction against every router at every g of
// the budget and checks, as the proof states them: min |S_b| ≥ √g over the
// processed b; the forced pairs alone have path congestion ≥ √g/2 ("already
// c({(a, π(a)) | π(a) is defined}) ≥ √g/2"); the whole permutation's
// congestion ≥ √g/2; and the router, run on the slot model, takes ≥ √g/2
// slots.
func checkThm25Large(how thm25Large) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		shapes := thm25LargeShapes
		if how.shapes != nil {
			shapes = how.shapes
		}
		for _, sh := range shapes(env.Budget) {
			g := sh.G
			half := math.Sqrt(float64(g)) / 2
			for _, f := range thm25LargeFamilies(sh) {
				fam := popslower.Family(f.fam)
				inst := map[string]any{"d": sh.D, "g": g, "router": f.name}
				res, err := how.construct(sh, fam, env.Seed)
				if err != nil {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: %v", sh, f.name, err), Counterexample: inst}
				}
				if err := perm.Validate(res.Perm, true); err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: construction built no permutation: %v", sh, f.name, err)}
				}
				forced := make([]int32, sh.N())
				for i := range forced {
					forced[i] = -1
				}
				for i, a := range res.Forced {
					forced[a] = res.Dests[i]
				}
				cf, _ := popslower.Congestion(sh, fam, forced)
				c, _ := popslower.Congestion(sh, fam, res.Perm)
				slots, complete, err := how.route(sh, f.fam, res.Perm)
				if err != nil || !complete {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: the router failed on the constructed permutation (complete %v): %v", sh, f.name, complete, err)}
				}
				if len(res.Forced) <= 64 {
					inst["forced_sources"], inst["forced_dests"] = res.Forced, res.Dests
				}
				if sh.D == sh.G && float64(res.MinS) < 2*half { // the proof's count is for d = g
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: min |S_b| = %d < √g over the first %d b", sh, f.name, res.MinS, res.Processed), Counterexample: inst}
				}
				if float64(cf) < half || float64(c) < half || float64(slots) < half {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: forced pairs' congestion %d, permutation's %d, %d slots; √g/2 = %.1f", sh, f.name, cf, c, slots, half), Counterexample: inst}
				}
				geq := " ≥ √g"
				if sh.D != sh.G {
					geq = " (not bounded by the proof at d ≠ g)"
				}
				ev = append(ev, fmt.Sprintf("%s%s: v = node %d in K = %d sets S_b after %d b, min|S_b| %d%s; forced congestion %d, permutation %d, %d slots ≥ √g/2 = %.0f",
					thm25Label(sh), f.name, res.Node, res.K, res.Processed, res.MinS, geq, cf, c, slots, half))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "attained: " + strings.Join(ev, "; ")}
	}
}

func init() {
	noPathTheta := thm25LargeNoPath
	noPathTheta.shapes = thm25ThetaShapes
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.5/d-theta-g",
		Check: checkThm25Large(thm25Theta),
		Mem:   props.MemEstimate{Default: 128 * props.MiB, Large: 128 * props.MiB}, // POPS(512,256): 2¹⁷ processors (≈ 90 MB RSS measured with large-g)
		Faults: []props.Fault{
			{Name: "a router that is not oblivious: Theorem 2.1's off-line schedule (popsdet) routes the constructed permutation", Check: checkThm25Large(thm25ThetaOffline)},
			{Name: "construction step skipped: the greedy step's condition that (a, b_i] crosses v dropped (random free sources)", Check: checkThm25Large(noPathTheta)},
			{Name: "a random permutation instead of the constructed one", Check: checkThm25Large(thm25ThetaRandom)},
		}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.5/large-g",
		Check: checkThm25Large(thm25LargeReal),
		Mem:   props.MemEstimate{Large: 448 * props.MiB}, // POPS(1024,1024): the slot model's state for 2²⁰ processors (≈ 400 MB RSS measured)
		Faults: []props.Fault{
			{Name: "a router that is not oblivious: Theorem 2.1's off-line schedule (popsdet) routes the constructed permutation", Check: checkThm25Large(thm25LargeOffline)},
			{Name: "construction step skipped: the greedy step's condition that (a, b_i] crosses v dropped (random free sources)", Check: checkThm25Large(thm25LargeNoPath)},
			{Name: "a random permutation instead of the constructed one", Check: checkThm25Large(thm25LargeRandom)},
		}}))
}
