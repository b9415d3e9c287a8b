package pops

import (
	"fmt"
	"math"
	"slices"
	"strings"

	ap "routecheck/algos/pops"
	"routecheck/internal/popsexp"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popspaper"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
	"routecheck/props/popstest"

	"pgregory.net/rapid"
)

const seed000 = "000_de3be866f009217f.txt"

// routerRun describes an invariant of the randomized router checked on the
// slot model: exhaustively for tiny shapes, then by rapid on random ones.
type routerRun struct {
	alg      ap.Variant
	eq       bool // scope d = g (else d > g, or d ≥ g with ge)
	ge       bool // scope d ≥ g
	g1only   bool // scope g = 1, d > 1
	stepOnly bool // a per-step property: exhaustive enumeration applies
	memory   bool // a buffer-count claim: the exhaustive part covers step 1 only
	bad      func(PopsRunReport) string
	mutant   ap.Mutant // a planted fault in the router (power checks)
}

func (rr routerRun) scope() (maxG func(props.Budget) int, minExtra, maxExtra int, keep func(d, g int) bool) {
	switch {
	case rr.g1only:
		return func(props.Budget) int { return 1 }, 1, 4, func(d, g int) bool { return g == 1 && d > 1 }
	case rr.eq:
		return func(b props.Budget) int { return b.Pick(6, 12, 24) }, 0, 0, func(d, g int) bool { return d == g }
	case rr.ge:
		return func(b props.Budget) int { return b.Pick(4, 6, 10) }, 0, 12, func(d, g int) bool { return d >= g }
	}
	return func(b props.Budget) int { return b.Pick(4, 6, 10) }, 1, 12, func(d, g int) bool { return d > g }
}

func modelBad(r PopsRunReport) string {
	switch {
	case r.ModelErr != nil:
		return r.ModelErr.Error()
	case r.InvariantAt != "":
		return "model invariant broken at " + r.InvariantAt
	}
	return ""
}

func (rr routerRun) check(env props.Env) props.Outcome {
	maxG, minExtra, maxExtra, _ := rr.scope()
	bad := func(r PopsRunReport) string {
		if s := modelBad(r); s != "" {
			return s
		}
		return rr.bad(r)
	}
	var ev []string
	if rr.stepOnly {
		o, done := rr.exhaustive(env.Budget, bad)
		if done {
			return o
		}
		ev = append(ev, o.Evidence)
	}
	checks := env.Budget.Pick(40, 200, 1000)
	cex, _ := props.Falsify(env, checks, func(t *rapid.T) any {
		in := GenPopsInstance(t, rr.alg, maxG(env.Budget), minExtra, maxExtra)
		in.Mutant = rr.mutant
		if why := bad(RunPops(in)); why != "" {
			in.Why = why
			return in
		}
		return nil
	})
	if cex != nil {
		in := cex.(PopsInstance)
		return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("rapid found and shrank a counterexample: POPS(%d,%d): %s", in.D, in.G, in.Why), Counterexample: in}
	}
	ev = append(ev, fmt.Sprintf("rapid: %d random runs to completion on the slot model (g ≤ %d, d−g in [%d, %d]), model invariants checked after every slot", checks, maxG(env.Budget), minExtra, maxExtra))
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

