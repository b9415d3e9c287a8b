package pops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"routecheck/algos/popsdet"
	"routecheck/algos/popsds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popslower"
	"routecheck/props"
)

// Issue 12: Theorem 2.8's closing sentences ("This bound applies to both
// the O(log² g) algorithm in [8] and to our deterministic algorithm ...
// Therefore, within the class of rigid algorithms, our proposed routing
// scheme is optimal.") and Conjectures 2.13–2.14, checked against the [8]
// router as algos/popsds simulates it and against the sort-based router.

// rigid8Shapes are the shapes the rigidity claims run on at a budget, with
// the number of random permutations compared with the identity on each
// (0: every permutation, in lexicographic order).
type rigid8Shape struct {
	sh     mpops.Shape
	random int
}

func rigid8Shapes(b props.Budget) []rigid8Shape {
	out := []rigid8Shape{
		{mpops.Shape{D: 2, G: 2}, 0},
		{mpops.Shape{D: 4, G: 2}, b.Pick(30, 150, 0)}, // exhaustive (40320) at large only: ≈ 6 s
		{mpops.Shape{D: 4, G: 4}, b.Pick(10, 40, 400)},
		{mpops.Shape{D: 8, G: 4}, b.Pick(4, 15, 150)},
		{mpops.Shape{D: 8, G: 8}, b.Pick(0, 4, 40)},
		{mpops.Shape{D: 32, G: 4}, b.Pick(0, 3, 20)},
	}
	var keep []rigid8Shape
	for _, s := range out {
		if s.random > 0 || s.sh.N() <= 8 {
			keep = append(keep, s)
		}
	}
	return keep
}

// rigidMem is the memory estimate of the claims that run popsds, plain or
// repaired, on rigid8Shapes and the log-n shapes (this file's rigid,
// rigid-part and log-n claims; rigid8r_claims.go's rigid, routes and log-n).
var rigidMem = props.MemEstimate{Small: 8 << 20, Default: 16 << 20, Large: 64 << 20}

// detEvidenceMem is the memory estimate of the claims checkDetEvidence
// decides (every deterministic router on detShapes).
var detEvidenceMem = props.MemEstimate{Small: 16 << 20, Default: 64 << 20, Large: 64 << 20}

// rigid8Perms calls try on the permutations a rigid8Shape compares with the
// identity and returns the first outcome try returns (nil: none), with the
// evidence's description of what was tried. At n ≤ 8 the permutations are
// tried in lexicographic order first (all of them when random = 0, else the
// first random), so the first difference found is the smallest
// counterexample there; then random ones drawn from r. try must copy a
// permutation it keeps: the lexicographic one is advanced in place.
func rigid8Perms(n, random int, r *rand.Rand, try func([]int32) *props.Outcome) (string, *props.Outcome) {
	how := fmt.Sprintf("%d random", random)
	if n <= 8 {
		p := perm.Identity(n)
		for k := 0; (random == 0 || k < random) && nextPerm(p); k++ {
			if o := try(p); o != nil {
				return how, o
			}
		}
		how = "all"
		if random > 0 {
			how = fmt.Sprintf("the first %d (lexicographic) and %d random", random, random)
		}
	}
	for range random {
		if o := try(perm.Random(n, r)); o != nil {
			return how, o
		}
	}
	return how, nil
}

// nextPerm advances p to the next permutation in lexicographic order and
// reports false after the last.
func nextPerm(p []int32) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	for a, b := i+1, len(p)-1; a < b; a, b = a+1, b-1 {
		p[a], p[b] = p[b], p[a]
	}
	return true
}

// rigidPart says which slots the rigid-part claim compares: every slot at
// d = g, the sort and shift slots otherwise.
func rigidPart(sh mpops.Shape) func(popsds.Phase) bool {
	if sh.D == sh.G {
		return nil
	}
	return func(p popsds.Phase) bool { return p == popsds.PhaseSort || p == popsds.PhaseShift }
}

