package sot

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/oracles/sotforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Claims of Honkanen, Leppänen & Penttonen, "Hot-Potato Routing Algorithms
// for Sparse Optical Torus" (002_59e118519f43b14a.txt).
//
// Readings fixed before checking (they are repeated in each claim's notes):
//   - Directions: "right" is (i, j) → (i, j+1), "down" is (i, j) →
//     (i+1, j); "came from up" means arrived over the Down link of
//     (i−1, j). Forced by protocol a's target-column test "(m, j)".
//   - Greedy-a: the pseudo-code (Algorithm 1 adds 2 − |S| packets, protocol
//     a's last line sends the second one down) contradicts the text ("this
//     rule prohibits a processor from sending a packet downwards").
//     greedy-a-literal is the pseudo-code, greedy-a the text (a processor
//     injects at most one packet, on its Right output, when it is free).
//   - Greedy-b: the text privileges edge packets, the pseudo-code draws the
//     packet that chooses first at random. greedy-b is the pseudo-code,
//     greedy-b-edge-first the text.
//   - Fresh packets: targets uniform over the other processors (§3.3
//     "processors send randomly addressed packets to each other"); a fresh
//     wave is the packets injected at one step of the first n steps.
//   - Statistical claims: false-alarm rate Alpha = 1e-9 per claim,
//     Bonferroni-split over the sizes checked; normal approximation for
//     means of at least 400 independent samples (waves) or 30 runs.

// sotStudentNote is sotAlphaNote for checks that use Student-t critical
// values (few runs).
var sotStudentNote = "False-alarm rate ≤ Alpha = 1e-9 per claim (Bonferroni over tests), Student-t critical values with runs − 1 degrees of freedom (assuming normal run means; Welch comparisons use the conservative runs − 1 df); fixed seeds, so the verdict is deterministic."

var sotAlphaNote = "False-alarm rate ≤ Alpha = 1e-9 per claim (Bonferroni over sizes), normal approximation; fixed seeds, so the verdict is deterministic."

// sotOneSided folds one test of "the statistic z is positive" into the
// running verdict v (start from consistent): z < −crit, significantly
// negative, makes it inconsistent; z ≤ crit, not significantly positive,
// makes a consistent verdict inconclusive; otherwise v is kept.
func sotOneSided(v props.Verdict, z, crit float64) props.Verdict {
	switch {
	case z < -crit:
		return props.Inconsistent
	case z <= crit && v == props.Consistent:
		return props.Inconclusive
	}
	return v
}

func sotLog2(n int) int { return bits.Len(uint(n)) - 1 }

// sotFreshSizes are (n, runs) for the fresh-packet claims: about 800+
// independent waves per size.
func sotFreshSizes(b props.Budget, withN64 bool) [][2]int {
	s := [][2]int{{8, 100}, {16, 50}, {32, 25}}
	if withN64 {
		s = append(s, [2]int{64, 15})
	}
	if b >= props.Default {
		if !withN64 {
			s = append(s, [2]int{64, 15})
		}
		s = append(s, [2]int{128, 8})
	}
	if b == props.Large {
		for i := range s {
			s[i][1] *= 4
		}
	}
	return s
}

// sotFreshStat is the mean and standard error of the per-wave throughput
// (successes / n) of alg over runs runs of FreshWaves on SOT(n).
type sotFreshStat struct {
	n, waves int
	mean, se float64
}

// sotFreshPlain computes sotFresh's statistic on the stream of tag (no
// cache): runs runs of FreshWaves of alg on SOT(n).
func sotFreshPlain(env props.Env, tag uint64, alg asot.Algorithm, n, runs int) (sotFreshStat, error) {
	var xs []float64
	for r := range runs {
		w, err := asot.FreshWaves(alg, n, seeds.Rand(env.Seed, 0x50f, tag, uint64(n), uint64(r)))
		if err != nil {
			return sotFreshStat{}, err
		}
		for _, c := range w {
			xs = append(xs, float64(c)/float64(n))
		}
	}
	s := stats.Summarize(xs)
	return sotFreshStat{n: n, waves: len(xs), mean: s.Mean, se: s.SD / math.Sqrt(float64(len(xs)))}, nil
}

// sotFreshBandCheck is a statistical check that alg's fresh throughput is
// within ±tol (relative) of want(n) at every size: inconsistent when the
// confidence interval of the mean misses the band at some size. With tol =
// 0 the band is the point want(n) (an exact expectation).
func sotFreshBandCheck(tag uint64, alg asot.Algorithm, withN64 bool, tol float64, want func(n int) float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := sotFreshSizes(env.Budget, withN64)
		z := stats.Z(props.Alpha / float64(len(sizes)))
		var ev []string
		var bad []string
		for _, sz := range sizes {
			st, err := sotFresh(env, tag, alg, sz[0], sz[1])
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			v := want(sz[0])
			lo, hi := st.mean-z*st.se, st.mean+z*st.se
			blo, bhi := v*(1-tol), v*(1+tol)
			line := fmt.Sprintf("n=%d: %.4f ± %.4f (%d waves) vs %.4f", sz[0], st.mean, z*st.se, st.waves, v)
			ev = append(ev, line)
			if hi < blo || lo > bhi {
				bad = append(bad, line)
			}
		}
		band := "the expectation"
		if tol > 0 {
			band = fmt.Sprintf("±%.0f%% of the value", 100*tol)
		}
		if len(bad) > 0 {
			return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("interval at z = %.2f misses %s at %s. All sizes: %s", z, band, strings.Join(bad, "; "), strings.Join(ev, "; ")), Counterexample: map[string]any{"algorithm": alg, "sizes": bad}}

		}
		return props.Outcome{Verdict: props.Consistent, Evidence: fmt.Sprintf("every interval (z = %.2f) meets %s: %s", z, band, strings.Join(ev, "; "))}
	}
}

// sotFreshBandFaults are the planted faults of sotFreshBandCheck, one rule
// for every claim it checks, fixed before running: the value compared
// against shifted by the claim's tolerance plus 5 % of the value (×1.05 for
// an exact expectation, ×1.15 for a ±10 % band), so the alternative lies
// 5 % of the value outside what the claim accepts; since 2026-11-25 both
// ways (×0.95, ×0.85 too) in one Group, both of which must be caught.
func sotFreshBandFaults(tag uint64, alg asot.Algorithm, withN64 bool, tol float64, want func(n int) float64) []props.Fault {
	var out []props.Fault
	for _, f := range []float64{1 + tol + 0.05, 1 - tol - 0.05} {
		out = append(out, props.Fault{Name: fmt.Sprintf("the value shifted by the tolerance + 5%% (×%.2f)", f),
			Check: sotFreshBandCheck(tag, alg, withN64, tol, func(n int) float64 { return f * want(n) }),
			Group: "the value shifted by the tolerance + 5% (both directions, since 2026-11-25)"})
	}
	return out
}

func init() {
	sotLemma1()
	sotAlgorithm1()
	sotFreshClaims()
	sotTheorem3()
	sotAlgorithm2()
}

// ---------------------------------------------------------------------------
// Lemma 1 and the remark after it