// exhaustive checks a per-step claim on every survivor class of every
// shape in scope with dg ≤ 8 (exhaustive.go), shape by shape in order
// of n, and returns a violation (done) with the first failing class — fewest
// survivors first; its representative has only the survivors taking part —
// or the coverage as evidence. At the small budget POPS(4,2) (156,065
// classes, several seconds) is left out, and the evidence says so.
func (rr routerRun) exhaustive(b props.Budget, bad func(PopsRunReport) string) (o props.Outcome, done bool) {
	_, _, _, keep := rr.scope()
	const maxN = maxStepN
	var covered, skipped []string
	classes := 0
	for _, dg := range stepShapes(maxN, keep) {
		if b == props.Small && dg == [2]int{4, 2} {
			skipped = append(skipped, "POPS(4,2) left out at the small budget (run with --budget default)")
			continue
		}
		sh, err := exhaustiveShape(rr.alg, rr.mutant, dg[0], dg[1])
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}, true
		}
		for i := range sh.outcomes {
			if why := rr.badOutcome(sh.outcomes[i], bad, sh.class(i)); why != "" {
				cex := sh.class(i)
				var surv []string
				for p, r := range cex.Groups {
					if r >= 0 {
						surv = append(surv, fmt.Sprintf("packet %d → processor %d via group %d", p, cex.Perm[p], r))
					}
				}
				why += " (survivors of slot 1: " + strings.Join(surv, ", ") + "; no other packet takes part)"
				cex.Why = why
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("exhaustive search over slot-1 survivor classes (every permutation and every choice of intermediate group — and of taking part, where the step has a coin — for every shape in scope with dg ≤ %d, in order of n) found a counterexample in POPS(%d,%d) with %d survivor(s), after %d classes: %s", maxN, sh.d, sh.g, sh.set.classes[i].survivors, classes+i+1, why), Counterexample: cex}, true
			}
		}
		classes += len(sh.outcomes)
		covered = append(covered, fmt.Sprintf("POPS(%d,%d) %v inputs in %d classes", sh.d, sh.g, sh.inputs, len(sh.outcomes)))
	}
	if len(skipped) > 0 {
		covered = append(covered, strings.Join(skipped, ", "))
	}
	return props.Outcome{Evidence: fmt.Sprintf("exhaustive for one step (%s): every shape in scope with dg ≤ %d — %s — every permutation and every choice of intermediate group, and of taking part where the step has a coin; inputs grouped by their slot-1 survivors and, for POPS(d,2) with d even, the group-swap symmetry (props/pops/exhaustive.go), %d class representatives run on the slot model", rr.stepCoverage(), maxN, strings.Join(covered, ", "), classes)}, false
}

// badOutcome applies the claim's predicate to a class outcome (the report
// is rebuilt from what the per-step predicates read: the properties
// popstest's per-slot checks found broken and the peak memories); a
// failing class is rerun to word the failure in full.
func (rr routerRun) badOutcome(o stepOutcome, bad func(PopsRunReport) string, in PopsInstance) string {
	if o.modelErr == "" && bad(PopsRunReport{Slots: o.report()}) == "" {
		return ""
	}
	return bad(RunPops(in))
}

// stepCoverage says which steps the exhaustive part covers for the claim.
func (rr routerRun) stepCoverage() string {
	if rr.memory {
		return "step 1 of every run; buffer counts of later steps also depend on packets already delivered"
	}
	return "every step of every run: conflicts, losses and duplicates depend only on the step's slot-1 survivors"
}

// routerFaults are the planted faults every router invariant is run against
// (ap.Mutant): one rule of §III changed in each. A claim needs one of them
// caught for its holds to stand.
var routerFaults = []ap.Mutant{ap.MutantTempByGroup, ap.MutantNoAckWait, ap.MutantRelayKeeps}

// routerClaims keeps every router claim's routerRun by ID, for the test
// that the exhaustive part's rebuilt reports judge as the full ones do
// (TestBadOutcomeAgreesWithFullReport).
var routerClaims = map[string]routerRun{}

func registerRouterClaim(id string, rr routerRun) {
	routerClaims[id] = rr
	var fs []props.Fault
	for _, m := range routerFaults {
		mr := rr
		mr.mutant = m
		fs = append(fs, props.Fault{Name: "router mutant: " + m.String(), Check: mr.check})
	}
	props.Register(ledger.Text(props.Claim{ID: id, Kind: props.Invariant, Check: rr.check, Faults: fs}))
}

