package pops

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"routecheck/algos/popsdet"
	"routecheck/algos/popsobl"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/models/sortnet"
	"routecheck/oracles/popslower"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// obliviousFamily is an oblivious router by name.
type obliviousFamily struct {
	name string
	fam  popsobl.Family
}

// obliviousFamilies are the oblivious routers Theorem 2.5's construction is
// run against.
func obliviousFamilies(sh mpops.Shape) []obliviousFamily {
	return []obliviousFamily{{"direct", popsobl.Direct(sh)}, {"two-hop", popsobl.TwoHop(sh)}}
}

// thm25Cases runs construct (Theorem 2.5's construction, or its literal
// reading) against every oblivious router on POPS(g, g) for every g of
// thm25Sizes(b), in order; a construction error is a violation. judge
// gets the result and the counterexample so far and returns nil to go on;
// thm25Cases returns the first outcome judge returns, or nil.
func thm25Cases(b props.Budget, construct func(mpops.Shape, popslower.Family) (popslower.Thm25, error),
	judge func(g int, sh mpops.Shape, name string, fam popsobl.Family, res popslower.Thm25, inst map[string]any) *props.Outcome) *props.Outcome {
	for _, g := range thm25Sizes(b) {
		sh := mpops.Shape{D: g, G: g}
		for _, f := range obliviousFamilies(sh) {
			res, err := construct(sh, popslower.Family(f.fam))
			inst := map[string]any{"d": g, "g": g, "router": f.name}
			if err != nil {
				return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: %v", sh, f.name, err), Counterexample: inst}
			}
			if o := judge(g, sh, f.name, f.fam, res, inst); o != nil {
				return o
			}
		}
	}
	return nil
}

// thm25Sizes are the g (= d) the Theorem 2.5 claims cover at a budget.
func thm25Sizes(b props.Budget) []int {
	return []int{2, 3, 4, 9, 16, 25, 36, 64}[:b.Pick(6, 7, 8)]
}

func init() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "pops/thm-2.5/oblivious-congestion",
			Check: thm25WithForced(thm25LargeReal),
			Faults: []props.Fault{
				{Name: "construction step skipped: the greedy step's condition that (a, b_i] crosses v dropped (random free sources)", Check: thm25WithForced(thm25LargeNoPath)},
				{Name: "a router that is not oblivious: Theorem 2.1's off-line schedule (popsdet) routes the constructed permutation", Check: thm25WithForced(thm25LargeOffline)},
			}}),
		ledger.Text(props.Claim{ID: "pops/thm-2.5/literal-greedy",
			Check: func(env props.Env) props.Outcome {
				var ok []string
				if o := thm25Cases(props.Small, popslower.Theorem25Literal, func(g int, sh mpops.Shape, name string, fam popsobl.Family, res popslower.Thm25, inst map[string]any) *props.Outcome {
					if c, _ := popslower.Congestion(sh, popslower.Family(fam), res.Perm); float64(c) < math.Sqrt(float64(g))/2 {
						inst["perm"] = res.Perm
						return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: literal construction gives congestion %d < √g/2", sh, name, c), Counterexample: inst}
					}
					ok = append(ok, fmt.Sprintf("g=%d %s", g, name))
					return nil
				}); o != nil {
					return *o
				}
				return props.Outcome{Verdict: props.Holds, Evidence: "the literal step worked on " + strings.Join(ok, ", ")}
			}}),
	)
}