// sotDistanceCheck is sot/lemma-1/distance-n's check against the distance
// dist(n) (n; a planted fault passes another).
func sotDistanceCheck(dist func(int) int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxBFS := env.Budget.Pick(40, 96, 160)
		for n := 2; n <= maxBFS; n++ {
			D := sotforms.ProcDistances(n)
			for i := range n {
				for j := range n {
					if i != j && D[i][j] != dist(n) {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("SOT(%d): BFS distance P%d → P%d is %d", n, i, j, D[i][j]), Counterexample: map[string]int{"n": n, "i": i, "j": j, "distance": D[i][j]}}

					}
				}
			}
		}
		maxModel := env.Budget.Pick(8, 12, 16)
		runs := 0
		for n := 2; n <= maxModel; n++ {
			for _, alg := range asot.Algorithms {
				for i := range n {
					for j := range n {
						rel := []perm.Pair{{Src: int32(i), Dst: int32(j)}}
						seed := seeds.Derive(env.Seed, 0x1e1, uint64(n), uint64(i), uint64(j))
						rep := SotCheckedRun(alg, n, rel, seeds.Rand(seed), 2*n, false)
						runs++
						if rep.Problem != "" || !rep.Result.Complete || rep.Result.MaxLatency != dist(n) || rep.Result.Deflections != 0 {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s on SOT(%d): lone packet P%d → P%d: %+v %s", alg, n, i, j, rep.Result, rep.Problem), Counterexample: sotInstance(n, alg, seed, rel)}

						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("BFS: every pair i ≠ j at distance n for n = 2…%d; model: %d lone-packet runs (n = 2…%d, %d algorithms, all pairs) arrived after exactly n hops, undeflected", maxBFS, runs, maxModel, len(asot.Algorithms))}
	}
}

// sotClassesCheck is sot/lemma-1/remark/classes-mod-n's check on every
// algorithm, actions rewritten by tamper (nil: the real routers).
func sotClassesCheck(tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(150, 1000, 5000)
		if out, found := sotShrunk(env, checks, "", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 6, 5, true)
			alg := rapid.SampledFrom(asot.Algorithms).Draw(t, "algorithm")
			seed := rapid.Uint64().Draw(t, "seed")
			r := sotCheckedRun(alg, n, rel, seeds.Rand(seed), 8*n+4*len(rel), true, tamper)
			if r.Problem != "" {
				return map[string]any{"instance": sotInstance(n, alg, seed, rel), "problem": r.Problem}
			}
			for _, d := range r.Deflections {
				if d.By >= 0 && (d.Born-d.ByBorn)%n != 0 {
					return map[string]any{"instance": sotInstance(n, alg, seed, rel), "deflection": d}
				}
			}
			return nil
		}); found {
			return out
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random runs: anti-diagonal invariant after every step, every deflecting pair in one class mod n", checks)}
	}
}

func sotLemma1() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "sot/lemma-1/distance-n",
			Check:  sotDistanceCheck(func(n int) int { return n }),
			Faults: []props.Fault{{Name: "the distance printed as n + 1", Check: sotDistanceCheck(func(n int) int { return n + 1 })}}}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/lemma-1/remark/classes-mod-n"}), sotClassesCheck, nil, sotKeepFromUp, "a node with two packets keeps the one from up for a step (store and forward)"),
		ledger.Text(props.Claim{ID: "sot/lemma-1/remark/literal",
			Check: sotWitnessCheck([3]int{300, 1000, 5000}, "a packet is deflected by one injected at another step", "cross-step deflection", func(t *rapid.T) any {
				n, rel := GenSotRelation(t, 5, 5, false)
				r := SotCheckedRun(asot.GreedyA, n, rel, nil, 8*n+4*len(rel), true)
				for _, d := range r.Deflections {
					if d.By >= 0 && d.Born != d.ByBorn {
						return map[string]any{"instance": sotInstance(n, asot.GreedyA, 0, rel), "deflection": d}
					}
				}
				return nil
			})}),
	)
}

// sotShrunk runs body on checks random instances (props.Falsify). When it
// finds a counterexample, found is true and out is Violated with the shrunk
// counterexample; its evidence is rapid's report, or, when what is not
// empty, what + " (shrunk by rapid): " and the report's first line.
func sotShrunk(env props.Env, checks int, what string, body func(t *rapid.T) any) (out props.Outcome, found bool) {
	cex, rep := props.Falsify(env, checks, body)
	if cex == nil {
		return props.Outcome{}, false
	}
	if what != "" {
		rep = what + " (shrunk by rapid): " + firstLine(rep)
	}
	return props.Outcome{Verdict: props.Violated, Evidence: rep, Counterexample: cex}, true
}

// sotWitnessCheck is the check of a claim on a literal reading that a
// witness refutes: rapid searches checks (small, default, large budget)
// random instances with body (a witness or nil). Violated, with the shrunk
// witness, is reported as found; holds as "no <none> in <checks> runs".
func sotWitnessCheck(checks [3]int, found, none string, body func(t *rapid.T) any) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		k := env.Budget.Pick(checks[0], checks[1], checks[2])
		if out, bad := sotShrunk(env, k, found, body); bad {
			return out
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("no %s in %d runs", none, k)}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ---------------------------------------------------------------------------
// Algorithm 1: invariants on every run, completion, the literal Greedy-a

// sotTrapped returns a packet travelling down a column that is not its
// target's, or −1. Under protocol a a packet that came from up always goes
// down (its first rule, at processors too) and is absorbed only at its
// target, which lies in its target column: such a packet is never delivered.
func sotTrapped(s *msot.State) int32 {
	n := s.N
	for v, f := range s.InV {
		if f.ID >= 0 && v%n != n-1-int(s.Rel[f.ID].Dst) {
			return f.ID
		}
	}
	return -1
}

// sotInvariantsCheck runs alg (its actions rewritten by tamper; nil: the
// real router) on random small relations with every check of
// SotCheckedRun.
func sotInvariantsCheck(alg asot.Algorithm, tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(100, 800, 4000)
		if out, found := sotShrunk(env, checks, "", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 6, 5, true)
			seed := rapid.Uint64().Draw(t, "seed")
			r := sotCheckedRun(alg, n, rel, seeds.Rand(seed), 8*n+4*len(rel), false, tamper)
			if r.Problem != "" {
				return map[string]any{"instance": sotInstance(n, alg, seed, rel), "problem": r.Problem}
			}
			return nil
		}); found {
			return out
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random runs, every step legal, invariants after every step, deliveries checked", checks)}
	}
}

// sotCompletesCheck routes random small relations with alg (actions
// rewritten by tamper; nil: the real router) and requires every packet to
// be delivered within algos/sot.DefaultMaxSteps; Slack is the largest
// steps / DefaultMaxSteps seen.
func sotCompletesCheck(alg asot.Algorithm, tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(150, 1000, 5000)
		worst, slack := 0.0, 0.0
		if out, found := sotShrunk(env, checks, "", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 6, 6, true)
			seed := rapid.Uint64().Draw(t, "seed")
			res, _, err := asot.Route(alg, n, rel, seeds.Rand(seed), asot.Options{Tamper: tamper})
			if err != nil || !res.Complete {
				return map[string]any{"instance": sotInstance(n, alg, seed, rel), "result": res, "error": fmt.Sprint(err)}
			}
			if len(rel) > 0 {
				worst = math.Max(worst, float64(res.Steps)/float64(n*(len(rel)/n+1)))
				slack = math.Max(slack, float64(res.Steps)/float64(asot.DefaultMaxSteps(n, len(rel))))
			}
			return nil
		}); found {
			return out
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random relations all delivered; worst steps / (n·(K/n + 1)) = %.2f, worst steps / DefaultMaxSteps = %.3f", checks, worst, slack), Slack: props.SlackOf(slack, 1)}
	}
}

// sotInvariantsPowerNote is the power note of sot/alg/<alg>/invariants.
func sotInvariantsPowerNote(alg asot.Algorithm) string {
	note := "[2026-11-23] Planted faults, fixed before running and shared by the seven routers (rewrites of the router's actions before each step, props/sot.sotKeepFromUp and sotResendInFlight): a node with two packets keeps the one from up for a step (store and forward), and processors that resend an own packet still in flight (a duplicate); both are caught through the model's legality check."
	if alg == asot.Scheduled {
		note += " The second fault was added after the first was not caught for scheduled: under Algorithm 2 no node ever holds two packets (each step's packets form the shift i → i + t and move in lockstep on disjoint paths), so the first fault changes nothing there — a fault badly designed for this router, not a gap of the check."
	}
	return note
}

// sotCompletesPowerNote is the power note of sot/alg/<alg>/completes.
func sotCompletesPowerNote(alg asot.Algorithm) string {
	note := "[2026-11-23] Planted faults, fixed before running and shared by the five routers (props/sot.sotNoTurnToP0 and sotShutP0, legal deflections that livelock): packets for P_0 are never turned into P_0's column, and the two nodes in front of P_0 deflect every packet for P_0 away from it."
	if alg == asot.GreedyA {
		note += " [2026-11-25, review] Both faults block P_0 outright and are caught on the first one-packet instance; a fresh reviewer asked for a near miss, and the pseudo-code's Greedy-a (greedy-a-literal, which livelocks only under contention) is now a third fault: caught at n = 2 with two packets for one target. (A second reviewer: it is the next-coarsest fault rather than a near miss — rapid finds it on its first instance — and its livelock was known from sot/alg-1/greedy-a-literal/random-4-relation.)"
	}
	switch alg {
	case asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC:
		note += " The second fault was added after the first was not caught for this router: protocols b and c also bring a packet to P_0 along row 0 (a packet in its target row may go right), which the first fault does not block — a fault badly designed for these protocols."
	}
	return note
}