func init() {
	faithful, split := ap.Faithful, ap.SplitDelivery
	// Conflicts, losses, duplicates and memory are judged by popstest's
	// per-slot checks (RunPops feeds them every slot): one home for each.
	// broke judges a run by popstest's per-slot check name: its first
	// failure, with the slot, or "".
	broke := func(name string) func(r PopsRunReport) string {
		return func(r PopsRunReport) string {
			if f, ok := r.Slots.Broke(name); ok {
				return fmt.Sprintf("%s: %s", r.At(f.Slot), f.Message)
			}
			return ""
		}
	}
	conf, lossDup := broke("conflicts"), broke("conservation")
	delivered := func(r PopsRunReport) string {
		if !r.Result.Completed || r.Result.Delivered != r.Packets {
			return fmt.Sprintf("after %d steps %d of %d packets delivered (run finished: %v)", r.Result.Steps, r.Result.Delivered, r.Packets, r.Result.Completed)
		}
		return ""
	}
	mem := func(m popstest.Memory, limit int) func(PopsRunReport) string {
		return func(r PopsRunReport) string {
			if why := r.Slots.Over(m, limit); why != "" {
				return fmt.Sprintf("%s: %s", r.At(r.Slots.Peaks[m].Slot), why)
			}
			return ""
		}
	}
	registerRouterClaim("pops/prop-3.2/d-eq-g", routerRun{alg: faithful, eq: true, stepOnly: true, bad: conf})
	registerRouterClaim("pops/prop-3.2/d-gt-g", routerRun{alg: faithful, stepOnly: true, bad: conf})
	registerRouterClaim("pops/sec3/no-loss-no-dup/d-eq-g", routerRun{alg: faithful, eq: true, stepOnly: true, bad: lossDup})
	registerRouterClaim("pops/sec3/no-loss-no-dup/d-gt-g", routerRun{alg: faithful, stepOnly: true, bad: lossDup})
	registerRouterClaim("pops/sec3/all-delivered/d-eq-g", routerRun{alg: faithful, eq: true, bad: delivered})
	registerRouterClaim("pops/thm-3.8/all-delivered/d-gt-g", routerRun{alg: faithful, bad: delivered})
	registerRouterClaim("pops/thm-3.8/terminates-g1", routerRun{alg: split, g1only: true, bad: delivered})
	registerRouterClaim("pops/sec3-a/memory-3", routerRun{alg: faithful, ge: true, stepOnly: true, memory: true, bad: mem(popstest.MemoryAll, 3)})
	registerRouterClaim("pops/sec3-a/memory-2", routerRun{alg: faithful, ge: true, stepOnly: true, memory: true, bad: mem(popstest.MemoryDeliveredLeave, 2)})
	registerRouterClaim("pops/sec3-a/memory-1", routerRun{alg: faithful, ge: true, stepOnly: true, memory: true, bad: mem(popstest.MemoryFeedingLine, 1)})
	registerRouterClaim("pops/repair/split-delivery/conflict-free", routerRun{alg: split, ge: true, stepOnly: true, bad: conf})
	registerRouterClaim("pops/repair/split-delivery/no-loss-no-dup", routerRun{alg: split, ge: true, stepOnly: true, bad: lossDup})
	registerRouterClaim("pops/repair/split-delivery/memory-3", routerRun{alg: split, ge: true, stepOnly: true, memory: true, bad: mem(popstest.MemoryAll, 3)})

	constantC := func(printedC, printedEps float64) func(props.Env) props.Outcome {
		return func(props.Env) props.Outcome {
			c := popspaper.C()
			ok := math.Abs(c-printedC) < 5e-4 && math.Abs(4-c-printedEps) < 5e-4 && ap.C == c
			v := props.Holds
			if !ok {
				v = props.Violated
			}
			return props.Outcome{Verdict: v, Evidence: fmt.Sprintf("c = %.6f, 4 − c = %.6f (router uses c = %.6f); printed %.3f and %.3f", c, 4-c, ap.C, printedC, printedEps)}
		}
	}
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.8/constant-c",

		Check: constantC(3.927, 0.073),
		Faults: []props.Fault{{Name: "printed c with one digit changed (3.937)", Check: constantC(3.937, 0.073)},
			{Name: "printed ε with one digit changed (0.083)", Check: constantC(3.927, 0.083)}}}))
	baseline := func(edit func(popspaper.Cell) popspaper.Cell) func(props.Env) props.Outcome {
		return func(props.Env) props.Outcome {
			var bad []string
			k := 0
			for _, c := range popspaper.Cells() {
				if !c.HasPaper() {
					continue
				}
				c = edit(c)
				g, _ := c.G()
				k++
				if b := popspaper.Baseline(c.D(), g); b != float64(c.B) {
					bad = append(bad, fmt.Sprintf("n=%d d=%dg: formula %.2f, table %d", c.N, c.Ratio, b, c.B))
				}
			}
			if len(bad) > 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(bad, "; ")}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("all %d cells equal the formula exactly", k)}
		}
	}
	props.Register(ledger.Text(props.Claim{ID: "pops/table-1/B/baseline-formula",
		Check: baseline(func(c popspaper.Cell) popspaper.Cell { return c }),
		Faults: []props.Fault{{Name: "the last digit of B at n = 1024, d = g raised by one (153 → 154)", Check: baseline(func(c popspaper.Cell) popspaper.Cell {
			if c.N == 1024 && c.Ratio == 1 {
				c.B++
			}
			return c
		})}}}))
	props.Register(claimtab.WithFault(ledger.Text(props.Claim{ID: "pops/lemma-3.3"}), checkLemma33, 1, 0.5, "the step bound 3/β halved"))
	props.Register(claimtab.WithFault(ledger.Text(props.Claim{ID: "pops/thm-3.7/loglog-growth"}), checkThm37, func(int) float64 { return 0 }, func(g int) float64 { return math.Log2(float64(g)) }, "the Θ(log g) alternative: log₂ g steps added to every run"))
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-3.9/slots",
		// At the large budget the k = 1 reading fails (see its notes, 2026-11-25).
		RecordedAt: map[props.Budget]props.Verdict{props.Large: props.Violated},
		Check:      checkCor39(ap.Faithful, 1),
		Faults:     []props.Fault{{Name: "the bound B halved", Check: checkCor39(ap.Faithful, 0.5)}, {Name: "the bound B lowered by one step (5 slots)", Check: checkCor39Minus(ap.Faithful, 1)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/repair/split-delivery/cor-3.9-steps",
		// As its twin pops/cor-3.9/slots (the same runs since 2026-11-25).
		RecordedAt: map[props.Budget]props.Verdict{props.Large: props.Violated},
		Check:      checkCor39(ap.SplitDelivery, 1),
		Faults:     []props.Fault{{Name: "the bound B halved", Check: checkCor39(ap.SplitDelivery, 0.5)}, {Name: "the bound B lowered by one step (5 slots)", Check: checkCor39Minus(ap.SplitDelivery, 1)}}}))
}

