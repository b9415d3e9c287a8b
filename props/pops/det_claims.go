package pops

import (
	"fmt"
	"slices"
	"strings"

	"routecheck/algos/aks"
	"routecheck/algos/popsdet"
	asn "routecheck/algos/sortnet"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/models/sortnet"
	"routecheck/props"

	"pgregory.net/rapid"
)

// PopsDetInstance is a replayable input of the deterministic POPS routers of
// §II-A: a shape, a permutation, and for Lemma 2.2 a comparator stage and the
// values on the wires.
type PopsDetInstance struct {
	D     int        `json:"d"`
	G     int        `json:"g"`
	Perm  []int32    `json:"perm,omitempty"`
	Stage [][2]int32 `json:"stage,omitempty"`
	Vals  []int      `json:"vals,omitempty"`
	Why   string     `json:"why,omitempty"`
}

// thm21Slots is Theorem 2.1's slot count as the paper states it.
func thm21Slots(d, g int) int {
	if d == 1 {
		return 1
	}
	return 2 * ((d + g - 1) / g)
}

// PopsDetOffline checks Theorem 2.1 on one instance: the off-line schedule,
// run on the slot model with model invariants after every slot, takes
// exactly 1 (d = 1) or 2⌈d/g⌉ slots, has no conflicting coupler, loses and
// duplicates nothing, and leaves packet p delivered at processor π(p). It
// returns "" or what went wrong.
func PopsDetOffline(sh mpops.Shape, dst []int32) string { return popsDetOffline(sh, dst, nil) }

// popsDetOffline is PopsDetOffline with the plan changed by mut (a planted
// fault; nil for the router as written).
func popsDetOffline(sh mpops.Shape, dst []int32, mut func(*popsdet.Plan)) string {
	pl, err := popsdet.NewPlan(sh, dst)
	if err != nil {
		return err.Error()
	}
	if mut != nil {
		mut(&pl)
	}
	res, st, err := popsdet.Run(pl, nil)
	if err != nil {
		return err.Error()
	}
	want := thm21Slots(sh.D, sh.G)
	switch {
	case res.Slots != want:
		return fmt.Sprintf("%d slots, Theorem 2.1 says %d", res.Slots, want)
	case res.Conflicts != 0 || res.Lost != 0 || res.Duplicated != 0:
		return fmt.Sprintf("%d conflicting couplers, %d packets lost, %d duplicated", res.Conflicts, res.Lost, res.Duplicated)
	}
	for p, q := range dst {
		if !slices.Contains(st.Buf[q], mpops.Item{Packet: int32(p), Kind: mpops.Delivered}) {
			return fmt.Sprintf("processor %d does not hold packet %d as delivered", q, p)
		}
	}
	return ""
}

// eachShapePerm calls f for every shape with n = dg ≤ maxN and every
// permutation of N_n, until f returns false; it returns the case count.
func eachShapePerm(maxN int, f func(sh mpops.Shape, p []int32) bool) (cases int) {
	for n := 1; n <= maxN; n++ {
		for d := 1; d <= n; d++ {
			if n%d != 0 {
				continue
			}
			sh := mpops.Shape{D: d, G: n / d}
			stop := false
			perm.Each(n, func(p []int32) bool {
				cases++
				stop = !f(sh, p)
				return !stop
			})
			if stop {
				return cases
			}
		}
	}
	return cases
}

// shapeTally counts the shapes a rapid run drew, for the evidence string.
type shapeTally struct{ runs, dLtG, dEqG, dGtG, big, maxN int }

func (st *shapeTally) add(sh mpops.Shape) {
	st.runs++
	switch {
	case sh.D == 1:
	case sh.D < sh.G:
		st.dLtG++
	case sh.D == sh.G:
		st.dEqG++
	default:
		st.dGtG++
	}
	if sh.N() >= 100 {
		st.big++
	}
	st.maxN = max(st.maxN, sh.N())
}

func (st *shapeTally) String() string {
	return fmt.Sprintf("%d runs: %d with 1 < d < g, %d with d = g > 1, %d with d > g, %d with n ≥ 100, largest n = %d", st.runs, st.dLtG, st.dEqG, st.dGtG, st.big, st.maxN)
}

