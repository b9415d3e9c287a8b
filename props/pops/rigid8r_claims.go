package pops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"routecheck/algos/popsds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popslower"
	"routecheck/props"
)

// Issue 12 (continued): a rigid, repaired completion of [8] as its own
// algorithm ("pops-ds-rigid", popsds.Options{Rigid: true}; algos/popsds
// rigid.go): the d/g sub-network sorts unchanged, then the remaining stages
// of Batcher's odd-even merge sort on all n wires and one fixed permutation
// to the destinations, each routed by Theorem 2.1's schedule with every
// round stepped. Claims: it is rigid, it routes, its cost against §IV's
// lump, and Theorem 2.8's consequence on it.

var rigidOpts = popsds.Options{Rigid: true}

// checkRigid8r is checkRigid8 (rigid8_claims.go) for any options: the
// pattern on the identity against every permutation at n ≤ 8 (lexicographic
// order, so the first difference is the smallest counterexample; POPS(4,2)
// exhaustive at large only) and random ones beyond, every slot.
func checkRigid8r(o popsds.Options) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		differ := func(sh mpops.Shape, id, p []int32, ref, sc []popsds.SlotSchedule, tried int) *props.Outcome {
			d, ok := popsds.FirstDiff(ref, sc, nil)
			if !ok {
				return nil
			}
			return &props.Outcome{Verdict: props.Violated,
				Evidence: fmt.Sprintf("%v: the identity and π = %v have different communication patterns: %v (proof-relevant: %v); %d permutations compared", sh, p, d, d.Kind.ProofRelevant(), tried),
				Counterexample: map[string]any{"d": sh.D, "g": sh.G, "rigid": o.Rigid, "permA": id, "permB": append([]int32(nil), p...), "kind": d.Kind.String(),
					"slot": d.Slot, "phase": d.Phase.String(), "processor": d.Proc}}
		}
		line := func(sh mpops.Shape, how string, slots int) string {
			return fmt.Sprintf("%v: %s permutations, all %d slots the same as the identity's", sh, how, slots)
		}
		return rigidCompare(env, 0x12b8, o, differ, line)
	}
}

// rigid8rRoutesShapes is rigid8Shapes plus d/g = 3 (not a power of two,
// so the n wires are not a power of two either): POPS(6,2) at every budget,
// POPS(24,8) at default and large.
func rigid8rRoutesShapes(b props.Budget) []rigid8Shape {
	out := append(rigid8Shapes(b), rigid8Shape{mpops.Shape{D: 6, G: 2}, b.Pick(10, 20, 100)})
	if k := b.Pick(0, 2, 10); k > 0 {
		out = append(out, rigid8Shape{mpops.Shape{D: 24, G: 8}, k})
	}
	return out
}

// checkRigid8rRoutes runs the variant (with o's planted fault) on the
// identity, the reversal and random permutations of rigid8rRoutesShapes
// (every permutation of POPS(2,2)) and asks for every packet delivered, no
// conflict, no missed reception, and the closed slot count RigidSlots.
func checkRigid8rRoutes(o popsds.Options) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		r := rand.New(rand.NewPCG(env.Seed, 0x12b9))
		var ev []string
		for _, s := range rigid8rRoutesShapes(env.Budget) {
			sh, n := s.sh, s.sh.N()
			want, comp, err := popsds.RigidSlots(sh)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			rev := make([]int32, n)
			for x := range rev {
				rev[x] = int32(n - 1 - x)
			}
			perms := [][]int32{perm.Identity(n), rev}
			if n <= 4 {
				p := perm.Identity(n)
				for nextPerm(p) {
					perms = append(perms, append([]int32(nil), p...))
				}
			}
			for range s.random {
				perms = append(perms, perm.Random(n, r))
			}
			for _, p := range perms {
				res, err := popsds.RouteWith(sh, p, o)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %v: %v", sh, p, err)}
				}
				if !res.Completed || res.Conflicts != 0 || res.Misheard != 0 || res.Slots != want {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v π = %v: %+v; want every packet delivered, no conflict or missed reception, %d slots", sh, p, res, want),
						Counterexample: map[string]any{"d": sh.D, "g": sh.G, "perm": p}}
				}
			}
			ev = append(ev, fmt.Sprintf("%v: %d permutations routed in %d slots (%d after the sorts)", sh, len(perms), want, comp))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// rigid8rCostShapes: g = 2 … 16 and d/g = 1 … 16 (n ≤ 4096), the same at
