package sot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Issue 13: three sentences of 002_59e118519f43b14a.txt that had no claim.
//   - §2.2: "choosing a bad link means that the distance to the destination
//     grows by n − 1 instead of decreasing by 1" — exact, by BFS on the
//     torus as §2.1 describes it (independent of the model's Offsets).
//   - §3.1 (Greedy-b's paragraph, about Greedy-a): "As new packets are sent
//     only along the X-axis, only half of the network links are used" —
//     the run's link use counted on the step model.
//   - §3.2: "Algorithm 2 is efficient only, if the distribution of packet
//     (source, target)-pairs is roughly even" — Algorithm 2 against
//     Greedy-a on uniform and on pair-concentrated h-relations.

func init() { sotSentenceClaims() }

// sotTorusNext is an output of the torus: the position output d of (i, j)
// leads to on SOT(n). The real one is §2.1's; planted faults pass others.
type sotTorusNext func(n, i, j int, d msot.Dir) (int, int)

// sotPaperNext is §2.1: "The two outputs of deflection node R_{i,j} are
// connected to … (i+1 mod n, j) and (i, j+1 mod n)" — Down changes i,
// Right changes j (the model's convention, forced by protocol a).
func sotPaperNext(n, i, j int, d msot.Dir) (int, int) {
	if d == msot.Right {
		return i, (j + 1) % n
	}
	return (i + 1) % n, j
}

// sotSkipWrapNext is a planted fault: the right output of the last column
// wraps to column 1 instead of column 0 (a miswired torus).
func sotSkipWrapNext(n, i, j int, d msot.Dir) (int, int) {
	if d == msot.Right && j == n-1 {
		return i, 1 % n
	}
	return sotPaperNext(n, i, j, d)
}

// sotBadGrowth is the parameter of the §2.2 claim: the torus and the growth
// of the distance along a bad link the check expects (n − 1 as printed).
type sotBadGrowth struct {
	next sotTorusNext
	grow func(n int) int
}

