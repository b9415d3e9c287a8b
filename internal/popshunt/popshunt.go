// Package popshunt registers the POPS hunt targets and the "pops-router"
// case kind:
//
//   - pops-steps: permutations of POPS(d,g) that maximize the randomized
//     router's mean step count over a fixed set of seeds (common random
//     numbers), from structured families, random sampling, then simulated
//     annealing with transposition moves; the best is then shrunk (fewer
//     packets, more fixed points) while its mean stays at least the value
//     found (hunt.ShrinkPartial: remove a packet, make one a fixed point),
//     so the saved case is a partial permutation; as many random
//     permutations as the search evaluated (before shrinking) give the
//     baseline reported beside it;
//   - pops-loss: a permutation and seed for which the faithful router loses a
//     packet (d > g), shrunk towards the identity by fixing swaps
//     (hunt.ShrinkPerm) while at least one packet is still lost.
//
// Shrinking makes at most --shrink-evals evaluations (default: as many as
// the search made, at least 2000; -1: none) and found_by says what it did
// ("shrunk from X to Y …, locally minimal after P passes" or "stopped").
//
// The router's coins make both metrics noisy, and the search keeps what is
// best on its own seeds, so its value (and random sampling's best, the
// largest of many noisy means) overfits them. Both targets then re-run
// their instances on --fresh-runs seeds (default 400) disjoint from the
// search's (hunt.Reevaluations; the case's "fresh" field): pops-steps the
// hunted best, the random-sampling best and the shrunk case; pops-loss the
// permutation found and the shrunk one (lost packets per run). Cost: 400
// runs per instance, ≈ 0.05 s CPU at POPS(16,4).
//
// Measured (seed 1; CPU time user+sys on the shared 2-core machine; the
// fresh means ± standard error over 400 fresh seeds):
//
//	routecheck hunt pops-steps --d 8 --g 8 --iters 2000
//	    mean steps 6.4375 (annealing) vs random 6.1875 at 2069 evaluations
//	    on the search's 16 seeds; fresh: hunted 5.35 ± 0.04 vs random best
//	    5.39 ± 0.04 — no measured gain (0.32 s)
//	routecheck hunt pops-steps --d 16 --g 4 --iters 2000
//	    20.19 vs random 19.19 at 2069 evaluations; fresh: hunted 16.41 ±
//	    0.13 vs random best 16.70 ± 0.13, the shrunk case 16.60 ± 0.13 —
//	    no measured gain (0.67 s; 0.62 s with --fresh-runs 0)
//	routecheck hunt pops-loss --d 6 --g 3
//	    the permutation found loses 6 packets on its seed, 1.90 ± 0.09 per
//	    run on fresh seeds; shrunk to the identity, 4 on that seed and
//	    2.32 ± 0.10 per run: losses at d > g are common, not rare
//
// The saved cases (testdata/hunt/, fresh figures added by `routecheck hunt
// refresh`, which has no best before shrinking to re-run): the 60 s hunt
// pops-steps-d16-g4-time60s.json (seed 2) saved 23.56 on its 16 seeds →
// 16.70 ± 0.14 fresh vs random best 20.25 → 16.63 ± 0.13 — no gain;
// pops-loss-d6-g3.json (the identity) 4 lost on its seed, 2.32 ± 0.10 per
// run fresh.
//
// A pops-router case replays on the slot model (not the fast engine), so a
// replay also re-checks the engine.
package popshunt

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	ap "routecheck/algos/pops"
	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	"routecheck/models/pops"
	ppops "routecheck/props/pops"
)

// Instance is the "pops-router" case instance: a shape, a permutation, the
// algorithm, and the seeds of the runs the metric averages over.
type Instance struct {
	D         int      `json:"d"`
	G         int      `json:"g"`
	Algorithm string   `json:"algorithm"`
	Perm      []int32  `json:"perm"`
	Seeds     []uint64 `json:"seeds"`
}