// rigidReach runs the rigid sort-based router's communication pattern for
// nw on POPS(sh) through popslower.Reach, slot by slot. It returns the
// first slot after which every processor has seen every packet (0 if
// never), the largest |P(i,t)|/2^t seen (must be ≤ 1), an unseen pair
// (h, i) at the last slot before that, and the number of whole stages
// completed by then.
func rigidReach(sh mpops.Shape, nw sortnet.Network) (full int, ratio float64, h, i, stagesBefore int, err error) {
	r := popslower.NewReach(sh.N())
	slot, per := 0, popsdet.Slots(sh)
	h, i = -1, -1
	for _, st := range nw.Stages {
		sp, e := popsdet.CompileStage(sh, st)
		if e != nil {
			return 0, 0, 0, 0, 0, e
		}
		var obsErr error
		_, _, e = popsdet.Run(sp.Plan, func(_ int, acts []mpops.Action, _, _ mpops.State, _ mpops.Events) {
			if full > 0 || obsErr != nil {
				return
			}
			if hh, ii, ok := r.Unseen(); ok {
				h, i = hh, ii
				stagesBefore = slot / per // whole stages done before this slot
			}
			if obsErr = r.Slot(sh, acts); obsErr != nil {
				return
			}
			slot++
			for p := range sh.N() {
				ratio = max(ratio, float64(r.Size(p))/math.Pow(2, float64(slot)))
			}
			if _, _, ok := r.Unseen(); !ok {
				full = slot
			}
		})
		if e != nil || obsErr != nil {
			return 0, 0, 0, 0, 0, errors.Join(e, obsErr)
		}
		if full > 0 {
			break
		}
	}
	return full, ratio, h, i, stagesBefore, nil
}

// thm28Shapes are the shapes Theorem 2.8 is checked on for a network of
// the given name, at a budget (n ≤ maxN).
func thm28Shapes(b props.Budget, network string) []mpops.Shape {
	maxN := b.Pick(16, 36, 64)
	shapes := []mpops.Shape{{D: 1, G: 4}, {D: 2, G: 2}, {D: 4, G: 2}, {D: 2, G: 4}, {D: 4, G: 4}, {D: 3, G: 3}, {D: 6, G: 6}, {D: 8, G: 4}, {D: 8, G: 8}}
	if network != "odd-even transposition" { // depth O(log² n): larger shapes are cheap
		maxN = b.Pick(64, 256, 1024)
		shapes = append(shapes, mpops.Shape{D: 16, G: 4}, mpops.Shape{D: 4, G: 16}, mpops.Shape{D: 16, G: 16}, mpops.Shape{D: 32, G: 32})
	}
	var out []mpops.Shape
	for _, sh := range shapes {
		if sh.N() <= maxN {
			out = append(out, sh)
		}
	}
	return out
}

// checkThm28 runs the Theorem 2.8 argument against the sort router with one
// network on each shape: P(i,t) from the router's actual slot-model
// actions, |P(i,t)| ≤ 2^t, the first slot after which every processor has
// seen every packet is ≥ ⌈log₂ n⌉, and the exhibited permutation (π(h) = i
// for a pair (h, i) still unseen) is not routed by the router truncated to
// the stages completed before that slot.
func checkThm28(env props.Env, cn cor24Network, scale int) (props.Outcome, string) {
	var ev []string
	for _, sh := range thm28Shapes(env.Budget, cn.name) {
		n := sh.N()
		nw, err := cn.build(n)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}, ""
		}
		full, ratio, h, i, stages, err := rigidReach(sh, nw)
		inst := map[string]any{"d": sh.D, "g": sh.G, "network": cn.name}
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}, ""
		}
		logn := scale * popslower.CeilLog2(n)
		if ratio > 1 || full == 0 || full < logn {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s %v: max |P(i,t)|/2^t = %.2f, all seen after slot %d, ⌈log₂ n⌉ = %d", cn.name, sh, ratio, full, logn), Counterexample: inst}, ""
		}
		// The exhibited permutation: π(h) = i, π(i) = h, identity elsewhere.
		pi := perm.Identity(n)
		pi[h], pi[i] = int32(i), int32(h)
		trunc := sortnet.Network{N: n, Stages: nw.Stages[:stages]}
		router, err := popsdet.NewSortRouter(sh, trunc)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}, ""
		}
		res, err := router.Route(pi)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}, ""
		}
		if h != i && res.Holder[i] == int32(h) {
			inst["perm"] = pi
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s %v: after %d stages processor %d holds packet %d although P(%d) never contained it", cn.name, sh, stages, i, h, i), Counterexample: inst}, ""
		}
		total := popsdet.Slots(sh) * len(nw.Stages)
		ev = append(ev, fmt.Sprintf("%v: all P(i,t) full after slot %d ≥ ⌈log₂ %d⌉ = %d (router: %d slots = depth %d × %d); p_%d ∉ P(%d) until then, and after %d stages p_%d is not at %d",
			sh, full, n, logn, total, len(nw.Stages), popsdet.Slots(sh), h, i, stages, h, i))
	}
	return props.Outcome{Verdict: props.Holds}, cn.name + ": " + strings.Join(ev, "; ")
}