// checkRigid8 compares, on every shape of rigid8Shapes, the communication
// pattern (popsds.Schedule: each processor's send groups and listen group
// per slot) of the router (or mutant mut) on the identity with its pattern
// on other permutations — every permutation where n ≤ 8 (the first
// differing one in lexicographic order is the counterexample), random ones
// beyond — on the slots part selects (nil: all). A difference is a
// violation of rigidity with the two permutations and the slot/processor.
func checkRigid8(mut popsds.Mutant, part func(mpops.Shape) func(popsds.Phase) bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		differ := func(sh mpops.Shape, id, p []int32, ref, sc []popsds.SlotSchedule, tried int) *props.Outcome {
			ds := popsds.Diffs(ref, sc, part(sh))
			if len(ds) == 0 {
				return nil
			}
			d := ds[0] // the strongest witness
			var all []string
			for _, x := range ds {
				all = append(all, x.String())
			}
			reading := "under the literal reading only (silence, acks or targets; the proof's P(i,t) ⊆ P(i,t−1) ∪ P(j,t−1) with a static j is not broken)"
			if d.Kind.ProofRelevant() {
				reading = "under either reading (a listener's group or the sender it hears depends on the data, which breaks the proof's P(i,t) ⊆ P(i,t−1) ∪ P(j,t−1) with a static j)"
			}
			return &props.Outcome{Verdict: props.Violated,
				Evidence: fmt.Sprintf("%v: the identity and π = %v have different communication patterns, %s; strongest witness: %v; first difference of each kind (identity / π): %s; %d permutations compared",
					sh, p, reading, d, strings.Join(all, "; "), tried),
				Counterexample: map[string]any{"d": sh.D, "g": sh.G, "permA": id, "permB": append([]int32(nil), p...), "kind": d.Kind.String(), "proofRelevant": d.Kind.ProofRelevant(),
					"slot": d.Slot, "phase": d.Phase.String(), "processor": d.Proc, "sendsToA": d.ToA, "sendsToB": d.ToB, "ackA": d.AckA, "ackB": d.AckB,
					"listensA": d.LisA, "listensB": d.LisB, "hearsA": d.HearA, "hearsB": d.HearB}}
		}
		line := func(sh mpops.Shape, how string, slots int) string {
			what := "every slot"
			if part(sh) != nil {
				what = "the sort and shift slots"
			}
			return fmt.Sprintf("%v: %s permutations, %s of %d the same as the identity's", sh, how, what, slots)
		}
		return rigidCompare(env, 0x12a8, popsds.Options{Mutant: mut}, differ, line)
	}
}

