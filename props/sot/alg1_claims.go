package sot

import (
	"fmt"
	"math/big"
	"slices"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/oracles/sotforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Issue 13, step 1: "Greedy-a never sends down" as an invariant, Lemma 2 as
// its own claim, and the literal reading's livelock on a random 4-relation
// on SOT(5) (noticed in the previous session) with its shrunk instance.

// sotDownProblem returns a description of the first Down move in the
// actions a for state s that Greedy-a's text forbids — a processor
// injecting an own packet downwards, or any packet leaving downwards
// outside its target column — or "".
func sotDownProblem(s *msot.State, a []msot.Action) string {
	n := s.N
	for v, act := range a {
		i, j := v/n, v%n
		var f msot.Flight
		switch x := act.Down; x {
		case msot.None:
			continue
		case msot.FromLeft:
			f = s.InH[v]
		case msot.FromUp:
			f = s.InV[v]
		default:
			id, _ := x.Packet()
			return fmt.Sprintf("step %d: processor P%d sends its own packet %d (→ P%d) downwards", s.T, s.Proc(v), id, s.Rel[id].Dst)
		}
		if m := n - 1 - int(s.Rel[f.ID].Dst); m != j {
			return fmt.Sprintf("step %d: packet %d (→ P%d, target column %d) leaves (%d,%d) downwards", s.T, f.ID, s.Rel[f.ID].Dst, m, i, j)
		}
	}
	return ""
}

// sotSendDownOnce returns a fresh planted fault for one run: a Greedy-a
// that sends down once — the first time a processor injects onto its Right
// output while its Down output is free, the packet goes down instead (a
// legal action of the model).
func sotSendDownOnce() sotTamper {
	done := false
	return func(s *msot.State, a []msot.Action) {
		if done {
			return
		}
		for x := range s.N {
			v := s.ProcNode(x)
			if _, inj := a[v].Right.Packet(); inj && a[v].Down == msot.None {
				a[v].Right, a[v].Down = msot.None, a[v].Right
				done = true
				return
			}
		}
	}
}

// sotNeverDownCheck is sot/alg/<alg>/never-sends-down's check; with
// plant, every run uses a fresh sotSendDownOnce; self says whether the
// rapid relations may hold self-addressed packets (a processor's column is
// its own packets' target column, so the text allows those to go down).
func sotNeverDownCheck(alg asot.Algorithm, plant, self bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		run := func(n int, rel []perm.Pair, maxSteps int) string {
			var tamper sotTamper
			if plant {
				tamper = sotSendDownOnce()
			}
			problem := ""
			obs := func(before *msot.State, a []msot.Action, _ *msot.State, _ *msot.Events) {
				if problem == "" {
					problem = sotDownProblem(before, a)
				}
			}
			if _, _, err := asot.Route(alg, n, rel, nil, asot.Options{MaxSteps: maxSteps, Observe: obs, Tamper: tamper}); err != nil && problem == "" {
				problem = err.Error()
			}
			return problem
		}
		checks := env.Budget.Pick(150, 800, 4000)
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 6, 5, self)
			if p := run(n, rel, 8*n+4*len(rel)); p != "" {
				return map[string]any{"instance": sotInstance(n, alg, 0, rel), "problem": p}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "a downward move Greedy-a's text forbids (shrunk by rapid): " + firstLine(rep), Counterexample: cex}
		}
		big := 0
		for _, n := range []int{16, 32} {
			for r := range env.Budget.Pick(1, 2, 4) {
				rel := asot.RandomRelation(n, n, seeds.Rand(env.Seed, 0xd0e, uint64(n), uint64(r)))
				if p := run(n, rel, 0); p != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d), random %d-relation %d: %s", n, n, r, p), Counterexample: map[string]any{"n": n, "h": n, "run": r, "problem": p}}
				}
				big++
			}
		}
		selfNote := "self-addressed included"
		if !self {
			selfNote = "no self-addressed packets"
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random small relations (n ≤ 6, ≤ 5 packets per processor, %s) and %d random n-relations (n = 16, 32) routed to the end: no processor ever sent an own packet down, and every downward move was in the packet's target column", checks, selfNote, big)}
	}
}

// sotCatalanPaths returns, for j = 0…K, the number of lattice paths with
// unit steps right and up from the diagonal point (0, 0) to (j+1, j+1) that
// stay strictly below the diagonal in between — the proof's C_j, the paths
// from (k, k) to (k−j−1, k−j−1) on one side that meet no diagonal point
// between — by dynamic programming over the grid (independent of the
// binomial formula and of the generating function). Cost O(K²) big-int
// additions.
func sotCatalanPaths(K int) []*big.Int {
	// ways[x][y]: paths from (1, 0) to (x, y) with x > y throughout.
	m := K + 2
	ways := make([][]*big.Int, m)
	for x := range ways {
		ways[x] = make([]*big.Int, m)
		for y := range ways[x] {
			ways[x][y] = new(big.Int)
		}
	}
	ways[1][0].SetInt64(1)
	for x := 1; x < m; x++ {
		for y := 0; y < x; y++ {
			if x == 1 && y == 0 {
				continue
			}
			if x-1 > y {
				ways[x][y].Add(ways[x][y], ways[x-1][y])
			}
			if y > 0 {
				ways[x][y].Add(ways[x][y], ways[x][y-1])
			}
		}
	}
	out := make([]*big.Int, K+1)
	for j := range out {
		out[j] = new(big.Int).Set(ways[j+1][j]) // then one step up onto (j+1, j+1)
	}
	return out
}