func (in Instance) validate() (pops.Shape, ap.Variant, error) {
	sh, err := pops.NewShape(in.D, in.G)
	if err != nil {
		return sh, 0, err
	}
	if err := ap.CheckShape(sh); err != nil {
		return sh, 0, err
	}
	v, err := ap.ParseVariant(in.Algorithm)
	if err != nil {
		return sh, 0, err
	}
	if len(in.Perm) != sh.N() {
		return sh, 0, fmt.Errorf("perm has %d entries, POPS(%d,%d) has n = %d processors", len(in.Perm), in.D, in.G, sh.N())
	}
	if err := perm.Validate(in.Perm, false); err != nil {
		return sh, 0, err
	}
	if len(in.Seeds) == 0 {
		return sh, 0, fmt.Errorf("seeds: need at least one seed")
	}
	return sh, v, nil
}

func init() {
	hunt.RegisterTarget(newStepsTarget())
	hunt.RegisterTarget(newLossTarget())
	hunt.RegisterReplayer("pops-router", replay)
	hunt.RegisterRefresher("pops-router", refresh)
}

// replay runs every seed on the slot model and recomputes the metric.
func replay(c hunt.Case) (hunt.Replayed, error) {
	in, err := hunt.DecodeInstance[Instance](c)
	if err != nil {
		return hunt.Replayed{}, err
	}
	sh, _, err := in.validate()
	if err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	report := fmt.Sprintf("%s on %v, %d seeds, on the slot model:\n", in.Algorithm, sh, len(in.Seeds))
	steps, lost := 0.0, 0.0
	bad := 0
	for _, s := range in.Seeds {
		r := ppops.RunPops(ppops.PopsInstance{D: in.D, G: in.G, Perm: in.Perm, Algorithm: in.Algorithm, Seed: s})
		if r.ModelErr != nil {
			return hunt.Replayed{Report: report}, fmt.Errorf("seed %d: %v", s, r.ModelErr)
		}
		steps += float64(r.Result.Steps)
		lost += float64(r.Result.Lost)
		flags := ""
		if c3 := r.Conflicts345(); c3 > 0 {
			flags += fmt.Sprintf(" conflicts in slots 3–5: %d;", c3)
			bad++
		}
		if r.Result.Lost > 0 || r.Result.Duplicated > 0 {
			flags += fmt.Sprintf(" lost %d, duplicated %d;", r.Result.Lost, r.Result.Duplicated)
		}
		if !r.Result.Completed {
			flags += " did not finish;"
		}
		if r.InvariantAt != "" {
			flags += " model invariant broken: " + r.InvariantAt
		}
		report += fmt.Sprintf("  seed %d: %d steps, %d delivered of %d, memory %v%s\n", s, r.Result.Steps, r.Result.Delivered, r.Packets, r.Result.MaxMem, flags)
	}
	var got float64
	switch c.Metric {
	case "mean steps":
		got = steps / float64(len(in.Seeds))
	case "lost packets":
		got = lost
	default:
		return hunt.Replayed{Report: report}, fmt.Errorf("metric %q unknown; allowed: mean steps, lost packets", c.Metric)
	}
	ok := math.Abs(got-c.Value) < 1e-9
	report += fmt.Sprintf("%s: %.4g (recorded %.4g) — %s\n", c.Metric, got, c.Value, hunt.Verdict(ok))
	return hunt.Replayed{Report: report, Value: got, Reproduced: ok}, nil
}

type shapeFlags struct {
	d, g, evals *int
	alg         *string
	shrink      hunt.ShrinkFlag
	fresh       hunt.FreshFlag
}

func (f *shapeFlags) define(fs *flag.FlagSet, d, g int, alg string) {
	f.d = fs.Int("d", d, "processors per group")
	f.g = fs.Int("g", g, "number of groups")
	f.evals = fs.Int("evals", 16, "seeds (runs) per evaluation of a permutation")
	f.alg = fs.String("algorithm", alg, "pops-rand-5slot or pops-rand-split-delivery")
	f.shrink.Define(fs)
	f.fresh.Define(fs)
}

func (f *shapeFlags) parse() (pops.Shape, ap.Variant, error) {
	sh, err := pops.NewShape(*f.d, *f.g)
	if err != nil {
		return sh, 0, fmt.Errorf("--d/--g: %v", err)
	}
	if err := ap.CheckShape(sh); err != nil {
		return sh, 0, fmt.Errorf("--d/--g: %v", err)
	}
	if sh.N() > 1<<16 {
		return sh, 0, fmt.Errorf("--d/--g: n = %d; hunting supports n ≤ 65536", sh.N())
	}
	v, err := ap.ParseVariant(*f.alg)
	if err != nil {
		return sh, 0, fmt.Errorf("--algorithm: %v", err)
	}
	if *f.evals < 1 || *f.evals > 10000 {
		return sh, 0, fmt.Errorf("--evals = %d: must be in [1, 10000]", *f.evals)
	}
	if err := hunt.CheckFlags(f.shrink, f.fresh); err != nil {
		return sh, 0, err
	}
	return sh, v, nil
}