// sotFault is a planted fault of sotAlgFamilies: its name in the ledger
// and the tamper that plants it.
type sotFault struct {
	name   string
	tamper sotTamper
}

// sotAlgFamilies are the claims made of every router in a list: one claim
// sot/alg/<alg>/<suffix> per router, with the scope's %s the router's name,
// the notes followed by the family's power note for that router, and its
// planted faults in order (shared by the routers; check(alg, nil) is the
// real check).
var sotAlgFamilies = []struct {
	suffix, source   string
	kind             props.Kind
	algs             []asot.Algorithm
	statement, scope string
	notes            string
	powerNote        func(asot.Algorithm) string
	check            func(asot.Algorithm, sotTamper) func(props.Env) props.Outcome
	faults           []sotFault // planted faults (written before running)
}{
	{suffix: "invariants", source: seed002 + " §2.1–2.2, §3.1 Algorithm 1, §3.2 Algorithm 2", kind: props.Invariant, algs: asot.Algorithms,
		statement: "Every run is legal hot-potato routing on SOT(n) — each packet entering a node leaves it the next step, one packet per link, processors inject only own packets and only when fewer than two packets arrive — no packet is lost or duplicated, and every delivered packet is absorbed by its own target after n·(1 + deflections) hops.",
		scope:     "%s on SOT(n), n ≤ 6, arbitrary relations of up to 5 packets per processor (self-addressed included), 8n + 4K steps, model invariants after every step; rapid",
		notes:     "Legality is enforced by models/sot.Step (an illegal action is an error, i.e. a router bug); conservation by CheckInvariants; the delivery checks are made on the event stream independently of the model's bookkeeping (props/sot.SotCheckedRun). Completion is a separate claim. ",
		powerNote: sotInvariantsPowerNote, check: sotInvariantsCheck,
		faults: []sotFault{
			{"a node with two packets keeps the one from up for a step (store and forward)", sotKeepFromUp},
			{"processors resend an own packet still in flight (a duplicate)", sotResendInFlight},
		}},
	{suffix: "completes", source: seed002 + " §3.1–3.2 (the algorithms route every packet)", kind: props.Bound, algs: sotCompleting,
		statement: "The algorithm delivers every packet.",
		scope:     "%s on SOT(n), n ≤ 6, arbitrary relations of up to 6 packets per processor (self-addressed included); delivered within algos/sot.DefaultMaxSteps = 64·n·(K/n + 2) steps; rapid",
		notes:     "The paper proves no termination bound; the cap is generous (the worst run seen is reported, and Slack is the largest steps / DefaultMaxSteps: about 0.02–0.03 at the small budget, so the claim is read as completion and the cap only ends livelocks). For greedy-a every deflection is caused by a packet going down the target column, which is delivered, so each packet is deflected at most (packets for its target − 1) times. [2026-11-24] The hook-free algos/sot.Route runs the fast engine, which does not run the step model's legality checks (models/sot.Step); legality is covered by the invariants claims (sot/alg/<alg>/invariants) and by the fast-vs-model tests (algos/sot TestFastMatchesModel, TestRouteMatchesRun; props/sot TestSotChecksSameOnStepModel). ",
		powerNote: sotCompletesPowerNote, check: sotCompletesCheck,
		faults: []sotFault{
			{"packets for P_0 are never turned into P_0's column (they circle their row)", sotNoTurnToP0},
			{"the two nodes in front of P_0 deflect every packet for P_0 away from it", sotShutP0},
		}},
}

// sotLiteralFault is the third fault of Greedy-a's completion claims
// ([2026-11-25, review]): the pseudo-code as printed (greedy-a-literal:
// processors add 2 − |S| packets), which livelocks only under contention,
// routed by the same check in Greedy-a's place.
func sotLiteralFault(check func(asot.Algorithm, sotTamper) func(props.Env) props.Outcome) props.Fault {
	return props.Fault{Name: "the pseudo-code's Greedy-a in its place (greedy-a-literal: processors add 2 − |S| packets; livelocks only under contention)", Check: check(asot.GreedyALiteral, nil)}
}

func sotAlgorithm1() {
	for _, f := range sotAlgFamilies {
		for _, alg := range f.algs {
			var faults []props.Fault
			for _, pf := range f.faults {
				faults = append(faults, props.Fault{Name: pf.name, Check: f.check(alg, pf.tamper)})
			}
			if f.suffix == "completes" && alg == asot.GreedyA {
				faults = append(faults, sotLiteralFault(f.check))
			}
			props.Register(props.Claim{ID: fmt.Sprintf("sot/alg/%s/%s", alg, f.suffix), Source: f.source, Kind: f.kind, Recorded: props.Holds,
				Statement: f.statement,
				Scope:     fmt.Sprintf(f.scope, alg),
				Notes:     f.notes + f.powerNote(alg),
				Check:     f.check(alg, nil),
				Faults:    faults})
		}
	}

	props.Register(ledger.Text(props.Claim{ID: "sot/alg-1/greedy-a-literal/delivers",
		Check: sotWitnessCheck([3]int{200, 1000, 5000}, "a packet sent down by a processor circles a column that is not its target's", "trapped packet", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 4, 3, true)
			var witness int32 = -1
			var at int
			obs := func(_ *msot.State, _ []msot.Action, after *msot.State, _ *msot.Events) {
				if witness < 0 {
					if w := sotTrapped(after); w >= 0 {
						witness, at = w, after.T
					}
				}
			}
			res, final, err := asot.Route(asot.GreedyALiteral, n, rel, nil, asot.Options{MaxSteps: 6*n + 4*len(rel), Observe: obs})
			if err != nil {
				return map[string]any{"instance": sotInstance(n, asot.GreedyALiteral, 0, rel), "error": err.Error()}
			}
			if witness >= 0 && !final.IsDelivered(witness) {
				return map[string]any{"instance": sotInstance(n, asot.GreedyALiteral, 0, rel), "trapped_packet": witness,
					"trapped_at_step": at, "steps_run": res.Steps, "delivered": res.Delivered, "packets": len(rel)}
			}
			return nil
		})}))
}

// ---------------------------------------------------------------------------
// Fresh packets: §3.3 Figure 3 and §4.2

// sotDecreasingCheck is sot/sec3.3/greedy-c/decreasing's check; with
// grow > 0 (its planted fault) each size's mean is replaced by the first
// size's times (1 + grow)^k, k its place in the sequence (standard errors
// kept): an algorithm whose efficiency rises by grow per doubling of n, an
// effect size fixed on 2026-11-25. (Until then the fault took the sizes in
// reverse order, which negates every statistic, so it was caught exactly
// when the check said consistent and carried no power.)
func sotDecreasingCheck(grow float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := sotFreshSizes(env.Budget, true)
		var st []sotFreshStat
		for _, sz := range sizes {
			s, err := sotFresh(env, 5, asot.GreedyC, sz[0], sz[1])
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			st = append(st, s)
		}
		if grow > 0 {
			for k := range st {
				st[k].mean = st[0].mean * math.Pow(1+grow, float64(k))
			}
		}
		z := stats.Z(props.Alpha / float64(len(st)-1))
		var ev []string
		verdict := props.Consistent
		for k := 1; k < len(st); k++ {
			a, b := st[k-1], st[k]
			d := (a.mean - b.mean) / math.Hypot(a.se, b.se)
			ev = append(ev, fmt.Sprintf("n=%d→%d: %.4f→%.4f (z = %.1f)", a.n, b.n, a.mean, b.mean, d))
			verdict = sotOneSided(verdict, d, z)
		}
		return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("threshold z = %.2f: %s", z, strings.Join(ev, "; "))}
	}
}