// lemma33Instance draws a random partial permutation of POPS(g,g) whose
// conflict graph has maximum degree ≤ deg (greedy over a random order).
func lemma33Instance(g, deg int, rng interface{ IntN(int) int }) []int32 {
	n := g * g
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	src, tmp := make([]int, g), make([]int, g)
	dst := make([]int32, n)
	for i := range dst {
		dst[i] = perm.None
	}
	for _, s := range order {
		a, t := s/g, int(p[s])%g
		if src[a] < deg && tmp[t] < deg {
			src[a]++
			tmp[t]++
			dst[s] = p[s]
		}
	}
	return dst
}

// checkLemma33 counts runs that need more than stepScale·3/β steps (1 for
// the claim; ½ for the planted fault, the lemma's step bound halved).
func checkLemma33(stepScale float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return lemma33(env, stepScale) }
}

// lemma33Runs simulates Lemma 3.3's instances once per (budget, seed, α)
// and returns each run's step count (−1: did not complete); the claim and its
// planted fault judge the same runs.
func lemma33Runs(env props.Env, g, runs int, alpha float64, deg int) ([]int, error) {
	key := fmt.Sprintf("%d/%d/%d/%g", env.Budget, env.Seed, g, alpha)
	return lemma33Cache.get(key, func() ([]int, error) {
		return lemma33Simulate(env.Seed, g, runs, alpha, deg, lemma33Workers())
	})
}

var lemma33Cache onceMap[string, []int]

func lemma33(env props.Env, stepScale float64) props.Outcome {
	g := env.Budget.Pick(256, 1024, 1024)
	runs := env.Budget.Pick(200, 50, 5000)
	var ev []string
	verdict := props.Consistent
	for _, alpha := range []float64{0.5, 0.25} {
		beta := 1 - alpha
		deg := int(math.Floor(math.Pow(float64(g), alpha) + 1e-9))
		steps := int(math.Floor(stepScale*3/beta + 1e-9))
		bound := math.Pow(2, 3/beta) / float64(g)
		xs, err := lemma33Runs(env, g, runs, alpha, deg)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		fail, maxSeen := 0, 0
		for _, x := range xs {
			maxSeen = max(maxSeen, x)
			if x < 0 || x > steps {
				fail++
			}
		}
		// Exact binomial tail at Alpha/2 (two values of α are tested): a
		// true bound is reported inconsistent with probability ≤ Alpha.
		tail := 1.0
		if bound < 1 {
			tail = stats.BinomAtLeast(fail, runs, bound)
		}
		ev = append(ev, fmt.Sprintf("α=%.2f: degree ≤ %d, %d/%d runs needed more than %d steps (P(Bin(%d, %.3g) ≥ %d) = %.3g); bound 2^{3/β}/g = %.3g; longest run %d steps", alpha, deg, fail, runs, steps, runs, math.Min(bound, 1), fail, tail, bound, maxSeen))
		if fail > 0 && tail <= props.Alpha/2 {
			verdict = props.Inconsistent
		}
	}
	return props.Outcome{Verdict: verdict, Evidence: fmt.Sprintf("POPS(%d,%d): ", g, g) + strings.Join(ev, "; ")}
}