func genPopsDetShape(t *rapid.T, maxD, maxG int, tally *shapeTally) mpops.Shape {
	sh := mpops.Shape{D: rapid.IntRange(1, maxD).Draw(t, "d"), G: rapid.IntRange(1, maxG).Draw(t, "g")}
	tally.add(sh)
	return sh
}

func genPermOf(t *rapid.T, n int) []int32 {
	return rapid.Permutation(perm.Identity(n)).Draw(t, "π")
}

// searchShapePerms looks for an instance where why (what went wrong, or "")
// is not empty: first exhaustively, every shape with dg ≤ maxN and every
// permutation in order of n (eachShapePerm), then with rapid, checks random
// shapes 1 ≤ d, g ≤ maxDG (counted in tally) with random permutations. It
// returns the exhaustive case count and, for the first such instance, the
// violation naming the search that found it (order, if set, is added to the
// exhaustive search's description), or nil.
func searchShapePerms(env props.Env, maxN int, order string, checks, maxDG int, tally *shapeTally, why func(sh mpops.Shape, p []int32) string) (int, *props.Outcome) {
	var cex *PopsDetInstance
	cases := eachShapePerm(maxN, func(sh mpops.Shape, p []int32) bool {
		if w := why(sh, p); w != "" {
			cex = &PopsDetInstance{D: sh.D, G: sh.G, Perm: slices.Clone(p), Why: w}
			return false
		}
		return true
	})
	if cex != nil {
		return cases, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("exhaustive search (dg ≤ %d, every permutation%s) found a counterexample after %d cases: POPS(%d,%d): %s", maxN, order, cases, cex.D, cex.G, cex.Why), Counterexample: *cex}
	}
	c, _ := props.Falsify(env, checks, func(t *rapid.T) any {
		sh := genPopsDetShape(t, maxDG, maxDG, tally)
		p := genPermOf(t, sh.N())
		if w := why(sh, p); w != "" {
			return PopsDetInstance{D: sh.D, G: sh.G, Perm: p, Why: w}
		}
		return nil
	})
	if c != nil {
		in := c.(PopsDetInstance)
		return cases, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("rapid found and shrank a counterexample: POPS(%d,%d): %s", in.D, in.G, in.Why), Counterexample: in}
	}
	return cases, nil
}

// relayShifted is the planted fault of Theorem 2.1's check: packet 0's
// relay group is moved to the next group (mod g), the schedule otherwise
// unchanged; it collides with the packet that uses that (round, relay) pair.
func relayShifted(pl *popsdet.Plan) {
	if len(pl.Relay) > 0 && pl.Shape.G > 1 {
		pl.Relay[0] = (pl.Relay[0] + 1) % int32(pl.Shape.G)
	}
}

func checkThm21(mut func(*popsdet.Plan)) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return thm21(env, mut) }
}

func thm21(env props.Env, mut func(*popsdet.Plan)) props.Outcome {
	maxN := env.Budget.Pick(8, 8, 9)
	checks := env.Budget.Pick(300, 2000, 10000)
	maxDG := env.Budget.Pick(32, 64, 128)
	var tally shapeTally
	cases, bad := searchShapePerms(env, maxN, ", in order of n", checks, maxDG, &tally, func(sh mpops.Shape, p []int32) string {
		return popsDetOffline(sh, p, mut)
	})
	if bad != nil {
		return *bad
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf(
		"exhaustive: every shape with dg ≤ %d and every permutation (%d cases, including d < g: POPS(2,3), POPS(2,4)); rapid: %d random shapes 1 ≤ d, g ≤ %d with random permutations (%v). Every run on the slot model: exactly 1 / 2⌈d/g⌉ slots, 0 conflicting couplers, 0 lost, 0 duplicated, every packet delivered, model invariants after every slot",
		maxN, cases, checks, maxDG, &tally)}
}

// PopsDetStage checks Lemma 2.2 on one instance: the comparator stage
// simulated on the slot model gives sortnet.ApplyStage's output in 1 or
// 2⌈d/g⌉ slots with no conflict. ext, when non-nil, is the extension of the
// exchange permutation on the wires outside the stage (else fixed points).
func PopsDetStage(sh mpops.Shape, st sortnet.Stage, vals []int, ext []int32) string {
	return popsDetStage(sh, st, vals, ext, nil)
}

