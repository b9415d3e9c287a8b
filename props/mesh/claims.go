package mesh

import (
	"fmt"
	"slices"

	amesh "routecheck/algos/mesh"
	mmesh "routecheck/models/mesh"
	"routecheck/oracles/mesh1d"
	"routecheck/props"

	"pgregory.net/rapid"
)

const seed003 = "003_8774480fe7c747cc.txt"

// LinearInstance is a packet distribution on a linear array, as a
// counterexample.
type LinearInstance struct {
	N   int     `json:"n"`
	Src []int32 `json:"src"`
	Dst []int32 `json:"dst"`
}

// GenLinear draws a distribution on at most maxN PUs with at most maxP
// packets (arbitrary sources and destinations: rightward, leftward and
// standing packets mixed).
func GenLinear(t *rapid.T, maxN, maxP int) LinearInstance {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	p := rapid.IntRange(0, maxP).Draw(t, "packets")
	in := LinearInstance{N: n, Src: make([]int32, p), Dst: make([]int32, p)}
	for k := range p {
		in.Src[k] = int32(rapid.IntRange(0, n-1).Draw(t, "src"))
		in.Dst[k] = int32(rapid.IntRange(0, n-1).Draw(t, "dst"))
	}
	return in
}

// LinearFamily names a family of 1-D distributions.
type LinearFamily string

// The families GenLinearMixed draws from: arbitrary packets, and
// adversarial shapes that load one link, one PU or one end.
const (
	LinUniform     LinearFamily = "uniform"      // sources and destinations arbitrary
	LinOneSource   LinearFamily = "one-source"   // every packet starts at one PU
	LinFarEnd      LinearFamily = "far-end"      // every packet goes to PU n−1 (or 0)
	LinEndToEnd    LinearFamily = "end-to-end"   // every packet goes 0 → n−1 (or back)
	LinDensePrefix LinearFamily = "dense-prefix" // sources < m, destinations ≥ j ≥ m: all cross [m−1, j]
	LinReverse     LinearFamily = "reverse"      // PU i sends c packets to n−1−i
	LinKK          LinearFamily = "k-k"          // every PU sends and receives c packets
	LinStaircase   LinearFamily = "staircase"    // PU i sends i+1 packets to one far PU
)

// LinearFamilies lists them.
var LinearFamilies = []LinearFamily{LinUniform, LinOneSource, LinFarEnd, LinEndToEnd, LinDensePrefix, LinReverse, LinKK, LinStaircase}

// GenLinearMixed draws a family, then a distribution of it on at most maxN
// PUs with at most maxP packets. Parameters are drawn by rapid, so failures
// shrink within the family (towards fewer PUs and packets).
func GenLinearMixed(t *rapid.T, maxN, maxP int) (LinearFamily, LinearInstance) {
	f := rapid.SampledFrom(LinearFamilies).Draw(t, "family")
	if f == LinUniform {
		return f, GenLinear(t, maxN, maxP)
	}
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	in := LinearInstance{N: n}
	add := func(s, d int) {
		if len(in.Src) < maxP {
			in.Src, in.Dst = append(in.Src, int32(s)), append(in.Dst, int32(d))
		}
	}
	pu := func(label string) int { return rapid.IntRange(0, n-1).Draw(t, label) }
	count := func(hi int) int { return rapid.IntRange(0, max(0, hi)).Draw(t, "packets") }
	mirror := rapid.Bool().Draw(t, "mirror") // leftward version
	switch f {
	case LinOneSource:
		s := pu("source")
		for range count(maxP) {
			add(s, pu("dst"))
		}
	case LinFarEnd:
		for range count(maxP) {
			add(pu("src"), n-1)
		}
	case LinEndToEnd:
		for range count(maxP) {
			add(0, n-1)
		}
	case LinDensePrefix:
		m := rapid.IntRange(1, n).Draw(t, "m")
		j := rapid.IntRange(m-1, n-1).Draw(t, "j")
		for range count(maxP) {
			add(rapid.IntRange(0, m-1).Draw(t, "src"), rapid.IntRange(j, n-1).Draw(t, "dst"))
		}
	case LinReverse:
		c := rapid.IntRange(0, max(0, maxP/n)).Draw(t, "c")
		for i := range n {
			for range c {
				add(i, n-1-i)
			}
		}
	case LinKK:
		c := rapid.IntRange(0, max(0, maxP/n)).Draw(t, "c")
		perm := rapid.Permutation(slices.Repeat(seqN(n), c)).Draw(t, "destinations")
		for q, d := range perm {
			add(q/max(c, 1), d)
		}
	case LinStaircase:
		d := pu("target")
		for i := range n {
			for range i + 1 {
				add(i, d)
			}
		}
	}
	if mirror {
		for q := range in.Src {
			in.Src[q], in.Dst[q] = int32(n-1)-in.Src[q], int32(n-1)-in.Dst[q]
		}
	}
	return f, in
}