// rigidCompare is the comparison checkRigid8 and checkRigid8r
// (rigid8r_claims.go) share. On every shape of rigid8Shapes it schedules the
// identity under o — inconclusive if that fails, or if the router without a
// planted fault does not route it — and then each permutation p that
// rigid8Perms offers (its random ones from a PCG seeded by env.Seed and
// stream); differ compares p's pattern sc with the identity's, ref (tried:
// the permutations compared so far, p included), and returns the violation
// or nil. line is the evidence row of a shape where none differed.
func rigidCompare(env props.Env, stream uint64, o popsds.Options,
	differ func(sh mpops.Shape, id, p []int32, ref, sc []popsds.SlotSchedule, tried int) *props.Outcome,
	line func(sh mpops.Shape, how string, slots int) string) props.Outcome {
	r := rand.New(rand.NewPCG(env.Seed, stream))
	var ev []string
	for _, s := range rigid8Shapes(env.Budget) {
		sh, n := s.sh, s.sh.N()
		id := perm.Identity(n)
		ref, res, err := popsds.Schedule(sh, id, o)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v identity: %v", sh, err)}
		}
		if o.Mutant == popsds.None && !res.Completed {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v identity: not routed: %+v", sh, res)}
		}
		tried := 0
		try := func(p []int32) *props.Outcome {
			tried++
			sc, _, err := popsds.Schedule(sh, p, o)
			if err != nil {
				return &props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %v: %v", sh, p, err)}
			}
			return differ(sh, id, p, ref, sc, tried)
		}
		how, out := rigid8Perms(n, s.random, r, try)
		if out != nil {
			return *out
		}
		ev = append(ev, line(sh, how, len(ref)))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

// reachTrace is what feeding one run's actual actions to popslower.Reach
// found (traceReach).
type reachTrace struct {
	full, h, i int     // first slot after which every P(i,t) is full (0: never); an unseen (h, i) just before it
	ratio      float64 // largest |P(i,t)|/2^t
	res        popsds.Result
	bad        string // a packet held outside its own run's P(i,t)
}

// traceReach runs router o on dst and feeds every slot's actual actions to
// popslower.Reach (through under, when set: a planted fault that rewrites
// the actions fed to Reach, not those the model runs, so that Reach
// under-approximates what the model can hold). Before every slot it checks
// that every packet the model has at processor q is in P(q, slot−1) and
// then calls held(slot, q, packet) for it (held may be nil); after the last
// slot, that every packet is in P(its destination, final slot). fed, when
// set, is called with the sets before the first slot and after every slot.
func traceReach(sh mpops.Shape, dst []int32, o popsds.Options, under func(popsds.Phase, []mpops.Action) []mpops.Action,
	held func(slot, q, p int), fed func(*popslower.Reach)) (tr reachTrace, err error) {
	n := sh.N()
	rc := popslower.NewReach(n)
	tr.h, tr.i = -1, -1
	if fed != nil {
		fed(rc)
	}
	var obsErr error
	o.Observe = func(slot int, ph popsds.Phase, st mpops.State, acts []mpops.Action) {
		if obsErr != nil || tr.bad != "" {
			return
		}
		// The state the slot starts from is the one after slot−1 slots.
		for q := range n {
			for _, it := range st.Buf[q] {
				if !rc.Has(q, int(it.Packet)) {
					tr.bad = fmt.Sprintf("before slot %d processor %d holds packet %d outside P(%d, %d)", slot, q, it.Packet, q, slot-1)
					return
				}
				if held != nil {
					held(slot, q, int(it.Packet))
				}
			}
		}
		if tr.full == 0 {
			if hh, ii, ok := rc.Unseen(); ok {
				tr.h, tr.i = hh, ii
			}
		}
		feed := acts
		if under != nil {
			feed = under(ph, acts)
		}
		if obsErr = rc.Slot(sh, feed); obsErr != nil {
			return
		}
		if fed != nil {
			fed(rc)
		}
		for q := range n {
			tr.ratio = max(tr.ratio, float64(rc.Size(q))/math.Pow(2, float64(slot)))
		}
		if _, _, ok := rc.Unseen(); !ok && tr.full == 0 {
			tr.full = slot
		}
	}
	tr.res, err = popsds.RouteWith(sh, dst, o)
	if err == nil {
		err = obsErr
	}
	if err == nil && tr.bad == "" && tr.res.Completed {
		// After the final slot every packet sits at its destination: it
		// must be in P(destination, final slot).
		for p, y := range dst {
			if !rc.Has(int(y), p) {
				tr.bad = fmt.Sprintf("after the final slot %d processor %d holds packet %d outside P(%d, %d)", tr.res.Slots, y, p, y, tr.res.Slots)
				break
			}
		}
	}
	return tr, err
}

// rigid8Reach runs popsds on dst and feeds every slot's actual actions to
// popslower.Reach (traceReach). It checks, at every slot t, that every
// packet the model has at processor i is in P(i, t) (the sets bound what
// can have been seen), and returns the first slot after which every P(i, t)
// is full (0 if never), an unseen pair (h, i) just before it, the largest
// |P(i,t)|/2^t, and the first slot after which processor at holds packet pk
// (−1 for none, 0 if never).
//
// under, if set, is a planted fault: it rewrites the actions fed to Reach
// (not those the model runs), e.g. to drop some receptions, so that Reach
// under-approximates what the model can hold. After the last slot, every
// packet must be in P(its destination, final slot).
func rigid8Reach(sh mpops.Shape, dst []int32, pk, at int, under func(popsds.Phase, []mpops.Action) []mpops.Action) (full, h, i int, ratio float64, heldAt int, res popsds.Result, bad string, err error) {
	held := func(slot, q, p int) {
		if heldAt == 0 && pk >= 0 && q == at && p == pk {
			heldAt = slot - 1
		}
	}
	tr, err := traceReach(sh, dst, popsds.Options{}, under, held, nil)
	full, h, i, ratio, res, bad = tr.full, tr.h, tr.i, tr.ratio, tr.res, tr.bad
	if heldAt == 0 && pk >= 0 && err == nil && bad == "" {
		// The packet may arrive in the last slot: look at the end state
		// through the result (delivered packets sit at their destination).
		if res.Completed && int(dst[pk]) == at {
			heldAt = res.Slots
		}
	}
	return
}

// rigid8LogShapes are the shapes of the log-n claim: d = g shapes (where
// the router is rigid throughout, pops/thm-2.8/applies-to-8/rigid-part)
// carry Theorem 2.8's consequence; d > g shapes only the per-run bounds.
func rigid8LogShapes(b props.Budget) []mpops.Shape {
	out := []mpops.Shape{{D: 2, G: 2}, {D: 4, G: 4}, {D: 4, G: 2}, {D: 8, G: 4}}
	if b >= props.Default {
		out = append(out, mpops.Shape{D: 8, G: 8}, mpops.Shape{D: 32, G: 4})
	}
	if b >= props.Large {
		out = append(out, mpops.Shape{D: 16, G: 16})
	}
	return out
}

// checkRigid8Log runs Theorem 2.8's argument on popsds's actual actions
// with the bound ⌈log₂ n⌉ scaled by scale (1 for the claim, 4 for the
// planted fault).
//
// under is passed to rigid8Reach (nil for the claim).
func checkRigid8Log(scale int, under func(popsds.Phase, []mpops.Action) []mpops.Action) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		r := rand.New(rand.NewPCG(env.Seed, 0x12a9))
		var ev []string
		worst := 0.0
		for _, sh := range rigid8LogShapes(env.Budget) {
			n := sh.N()
			logn := popslower.CeilLog2(n)
			inst := map[string]any{"d": sh.D, "g": sh.G}
			dst := perm.Random(n, r)
			full, h, i, ratio, _, res, bad, err := rigid8Reach(sh, dst, -1, -1, under)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			inst["perm"] = dst
			if bad != "" || ratio > 1 || !res.Completed {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v: %s; max |P(i,t)|/2^t = %.3f; routed %v", sh, bad, ratio, res.Completed), Counterexample: inst}
			}
			worst = max(worst, ratio)
			if sh.D != sh.G {
				ev = append(ev, fmt.Sprintf("%v (not rigid, per run only): held ⊆ P(i,t), max |P|/2^t = %.3f, routed in %d slots = %.1f⌈log₂ n⌉", sh, ratio, res.Slots, float64(res.Slots)/float64(logn)))
				continue
			}
			bound := scale * logn
			if full == 0 || full < bound || res.Slots < bound {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v: every P(i,t) full after slot %d, routed in %d slots, bound %d·⌈log₂ %d⌉ = %d", sh, full, res.Slots, scale, n, bound), Counterexample: inst}
			}
			// The exhibited permutation: π(h) = i (a swap on the identity);
			// processor i must not hold p_h before slot full.
			pi := perm.Identity(n)
			pi[h], pi[i] = int32(i), int32(h)
			_, _, _, _, heldAt, res2, bad2, err := rigid8Reach(sh, pi, h, i, under)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			if bad2 != "" || !res2.Completed || heldAt < full {
				inst["perm"] = pi
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v: π(%d) = %d: %s; p_%d first at %d after slot %d, before slot %d when P(%d) first contains it", sh, h, i, bad2, h, i, heldAt, full, i), Counterexample: inst}
			}
			ev = append(ev, fmt.Sprintf("%v: max |P|/2^t = %.3f, every P(i,t) full after slot %d ≥ ⌈log₂ %d⌉ = %d (ratio %.2f); p_%d ∉ P(%d) until then and with π(%d) = %d it reaches %d after slot %d; routed in %d slots = %.1f⌈log₂ n⌉",
				sh, ratio, full, n, logn, float64(full)/float64(logn), h, i, h, i, i, heldAt, res.Slots, float64(res.Slots)/float64(logn)))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; "), Slack: props.SlackOf(worst, 1)}
	}
}