// lowFlipped is the planted fault of Lemma 2.2's check: the lowest wire of a
// comparator keeps the maximum instead of the minimum.
func lowFlipped(sp *popsdet.StagePlan) {
	for i, q := range sp.Partner {
		if q >= 0 {
			sp.Low[i] = !sp.Low[i]
			return
		}
	}
}

func popsDetStage(sh mpops.Shape, st sortnet.Stage, vals []int, ext []int32, mut func(*popsdet.StagePlan)) string {
	var sp popsdet.StagePlan
	var err error
	if ext == nil {
		sp, err = popsdet.CompileStage(sh, st)
	} else {
		sp, err = popsdet.CompileStageWith(sh, st, ext)
	}
	if err != nil {
		return err.Error()
	}
	if mut != nil {
		mut(&sp)
	}
	got, res, err := popsdet.Simulate(sp, vals)
	if err != nil {
		return err.Error()
	}
	want := slices.Clone(vals)
	sortnet.ApplyStage(st, want)
	switch {
	case !slices.Equal(got, want):
		return fmt.Sprintf("simulated stage gives %v, the comparators give %v", got, want)
	case res.Slots != thm21Slots(sh.D, sh.G):
		return fmt.Sprintf("%d slots, Lemma 2.2 says %d", res.Slots, thm21Slots(sh.D, sh.G))
	case res.Conflicts != 0 || res.Lost != 0 || !res.Completed:
		return fmt.Sprintf("%d conflicting couplers, %d packets lost, exchange completed: %v", res.Conflicts, res.Lost, res.Completed)
	}
	return ""
}

func checkLemma22(mut func(*popsdet.StagePlan)) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return lemma22(env, mut) }
}

func lemma22(env props.Env, mut func(*popsdet.StagePlan)) props.Outcome {
	checks := env.Budget.Pick(1000, 5000, 20000)
	maxDG := env.Budget.Pick(16, 32, 64)
	var tally shapeTally
	c, _ := props.Falsify(env, checks, func(t *rapid.T) any {
		sh := genPopsDetShape(t, maxDG, maxDG, &tally)
		n := sh.N()
		wires := rapid.Permutation(perm.Identity(n)).Draw(t, "wires")
		st := make(sortnet.Stage, rapid.IntRange(0, n/2).Draw(t, "comparators"))
		pairs := make([][2]int32, len(st))
		for k := range st {
			a, b := wires[2*k], wires[2*k+1]
			st[k] = sortnet.Comparator{I: min(a, b), J: max(a, b)}
			pairs[k] = [2]int32{st[k].I, st[k].J}
		}
		vals := rapid.SliceOfN(rapid.IntRange(-3, 3), n, n).Draw(t, "vals")
		var ext []int32
		if rapid.Bool().Draw(t, "random extension") {
			ext = perm.Identity(n)
			rest := slices.Clone(wires[2*len(st):])
			img := rapid.Permutation(rest).Draw(t, "extension")
			for k, i := range rest {
				ext[i] = img[k]
			}
			for _, cp := range st {
				ext[cp.I], ext[cp.J] = cp.J, cp.I
			}
		}
		if why := popsDetStage(sh, st, vals, ext, mut); why != "" {
			return PopsDetInstance{D: sh.D, G: sh.G, Perm: ext, Stage: pairs, Vals: vals, Why: why}
		}
		return nil
	})
	if c != nil {
		in := c.(PopsDetInstance)
		return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("rapid found and shrank a counterexample: POPS(%d,%d) stage %v: %s", in.D, in.G, in.Stage, in.Why), Counterexample: in}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf(
		"rapid: %d random (shape 1 ≤ d, g ≤ %d (%v), random stage, values in [−3, 3] with ties, exchange extended by fixed points or a random permutation); every simulation on the slot model equals sortnet.ApplyStage, in exactly 1 / 2⌈d/g⌉ slots with 0 conflicts and 0 losses",
		checks, maxDG, &tally)}
}