// sotCostCheck is sot/sec4.2/greedy-a/cost-e-over-e-minus-1's check
// against the value want (e/(e − 1); its planted fault passes it shifted).
func sotCostCheck(want float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		type size struct{ n, runs int }
		sizes := []size{{8, 30}}
		switch env.Budget {
		case props.Default:
			sizes = append(sizes, size{16, 30}, size{32, 20})
		case props.Large:
			sizes = []size{{8, 30}, {16, 30}, {32, 30}}
		}
		ratios := []int{4, 16, 64, 256}
		lo, hi := 0.9*want, 1.1*want
		alpha := props.Alpha / float64(2*len(sizes))
		var ev []string
		allIn, bad := true, ""
		for _, sz := range sizes {
			n := sz.n
			tc := stats.T(alpha, sz.runs-1)
			var sums []stats.Summary
			var pts []string
			enter := 0
			for _, m := range ratios {
				// The runs are simulated once for the claim and its fault
				// (greedyACosts).
				c := greedyACosts(env, n, m, sz.runs)
				if c.failed {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d h=%d run %d: %v %+v", n, m*n, c.run, c.err, c.res)}
				}
				st := stats.Summarize(c.xs)
				half := tc * st.SD / math.Sqrt(float64(sz.runs))
				if enter == 0 && st.Mean-half >= lo && st.Mean+half <= hi {
					enter = m
				}
				sums = append(sums, st)
				pts = append(pts, fmt.Sprintf("h/n=%d: %.4f ± %.4f", m, st.Mean, half))
			}
			last := sums[len(sums)-1]
			half := tc * last.SD / math.Sqrt(float64(sz.runs))
			z := stats.WelchZ(last, sums[0])
			in := last.Mean-half >= lo && last.Mean+half <= hi
			enterS := "never"
			if enter > 0 {
				enterS = fmt.Sprintf("h/n = %d", enter)
			}
			ev = append(ev, fmt.Sprintf("n=%d (%d runs, t critical %.1f): %s; decrease 4→256 z = %.1f; interval inside the band from %s", n, sz.runs, tc, strings.Join(pts, ", "), z, enterS))
			switch {
			case last.Mean+half < lo || last.Mean-half > hi:
				bad = fmt.Sprintf("n=%d: at h/n = 256 the interval %.4f ± %.4f lies outside [%.4f, %.4f]", n, last.Mean, half, lo, hi)
			case z > tc:
				bad = fmt.Sprintf("n=%d: the cost rises significantly with h/n (z = %.1f)", n, z)
			}
			if !in || z > -tc {
				allIn = false
			}
		}
		summary := fmt.Sprintf("value %.4f (e/(e−1) = 1.5820), band ±10%% = [%.4f, %.4f], α = %.2g per test: %s", want, lo, hi, alpha, strings.Join(ev, "; "))
		switch {
		case bad != "":
			return props.Outcome{Verdict: props.Inconsistent, Evidence: bad + ". " + summary}
		case allIn:
			return props.Outcome{Verdict: props.Consistent, Evidence: summary}
		}
		return props.Outcome{Verdict: props.Inconclusive, Evidence: summary}
	}
}

// sotWinnersCheck is sot/sec4.2/greedy-a/one-winner-per-target's check on
// greedy-a with its actions rewritten by tamper (nil: the real router).
func sotWinnersCheck(tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxN := env.Budget.Pick(6, 7, 8)
		vectors := 0
		for n := 2; n <= maxN; n++ {
			d := make([]int, n)
			for i := range d {
				d[i] = sotOther(i, 0)
			}
			for {
				vectors++
				rel := make([]perm.Pair, n)
				for i := range d {
					rel[i] = perm.Pair{Src: int32(i), Dst: int32(d[i])}
				}
				if msg := sotCheckWinners(n, rel, 0, tamper); msg != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: msg, Counterexample: sotInstance(n, asot.GreedyA, 0, rel)}
				}
				if !sotNextVector(d) {
					break
				}
			}
		}
		for _, n := range []int{16, 32} {
			for r := range 5 {
				rel := asot.RandomTargets(n, n, true, seeds.Rand(env.Seed, 0x1a, uint64(n), uint64(r)))
				if msg := sotCheckWinners(n, rel, n, tamper); msg != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: msg, Counterexample: sotInstance(n, asot.GreedyA, 0, rel)}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("all %d single-wave target vectors for n = 2…%d, and 10 random first rounds (n = 16, 32, n waves each): winners and counts as predicted", vectors, maxN)}
	}
}

// The values the fresh-throughput claims compare against, as float64.
func sotFreshAOthers(n int) float64    { return sotforms.Float(sotforms.GreedyAFreshOthers(n)) }
func sotFreshBHeuristic(n int) float64 { return sotforms.Float(sotforms.GreedyBHeuristic(n)) }
func sotFreshCAnalysis(n int) float64  { return sotforms.Float(sotforms.GreedyCAnalysis(n)) }

// sotFreshBandClaims are the fresh-throughput claims judged by
// sotFreshBandCheck (stream tag, router, whether n = 64 runs at the small
// budget, relative tolerance, the value compared against); planted: the
// claim carries the checker's planted fault (sotFreshBandFaults), fixed
// before running.
var sotFreshBandClaims = []struct {
	id, source              string
	recorded                props.Verdict
	statement, scope, notes string
	tag                     uint64
	alg                     asot.Algorithm
	withN64                 bool
	tol                     float64
	want                    func(n int) float64
	planted                 bool
}{
	{id: "sot/sec4.2/greedy-a/fresh-throughput", source: seed002 + " §4.2 Greedy-a; §3.3 Figure 3", recorded: props.Consistent, tag: 1, alg: asot.GreedyA, tol: 0, want: sotFreshAOthers, planted: true,
		statement: "With fresh packets Greedy-a delivers about (1 − 1/e)·n packets per time unit: the expected fraction of processors targeted by a wave, which one packet reaches.",
		scope:     "greedy-a, fresh waves (targets uniform over the other processors), n ∈ {8, 16, 32} (small), + {64, 128} (default); ≈ 800 waves per size (×4 large)",
		notes:     "Compared with the exact finite-n expectation of the paper's own argument for this traffic, 1 − (1 − 1/(n−1))^{n−1} per processor and time unit (sotforms.GreedyAFreshOthers; each target has n − 1 possible senders). The paper prints 1 − (1 − 1/n)^n, the same argument with n senders per target (it differs by O(1/n)); both tend to 1 − 1/e ≈ 0.632. [2026-11-23] Planted fault, fixed before running (one rule for every claim of this checker, sotFreshBandFaults): the value shifted by the tolerance plus 5% of the value, here ×1.05. [2026-11-25, review] Both ways since then (×1.05 and ×0.95 in one Group: a band test catches one direction whenever the sample lies on the other side); both caught at small and default. " + sotAlphaNote},
	{id: "sot/sec4.2/greedy-b/fresh-throughput", source: seed002 + " §4.2 Greedy-b; §3.3 Figure 3", recorded: props.Inconsistent, tag: 2, alg: asot.GreedyB, tol: 0.10, want: sotFreshBHeuristic,
		statement: "With fresh packets Greedy-b delivers about 2(1 − 1/e)·n packets per time unit.",
		scope:     "greedy-b (pseudo-code: the packet that chooses first is drawn at random), fresh waves, n ∈ {8, 16, 32} (small), + {64, 128} (default); 'about' read as within ±10% of the heuristic 2(1 − (1 − 1/(2n))^{2n})",
		notes:     "As printed, protocol b draws the packet that chooses first at random, so a packet 'in the middle' often takes the only good link of a packet at the edge; every node of a fresh wave holds two packets, so edge packets are deflected at almost every step and the throughput falls like ≈ 6/n (0.79 at n = 8, 0.048 at n = 128) instead of ≈ 1.26. The text's reading, edge packets privileged (greedy-b-edge-first), matches the heuristic: sot/sec4.2/greedy-b-edge-first/fresh-throughput. " + sotAlphaNote},
	{id: "sot/sec4.2/greedy-b-edge-first/fresh-throughput", source: seed002 + " §4.2 Greedy-b; §3.1 text of protocol b; §3.3 Figure 3", recorded: props.Consistent, tag: 3, alg: asot.GreedyBEdgeFirst, tol: 0.10, want: sotFreshBHeuristic, planted: true,
		statement: "With fresh packets Greedy-b (edge packets privileged, as its text says) delivers about 2(1 − 1/e)·n packets per time unit.",
		scope:     "greedy-b-edge-first, fresh waves, n ∈ {8, 16, 32} (small), + {64, 128} (default); 'about' read as within ±10% of 2(1 − (1 − 1/(2n))^{2n})",
		notes:     "With edge packets choosing first, two packets at a node compete for one link only if both are at an edge on the same side, i.e. have the same target; so, as in Greedy-a, a packet fails only because another packet reaches its target's same input. The heuristic is then close (measured ≈ 1.31 at n = 8, 1.27 at n = 128, against 1.29 and 1.27). [2026-11-23] Planted fault, fixed before running (one rule for every claim of this checker, sotFreshBandFaults): the value shifted by the ±10% tolerance plus 5% of the value, ×1.15. [2026-11-25, review] Both ways since then (×1.15 and ×0.85 in one Group: a band test catches one direction whenever the sample lies on the other side); both caught at small and default. " + sotAlphaNote},
	{id: "sot/sec4.2/greedy-c/analysis", source: seed002 + " §4.2 Greedy-c", recorded: props.Inconsistent, tag: 4, alg: asot.GreedyC, withN64: true, tol: 0.10, want: sotFreshCAnalysis,
		statement: "With fresh packets about 2n/3 packets (a third of the 2n sent) reach their target in the first round under Greedy-c, by the recurrence P(k, l) with p = 3/4 and Theorem 3b.",
		scope:     "greedy-c, fresh waves, n ∈ {8, 16, 32, 64} (small), + 128 (default); 'about' read as within ±10% of the analysis at that n, 2·avg_{k=1…n−1} P(k, n−k) with p = 3/4 (exact, sotforms.GreedyCAnalysis; → 2/3)",
		notes:     "The paper itself says 'experimental results do not satisfactorily match with this analysis, which must therefore be too simplistic'. We agree: the analysis is within 6% at n = 8 but the measured throughput keeps falling with n (≈ 1.04, 0.84, 0.72, 0.62, 0.56 for n = 8…128) while the analysis tends to 2/3 (1.08, 0.89, 0.77, 0.72, 0.69). [2026-11-25, review] Class beyond (was paper): since the paper says this itself, the inconsistency confirms its caveat and is not an erratum (a fresh reviewer's point). " + sotAlphaNote},
}