func init() {
	props.Register(claimtab.WithFault(ledger.Text(props.Claim{ID: "pops/thm-2.8/rigid-log-n"}), thm28, 1, 4, "the lower bound raised fourfold (4⌈log₂ n⌉)"))
}

// thm28 runs checkThm28 with every network, the bound ⌈log₂ n⌉ scaled by
// scale (1 for the claim, 4 for its planted fault).
func thm28(scale int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		for _, cn := range cor24Networks {
			o, e := checkThm28(env, cn, scale)
			if o.Verdict != props.Holds {
				return o
			}
			ev = append(ev, e)
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "attained: " + strings.Join(ev, " | ")}
	}
}

// thm25SmallShapes are the POPS(g, g) of thm25Sizes.
func thm25SmallShapes(b props.Budget) []mpops.Shape { return squareShapes(thm25Sizes(b)) }

// thm25WithForced is pops/thm-2.5/oblivious-congestion's check: thm25(1)
// (the whole construction, |S_b| ≥ √g, congestion and slots ≥ √g/2), then
// the proof's own conclusion on the same sizes with how's construction and
// router (checkThm25Large: the forced pairs alone have congestion ≥ √g/2).
// At these g any permutation has congestion ≥ √g/2, so only the second
// part can catch a construction that does not force it.
func thm25WithForced(how thm25Large) func(props.Env) props.Outcome {
	how.shapes = thm25SmallShapes
	return func(env props.Env) props.Outcome {
		o := thm25(1)(env)
		if o.Verdict != props.Holds {
			return o
		}
		f := checkThm25Large(how)(env)
		if f.Verdict != props.Holds {
			return f
		}
		return props.Outcome{Verdict: props.Holds, Evidence: o.Evidence + " | proof's forced pairs: " + strings.TrimPrefix(f.Evidence, "attained: ")}
	}
}

// thm25 runs Theorem 2.5's construction against the oblivious routers and
// checks congestion and slots ≥ scale·√g/2 (scale 1 for the claim; the
// planted fault raises the bound fourfold, which the constructions must
// miss somewhere for the check to have shown it can fail).
func thm25(scale float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		if o := thm25Cases(env.Budget, popslower.Theorem25, func(g int, sh mpops.Shape, name string, fam popsobl.Family, res popslower.Thm25, inst map[string]any) *props.Outcome {
			if err := perm.Validate(res.Perm, true); err != nil {
				return &props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: construction built no permutation: %v", sh, name, err)}
			}
			half := scale * math.Sqrt(float64(g)) / 2
			c, _ := popslower.Congestion(sh, popslower.Family(fam), res.Perm)
			run, err := popsobl.Execute(sh, res.Perm, fam, 64*sh.N())
			if err != nil || run.Delivered != sh.N() {
				return &props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: executor failed: %v %+v", sh, name, err, run)}
			}
			inst["perm"] = res.Perm
			if float64(res.MinS) < math.Sqrt(float64(g)) {
				return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: min |S_b| = %d < √g", sh, name, res.MinS), Counterexample: inst}
			}
			if float64(c) < half || float64(run.Slots) < half {
				return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v %s: congestion %d, %d slots < √g/2 = %.2f", sh, name, c, run.Slots, half), Counterexample: inst}
			}
			ev = append(ev, fmt.Sprintf("g=%d %s: congestion %d, %d slots (≥ √g/2 = %.2f), min|S_b| %d", g, name, c, run.Slots, half, res.MinS))
			return nil
		}); o != nil {
			return *o
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "attained: " + strings.Join(ev, "; ")}
	}
}