// PopsDetSortRoute checks the direct version of Corollary 2.4 on one
// instance: with a sorting network of the given depth on n = dg wires,
// every packet ends at its destination after depth · (1 or 2⌈d/g⌉) slots
// with no conflict, loss or duplicate.
func PopsDetSortRoute(r *popsdet.SortRouter, sh mpops.Shape, depth int, dst []int32) string {
	res, err := r.Route(dst)
	if err != nil {
		return err.Error()
	}
	want := depth * thm21Slots(sh.D, sh.G)
	switch {
	case res.Slots != want:
		return fmt.Sprintf("%d slots, depth × (1 or 2⌈d/g⌉) = %d × %d = %d", res.Slots, depth, thm21Slots(sh.D, sh.G), want)
	case res.Conflicts != 0 || res.Lost != 0 || res.Duplicated != 0:
		return fmt.Sprintf("%d conflicting couplers, %d lost, %d duplicated over the stage routings", res.Conflicts, res.Lost, res.Duplicated)
	}
	for j, p := range res.Holder {
		if dst[p] != int32(j) {
			return fmt.Sprintf("processor %d ends with packet %d, destined to %d", j, p, dst[p])
		}
	}
	return ""
}

// cor24Network is a sorting network the sort-based router is run with.
type cor24Network struct {
	name  string
	build func(n int) (sortnet.Network, error)
}

// cor24Networks: the odd-even transposition network (depth n), Batcher's
// odd-even merge sort (depth ⌈lg n⌉(⌈lg n⌉+1)/2, the network of the
// paper's reference [8]) and the AKS-family network of algos/aks with exact
// separators (Seiferas's schedule, the §5 parameters).
var cor24Networks = []cor24Network{
	{"odd-even transposition", func(n int) (sortnet.Network, error) { return popsdet.OddEvenTransposition(n), nil }},
	{"Batcher odd-even merge", asn.OddEvenMergeSort},
	{"AKS-family (exact separators)", func(n int) (sortnet.Network, error) {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			return sortnet.Network{}, err
		}
		return res.Net, nil
	}},
}

// lastComparatorDeleted is the planted fault of Corollary 2.4's check: each
// sorting network loses the last comparator of its last non-empty stage.
func lastComparatorDeleted(nw sortnet.Network) sortnet.Network {
	out := sortnet.Network{N: nw.N, Stages: slices.Clone(nw.Stages)}
	for k := len(out.Stages) - 1; k >= 0; k-- {
		if st := out.Stages[k]; len(st) > 0 {
			out.Stages[k] = slices.Clone(st[:len(st)-1])
			break
		}
	}
	return out
}

func checkCor24(mut func(sortnet.Network) sortnet.Network) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return cor24(env, mut) }
}

func cor24(env props.Env, mut func(sortnet.Network) sortnet.Network) props.Outcome {
	var ev []string
	for _, cn := range cor24Networks {
		if mut != nil {
			build := cn.build
			cn.build = func(n int) (sortnet.Network, error) {
				nw, err := build(n)
				return mut(nw), err
			}
		}
		o, e := checkCor24With(env, cn)
		if o.Verdict != props.Holds {
			return o
		}
		ev = append(ev, e)
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, " | ") + ". Every packet ended at its destination after exactly depth·(1 or 2⌈d/g⌉) slots, every stage routing on the slot model without conflict, loss or duplicate"}
}