func sotFreshClaims() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec4.2/greedy-a/one-winner-per-target"}), sotWinnersCheck, nil, sotLeftFirst, "protocol a with priority to the packet from the left at its target column"),
	)

	for _, c := range sotFreshBandClaims {
		claim := props.Claim{ID: c.id, Source: c.source, Kind: props.Statistical, Recorded: c.recorded,
			Statement: c.statement, Scope: c.scope, Notes: c.notes,
			Check: sotFreshBandCheck(c.tag, c.alg, c.withN64, c.tol, c.want)}
		if c.planted {
			claim.Faults = sotFreshBandFaults(c.tag, c.alg, c.withN64, c.tol, c.want)
		}
		props.Register(claim)
	}

	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec3.3/greedy-c/decreasing",
			Notes: "Consistent when every consecutive difference is positive beyond z = Z(Alpha/steps); inconsistent if some difference is significantly negative; inconclusive otherwise. [2026-11-23] Planted fault, fixed before running: the same measurements with the sizes in reverse order — an algorithm whose efficiency grows with n by as much as greedy-c's falls. A constant efficiency, the smallest alternative under which the claim is false, would come out inconclusive by design (the check calls inconsistent only a significant increase), so it cannot be a caught fault of this checker.  [2026-11-25, review] Planted fault replaced: the reversed order negates every statistic, so it was caught exactly when the check said consistent and carried no power (a fresh reviewer's point, as for sot/fig4/…). Now: efficiency rising 10 % per doubling of n (each size's mean the first's × 1.1^k, standard errors kept), an effect size fixed before the run that checked it; caught at small and default (z = −10 to −44). Verdict unchanged. " + sotAlphaNote,
		}), sotDecreasingCheck, 0.0, 0.10, "efficiency rising 10 % per doubling of n (each size's mean the first's × 1.1^k, standard errors kept; fixed 2026-11-25 in place of the reversed order)"),
		ledger.Text(props.Claim{ID: "sot/sec4.2/greedy-a/cost-e-over-e-minus-1", RecordedAt: map[props.Budget]props.Verdict{props.Small: props.Inconclusive},
			Notes: "An earlier version checked only h = 256·n, a choice the notes did not justify (at h = 40n the cost is 1.67 at n = 16 and 1.75 at n = 32, outside ±10%), with normal critical values on 30 runs. The sweep shows why h must be large relative to n: a deflected packet circles its own row and blocks its processor, and retries are not fresh, so the fresh-packet argument gives only the limit; at h = n·log₂ n the cost is far above (≈ 2.5 at n = 16, 2.85 at n = 64; see `routecheck reproduce sot-fig5`). The evidence reports the smallest h/n whose interval is inside the band. Caveat, reported not judged: at fixed n the cost does not converge to e/(e − 1) but passes through it — at n = 8 it is 1.49 at h/n = 256 and ≈ 1.48 at h/n = 1024, significantly below 1.582 (still within −10%), while at fixed h/n it grows with n; so e/(e − 1) is at best the joint limit the paper's 'large n and h' suggests, and only the ±10% reading is supported at these sizes. Disclosure: a first version of this sweep ran n = 16 with 10 runs at the small budget; its decrease (z = −14.4 against t critical 30) was not significant with 10 runs, so n = 16 moved to the default budget with 30 runs (the small budget's time limit does not allow 30 runs there). [2026-11-23] Planted fault, fixed before running, by the rule of the sibling band claims (sotFreshBandFaults): the value shifted by the ±10% tolerance plus 5% of the value, ×1.15. [2026-11-25, review] A fresh reviewer pointed out that a band test catches one direction whenever the sample lies on the other side (n = 8 at small: 1.4935 ± 0.017, below 1.582), so one caught shift says nothing of power. The faults are now ×1.15 and ×0.85 in one Group (both must be caught; likewise the fresh-throughput band claims, sotFreshBandFaults, which catch both): at default both are caught (at n = 16 and 32), at small only n = 8 runs and ×0.85 (band [1.210, 1.479]) is not, so the small budget records inconclusive (was consistent). The cost rises with n at h/n = 256 (1.49, 1.61, 1.67 at n = 8, 16, 32), so consistent rests on n ≤ 32. " + sotStudentNote,
			Check: sotCostCheck(math.E / (math.E - 1)),
			Faults: []props.Fault{
				{Name: "the value shifted by the tolerance + 5% (×1.15)", Check: sotCostCheck(1.15 * math.E / (math.E - 1)), Group: "the value shifted by the tolerance + 5% (both directions, since 2026-11-25)"},
				{Name: "the value shifted by the tolerance + 5% (×0.85)", Check: sotCostCheck(0.85 * math.E / (math.E - 1)), Group: "the value shifted by the tolerance + 5% (both directions, since 2026-11-25)"},
			},
		}),
	)

}

// sotOther is the k-th processor other than i.
func sotOther(i, k int) int {
	if k >= i {
		return k + 1
	}
	return k
}

// sotNextVector advances d (d[i] ≠ i, values in [0, n)) to the next target
// vector, lexicographically; false after the last.
func sotNextVector(d []int) bool {
	n := len(d)
	for i := n - 1; i >= 0; i-- {
		k := d[i]
		if k > i {
			k--
		}
		if k+1 < n-1 {
			d[i] = sotOther(i, k+1)
			return true
		}
		d[i] = sotOther(i, 0)
	}
	return false
}

// sotCheckWinners runs greedy-a on rel (waves = 0: rel is a single wave;
// otherwise rel has waves·n packets, packet τ·n + i being the τ-th of P_i)
// for the first round and compares, wave by wave, the packets delivered
// undeflected with the predicted winners: for every target, the sender with
// the fewest moves to its turning point, (i − t) mod n.
func sotCheckWinners(n int, rel []perm.Pair, waves int, tamper sotTamper) string {
	steps := 2*n - 1
	if waves == 0 {
		waves, steps = 1, n
	}
	got := make([]bool, len(rel))
	if tamper == nil {
		// The real router on the fast engine (asot.Trace: the same
		// deliveries and deflections as the step model, tested there).
		_, arrive, defl, err := asot.Trace(asot.GreedyA, n, rel, nil, steps)
		if err != nil {
			return err.Error()
		}
		for id := range got {
			got[id] = arrive[id] > 0 && defl[id] == 0
		}
	} else {
		obs := func(_ *msot.State, _ []msot.Action, _ *msot.State, ev *msot.Events) {
			for _, d := range ev.Delivered {
				if d.Defl == 0 {
					got[d.ID] = true
				}
			}
		}
		if _, _, err := asot.Route(asot.GreedyA, n, rel, nil, asot.Options{MaxSteps: steps, Observe: obs, Tamper: tamper}); err != nil {
			return err.Error()
		}
	}
	for w := range min(waves, n) {
		best := make([]int, n)
		for t := range best {
			best[t] = -1
		}
		for i := range n {
			id := w*n + i
			t := int(rel[id].Dst)
			if best[t] < 0 || (i-t+n)%n < (best[t]-t+n)%n {
				best[t] = i
			}
		}
		for i := range n {
			id := w*n + i
			want := best[rel[id].Dst] == i
			if got[id] != want {
				return fmt.Sprintf("SOT(%d) wave %d: packet P%d → P%d delivered undeflected = %v, predicted %v", n, w, i, rel[id].Dst, got[id], want)
			}
		}
	}
	return ""
}