// popsTarget is what the two targets share: the flags, and the methods
// that differ between them only in data.
type popsTarget struct {
	name, description string
	g                 int    // --g's default (--d's is 8, --algorithm's the faithful router)
	moves             string // the shrink's moves, for -h
	f                 shapeFlags
}

func (t *popsTarget) Name() string                 { return t.name }
func (t *popsTarget) Description() string          { return t.description }
func (t *popsTarget) DefineFlags(fs *flag.FlagSet) { t.f.define(fs, 8, t.g, ap.Faithful.String()) }
func (t *popsTarget) Shrinking() string            { return hunt.ShrinkHelp(t.moves) }

func (t *popsTarget) DefaultFile() string {
	return fmt.Sprintf("testdata/hunt/%s-d%d-g%d.json", t.name, *t.f.d, *t.f.g)
}

type stepsTarget struct{ popsTarget }

func newStepsTarget() *stepsTarget {
	return &stepsTarget{popsTarget{name: "pops-steps", g: 8,
		description: "permutations maximizing the randomized POPS router's mean step count, beside random sampling, both re-run on fresh seeds",
		moves:       "remove a packet, make a packet a fixed point: a partial permutation"}}
}

// families are the structured permutations tried first.
func families(sh pops.Shape) map[string][]int32 {
	n, d, g := sh.N(), sh.D, sh.G
	fam := map[string][]int32{"identity": perm.Identity(n)}
	rev, shift, trans := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range n {
		rev[i] = int32(n - 1 - i)
		shift[i] = int32((i + d) % n)
		a, k := i/d, i%d
		trans[i] = int32(a + k*g) // group a → residue class a: one temporary group per source group
	}
	fam["reverse"], fam["group-shift"], fam["transpose"] = rev, shift, trans
	// Same temporary group from every source group: processor k of every
	// group goes to residue class k mod g (worst for slot 2 if possible).
	st := make([]int32, n)
	used := make([]int, g)
	for i := range n {
		k := (i % d) % g
		st[i] = int32(k + used[k]*g)
		used[k]++
	}
	if perm.Validate(st, true) == nil {
		fam["same-temp-group"] = st
	}
	return fam
}