// sotBadLinkCheck: for every SOT(n), n = 2…maxN, every processor target x
// and every node v other than x's own, BFS distances to x over the torus
// g.next give, along each output of v, a change of −1 (a good link) or of
// g.grow(n) (a bad link, "grows by n − 1"), and the model's Good agrees
// with that classification (so its deflection count is the paper's).
func sotBadLinkCheck(g sotBadGrowth) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxN := env.Budget.Pick(16, 40, 64)
		links, bad := 0, 0
		for n := 2; n <= maxN; n++ {
			s, err := msot.NewState(n, nil)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			// reverse adjacency of the torus g.next
			rev := make([][]int, n*n)
			for i := range n {
				for j := range n {
					for _, d := range []msot.Dir{msot.Right, msot.Down} {
						a, b := g.next(n, i, j, d)
						rev[a*n+b] = append(rev[a*n+b], i*n+j)
					}
				}
			}
			dist := make([]int, n*n)
			queue := make([]int, 0, n*n)
			for x := range n {
				tgt := s.ProcNode(x)
				for v := range dist {
					dist[v] = -1
				}
				dist[tgt] = 0
				queue = append(queue[:0], tgt)
				for k := 0; k < len(queue); k++ {
					for _, u := range rev[queue[k]] {
						if dist[u] < 0 {
							dist[u] = dist[queue[k]] + 1
							queue = append(queue, u)
						}
					}
				}
				for v := range dist {
					if v == tgt {
						continue
					}
					i, j := v/n, v%n
					gr, gd := s.Good(v, int32(x))
					for _, d := range []msot.Dir{msot.Right, msot.Down} {
						a, b := g.next(n, i, j, d)
						w := a*n + b
						links++
						cex := func() map[string]any {
							return map[string]any{"n": n, "target": x, "node": []int{i, j}, "output": d.String(), "dist_from": dist[v], "dist_after": dist[w]}
						}
						if dist[v] < 0 || dist[w] < 0 {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d): P%d is unreachable from (%d,%d) or from its %v output", n, x, i, j, d), Counterexample: cex()}
						}
						delta := dist[w] - dist[v]
						modelGood := (d == msot.Right && gr) || (d == msot.Down && gd)
						switch {
						case delta == -1 && modelGood:
						case delta == g.grow(n) && !modelGood:
							bad++
						default:
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d), target P%d, node (%d,%d), output %v: distance %d → %d (change %+d; expected −1 for a good link or +%d for a bad one), model says good = %v", n, x, i, j, d, dist[v], dist[w], delta, g.grow(n), modelGood), Counterexample: cex()}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("SOT(n), n = 2…%d: all %d (node, target, output) triples, node ≠ target: %d good links (distance −1) and %d bad ones (distance +(n − 1)), none else; the model's Good agrees on every one", maxN, links, links-bad, bad)}
	}
}

// sotConcentrated is the h-relation in which every processor P_i sends all
// its h packets to P_(i+1) mod n: every processor sends and receives exactly
// h packets, but the (source, target)-pairs are as uneven as an h-relation
// allows (w(i, i+1) = h).
func sotConcentrated(n, h int) []perm.Pair {
	rel := make([]perm.Pair, 0, n*h)
	for range h {
		for i := range n {
			rel = append(rel, perm.Pair{Src: int32(i), Dst: int32((i + 1) % n)})
		}
	}
	return rel
}

// sotLinkUse routes rel on SOT(n) with alg on the step model, counting
// link traversals (Events.Moves) and injections on a processor's Down
// output. ok is false (out set) when the run fails or does not complete.
func sotLinkUse(alg asot.Algorithm, n int, rel []perm.Pair, rng *rand.Rand, run string) (res asot.Result, moves, downInj int, out props.Outcome, ok bool) {
	obs := func(before *msot.State, a []msot.Action, _ *msot.State, ev *msot.Events) {
		moves += ev.Moves
		for x := range n {
			if _, inj := a[before.ProcNode(x)].Down.Packet(); inj {
				downInj++
			}
		}
	}
	res, _, err := asot.Route(alg, n, rel, rng, asot.Options{Observe: obs})
	if err != nil || !res.Complete {
		return res, moves, downInj, props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %s did not finish: %v %+v", run, alg, err, res)}, false
	}
	return res, moves, downInj, props.Outcome{}, true
}

// sotHalfLinks is the parameter of the two §3.1 claims: the router
// (greedy-a), the bound on the fraction of link-slots used (½) and which
// clause is judged (down: no injection on a Down output; otherwise the
// link use); planted faults change the router or the bound.
type sotHalfLinks struct {
	alg  asot.Algorithm
	frac float64
	down bool
}

// sotHalfLinksLargeH is the h of the concentrated relation run (at n = 8)
// as evidence that the use of sot/sec3.1/greedy-a/half-the-links tends to
// ½: h/(2(h + n − 1)) = 1024/2062 ≈ 0.497 there.
const sotHalfLinksLargeH = 1024

// sotHalfLinksCheck is the check of sot/sec3.1/greedy-a/half-the-links
// (p.down false: on every relation p.alg routes to the end, the packets
// traverse at most p.frac·2n²·T links in T steps, n²·T for the real ½) and
// of sot/sec3.1/greedy-a/no-down-injection (p.down: no processor injects on
// its Down output).
func sotHalfLinksCheck(p sotHalfLinks) func(props.Env) props.Outcome {
	alg := p.alg
	return func(env props.Env) props.Outcome {
		worst := 0.0
		var ev []string
		judge := func(n int, rel []perm.Pair, seed uint64, name string) (props.Outcome, bool) {
			res, moves, downInj, out, ok := sotLinkUse(alg, n, rel, seeds.Rand(seed), name)
			if !ok {
				return out, false
			}
			use := 0.0
			if res.Steps > 0 {
				use = float64(moves) / float64(2*n*n*res.Steps)
			}
			if p.down {
				if downInj > 0 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s under %s on SOT(%d): %d injections on a processor's Down output (T = %d)", name, alg, n, downInj, res.Steps), Counterexample: sotInstance(n, alg, seed, rel)}, false
				}
				if name != "" {
					ev = append(ev, fmt.Sprintf("%s: T = %d, no Down injection", name, res.Steps))
				}
				return props.Outcome{}, true
			}
			worst = math.Max(worst, use/p.frac)
			if use > p.frac {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s under %s: %d link traversals in T = %d steps on SOT(%d), use %.3f of the 2n²T link-slots (bound %g)", name, alg, moves, res.Steps, n, use, p.frac), Counterexample: sotInstance(n, alg, seed, rel), Slack: props.SlackOf(use, p.frac)}, false
			}
			if name != "" {
				ev = append(ev, fmt.Sprintf("%s: use %.3f (T = %d, %d deflections)", name, use, res.Steps, res.Deflections))
			}
			return props.Outcome{}, true
		}
		sizes := []int{8, 16, 32, 64}[:env.Budget.Pick(2, 3, 4)]
		for _, n := range sizes {
			lg := sotLog2(n)
			for _, h := range []int{n, n * lg} {
				seed := seeds.Derive(env.Seed, 0x4a1f, uint64(n), uint64(h))
				rel := asot.RandomRelation(n, h, seeds.Rand(seed, 1))
				if out, ok := judge(n, rel, seed, fmt.Sprintf("SOT(%d) random %d-relation", n, h)); !ok {
					return out
				}
			}
			if out, ok := judge(n, sotConcentrated(n, n*lg), seeds.Derive(env.Seed, 0x4a20, uint64(n)), fmt.Sprintf("SOT(%d) P_i → P_(i+1) × %d", n, n*lg)); !ok {
				return out
			}
		}
		if !p.down {
			// evidence that the use tends to ½: the concentrated relation at a
			// large h, judged like the others; h/(2(h + n − 1)) reported beside it
			n, h := 8, sotHalfLinksLargeH
			if out, ok := judge(n, sotConcentrated(n, h), seeds.Derive(env.Seed, 0x4a21, uint64(n)), fmt.Sprintf("SOT(%d) P_i → P_(i+1) × %d (h/(2(h + n − 1)) = %.3f)", n, h, float64(h)/float64(2*(h+n-1)))); !ok {
				return out
			}
		}
		checks := env.Budget.Pick(60, 300, 1500)
		var fail props.Outcome
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 8, 8, true)
			seed := rapid.Uint64().Draw(t, "seed")
			if out, ok := judge(n, rel, seed, ""); !ok {
				fail = out
				return out.Counterexample
			}
			return nil
		})
		if cex != nil {
			fail.Counterexample = cex
			fail.Evidence += " (shrunk by rapid: " + firstLine(rep) + ")"
			return fail
		}
		if p.down {
			return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%s under %s: no processor injected downwards; also %d random relations on SOT(n ≤ 8) (≤ 8 packets per processor, self-addressed included)", strings.Join(ev, "; "), alg, checks)}
		}
		return props.Outcome{Verdict: props.Holds, Slack: props.SlackOf(worst, 1), Evidence: fmt.Sprintf("%s under %s: every run used at most %g of the link-slots (largest use/bound = %.3f); also %d random relations on SOT(n ≤ 8) (≤ 8 packets per processor, self-addressed included)", strings.Join(ev, "; "), alg, p.frac, worst, checks)}
	}
}