// every budget (the slot count is closed: RigidSlots, compiled from the
// shape alone; pops/thm-2.8/applies-to-8/rigid-repaired/routes ties it to
// runs).
func rigid8rCostShapes() []mpops.Shape {
	var out []mpops.Shape
	for _, g := range []int{2, 4, 8, 16} {
		for _, k := range []int{1, 2, 3, 4, 8, 16} {
			if g*g*k <= 4096 {
				out = append(out, mpops.Shape{D: k * g, G: g})
			}
		}
	}
	return out
}

// lump8 is §IV's post-sort cost of [8], 21d/g + 3 log g + 7, scaled by
// num/den (1/1 for the claim).
func lump8(sh mpops.Shape, num, den int) float64 {
	return float64(num) * (21*float64(sh.D/sh.G) + 3*math.Log2(float64(sh.G)) + 7) / float64(den)
}

func checkRigid8rCost(num, den int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ok, bad []string
		worst := 0.0
		var first map[string]any
		for _, sh := range rigid8rCostShapes() {
			_, comp, err := popsds.RigidSlots(sh)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			lump := lump8(sh, num, den)
			ratio := float64(comp) / lump
			worst = max(worst, ratio)
			line := fmt.Sprintf("%v: %d vs %.1f (%.2f)", sh, comp, lump, ratio)
			if float64(comp) > lump {
				bad = append(bad, line)
				if first == nil {
					first = map[string]any{"d": sh.D, "g": sh.G, "completionSlots": comp, "lump": lump}
				}
			} else {
				ok = append(ok, line)
			}
		}
		ev := fmt.Sprintf("completion slots (merge + delivery) vs %d/%d·(21d/g + 3 log g + 7): within at %s", num, den, strings.Join(ok, "; "))
		if len(bad) > 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: ev + "; ABOVE at " + strings.Join(bad, "; "), Counterexample: first, Slack: props.SlackOf(worst, 1)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(worst, 1)}
	}
}

// rigid8rRun is one run of Theorem 2.8's argument on permutation A: the
// sets P(i, t) that popslower.Reach computes from the run's actual actions,
// kept for every t (snap[t] holds P(·, t), words bits a processor).
type rigid8rRun struct {
	reachTrace
	snap  [][]uint64
	words int
}

func (a *rigid8rRun) has(t, q, p int) bool { return a.snap[t][q*a.words+p/64]>>(p%64)&1 == 1 }

// rigid8rReach runs router o on dst, feeds its actual actions to
// popslower.Reach (through under, when set: the planted under-fed Reach),
// keeps every P(·, t), and checks on this same run that before every slot
// every packet the model has at processor q is in P(q, t−1) and after the
// last slot every packet is in P(its destination).
func rigid8rReach(sh mpops.Shape, dst []int32, o popsds.Options, under func(popsds.Phase, []mpops.Action) []mpops.Action) (run rigid8rRun, err error) {
	n := sh.N()
	run.words = (n + 63) / 64
	snapshot := func(rc *popslower.Reach) {
		s := make([]uint64, n*run.words)
		for q := range n {
			for p := range n {
				if rc.Has(q, p) {
					s[q*run.words+p/64] |= 1 << (p % 64)
				}
			}
		}
		run.snap = append(run.snap, s)
	}
	run.reachTrace, err = traceReach(sh, dst, o, under, nil, snapshot)
	return run, err
}