func (t *stepsTarget) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	sh, v, err := t.f.parse()
	if err != nil {
		return hunt.Case{}, err
	}
	sds := hunt.SearchSeeds(o.Seed, 0x5eed, *t.f.evals)
	var e ap.Engine
	run := func(p []int32, sd uint64) float64 {
		r, err := e.Run(sh, p, seeds.Rand(sd), ap.Options{Variant: v})
		if err != nil {
			panic("popshunt: " + err.Error())
		}
		return float64(r.Steps)
	}
	evals := 0
	eval := func(p []int32) float64 {
		evals++
		return hunt.MeanOver(sds, p, run)
	}
	best, bestVal, by := []int32(nil), -1.0, ""
	consider := func(p []int32, val float64, how string) {
		if val > bestVal {
			best, bestVal, by = slices.Clone(p), val, how
			o.Logf("  %-28s mean steps %.3f", how, val)
		}
	}
	fam := families(sh)
	for _, name := range []string{"identity", "reverse", "group-shift", "transpose", "same-temp-group"} {
		if p, ok := fam[name]; ok {
			consider(p, eval(p), "family "+name)
		}
	}
	rng := seeds.Rand(o.Seed, 0xa11)
	for i := range 64 {
		p := perm.Random(sh.N(), rng)
		consider(p, eval(p), fmt.Sprintf("random sample %d", i))
	}
	// Simulated annealing with transposition moves from the best so far.
	cur, curVal := slices.Clone(best), bestVal
	for it := range o.Iters {
		if o.Stop(ctx) {
			break
		}
		temp := 0.5 * (1 - o.Used(it, o.Iters))
		i, j := rng.IntN(sh.N()), rng.IntN(sh.N())
		cur[i], cur[j] = cur[j], cur[i]
		val := eval(cur)
		if val >= curVal || (temp > 0 && rng.Float64() < math.Exp((val-curVal)/temp)) {
			curVal = val
			consider(cur, val, fmt.Sprintf("annealing step %d", it))
		} else {
			cur[i], cur[j] = cur[j], cur[i]
		}
	}
	// The baseline: as many random permutations as the search evaluated
	// (before shrinking, which never lowers the value).
	hunted := evals
	randBest, randPerm := baseline(ctx, sh.N(), o.Seed, hunted, eval)
	o.Logf("  hunted %.3f vs random sampling %.3f at %d evaluations", bestVal, randBest, hunted)
	// Shrink: fewer packets, then more fixed points, while the mean stays
	// at least what was found (common random numbers keep eval exact).
	shrunk, val := best, bestVal
	var floor *float64
	by += hunt.ShrinkStep(ctx, o, t.f.shrink, hunted, func(sctx context.Context, cap int) ([]int32, hunt.ShrinkStats, error) {
		// eval does not fail today; ShrinkPartial's error is kept for the shared contract
		return hunt.ShrinkPartial(sctx, best, func(p []int32) (float64, error) { return eval(p), nil }, bestVal, cap)
	}, func(q []int32, st hunt.ShrinkStats) (string, error) {
		shrunk, val, floor = q, eval(q), hunt.Floor(bestVal)
		o.Logf("  shrunk from %d packets (%d not fixed points) to %d (%d; %v), mean steps %.3f (found %.3f)", hunt.Packets(best), hunt.Moved(best), hunt.Packets(shrunk), hunt.Moved(shrunk), st, val, bestVal)
		return fmt.Sprintf(", then shrunk from %d packets (%d not fixed points) to %d packets (%d not fixed points) keeping mean steps ≥ %.4g (%v)", hunt.Packets(best), hunt.Moved(best), hunt.Packets(shrunk), hunt.Moved(shrunk), bestVal, st), nil
	})
	by += fmt.Sprintf("; hunted %.6g vs best of %d random permutations %.6g", bestVal, hunted, randBest)
	// Fresh seeds: the hunted best, the random best and the shrunk case
	// re-run on seeds the search never saw (the search's overfit).
	perRun := func(p []int32, sd uint64) (float64, error) { return run(p, sd), nil }
	fresh, err := hunt.Reevaluations(o, t.f.fresh.Runs(), sds, hunt.FreshOf(perRun, bestVal, best, true),
		hunt.FreshOf(perRun, randBest, randPerm, randPerm != nil), hunt.FreshOf(perRun, val, shrunk, floor != nil))
	if err != nil {
		return hunt.Case{}, err
	}
	inst, _ := json.Marshal(Instance{D: sh.D, G: sh.G, Algorithm: v.String(), Perm: shrunk, Seeds: sds})
	return hunt.Case{Kind: "pops-router", Target: t.Name(), Metric: "mean steps", Value: val, FoundBy: by, Seed: o.Seed, RandomBest: hunt.Baseline(randBest), Evaluations: hunted, ShrinkFloor: floor, Fresh: fresh, Instance: inst}, nil
}

// baseline is pops-steps' random sampling: count random permutations of n
// drawn from the hunt's seed, the best by eval (the first of equals) and
// its value; ctx ends it early. refresh draws it again.
func baseline(ctx context.Context, n int, seed uint64, count int, eval func([]int32) float64) (float64, []int32) {
	return hunt.RandomBest(ctx, seeds.Rand(seed, 0xa12), count, func(rb *rand.Rand) []int32 { return perm.Random(n, rb) }, eval)
}