// sotEvenPairs is the parameter of the §3.2 claim: the router run as
// Algorithm 2 (scheduled; a planted fault passes another) and Greedy-a,
// the reference the concentrated relation is measured against.
type sotEvenPairs struct{ alg asot.Algorithm }

// sotEvenPairsCheck: at h = n·log₂ n, with the cost c = T/h, (i) on random
// h-relations (even pairs) Algorithm 2 is efficient, c ≤ 4 (the constant
// of sot/sec4.3/whp-n-plus-ch); (ii) on the concentrated h-relation
// (P_i → P_(i+1), all h) it is not, c ≥ n/2, growing with n; (iii) the
// concentrated relation is itself easy: Greedy-a routes it with c ≤ 2.
func sotEvenPairsCheck(p sotEvenPairs) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := []int{8, 16, 32, 64}[:env.Budget.Pick(2, 3, 4)]
		runs := env.Budget.Pick(2, 3, 4)
		worst := 0.0
		var ev []string
		for _, n := range sizes {
			h := n * sotLog2(n)
			uni, uniRatio := 0.0, 0.0
			for r := range runs {
				seed := seeds.Derive(env.Seed, 0xe7e4, uint64(n), uint64(r))
				rel := asot.RandomRelation(n, h, seeds.Rand(seed, 1))
				res, _, err := asot.Route(p.alg, n, rel, seeds.Rand(seed, 2), asot.Options{})
				if err != nil || !res.Complete {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("SOT(%d) random relation %d: %s did not finish: %v %+v", n, r, p.alg, err, res)}
				}
				c := float64(res.Steps) / float64(h)
				uni = math.Max(uni, c)
				if c > 4 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d), random %d-relation %d: %s (as Algorithm 2): cost T/h = %.2f > 4 on even pairs", n, h, r, p.alg, c), Counterexample: sotInstance(n, p.alg, seed, rel)}
				}
				// reported only: Greedy-a on the same relation
				if ra, _, err := asot.Route(asot.GreedyA, n, rel, nil, asot.Options{}); err == nil && ra.Complete {
					uniRatio = math.Max(uniRatio, float64(res.Steps)/float64(ra.Steps))
				}
			}
			rel := sotConcentrated(n, h)
			seed := seeds.Derive(env.Seed, 0xe7e5, uint64(n))
			costOf := func(alg asot.Algorithm) (float64, error) {
				res, _, err := asot.Route(alg, n, rel, seeds.Rand(seed), asot.Options{})
				if err == nil && !res.Complete {
					err = fmt.Errorf("incomplete %+v", res)
				}
				return float64(res.Steps) / float64(h), err
			}
			cs, err := costOf(p.alg)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("SOT(%d) concentrated: %s (as Algorithm 2): %v", n, p.alg, err)}
			}
			ca, err := costOf(asot.GreedyA)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("SOT(%d) concentrated: greedy-a (reference): %v", n, err)}
			}
			worst = math.Max(worst, math.Max(uni/4, math.Max(float64(n)/2/cs, ca/2)))
			// reported only: the other greedy routers on the concentrated relation
			var others []string
			for _, g := range []asot.Algorithm{asot.GreedyBEdgeFirst, asot.GreedyB, asot.GreedyC} {
				if c, err := costOf(g); err == nil {
					others = append(others, fmt.Sprintf("%s %.2f", g, c))
				}
			}
			ev = append(ev, fmt.Sprintf("SOT(%d), h = %d: even pairs %s (as Algorithm 2) cost ≤ %.2f (≤ %.2f× the reference greedy-a's); concentrated %s (as Algorithm 2) %.2f, greedy-a (reference) %.2f (ratio %.1f; %s)", n, h, p.alg, uni, uniRatio, p.alg, cs, ca, cs/ca, strings.Join(others, ", ")))
			if cs < float64(n)/2 || ca > 2 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d), P_i → P_(i+1) × %d: %s (as Algorithm 2): cost %.2f (claim: ≥ n/2 = %g); greedy-a (reference): cost %.2f (claim: ≤ 2); %s", n, h, p.alg, cs, float64(n)/2, ca, strings.Join(ev, "; ")), Counterexample: sotInstance(n, p.alg, seed, rel), Slack: props.SlackOf(worst, 1)}
			}
		}
		return props.Outcome{Verdict: props.Holds, Slack: props.SlackOf(worst, 1), Evidence: strings.Join(ev, "; ") + fmt.Sprintf(" (%d random relations per size)", runs)}
	}
}