func seqN(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// linearSteps is farthest-first routing of in on the step model
// (mesh.RunLinear), or nearest-first when nearest is set (the planted fault
// of the farthest-first claims).
func linearSteps(in LinearInstance, nearest bool) (amesh.Result, error) {
	s, err := mmesh.NewLinear(in.N, in.Src, in.Dst)
	if err != nil {
		return amesh.Result{}, err
	}
	if nearest {
		return runNearestFirst(s, 4*in.N+2*len(in.Src)+4)
	}
	return amesh.RunLinear(s, 4*in.N+2*len(in.Src)+4)
}

// faultNearestFirst is the planted fault of the farthest-first claims.
const faultNearestFirst = "nearest-first in place of farthest-first on the step model (the packet with the nearest destination crosses a link first)"

// runNearestFirst is mesh.RunLinear with the priority reversed: PU i sends
// right the packet with the smallest destination > i and left the one with
// the largest destination < i (ties: earliest in the queue).
func runNearestFirst(s mmesh.Linear, maxSteps int) (amesh.Result, error) {
	var r amesh.Result
	for _, q := range s.Queues {
		r.MaxQueue = max(r.MaxQueue, len(q))
	}
	var acts []mmesh.Send
	for s.Pending() > 0 {
		if r.Steps >= maxSteps {
			return r, fmt.Errorf("nearest-first: %d packets still pending after %d steps", s.Pending(), maxSteps)
		}
		acts = acts[:0]
		right, left := false, false
		for i, q := range s.Queues {
			a := mmesh.Idle
			var bestR, bestL int32 = -1, -1
			for k, p := range q {
				if p.Dst > int32(i) && (bestR < 0 || p.Dst < bestR) {
					bestR, a.Right = p.Dst, int32(k)
				}
				if p.Dst < int32(i) && (bestL < 0 || p.Dst > bestL) {
					bestL, a.Left = p.Dst, int32(k)
				}
			}
			right, left = right || a.Right >= 0, left || a.Left >= 0
			acts = append(acts, a)
		}
		next, ev, err := mmesh.StepLinear(s, acts)
		if err != nil {
			return r, err
		}
		r.Steps++
		if right {
			r.StepsRight = r.Steps
		}
		if left {
			r.StepsLeft = r.Steps
		}
		r.Moves += ev.Moves
		r.MaxQueue = max(r.MaxQueue, ev.MaxQueue)
		s = next
	}
	return r, nil
}

// mirrored is in reflected (PU i ↔ n−1−i): leftward becomes rightward.
func mirrored(in LinearInstance) LinearInstance {
	m := LinearInstance{N: in.N, Src: make([]int32, len(in.Src)), Dst: make([]int32, len(in.Dst))}
	for q := range in.Src {
		m.Src[q], m.Dst[q] = int32(in.N-1)-in.Src[q], int32(in.N-1)-in.Dst[q]
	}
	return m
}

// linearFalsify runs body under rapid on distributions from GenLinearMixed
// (n ≤ 32, up to 120 packets) with the step model's farthest-first (or,
// for the planted fault, nearest-first) result; it returns the number of
// cases, how many came from each family, and Falsify's answer. A model
// error is a counterexample of its own.
func linearFalsify(env props.Env, nearest bool, body func(f LinearFamily, in LinearInstance, r amesh.Result) any) (checks int, seen map[LinearFamily]int, cex any, rep string) {
	checks = env.Budget.Pick(300, 3000, 30000)
	seen = map[LinearFamily]int{}
	cex, rep = props.Falsify(env, checks, func(t *rapid.T) any {
		f, in := GenLinearMixed(t, 32, 120)
		seen[f]++
		r, err := linearSteps(in, nearest)
		if err != nil {
			return map[string]any{"family": f, "instance": in, "error": err.Error()}
		}
		return body(f, in, r)
	})
	return checks, seen, cex, rep
}

const linearScope = "linear arrays of n ≤ 32 PUs with up to 120 packets, farthest-first on the step model (ties: earliest in queue); distributions drawn from props/mesh.LinearFamilies: arbitrary sources and destinations, and the adversarial families one-source, far-end, end-to-end, dense-prefix (every packet crosses one stretch), reverse, k-k and staircase, each also mirrored"

func init() {
	const src = seed003 + " Lemma 4"
	lemma4 := func(id, statement string, recorded props.Verdict, notes string, bothWays bool, formula func(n int, s, d []int32) int) {
		c := withFault(props.Claim{ID: id, Source: src, Kind: props.Exact, Recorded: recorded, Statement: statement,
			Scope: linearScope,
			Notes: notes,
		}, faultNearestFirst, func(env props.Env, nearest bool) props.Outcome {
			checks, seen, cex, rep := linearFalsify(env, nearest, func(f LinearFamily, in LinearInstance, got amesh.Result) any {
				if want := formula(in.N, in.Src, in.Dst); got.StepsRight != want {
					return map[string]any{"family": f, "instance": in, "steps_right": got.StepsRight, "formula": want}
				}
				if m := mirrored(in); bothWays {
					if want := formula(m.N, m.Src, m.Dst); got.StepsLeft != want {
						return map[string]any{"family": f, "instance": in, "steps_left": got.StepsLeft, "mirrored_formula": want}
					}
				}
				return nil
			})
			if cex != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("formula differs from the routing time (shrunk by rapid): %s", rep), Counterexample: cex}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("equal on %d distributions (rapid); by family %v", checks, seen)}
		})
		if recorded != props.Holds {
			c.Faults = nil // a violated claim needs no power
		}
		props.Register(c)
	}
	lemma4("mesh/lemma-4/printed",
		"T_r(D) = max_{i<j} (j − i − 1 + h_r(i, j)), h_r(i, j) = packets from PUs with index smaller than i to PUs with index ≥ j.",
		props.Violated,
		"As printed the formula is off: with no packets at all it gives n − 2, one packet 0 → 1 on two PUs (1 step) gives 0, and one packet 0 → 2 on three PUs (2 steps) gives 1. Two corrections make it exact (mesh/lemma-4/corrected): count the packets from PUs with index at most i, and take the maximum only over pairs with h(i, j) > 0 (0 if none). The paper then uses only the simplified form 'the maximum number of packets that have to cross any connection', which is unaffected.",
		false, mesh1d.Lemma4Printed)
	lemma4("mesh/lemma-4/corrected",
		"T_r(D) = max over i < j with h(i, j) > 0 of (j − i − 1 + h(i, j)), h(i, j) = packets from PUs with index ≤ i to PUs with index ≥ j; farthest-first attains it (and its leftward twin, the same formula on the mirrored array, gives T_l).",
		props.Holds,
		"routecheck's correction of the printed Lemma 4 (see mesh/lemma-4/printed). The adversarial families attain the formula at different pairs: dense-prefix and end-to-end at the stretch every packet crosses (j − i − 1 + all packets), one-source at the source's outgoing link, staircase at a growing h near the target.",
		true, mesh1d.Lemma4)
	props.Register(withFault(ledger.Text(props.Claim{ID: "mesh/sec-2/farthest-first-naive"}), faultNearestFirst, func(env props.Env, nearest bool) props.Outcome {
		checks, seen, cex, rep := linearFalsify(env, nearest, func(f LinearFamily, in LinearInstance, m amesh.Result) any {
			fast, err := amesh.Fast1D(in.N, in.Src, in.Dst)
			if err != nil {
				return map[string]any{"family": f, "instance": in, "error": err.Error()}
			}
			nv := mesh1d.Naive(in.N, in.Src, in.Dst)
			if m != fast || m.StepsRight != nv.StepsRight || m.StepsLeft != nv.StepsLeft || m.MaxQueue != nv.MaxQueue {
				return map[string]any{"family": f, "instance": in, "model": m, "fast": fast, "naive": nv}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("the implementations disagree (shrunk by rapid): %s", rep), Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("identical times and queues on %d distributions (rapid); by family %v", checks, seen)}
	}))
}