// meanSteps runs the router (variant v) on POPS(d,g) with random
// permutations, each run to completion under the experiments' guard
// (popsexp.StepLimit); a run that hits it makes the mean a lower bound, and
// is returned as an error so that the claim says inconclusive.
func meanSteps(env props.Env, tag uint64, v ap.Variant, d, g, runs int) (mean, se float64, err error) {
	xs, err := runSteps(env, tag, v, d, g, runs)
	if err != nil {
		return 0, 0, err
	}
	s := stats.Summarize(xs)
	return s.Mean, s.SD / math.Sqrt(float64(runs)), nil
}

// runSteps returns the step count of each of runs random permutations on
// POPS(d,g), every run to completion. The samples are simulated once per
// process for each (seed, tag, variant, shape, runs): a claim and its planted
// faults judge the same runs (callers must not modify the slice).
func runSteps(env props.Env, tag uint64, v ap.Variant, d, g, runs int) ([]float64, error) {
	return stepsRuns.get(stepsKey{env.Seed, tag, v, d, g, runs}, func() ([]float64, error) {
		return simulateSteps(env, tag, v, d, g, runs)
	})
}

type stepsKey struct {
	seed, tag  uint64
	v          ap.Variant
	d, g, runs int
}

// stepsRuns memoizes runSteps per key (not under one lock: claims of
// different shapes simulate concurrently).
var stepsRuns onceMap[stepsKey, []float64]

func simulateSteps(env props.Env, tag uint64, v ap.Variant, d, g, runs int) ([]float64, error) {
	sh := mpops.Shape{D: d, G: g}
	var e ap.Engine
	dst := make([]int32, sh.N())
	xs := make([]float64, runs)
	for r := range runs {
		rng := seeds.Rand(env.Seed, tag, uint64(d), uint64(g), uint64(r))
		// Split delivery takes the faithful router's stream (since
		// 2026-11-25): on the same choices the two take the same steps,
		// so pops/repair/split-delivery/cor-3.9-steps and its twin
		// pops/cor-3.9/slots judge the same runs and cannot disagree by
		// the luck of two streams.
		if v != ap.Faithful && v != ap.SplitDelivery {
			rng = seeds.Rand(env.Seed, tag, uint64(d), uint64(g), uint64(r), uint64(v))
		}
		perm.RandomInto(dst, rng)
		res, err := e.Run(sh, dst, rng, ap.Options{Variant: v, MaxSteps: popsexp.StepLimit(sh, ap.DefaultCEps), MaxTrace: 1})
		if err != nil {
			return nil, err
		}
		if !res.Completed {
			return nil, fmt.Errorf("POPS(%d,%d) run %d stopped after %d steps without finishing: the sample would only give bounds", d, g, r, res.Steps)
		}
		xs[r] = float64(res.Steps)
	}
	return xs, nil
}

// checkThm37 judges Theorem 3.7's O(log log g) growth from mean step
// counts along chains of squarings; extra(g) is added to every run's step
// count (0 for the claim; log₂ g for the planted Θ(log g) alternative).
func checkThm37(extra func(g int) float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return thm37(env, extra) }
}

func thm37(env props.Env, extra func(g int) float64) props.Outcome {
	chains := [][]int{{2, 4, 16, 256}}
	if env.Budget == props.Large {
		chains = append(chains, []int{8, 64, 4096})
	}
	z := stats.Z(props.Alpha)
	var ev []string
	verdict := props.Consistent
	for _, ch := range chains {
		m, se := make([]float64, len(ch)), make([]float64, len(ch))
		for i, g := range ch {
			runs := env.Budget.Pick(300, 1000, 2000)
			if g >= 256 {
				runs = env.Budget.Pick(60, 200, 500)
			}
			var err error
			if m[i], se[i], err = meanSteps(env, 37, ap.Faithful, g, g, runs); err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			m[i] += extra(g)
			env.Logf("thm-3.7: g=%d mean steps %.3f ± %.3f", g, m[i], se[i])
		}
		k := len(ch) - 1
		last, prev := m[k]-m[k-1], m[k-1]-m[k-2]
		seLast := math.Hypot(se[k], se[k-1])
		sePrev := math.Hypot(se[k-1], se[k-2])
		// Var(last − 2·prev): m[k-1] appears in both.
		seCombo := math.Sqrt(se[k]*se[k] + 9*se[k-1]*se[k-1] + 4*se[k-2]*se[k-2])
		zLog := (last - 2*prev) / seCombo
		zGrow := (last - prev) / math.Hypot(seLast, sePrev)
		ev = append(ev, fmt.Sprintf("g=%v: mean steps %.3f; increments per squaring %.3f then %.3f; z(last − 2·prev) = %.1f, z(last − prev) = %.1f", ch, m, prev, last, zLog, zGrow))
		switch {
		case zGrow > z:
			verdict = props.Inconsistent
		case zLog > -z && verdict == props.Consistent:
			verdict = props.Inconclusive
		}
	}
	return props.Outcome{Verdict: verdict, Evidence: strings.Join(ev, "; ") + fmt.Sprintf(" (critical |z| = %.2f)", z)}
}