func sotSentenceClaims() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "sot/sec2.2/bad-link-grows-n-minus-1",
			Check: sotBadLinkCheck(sotBadGrowth{sotPaperNext, func(n int) int { return n - 1 }}),
			Faults: []props.Fault{
				{Name: "the printed n − 1 shifted to n − 2", Check: sotBadLinkCheck(sotBadGrowth{sotPaperNext, func(n int) int { return n - 2 }})},
				{Name: "a torus whose last column's right output wraps to column 1", Check: sotBadLinkCheck(sotBadGrowth{sotSkipWrapNext, func(n int) int { return n - 1 }})},
			}}),
		ledger.Text(props.Claim{ID: "sot/sec3.1/greedy-a/half-the-links",
			Check: sotHalfLinksCheck(sotHalfLinks{alg: asot.GreedyA, frac: 0.5}),
			Faults: []props.Fault{
				{Name: "the bound ½ scaled by ¾", Check: sotHalfLinksCheck(sotHalfLinks{alg: asot.GreedyA, frac: 0.375})},
			}}),
		ledger.Text(props.Claim{ID: "sot/sec3.1/greedy-a/no-down-injection",
			Check: sotHalfLinksCheck(sotHalfLinks{alg: asot.GreedyA, down: true}),
			Faults: []props.Fault{
				{Name: "greedy-b (new packets on both arcs) in place of greedy-a", Check: sotHalfLinksCheck(sotHalfLinks{alg: asot.GreedyB, down: true})},
			}}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec3.2/scheduled-needs-even-pairs"}), sotEvenPairsCheck, sotEvenPairs{asot.Scheduled}, sotEvenPairs{asot.GreedyA}, "Algorithm 2 without its schedule (greedy-a)"),
	)
}