func checkCor24With(env props.Env, cn cor24Network) (props.Outcome, string) {
	// The network is checked to sort, independently, wherever 2^n inputs are
	// affordable.
	sorts := map[int]bool{}
	depths := map[int]int{}
	build := func(n int) (sortnet.Network, string) {
		nw, err := cn.build(n)
		if err != nil {
			return nw, err.Error()
		}
		if n <= 20 && !sorts[n] {
			if bad, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
				return nw, fmt.Sprintf("%s on %d wires does not sort 0-1 input %b (%v): the check's network is broken", cn.name, n, bad, err)
			}
			sorts[n] = true
		}
		depths[n] = nw.Depth()
		return nw, ""
	}
	maxN := env.Budget.Pick(6, 7, 8)
	routers := map[mpops.Shape]*popsdet.SortRouter{}
	router := func(sh mpops.Shape) (*popsdet.SortRouter, string) {
		if r, ok := routers[sh]; ok {
			return r, ""
		}
		nw, why := build(sh.N())
		if why != "" {
			return nil, why
		}
		r, err := popsdet.NewSortRouter(sh, nw)
		if err != nil {
			return nil, err.Error()
		}
		routers[sh] = r
		return r, ""
	}
	route := func(sh mpops.Shape, p []int32) string {
		r, why := router(sh)
		if why == "" {
			why = PopsDetSortRoute(r, sh, depths[sh.N()], p)
		}
		return why
	}
	checks := env.Budget.Pick(150, 1000, 4000)
	maxDG := env.Budget.Pick(8, 12, 16)
	var tally shapeTally
	cases, bad := searchShapePerms(env, maxN, "", checks, maxDG, &tally, func(sh mpops.Shape, p []int32) string {
		if why := route(sh, p); why != "" {
			return cn.name + ": " + why
		}
		return ""
	})
	if bad != nil {
		return *bad, ""
	}
	sizes := make([]int, 0, len(sorts))
	for n := range sorts {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	var ds []string
	for _, n := range []int{4, 8, 16, 64, 144, 256} {
		if d, ok := depths[n]; ok {
			ds = append(ds, fmt.Sprintf("%d at n = %d", d, n))
		}
	}
	return props.Outcome{Verdict: props.Holds}, fmt.Sprintf(
		"%s (depth %s; confirmed sorting by the exhaustive 0-1 check for n ∈ %v): exhaustive, every shape with dg ≤ %d and every permutation (%d cases); rapid, %d random shapes 1 ≤ d, g ≤ %d with random permutations (%v)",
		cn.name, strings.Join(ds, ", "), sizes, maxN, cases, checks, maxDG, &tally)
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.1/offline-slots",
		Notes: strings.Join([]string{
			"Router (algos/popsdet, our construction; the paper cites [13] without proof): d = 1 sends directly over c(π(i), i).",
			"d > 1: edge-colour the d-regular group multigraph group(p) → group(π(p)) properly and equitably with g⌈d/g⌉ colours (König + de Werra, models/bipartite); colour r·g + h = round r, relay group h; slot 2r+1 goes source → relay over c(h, group(p)), slot 2r+2 relay → destination over c(group(π(p)), h).",
			"A colour class has at most ⌈d/⌈d/g⌉⌉ ≤ d packets, so each relay group has enough listeners; for d < g the equitable colouring (every class exactly d packets) is what makes 2 slots suffice.",
		}, " "),
		Check:  checkThm21(nil),
		Faults: []props.Fault{{Name: "packet 0's relay group moved to the next group", Check: checkThm21(relayShifted)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/lemma-2.2/comparator-stage",
		Check:  checkLemma22(nil),
		Faults: []props.Fault{{Name: "a comparator's low wire keeps the maximum", Check: checkLemma22(lowFlipped)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-2.4/sort-router-delivers",
		Notes: strings.Join([]string{
			"Direct version: one sorting network on all n = dg keys, not the paper's route (a POPS(g,g) sorter, Theorem 2.3 via AKS, plugged into Stage 1 of [8]'s algorithm on ⌈d/g⌉ sub-networks).",
			"Slots = depth(n) · 2⌈d/g⌉ (d > 1), checked exactly for each network; with an O(log n)-depth network that is O((d/g) log n), Corollary 2.4's bound when log d = O(log g).",
			"What is and is not shown: delivery, conflict-freedom and the slot formula, for every network used. The O(log n) depth itself is not exercised: the AKS-family network with exact separators sorts every bag with Batcher's network, so its depth grows like log³ n (46 at n = 12, 180 at n = 64, against Batcher's 10 and 21), and the O(log n)-depth version with random-matching halvers is not a sorting network at the sizes we can build (sortnet/aks/expander-halver/sorts, …/sorts-large); with Paterson's halvers §7's estimate only beats Batcher beyond n ≈ 10^309606 (sortnet/aks/depth/crossover).",
			"The schedules are compiled from the network alone, never from π: the router is on-line.",
		}, " "),
		Check:  checkCor24(nil),
		Faults: []props.Fault{{Name: "each sorting network without its last comparator", Check: checkCor24(lastComparatorDeleted)}}}))
}
