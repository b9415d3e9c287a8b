package pops

import (
	"fmt"
	"math"
	"strings"

	"routecheck/algos/aks"
	"routecheck/algos/popsds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/models/sortnet"
	"routecheck/props"

	"math/rand/v2"
)

// Corollary 2.4 as the paper routes it (issue 12): the AKS-family sorter
// (Theorem 2.3) plugged into the scheme of [8] — the d/g POPS(g,g)
// sub-network sorts — rather than one sort over all dg keys.

func cor24AKS(g int) (sortnet.Network, error) {
	res, err := aks.Construct(g*g, aks.SeiferasParams(), aks.Exact())
	if err != nil {
		return sortnet.Network{}, err
	}
	return res.Net, nil
}

func checkCor24Scheme(mut func(sortnet.Network) sortnet.Network) func(props.Env) props.Outcome {
	return checkCor24SchemeWith(func(g int, _ uint64) (sortnet.Network, error) { return cor24AKS(g) }, cor24Shapes, "", mut)
}

func cor24Shapes(b props.Budget) []mpops.Shape {
	shapes := []mpops.Shape{{D: 2, G: 2}, {D: 8, G: 2}, {D: 4, G: 4}, {D: 16, G: 4}, {D: 8, G: 8}}
	if b != props.Small {
		shapes = append(shapes, mpops.Shape{D: 32, G: 8}, mpops.Shape{D: 16, G: 16})
	}
	return shapes
}

// shapesFrom is shapes with g ≥ gMin: a planted fault judged only where
// the g²-wire network has the structure it breaks.
func shapesFrom(shapes func(props.Budget) []mpops.Shape, gMin int) func(props.Budget) []mpops.Shape {
	return func(b props.Budget) []mpops.Shape {
		var out []mpops.Shape
		for _, sh := range shapes(b) {
			if sh.G >= gMin {
				out = append(out, sh)
			}
		}
		return out
	}
}

// checkCor24SchemeWith is checkCor24Scheme with the g²-wire sorter built by
// sorter(g, seed), the shapes of each budget given, and label (if not
// empty) heading the evidence.
func checkCor24SchemeWith(sorter func(g int, seed uint64) (sortnet.Network, error), shapesOf func(props.Budget) []mpops.Shape, label string, mut func(sortnet.Network) sortnet.Network) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		shapes := shapesOf(env.Budget)
		perShape := env.Budget.Pick(3, 5, 20)
		r := rand.New(rand.NewPCG(env.Seed, 24))
		var ev []string
		for _, sh := range shapes {
			nw, err := sorter(sh.G, env.Seed)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if mut != nil {
				nw = mut(nw)
			}
			want := popsds.SlotsWithDepth(sh, nw.Depth())
			for range perShape {
				dst := perm.Random(sh.N(), r)
				res, err := popsds.RouteWith(sh, dst, popsds.Options{Sorter: &nw})
				why := ""
				switch {
				case err != nil:
					why = "model violation: " + err.Error()
				case !res.Completed || res.Lost > 0 || res.Conflicts > 0:
					why = fmt.Sprintf("%d of %d delivered, %d lost, %d conflicting couplers", res.Delivered, sh.N(), res.Lost, res.Conflicts)
				case res.Slots != want:
					why = fmt.Sprintf("%d slots, want (d/g)(2·depth + 9 + min(g, d/g)) + d/g = %d", res.Slots, want)
				}
				if why != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("POPS(%d,%d) with the AKS-family sorter (depth %d on g² = %d wires): %s", sh.D, sh.G, nw.Depth(), sh.G*sh.G, why),
						Counterexample: RivalInstance{D: sh.D, G: sh.G, Perm: dst, Slots: res.Slots, Why: why}}
				}
			}
			lg := math.Log2(float64(sh.G))
			ev = append(ev, fmt.Sprintf("POPS(%d,%d): AKS depth %d on %d wires, %d slots (÷ (d/g)·log g = %.0f)", sh.D, sh.G, nw.Depth(), sh.G*sh.G, want, float64(want)/(float64(sh.D/sh.G)*lg)))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: label + fmt.Sprintf("%d random permutations per shape on the slot model: every packet delivered, no conflict, slots = (d/g)(2·depth + 9 + min(g, d/g)) + d/g: %s", perShape, strings.Join(ev, "; "))}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-2.4/8-scheme-aks",
		Check: checkCor24Scheme(nil),
		Faults: []props.Fault{
			{Name: "the AKS network's last comparator deleted, judged at g ≥ 4 only (at g = 2 the 4-wire network has no AKS structure; [2026-11-25, review])", Check: checkCor24SchemeWith(func(g int, _ uint64) (sortnet.Network, error) { return cor24AKS(g) }, shapesFrom(cor24Shapes, 4), "g ≥ 4 shapes: ", lastComparatorDeleted)},
			{Name: "uncertified halvers: aks.ExpanderNet (4 random perfect matchings a halver), judged at g ≥ 8 only ([2026-11-25, review], the fault of pops/cor-2.4/8-scheme-aks-certified)", Check: checkCor24SchemeWith(cor24Uncertified, shapesFrom(cor24Shapes, 8), "the AKS-family sorter with uncertified 4-matching halvers (aks.ExpanderNet), g ≥ 8 shapes: ", nil)},
		}}))
}