// refresh is the pops-router kind's hunt.Refresher: one run of the
// instance on the engine (steps or lost packets, as the targets count
// them), and for pops-steps its random baseline drawn again.
func refresh(c hunt.Case) (hunt.RefreshPlan, error) {
	in, err := hunt.DecodeInstance[Instance](c)
	if err != nil {
		return hunt.RefreshPlan{}, err
	}
	sh, v, err := in.validate()
	if err != nil {
		return hunt.RefreshPlan{}, fmt.Errorf("instance: %v", err)
	}
	var e ap.Engine
	run := func(p []int32, sd uint64) (float64, error) {
		r, err := e.Run(sh, p, seeds.Rand(sd), ap.Options{Variant: v})
		if err != nil {
			return 0, err
		}
		if c.Metric == "lost packets" {
			return float64(r.Lost), nil
		}
		return float64(r.Steps), nil
	}
	if c.Metric != "mean steps" && c.Metric != "lost packets" {
		return hunt.RefreshPlan{}, fmt.Errorf("metric %q unknown; allowed: mean steps, lost packets", c.Metric)
	}
	plan := hunt.RefreshPlan{SearchSeeds: in.Seeds, Run: func(sd uint64) (float64, error) { return run(in.Perm, sd) }}
	if c.Metric == "mean steps" {
		plan.Random = hunt.RandomPlan(in.Seeds, run, func(evals int, eval func([]int32) float64) (float64, []int32) {
			return baseline(context.Background(), sh.N(), c.Seed, evals, eval)
		})
	}
	return plan, nil
}

type lossTarget struct{ popsTarget }

func newLossTarget() *lossTarget {
	return &lossTarget{popsTarget{name: "pops-loss", g: 4,
		description: "a permutation and seed on which the faithful router loses a packet (d > g), shrunk; its losses per run on fresh seeds beside",
		moves:       "fixing swaps, keeping at least one packet lost"}}
}

func (t *lossTarget) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	sh, v, err := t.f.parse()
	if err != nil {
		return hunt.Case{}, err
	}
	var e ap.Engine
	lost := func(p []int32, sd uint64) int {
		r, err := e.Run(sh, p, seeds.Rand(sd), ap.Options{Variant: v})
		if err != nil {
			panic("popshunt: " + err.Error())
		}
		return r.Lost
	}
	rng := seeds.Rand(o.Seed, 0x1055)
	var found []int32
	var sd uint64
	samples := 0
	for it := 0; it < o.Iters && found == nil && !o.Stop(ctx); it++ {
		samples++
		p := perm.Random(sh.N(), rng)
		s := rng.Uint64()
		if lost(p, s) > 0 {
			found, sd = p, s
			o.Logf("  random sample %d loses %d packets", it, lost(p, s))
		}
	}
	if found == nil {
		return hunt.Case{}, fmt.Errorf("no loss found in %d random samples on %v with %s (losses need d > g and g ≥ 2)", o.Iters, sh, v)
	}
	// Shrink: make entries fixed points (fixing swaps) while a loss remains
	// (at least one packet lost, not as many as found: the claim broken is
	// "nothing is lost").
	before, by := hunt.Moved(found), "random sampling"
	hunted, huntedLost := found, lost(found, sd)
	var floor *float64
	by += hunt.ShrinkStep(ctx, o, t.f.shrink, samples, func(sctx context.Context, cap int) ([]int32, hunt.ShrinkStats, error) {
		// lost panics rather than fails; ShrinkPerm's error is kept for the shared contract
		return hunt.ShrinkPerm(sctx, found, func(p []int32) (float64, error) { return float64(lost(p, sd)), nil }, 1, cap)
	}, func(q []int32, st hunt.ShrinkStats) (string, error) {
		found, floor = q, hunt.Floor(1)
		o.Logf("  shrunk from %d to %d packets not fixed points (%v)", before, hunt.Moved(q), st)
		return fmt.Sprintf(", then shrunk from %d to %d packets not fixed points keeping a loss (%v)", before, hunt.Moved(q), st), nil
	})
	// Fresh seeds: how many packets the found permutation (and the shrunk
	// one) loses per run on seeds other than the one the search picked.
	perRun := func(p []int32, s uint64) (float64, error) { return float64(lost(p, s)), nil }
	value := float64(lost(found, sd))
	fresh, err := hunt.Reevaluations(o, t.f.fresh.Runs(), []uint64{sd}, hunt.FreshOf(perRun, float64(huntedLost), hunted, true),
		hunt.FreshInstance{}, hunt.FreshOf(perRun, value, found, floor != nil))
	if err != nil {
		return hunt.Case{}, err
	}
	inst, _ := json.Marshal(Instance{D: sh.D, G: sh.G, Algorithm: v.String(), Perm: found, Seeds: []uint64{sd}})
	return hunt.Case{Kind: "pops-router", Target: t.Name(), Metric: "lost packets", Value: value,
		FoundBy: by, Seed: o.Seed, ShrinkFloor: floor, Fresh: fresh, Instance: inst}, nil
}