// ---------------------------------------------------------------------------
// §4.1: the recurrence and Theorem 3

// sotPs are the values of p the exact claims use.
var sotPs = []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 2), big.NewRat(3, 5), big.NewRat(2, 3), big.NewRat(3, 4), big.NewRat(9, 10), big.NewRat(1, 1)}

func sotRatsEqual(a, b []*big.Rat) int {
	for k := range a {
		if a[k].Cmp(b[k]) != 0 {
			return k
		}
	}
	return -1
}

// sotFloatAntidiagonal returns P(k, K − k) for k = 0…K by the recurrence
// in float64 (for the numerical limit checks; rounding error ≪ the
// tolerances used). Cost O(K²) time, O(K) memory.
func sotFloatAntidiagonal(K int, p float64) []float64 {
	prev := make([]float64, K+1) // P(k, s−1−k), indexed by k
	cur := make([]float64, K+1)
	prev[0] = 1
	for s := 1; s <= K; s++ {
		for k := 0; k <= s; k++ {
			hi, lo := k, s-k
			if lo > hi {
				hi, lo = lo, hi
			}
			// P(hi, lo) = P(lo, hi); on antidiagonal s − 1, P(hi−1, lo) is
			// prev[hi−1] and P(hi, lo−1) is prev[hi].
			var v float64
			switch {
			case hi == lo:
				v = 0.5*prev[hi-1] + 0.5*prev[hi]
			case lo == 0:
				v = p * prev[hi-1]
			default:
				v = p*prev[hi-1] + (1-p)*prev[hi]
			}
			cur[k] = v
		}
		prev, cur = cur, prev
	}
	return prev[:K+1]
}

// sotFloatS returns S_K/K, S_K = Σ_{i+j=K} P(i, j).
func sotFloatS(K int, p float64) float64 {
	sum := 0.0
	for _, x := range sotFloatAntidiagonal(K, p) {
		sum += x
	}
	return sum / float64(K)
}

// sotK is the largest k (or n) of the exact Theorem 3 checks.
func sotK(b props.Budget) int { return b.Pick(40, 80, 160) }

// sotMatchesCheck compares Q_0…Q_k (k = sotK(budget)) computed another way
// (other) with the recurrence's, exactly, at every p of sotPs.
func sotMatchesCheck(other func(int, *big.Rat) []*big.Rat) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		k := sotK(env.Budget)
		for _, p := range sotPs {
			if i := sotRatsEqual(sotforms.QRecurrence(k, p), other(k, p)); i >= 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("p = %s, k = %d", p.RatString(), i), Counterexample: map[string]any{"p": p.RatString(), "k": i}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("equal for k ≤ %d at %d values of p", k, len(sotPs))}
	}
}

// sotLimit3aCheck is sot/thm-3a/limit's check against the closed form
// limit (sotforms.Limit3a; a planted fault passes a misprinted one).
func sotLimit3aCheck(limit func(float64) float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		k := sotK(env.Budget)
		bigK := env.Budget.Pick(1000, 2000, 4000)
		var ev []string
		for _, p := range sotPs {
			Q := sotforms.QRecurrence(k, p)
			for m := 1; m <= k; m++ {
				if Q[m].Cmp(Q[m-1]) > 0 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("p = %s: Q_%d > Q_%d", p.RatString(), m, m-1)}
				}
			}
			pf := sotforms.Float(p)
			if p.Cmp(big.NewRat(1, 2)) == 0 {
				for m := 0; m <= k; m++ {
					b := new(big.Int).Binomial(int64(2*m), int64(m))
					want := new(big.Rat).SetFrac(b, new(big.Int).Lsh(big.NewInt(1), uint(2*m)))
					if Q[m].Cmp(want) != 0 {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("p = 1/2: Q_%d = %s ≠ binom(2k,k)/4^k", m, Q[m].RatString())}
					}
				}
				ev = append(ev, fmt.Sprintf("p=1/2: Q_%d = %.4g → 0 = formula %.3g", k, sotforms.Float(Q[k]), math.Abs(limit(pf))))
				continue
			}
			q := 1 - pf
			L := math.Max(0, limit(pf)) // rounding: −3e−16 at p = 1/3
			bound := 0.0
			if q > 0 {
				bound = q * math.Pow(4*pf*q, float64(bigK)) / (1 - 4*pf*q)
			}
			qK := sotFloatAntidiagonal(2*bigK, pf)[bigK]
			diff := math.Abs(qK - L)
			ev = append(ev, fmt.Sprintf("p=%s: |Q_%d − %.6f| = %.2g ≤ %.2g", p.RatString(), bigK, L, diff, bound+1e-9))
			if diff > bound+1e-9 {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: map[string]any{"p": p.RatString(), "k": bigK, "Q_k": qK, "limit": L}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// sotStepFails returns the first n ≤ k at which the antidiagonal sums at p
// break the step S_n = S_{n−1} + c·Q_qIndex(n), with S_n and the step's
// value; n = 0 when every step up to k holds. Exact (math/big).
func sotStepFails(k int, p, c *big.Rat, qIndex func(int) int) (n int, sn, rule *big.Rat) {
	S := sotforms.AntidiagonalSums(k, p)
	Q := sotforms.QRecurrence(k, p)
	for n := 1; n <= k; n++ {
		if want := new(big.Rat).Add(S[n-1], new(big.Rat).Mul(c, Q[qIndex(n)])); S[n].Cmp(want) != 0 {
			return n, S[n], want
		}
	}
	return 0, nil, nil
}

// sotCorrectedCheck is sot/thm-3b/recurrence-corrected's check; qIndex(n)
// is the index of Q in the step S_n − S_{n−1} (⌊n/2⌋; a planted fault
// passes another) and shift is added to the limit (0; a planted fault
// passes another).
func sotCorrectedCheck(qIndex func(int) int, shift float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		for _, p := range sotPs {
			c := new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(2, 1), p), big.NewRat(1, 1))
			if n, _, _ := sotStepFails(sotK(env.Budget), p, c, qIndex); n > 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("p = %s, n = %d", p.RatString(), n)}
			}
		}
		big := env.Budget.Pick(1000, 2000, 4000)
		var ev []string
		for _, p := range sotPs {
			pf := sotforms.Float(p)
			want := 0.0
			if pf >= 0.5 {
				want = (2*pf - 1) * (2*pf - 1) / pf
			}
			want += shift
			got := sotFloatS(big, pf)
			ev = append(ev, fmt.Sprintf("p=%s: S/n = %.4f vs %.4f", p.RatString(), got, want))
			// Within 2/n (since 2026-11-25; 0.01 before, which a limit
			// 0.34 in place of 1/3 would have met): S/n approaches its
			// limit like 1/n.
			if math.Abs(got-want) > 2/float64(big) {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; ") + fmt.Sprintf(" (not within 2/n = %.4f)", 2/float64(big))}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exact recurrence for n ≤ %d; limits at n = %d, within 2/n = %.4f: %s", sotK(env.Budget), big, 2/float64(big), strings.Join(ev, "; "))}
	}
}

// sotOneThirdCheck is sot/sec4.2/greedy-c/average-one-third's check:
// qIndex(n) is the index of Q in the exact step (⌊n/2⌋) and third the
// limit compared against (1/3); planted faults pass others.
func sotOneThirdCheck(qIndex func(int) int, third float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		if n, _, _ := sotStepFails(sotK(env.Budget), big.NewRat(3, 4), big.NewRat(1, 2), qIndex); n > 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d", n)}
		}
		k := env.Budget.Pick(1000, 2000, 4000)
		avg := sotFloatS(k, 0.75) * float64(k) / float64(k+1)
		// Within 2/n (since 2026-11-25; 0.005 before, which a limit anywhere
		// in 0.329–0.338 would have met at n = 1000): the average approaches
		// its limit like 1/n (0.33433 at n = 1000).
		if tol := 2 / float64(k); math.Abs(avg-third) > tol {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("average at n = %d is %.5f, not within 2/n = %.4f of %.4f", k, avg, tol, third)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("average at n = %d: %.5f, within 2/n = %.4f of %.4f", k, avg, 2/float64(k), third)}
	}
}