// upperQuantile returns the smallest sample value with at most a fraction
// q of the sample above it (the empirical (1−q)-quantile).
func upperQuantile(xs []float64, q float64) float64 {
	ys := slices.Clone(xs)
	slices.Sort(ys)
	k := int(math.Floor(q * float64(len(ys)))) // values allowed above
	return ys[len(ys)-1-k]
}

// checkCor39 judges Corollary 3.9 by counting runs over the bound (scaled by
// boundScale: 1 for the claim, ½ for its planted fault). For the faithful
// router a bound in slots; for split delivery the same bound in steps
// (4d/g + mean_g), since its steps have more than 5 slots.
func checkCor39(v ap.Variant, boundScale float64) func(props.Env) props.Outcome {
	return cor39(v, boundScale, 0)
}

// checkCor39Minus is the check with the bound lowered by minus steps.
func checkCor39Minus(v ap.Variant, minus float64) func(props.Env) props.Outcome {
	return cor39(v, 1, minus)
}

func cor39(v ap.Variant, boundScale, minus float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := env.Budget.Pick(40, 200, 1000)
		maxG := env.Budget.Pick(16, 64, 64)
		type shape struct{ ratio, g int }
		var shapes []shape
		for _, ratio := range []int{4, 16} {
			for g := 2; g <= maxG; g *= 2 {
				shapes = append(shapes, shape{ratio, g})
			}
		}
		alpha := props.Alpha / float64(len(shapes))
		var ev []string
		verdict, worst, worstAt := props.Holds, 0.0, ""
		var first any
		for _, sh := range shapes {
			ratio, g := sh.ratio, sh.g
			ys, err := runSteps(env, 39, v, g, g, runs)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			mg := upperQuantile(ys, 1/float64(g))
			xs, err := runSteps(env, 39, v, ratio*g, g, runs)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			bound := boundScale*(popspaper.Corollary39Slots(ratio*g, g)/5+mg) - minus // in steps
			over := 0
			for _, x := range xs {
				if x > bound {
					over++
				}
			}
			q := 1 / float64(g)
			tail := stats.BinomAtLeast(over, runs, q)
			rate := float64(over) / float64(runs)
			if rate/q > worst || worstAt == "" {
				worst, worstAt = rate/q, fmt.Sprintf("d=%dg g=%d", ratio, g)
			}
			s := stats.Summarize(xs)
			unit, mul := "steps", 1.0
			if v == ap.Faithful {
				unit, mul = "slots", 5
			}
			ev = append(ev, fmt.Sprintf("d=%dg g=%d: %d/%d runs over B = %.1f %s (Q_g %.0f steps; mean %.1f, max %.0f; P(Bin(%d, 1/%d) ≥ %d) = %.2g)", ratio, g, over, runs, mul*bound, unit, mg, mul*s.Mean, mul*s.Max, runs, g, over, tail))
			if over > 0 && tail <= alpha && verdict == props.Holds {
				verdict = props.Violated
				first = map[string]any{"d": ratio * g, "g": g, "runs": runs, "over": over, "bound_steps": bound, "seed": env.Seed}
			}
		}
		head := fmt.Sprintf("%d runs per shape, each to completion; a shape fails when its exceedance count has tail ≤ α = %.2g (Alpha = %g over %d shapes); largest exceedance rate ÷ 1/g = %.2f at %s: ", runs, alpha, props.Alpha, len(shapes), worst, worstAt)
		return props.Outcome{Verdict: verdict, Evidence: head + strings.Join(ev, "; "), Counterexample: first, Slack: &worst}
	}
}