// rigid8rWithin runs router o on another permutation dst (B) and checks the
// input-independence the proof of Theorem 2.8 uses: before every slot t+1
// every packet the model has at processor q lies in a's P(q, t), computed
// on the run on A, and after the last slot every packet lies in a's P(its
// destination, T); the run must also take a's T slots. It also computes
// P_B(q, t) from B's own actions and asks P_B(q, t) ⊆ P_A(q, t) (for a
// rigid router the two are equal): what q can have seen on B, not only
// what it holds. It returns the first
// slot after which processor at holds packet pk (pk < 0: not asked).
func rigid8rWithin(sh mpops.Shape, dst []int32, o popsds.Options, a *rigid8rRun, pk, at int) (heldAt int, res popsds.Result, bad string, err error) {
	n := sh.N()
	last := len(a.snap) - 1
	rc := popslower.NewReach(n)
	var obsErr error
	o.Observe = func(slot int, _ popsds.Phase, st mpops.State, acts []mpops.Action) {
		if bad != "" || obsErr != nil {
			return
		}
		t := slot - 1
		if t > last {
			bad = fmt.Sprintf("slot %d is beyond the %d slots of the run on A", slot, last)
			return
		}
		for q := range n {
			for _, it := range st.Buf[q] {
				if !a.has(t, q, int(it.Packet)) {
					bad = fmt.Sprintf("before slot %d processor %d holds packet %d, outside P_A(%d, %d) of the run on A", slot, q, it.Packet, q, t)
					return
				}
				if heldAt == 0 && pk >= 0 && q == at && int(it.Packet) == pk {
					heldAt = t
				}
			}
		}
		if obsErr = rc.Slot(sh, acts); obsErr != nil || slot > last {
			return
		}
		for q := range n {
			for p := range n {
				if inB, inA := rc.Has(q, p), a.has(slot, q, p); inB != inA {
					bad = fmt.Sprintf("after slot %d packet %d is in P_B(%d, %d) = %v, computed from the run on B, but in P_A(%d, %d) = %v", slot, p, q, slot, inB, q, slot, inA)
					return
				}
			}
		}
	}
	res, err = popsds.RouteWith(sh, dst, o)
	if err == nil {
		err = obsErr
	}
	if err != nil || bad != "" {
		return
	}
	if !res.Completed {
		bad = fmt.Sprintf("not routed: %+v", res)
		return
	}
	if res.Slots != last {
		bad = fmt.Sprintf("routed in %d slots, the run on A in %d", res.Slots, last)
		return
	}
	for p, y := range dst {
		if !a.has(last, int(y), p) {
			bad = fmt.Sprintf("after the final slot %d processor %d holds packet %d, outside P_A(%d, %d)", last, y, p, y, last)
			return
		}
	}
	if heldAt == 0 && pk >= 0 && int(dst[pk]) == at {
		heldAt = res.Slots
	}
	return
}

// rigid8rLogOthers is how many permutations B each shape compares with A:
// one-swap neighbours of A and unrelated random ones, besides π with
// π(h) = i. With 3 + 2 at small the faithful completion was not caught
// (30 + 30 catch it at POPS(4,2)); the runs are short at small shapes.
func rigid8rLogOthers(b props.Budget) (swaps, random int) {
	return b.Pick(30, 20, 60), b.Pick(30, 20, 60)
}