func sotTheorem3() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "sot/sec4.1/printed-q-values",
			Check: func(props.Env) props.Outcome {
				printed := []*big.Rat{big.NewRat(1, 1), big.NewRat(3, 4), big.NewRat(45, 64), big.NewRat(702, 1024)}
				half := sotforms.QRecurrence(3, big.NewRat(1, 2))
				three := sotforms.QRecurrence(3, big.NewRat(3, 4))
				str := func(q []*big.Rat) string {
					s := make([]string, len(q))
					for i, x := range q {
						s[i] = x.RatString()
					}
					return strings.Join(s, ", ")
				}
				ev := fmt.Sprintf("recurrence at p = 1/2: %s; at p = 3/4: %s; printed: 1, 3/4, 45/64, 702/1024 (= %s); Theorem 3a limits %.4f (p = 1/2), %.4f (p = 3/4)", str(half), str(three), printed[3].RatString(), sotforms.Limit3a(0.5), sotforms.Limit3a(0.75))
				if k := sotRatsEqual(half, printed); k >= 0 {
					return props.Outcome{Verdict: props.Violated, Evidence: ev, Counterexample: map[string]string{"p": "1/2", "k": fmt.Sprint(k), "recurrence": half[k].RatString(), "printed": printed[k].RatString()}}
				}
				return props.Outcome{Verdict: props.Holds, Evidence: ev}
			}}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/thm-3a/proof-convolution"}), sotMatchesCheck, sotforms.QConvolution, sotQConvolutionThird, "the factor ½ printed as ⅓"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/thm-3a/generating-function"}), sotMatchesCheck, sotforms.QGenerating, sotQGeneratingThree, "the 4 under the root printed as 3"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/thm-3a/limit"}), sotLimit3aCheck, sotforms.Limit3a, sotLimit3aThree, "the 4 under the root printed as 3"),
		ledger.Text(props.Claim{ID: "sot/thm-3b/proof-recurrence",
			Check: func(env props.Env) props.Outcome {
				for _, p := range sotPs {
					twoQ := new(big.Rat).Mul(big.NewRat(2, 1), new(big.Rat).Sub(big.NewRat(1, 1), p))
					if n, sn, rule := sotStepFails(sotK(env.Budget), p, twoQ, sotFloorHalf); n > 0 {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("first failure at p = %s, n = %d: S_n = %s, printed rule gives %s (it holds at every n only for p = 3/4)", p.RatString(), n, sn.RatString(), rule.RatString()), Counterexample: map[string]any{"p": p.RatString(), "n": n, "S_n": sn.RatString(), "printed": rule.RatString()}}
					}
				}
				return props.Outcome{Verdict: props.Holds, Evidence: "the printed rule holds for every p checked"}
			}}),
		ledger.Text(props.Claim{ID: "sot/thm-3b/recurrence-corrected", Check: sotCorrectedCheck(sotFloorHalf, 0),
			Faults: []props.Fault{
				{Name: sotCeilHalfName, Check: sotCorrectedCheck(sotCeilHalf, 0)},
				{Name: "the limit shifted by 0.01 (the old tolerance; [2026-11-25, review])", Check: sotCorrectedCheck(sotFloorHalf, 0.01)},
			}}),
		ledger.Text(props.Claim{ID: "sot/thm-3b/statement",
			Check: func(env props.Env) props.Outcome {
				k := env.Budget.Pick(1000, 2000, 4000)
				var ev []string
				var cex any
				for _, p := range sotPs {
					pf := sotforms.Float(p)
					got, formula := sotFloatS(k, pf), sotforms.Limit3b(pf)
					ev = append(ev, fmt.Sprintf("p=%s: S_k/k = %.4f, formula %.4f", p.RatString(), got, formula))
					if math.Abs(got-formula) > 0.05 && cex == nil {
						cex = map[string]any{"p": p.RatString(), "k": k, "average": got, "formula": formula}
					}
				}
				if cex != nil {
					return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: cex}
				}
				return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
			}}),
		ledger.Text(props.Claim{ID: "sot/sec4.2/greedy-c/average-one-third",
			Check: sotOneThirdCheck(sotFloorHalf, 1.0/3),
			Faults: []props.Fault{
				{Name: sotCeilHalfName, Check: sotOneThirdCheck(sotCeilHalf, 1.0/3)},
				{Name: "the limit 1/3 = 0.3333 printed as 0.3433 (one digit changed)", Check: sotOneThirdCheck(sotFloorHalf, 0.3433)},
			}}),
	)
}

// ---------------------------------------------------------------------------
// Algorithm 2 (§3.2, §4.3)

// sotTimeFromWCheck is sot/sec4.3/time-from-w's check against the time
// formula (sotforms.ScheduledTime; a planted fault passes another).
func sotTimeFromWCheck(formula func(int, []perm.Pair) (int, int)) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		check := func(n int, rel []perm.Pair) any {
			res, _, err := asot.Route(asot.Scheduled, n, rel, nil, asot.Options{})
			T, W := formula(n, rel)
			if err != nil || !res.Complete || res.Steps != T || (W > 0 && (T < n*W || T > n*W+n-1)) {
				return map[string]any{"instance": sotInstance(n, asot.Scheduled, 0, rel), "steps": res.Steps, "formula": T, "W": W, "error": fmt.Sprint(err)}
			}
			return nil
		}
		checks := env.Budget.Pick(200, 1000, 5000)
		if out, found := sotShrunk(env, checks, "", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 8, 8, true)
			return check(n, rel)
		}); found {
			return out
		}
		for _, n := range []int{8, 16, 32} {
			for _, h := range []int{n, n * sotLog2(n)} {
				for r := range 3 {
					if c := check(n, asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0x43, uint64(n), uint64(h), uint64(r)))); c != nil {
						return props.Outcome{Verdict: props.Violated, Evidence: "random h-relation", Counterexample: c}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("model time = formula on %d random relations and 18 random h-relations", checks)}
	}
}

// sotScheduledTimeFlipped is sotforms.ScheduledTime with the schedule's
// offset (j − i) mod n printed as (i − j) mod n.
func sotScheduledTimeFlipped(n int, rel []perm.Pair) (T, W int) {
	w := sotforms.Weights(n, rel)
	for i := range n {
		for j := range n {
			if w[i][j] > 0 {
				T = max(T, n*w[i][j]+((i-j)%n+n)%n)
				W = max(W, w[i][j])
			}
		}
	}
	return T, W
}

// sotNoDeflectionsCheck is sot/alg-2/no-deflections' check on scheduled,
// actions rewritten by tamper (nil: the real router).
func sotNoDeflectionsCheck(tamper sotTamper) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		count := 0
		var fail any
		try := func(n int, rel []perm.Pair) bool {
			count++
			rep := sotCheckedRun(asot.Scheduled, n, rel, nil, 0, false, tamper)
			if rep.Problem != "" || rep.Result.Deflections != 0 || !rep.Result.Complete || (len(rel) > 0 && rep.Result.MaxLatency != n) {
				fail = map[string]any{"instance": sotInstance(n, asot.Scheduled, 0, rel), "result": rep.Result, "problem": rep.Problem}
				return false
			}
			return true
		}
		shapes := [][2]int{{3, 2}, {4, 1}}
		if env.Budget >= props.Default {
			shapes = append(shapes, [2]int{4, 2})
		}
		for _, sh := range shapes {
			if !sotEachRelation(sh[0], sh[1], try) {
				return props.Outcome{Verdict: props.Violated, Evidence: "exhaustive search found a deflection", Counterexample: fail}
			}
		}
		exhaustive := count
		checks := env.Budget.Pick(200, 1000, 5000)
		if out, found := sotShrunk(env, checks, "", func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 8, 8, true)
			if !try(n, rel) {
				return fail
			}
			return nil
		}); found {
			return out
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d relations exhaustively (SOT(n), packets per processor: %v) and %d random ones: no deflection, every packet after exactly n hops", exhaustive, shapes, checks)}
	}
}