// sotCatalanGF returns the coefficients C_0…C_K of (1 − √(1 − a·z))/(2z)
// as a power series (a = 4 in Lemma 2), from the generic square-root
// series (sotforms.SqrtSeries): [z^i] = −s_{i+1}/2.
func sotCatalanGF(K int, a int64) []*big.Rat {
	s := sotforms.SqrtSeries(K+1, big.NewRat(a, 1))
	out := make([]*big.Rat, K+1)
	for i := range out {
		out[i] = new(big.Rat).Mul(s[i+1], big.NewRat(-1, 2))
	}
	return out
}

// sotLemma2Check is sot/lemma-2/catalan-gf's check with the constant a
// under the root (4) and the series read with its index shifted by shift
// (0): C_j is compared with [z^(j+shift)]. Its planted faults pass a = 3
// and shift = 1.
func sotLemma2Check(a int64, shift int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		K := env.Budget.Pick(60, 120, 240)
		paths := sotCatalanPaths(K)
		binom := sotforms.Catalan(K)
		gf := sotCatalanGF(K+shift, a)
		for j := 0; j <= K; j++ {
			if paths[j].Cmp(binom[j]) != 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("j = %d: %s paths, binom(2j, j)/(j+1) = %s", j, paths[j], binom[j])}
			}
			if c := gf[j+shift]; new(big.Rat).SetInt(paths[j]).Cmp(c) != 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("j = %d: the proof's C_j counts %s paths, but [z^%d] of (1 − √(1 − %dz))/(2z) is %s", j, paths[j], j+shift, a, c.RatString()),
					Counterexample: map[string]any{"j": j, "paths": paths[j].String(), "coefficient": c.RatString()}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("for j = 0…%d the first-return path counts (dynamic programming), binom(2j, j)/(j + 1) and the coefficients of (1 − √(1 − 4z))/(2z) (power-series square root) agree exactly; C_%d has %d digits", K, K, len(paths[K].String()))}
	}
}

// sotLiteralLivelockCheck is sot/alg-1/greedy-a-literal/random-4-relation's
// check: random 4-relations on SOT(5) under greedy-a-literal, each routed
// for algos/sot.DefaultMaxSteps; the first that does not finish is shrunk
// by deleting packets while the rest still does not finish, and reported
// with the packet that circles a column not its target's.
func sotLiteralLivelockCheck(env props.Env) props.Outcome {
	const n, h = 5, 4
	tries := env.Budget.Pick(10, 20, 50)
	stuck := func(rel []perm.Pair) (bool, asot.Result) {
		res, _, err := asot.Route(asot.GreedyALiteral, n, rel, nil, asot.Options{})
		return err == nil && !res.Complete, res
	}
	failed := 0
	first := -1
	var firstRel []perm.Pair
	var firstRes asot.Result
	for r := range tries {
		rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0x11e, uint64(r)))
		if s, res := stuck(rel); s {
			failed++
			if first < 0 {
				first, firstRel, firstRes = r, rel, res
			}
		}
	}
	if first < 0 {
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("all %d random 4-relations on SOT(5) finished within DefaultMaxSteps", tries)}
	}
	shrunk := slices.Clone(firstRel)
	for k := 0; k < len(shrunk); {
		cand := slices.Delete(slices.Clone(shrunk), k, k+1)
		if s, _ := stuck(cand); s {
			shrunk = cand
			continue
		}
		k++
	}
	// The witness: a packet on a vertical link outside its target column
	// at the end of the capped run of the shrunk relation.
	_, final, _ := asot.Route(asot.GreedyALiteral, n, shrunk, nil, asot.Options{})
	w := sotTrapped(&final)
	witness := "none found"
	if w >= 0 {
		witness = fmt.Sprintf("packet %d (P%d → P%d) on a vertical link outside its target column", w, shrunk[w].Src, shrunk[w].Dst)
	}
	return props.Outcome{Verdict: props.Violated,
		Evidence: fmt.Sprintf("%d of %d random 4-relations on SOT(5) do not finish within DefaultMaxSteps = %d; the first (relation %d: %d of %d delivered after %d steps) shrinks, deleting packets while the run still does not finish, to %d packets %v; %s",
			failed, tries, asot.DefaultMaxSteps(n, n*h), first, firstRes.Delivered, n*h, firstRes.Steps, len(shrunk), shrunk, witness),
		Counterexample: map[string]any{"instance": sotInstance(n, asot.GreedyALiteral, 0, shrunk), "original_relation_index": first, "original": sotInstance(n, asot.GreedyALiteral, 0, firstRel), "trapped_packet": w}}
}

func init() { sotAlg1Claims() }

func sotAlg1Claims() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "sot/alg/greedy-a/never-sends-down",
			Check:  sotNeverDownCheck(asot.GreedyA, false, true),
			Faults: []props.Fault{{Name: "a Greedy-a that sends down once (the first injection with a free Down output goes down)", Check: sotNeverDownCheck(asot.GreedyA, true, true)}}}),
		ledger.Text(props.Claim{ID: "sot/alg/greedy-a-literal/never-sends-down",
			Check: sotNeverDownCheck(asot.GreedyALiteral, false, false)}),
		ledger.Text(props.Claim{ID: "sot/lemma-2/catalan-gf",
			Check: sotLemma2Check(4, 0),
			Faults: []props.Fault{
				{Name: "the 4 under the root printed as 3", Check: sotLemma2Check(3, 0)},
				{Name: "the series read one index late (C_j against [z^(j+1)])", Check: sotLemma2Check(4, 1)},
			}}),
		ledger.Text(props.Claim{ID: "sot/alg-1/greedy-a-literal/random-4-relation",
			Check: sotLiteralLivelockCheck}),
	)
}