// checkRigid8rLog runs Theorem 2.8's argument on router o: P(i,t) from its
// actual actions on a random permutation A (|P(i,t)| ≤ 2^t; every packet A's
// run holds at i is in P_A(i,t); every P full only after ⌈log₂ n⌉ slots,
// scaled by scale for the planted fault), then the input-independence the
// proof uses: on other permutations B (one swap away from A, random, and
// the identity with h and i swapped, for the unseen pair (h, i) just before
// the fill slot) everything processor i holds after slot t lies in
// P_A(i,t), so p_h is not at i before the fill slot, and the sets P_B
// computed from B's own actions equal P_A (P_B ⊆ P_A is the step the proof
// uses for the pair (A, B); ⊇ is the same step for the pair (B, A)).
func checkRigid8rLog(o popsds.Options, scale int, under func() func(popsds.Phase, []mpops.Action) []mpops.Action) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		r := rand.New(rand.NewPCG(env.Seed, 0x12ba))
		var ev []string
		worst := 0.0
		var feed func(popsds.Phase, []mpops.Action) []mpops.Action
		for _, sh := range rigid8LogShapes(env.Budget) {
			n := sh.N()
			logn := popslower.CeilLog2(n)
			inst := map[string]any{"d": sh.D, "g": sh.G, "rigid": o.Rigid}
			dst := perm.Random(n, r)
			inst["permA"] = dst
			if under != nil {
				feed = under()
			}
			a, err := rigid8rReach(sh, dst, o, feed)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			if a.bad != "" || a.ratio > 1 || !a.res.Completed {
				if a.bad == "" && !a.res.Completed {
					a.bad = fmt.Sprintf("not routed: %+v", a.res)
				}
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v A = %v: %s; max |P(i,t)|/2^t = %.3f", sh, dst, a.bad, a.ratio), Counterexample: inst}
			}
			worst = max(worst, a.ratio)
			bound := scale * logn
			if a.full == 0 || a.full < bound || a.res.Slots < bound {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v: every P(i,t) full after slot %d, routed in %d slots, bound %d·⌈log₂ %d⌉ = %d", sh, a.full, a.res.Slots, scale, n, bound), Counterexample: inst}
			}
			var others [][]int32
			swaps, random := rigid8rLogOthers(env.Budget)
			for range swaps {
				b := append([]int32(nil), dst...)
				x, y := r.IntN(n), r.IntN(n-1)
				if y >= x {
					y++
				}
				b[x], b[y] = b[y], b[x]
				others = append(others, b)
			}
			for range random {
				others = append(others, perm.Random(n, r))
			}
			for _, b := range others {
				if _, _, bad, err := rigid8rWithin(sh, b, o, &a, -1, -1); err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v B = %v: %v", sh, b, err)}
				} else if bad != "" {
					inst["permB"] = b
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v A = %v, B = %v: %s", sh, dst, b, bad), Counterexample: inst}
				}
			}
			pi := perm.Identity(n)
			pi[a.h], pi[a.i] = int32(a.i), int32(a.h)
			heldAt, _, bad, err := rigid8rWithin(sh, pi, o, &a, a.h, a.i)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v: %v", sh, err)}
			}
			if bad != "" || heldAt < a.full {
				inst["permB"] = pi
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v A = %v, B = π with π(%d) = %d: %s; p_%d first at %d after slot %d, P_A(%d) first contains it after slot %d", sh, dst, a.h, a.i, bad, a.h, a.i, heldAt, a.i, a.full), Counterexample: inst}
			}
			ev = append(ev, fmt.Sprintf("%v: max |P|/2^t = %.3f, every P(i,t) full after slot %d ≥ ⌈log₂ %d⌉ = %d (ratio %.2f); %d other permutations B (%d one swap from A) hold only inside P_A and have P_B = P_A at every slot; with π(%d) = %d, p_%d reaches %d after slot %d; routed in %d slots = %.1f⌈log₂ n⌉",
				sh, a.ratio, a.full, n, logn, float64(a.full)/float64(logn), len(others)+1, swaps, a.h, a.i, a.h, a.i, heldAt, a.res.Slots, float64(a.res.Slots)/float64(logn)))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; "), Slack: props.SlackOf(worst, 1)}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid-repaired/rigid",
		Check: checkRigid8r(rigidOpts),
		Faults: []props.Fault{
			{Name: "the faithful completion (popsds without Rigid)", Check: checkRigid8r(popsds.Options{})},
			{Name: "a merge-stage packet with an odd destination relayed by its source (popsds.MergeDataRelay)", Check: checkRigid8r(popsds.Options{Rigid: true, Mutant: popsds.MergeDataRelay})},
		},
		Mem: rigidMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid-repaired/routes",
		Check: checkRigid8rRoutes(rigidOpts),
		Faults: []props.Fault{
			{Name: "the last merge stage's comparators keep their own packets (popsds.MergeKeepOwn)", Check: checkRigid8rRoutes(popsds.Options{Rigid: true, Mutant: popsds.MergeKeepOwn})},
			{Name: "one sort comparator flipped (popsds.FlipComparator, Rigid)", Check: checkRigid8rRoutes(popsds.Options{Rigid: true, Mutant: popsds.FlipComparator})},
		},
		Mem: rigidMem,
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid-repaired/cost",
		Check: checkRigid8rCost(1, 1),
		Mem:   props.MemEstimate{Small: 32 << 20, Default: 32 << 20, Large: 32 << 20},
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.8/applies-to-8/rigid-repaired/log-n",
		Check: checkRigid8rLog(rigidOpts, 1, nil),
		Faults: []props.Fault{
			{Name: "the faithful completion (popsds without Rigid)", Check: checkRigid8rLog(popsds.Options{}, 1, nil)},
			{Name: "a merge-stage packet with an odd destination relayed by its source (popsds.MergeDataRelay)", Check: checkRigid8rLog(popsds.Options{Rigid: true, Mutant: popsds.MergeDataRelay}, 1, nil)},
			{Name: "Reach under-approximated: the relay hop of every sort stage not fed to it", Check: checkRigid8rLog(rigidOpts, 1, dropRelayHop)},
			{Name: "the lower bound raised fourfold (4⌈log₂ n⌉)", Check: checkRigid8rLog(rigidOpts, 4, nil)},
		},
		Mem: rigidMem,
	}))
}