// dropListens returns a copy of acts in which nobody listens: Reach fed
// this learns nothing in the slot.
func dropListens(acts []mpops.Action) []mpops.Action {
	out := slices.Clone(acts)
	for i := range out {
		out[i].Listen = -1
	}
	return out
}

// dropRelayHop is a planted under-approximation of Reach: the receptions
// of every second sort slot (the relay → target hop of each stage's
// two-hop schedule: every sub-network's sort has 2 slots a stage) are not
// fed to it.
func dropRelayHop() func(popsds.Phase, []mpops.Action) []mpops.Action {
	k := 0
	return func(ph popsds.Phase, acts []mpops.Action) []mpops.Action {
		if ph != popsds.PhaseSort {
			return acts
		}
		k++
		if k%2 == 0 {
			return dropListens(acts)
		}
		return acts
	}
}

// detRouterSlots measures the deterministic routers on one random
// permutation per shape: the sort router with Batcher's network and with
// the AKS-family network (exact separators), popsds ([8]) and popsds with
// the AKS-family network as its Stage-1 sorter (Corollary 2.4's router). It
// returns one line per shape, the smallest slots / ⌈log₂ n⌉ over every
// router and shape, and false when a router failed to route or had a
// conflict (then the last line says which).
func detRouterSlots(env props.Env, shapes []mpops.Shape) ([]string, float64, bool) {
	minRatio := math.Inf(1)
	r := rand.New(rand.NewPCG(env.Seed, 0x12aa))
	var lines []string
	for _, sh := range shapes {
		n := sh.N()
		logn := popslower.CeilLog2(n)
		dst := perm.Random(n, r)
		var parts []string
		for _, cn := range cor24Networks[1:] { // Batcher, AKS-family
			nw, err := cn.build(n)
			if err != nil {
				return append(lines, fmt.Sprintf("%v %s: %v", sh, cn.name, err)), 0, false
			}
			router, err := popsdet.NewSortRouter(sh, nw)
			if err != nil {
				return append(lines, fmt.Sprintf("%v %s: %v", sh, cn.name, err)), 0, false
			}
			res, err := router.Route(dst)
			if err != nil || res.Delivered != n || res.Conflicts != 0 {
				return append(lines, fmt.Sprintf("%v %s: %v delivered %d/%d, %d conflicts", sh, cn.name, err, res.Delivered, n, res.Conflicts)), 0, false
			}
			minRatio = min(minRatio, float64(res.Slots)/float64(logn))
			parts = append(parts, fmt.Sprintf("sort router (%s) %d slots = %.1f", cn.name, res.Slots, float64(res.Slots)/float64(logn)))
			if cn.name != "AKS-family (exact separators)" || popsds.CheckShape(sh) != nil {
				continue
			}
			// Corollary 2.4: the AKS-family network plugged into Stage 1
			// of [8] (on the g² wires of each POPS(g,g) sub-network).
			snw := nw
			if sh.D != sh.G {
				if snw, err = cn.build(sh.G * sh.G); err != nil {
					return append(lines, fmt.Sprintf("%v %s on g² wires: %v", sh, cn.name, err)), 0, false
				}
			}
			rs, err := popsds.RouteWith(sh, dst, popsds.Options{Sorter: &snw})
			if err != nil || !rs.Completed || rs.Conflicts != 0 {
				return append(lines, fmt.Sprintf("%v [8] with the %s sorter: %v %+v", sh, cn.name, err, rs)), 0, false
			}
			minRatio = min(minRatio, float64(rs.Slots)/float64(logn))
			parts = append(parts, fmt.Sprintf("[8] with the %s sorter (Corollary 2.4) %d slots = %.1f", cn.name, rs.Slots, float64(rs.Slots)/float64(logn)))
		}
		if popsds.CheckShape(sh) == nil {
			res, err := popsds.Route(sh, dst, popsds.None)
			if err != nil || !res.Completed || res.Conflicts != 0 {
				return append(lines, fmt.Sprintf("%v [8]: %v %+v", sh, err, res)), 0, false
			}
			minRatio = min(minRatio, float64(res.Slots)/float64(logn))
			parts = append(parts, fmt.Sprintf("[8] (popsds) %d slots = %.1f", res.Slots, float64(res.Slots)/float64(logn)))
		}
		lines = append(lines, fmt.Sprintf("%v (⌈log₂ n⌉ = %d): %s ×⌈log₂ n⌉", sh, logn, strings.Join(parts, ", ")))
	}
	return lines, minRatio, true
}