func sotAlgorithm2() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/alg-2/no-deflections"}), sotNoDeflectionsCheck, nil, sotSkewP0, "an off-by-one schedule at P_0 (it sends to P_(t+1) mod n at step t)"),
		ledger.Text(props.Claim{ID: "sot/alg-2/literal-processor-rule",
			Check: sotWitnessCheck([3]int{200, 1000, 5000}, "deflection under the literal processor rule", "deflection", func(t *rapid.T) any {
				n, rel := GenSotRelation(t, 4, 3, true)
				r := SotCheckedRun(asot.ScheduledLiteral, n, rel, nil, 4*n+2*len(rel), true)
				if r.Problem != "" || len(r.Deflections) > 0 {
					var first any
					if len(r.Deflections) > 0 {
						first = r.Deflections[0]
					}
					return map[string]any{"instance": sotInstance(n, asot.ScheduledLiteral, 0, rel), "first_deflection": first, "problem": r.Problem}
				}
				return nil
			})}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec4.3/time-from-w"}), sotTimeFromWCheck, sotforms.ScheduledTime, sotScheduledTimeFlipped, "the offset (j − i) mod n printed as (i − j) mod n"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec4.3/whp-n-plus-ch"}), sotWhpCheck, 4, 2, "the constant c halved (c = 2)"),
	)
}

// sotRunScheduled routes rel on SOT(n) with Algorithm 2 (scheduled; its
// actions rewritten by tamper, nil: the real router). ok is false when the
// run fails or does not complete; out is then the inconclusive outcome,
// its evidence run (which run it was), the error and the result.
func sotRunScheduled(n int, rel []perm.Pair, tamper sotTamper, run string) (res asot.Result, final msot.State, out props.Outcome, ok bool) {
	res, final, err := asot.Route(asot.Scheduled, n, rel, nil, asot.Options{Tamper: tamper})
	if err != nil || !res.Complete {
		return res, final, props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v %+v", run, err, res)}, false
	}
	return res, final, props.Outcome{}, true
}

// sotWhpCheck is sot/sec4.3/whp-n-plus-ch's check with constant c (4; its
// planted fault passes 2): at each size, P(W > c·log₂ n) ≤ 1/n by an exact
// binomial tail at Alpha/sizes; the event T > n + c·h, contained in it,
// is counted and reported (a run where it is not contained is a violation
// of T ≤ n·W + n − 1).
func sotWhpCheck(c int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := [][2]int{{8, 200}, {16, 100}, {32, 40}}
		if env.Budget >= props.Default {
			sizes = append(sizes, [2]int{64, 20}, [2]int{128, 6})
		}
		if env.Budget == props.Large {
			sizes = append(sizes, [2]int{256, 4})
		}
		alpha := props.Alpha / float64(len(sizes))
		var ev []string
		for _, sz := range sizes {
			n, runs := sz[0], sz[1]
			lg := sotLog2(n)
			h := n * lg
			overT, overW := 0, 0
			worstC, worstW := 0.0, 0.0
			for r := range runs {
				// Memoized on the fast engine (scheduledWhpRun): the
				// result sotRunScheduled's asot.Route would give.
				run := scheduledWhpRun(env, n, r)
				res, W := run.res, run.w
				if run.err != nil || !res.Complete {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v %+v", fmt.Sprintf("n=%d run %d", n, r), run.err, res)}
				}
				if res.Steps > n*W+n-1 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d run %d: T = %d > n·W + n − 1 = %d", n, r, res.Steps, n*W+n-1), Counterexample: sotInstance(n, asot.Scheduled, 0, whpRelation(env.Seed, n, r))}
				}
				if res.Steps > n+c*h {
					overT++
				}
				if W > c*lg {
					overW++
				}
				worstC = math.Max(worstC, float64(res.Steps-n)/float64(h))
				worstW = math.Max(worstW, float64(W)/float64(lg))
			}
			ev = append(ev, fmt.Sprintf("n=%d h=%d: %d/%d runs with W > %d·log₂ n (%d of them with T > n + %dh); max (T−n)/h = %.2f, max W/log₂n = %.2f", n, h, overW, runs, c, overT, c, worstC, worstW))
			if p := stats.BinomAtLeast(overW, runs, 1/float64(n)); p <= alpha {
				return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("n=%d: P(Bin(%d, 1/n) ≥ %d) = %.3g ≤ α = %.2g; %s", n, runs, overW, p, alpha, strings.Join(ev, "; "))}
			}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: strings.Join(ev, "; ")}
	}
}

// sotEachRelation calls f for every relation on SOT(n) in which every
// processor has at most per packets (a multiset of targets, self included),
// until f returns false; it reports whether all calls returned true.
func sotEachRelation(n, per int, f func(int, []perm.Pair) bool) bool {
	// the multisets of size ≤ per over n targets, as sorted slices
	var sets [][]int32
	var gen func(start int, cur []int32)
	gen = func(start int, cur []int32) {
		sets = append(sets, append([]int32(nil), cur...))
		if len(cur) == per {
			return
		}
		for t := start; t < n; t++ {
			gen(t, append(cur, int32(t)))
		}
	}
	gen(0, nil)
	idx := make([]int, n)
	for {
		var rel []perm.Pair
		for i := range n {
			for _, d := range sets[idx[i]] {
				rel = append(rel, perm.Pair{Src: int32(i), Dst: d})
			}
		}
		if !f(n, rel) {
			return false
		}
		i := n - 1
		for i >= 0 && idx[i] == len(sets)-1 {
			idx[i] = 0
			i--
		}
		if i < 0 {
			return true
		}
		idx[i]++
	}
}

// Planted faults of the exact Theorem 3 claims (issue 9): the formula
// compared against with one printed symbol changed, each fixed before it
// was run.

// sotFloorHalf is ⌊n/2⌋, the index of Q in S_n − S_{n−1}.
func sotFloorHalf(n int) int { return n / 2 }

// sotCeilHalf is ⌈n/2⌉: the planted off-by-one at odd n.
func sotCeilHalf(n int) int { return (n + 1) / 2 }

const sotCeilHalfName = "Q_⌈n/2⌉ in place of Q_⌊n/2⌋ (off by one at odd n)"

// sotQConvolutionThird is sotforms.QConvolution with the proof's factor ½
// printed as ⅓: Q_k = 2·Σ_j C_j·⅓·q^j·p^{j+1}·Q_{k−j−1}.
func sotQConvolutionThird(K int, p *big.Rat) []*big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	C := sotforms.Catalan(K)
	Q := make([]*big.Rat, K+1)
	Q[0] = big.NewRat(1, 1)
	w := make([]*big.Rat, K)
	pq := big.NewRat(2, 3) // 2 · ⅓
	for j := range w {
		w[j] = new(big.Rat).Mul(new(big.Rat).Mul(new(big.Rat).SetInt(C[j]), pq), p)
		pq = new(big.Rat).Mul(pq, new(big.Rat).Mul(p, q))
	}
	for k := 1; k <= K; k++ {
		sum := new(big.Rat)
		for j := 0; j < k; j++ {
			sum.Add(sum, new(big.Rat).Mul(w[j], Q[k-j-1]))
		}
		Q[k] = sum
	}
	return Q
}

// sotQGeneratingThree is sotforms.QGenerating with the 4 under the root
// printed as 3: R(z) = (1 − 2q + √(1 − 3pqz))/(2p), Q_k = R_0 + … + R_k.
func sotQGeneratingThree(K int, p *big.Rat) []*big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	sq := sotforms.SqrtSeries(K, new(big.Rat).Mul(big.NewRat(3, 1), new(big.Rat).Mul(p, q)))
	twoP := new(big.Rat).Mul(big.NewRat(2, 1), p)
	Q := make([]*big.Rat, K+1)
	sum := new(big.Rat)
	for m := 0; m <= K; m++ {
		r := new(big.Rat).Set(sq[m])
		if m == 0 {
			r.Add(r, new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(2, 1), q)))
		}
		sum.Add(sum, r.Quo(r, twoP))
		Q[m] = new(big.Rat).Set(sum)
	}
	return Q
}

// sotLimit3aThree is Theorem 3a's limit with the 4 under the root printed
// as 3: (1 − 2(1−p) + √(1 − 3p(1−p)))/(2p).
func sotLimit3aThree(p float64) float64 {
	q := 1 - p
	return (1 - 2*q + math.Sqrt(1-3*p*q)) / (2 * p)
}