func detShapes(b props.Budget) []mpops.Shape {
	out := []mpops.Shape{{D: 2, G: 2}, {D: 4, G: 4}, {D: 8, G: 8}}
	if b >= props.Default {
		out = append(out, mpops.Shape{D: 16, G: 16})
	}
	return out
}

// checkDetEvidence is the check of the claims no finite run can decide: it
// measures the deterministic conflict-free routers (detRouterSlots) and
// returns inconclusive with the reason and the measurements. A router that
// fails to route or conflicts says nothing about a paper-class conjecture
// (it is our simulation that failed): the check is then inconclusive with
// that reason, never a pass and never a violation. With logN set the
// evidence also compares every router's slots with ⌈log₂ n⌉ and says
// whether all of them use at least that many.
func checkDetEvidence(reason string, logN bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		lines, minRatio, ok := detRouterSlots(env, detShapes(env.Budget))
		if !ok {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "Inconclusive: a deterministic router the evidence rests on failed to route or conflicted, so there is no evidence: " + strings.Join(lines, "; ")}
		}
		cmp := ""
		if logN {
			if minRatio >= 1 {
				cmp = fmt.Sprintf(" Comparison: every router used at least ⌈log₂ n⌉ slots at every measured shape (smallest slots/⌈log₂ n⌉ = %.2f).", minRatio)
			} else {
				cmp = fmt.Sprintf(" Comparison: some router used fewer than ⌈log₂ n⌉ slots (smallest slots/⌈log₂ n⌉ = %.2f): no contradiction with an Ω bound, which has no constant.", minRatio)
			}
		}
		return props.Outcome{Verdict: props.Inconclusive, Evidence: reason + cmp + " Measured (one random permutation per shape, slot model, every packet delivered, no conflict on that permutation): " + strings.Join(lines, "; ")}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid",
		Check: checkRigid8(popsds.None, func(mpops.Shape) func(popsds.Phase) bool { return nil }),
		Mem:   rigidMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid-part",
		Check: checkRigid8(popsds.None, rigidPart),
		Faults: []props.Fault{
			{Name: "non-rigid in the proof's sense: a sort-phase packet with an odd destination is relayed by its source (popsds.DataRelay)", Check: checkRigid8(popsds.DataRelay, rigidPart)},
			{Name: "non-rigid under the literal reading only: a sort-phase sender whose packet is home skips its send (popsds.SkipHome)", Check: checkRigid8(popsds.SkipHome, rigidPart)},
		},
		Mem: rigidMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/log-n",
		Check: checkRigid8Log(1, nil),
		Faults: []props.Fault{
			{Name: "Reach under-approximated: the relay hop of every sort stage not fed to it", Check: func(env props.Env) props.Outcome { return checkRigid8Log(1, dropRelayHop())(env) }},
			{Name: "the lower bound raised fourfold (4⌈log₂ n⌉)", Check: checkRigid8Log(4, nil)},
		},
		Mem: rigidMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/optimal-within-rigid",
		Check: checkDetEvidence("Inconclusive: optimality is an asymptotic statement resting on the AKS constants; no finite size can decide it.", false),
		Mem:   detEvidenceMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/conj-2.13",
		Check: checkDetEvidence("Inconclusive: an existence statement about an asymptotic optimum; no finite run can establish or refute it.", false),
		Mem:   detEvidenceMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/conj-2.14",
		Check: checkDetEvidence("Inconclusive: a lower bound over all deterministic conflict-free algorithms; running some of them cannot decide it.", true),
		Mem:   detEvidenceMem,
	}))
}
