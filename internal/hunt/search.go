package hunt

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// Family is a named structured instance a search tries first.
type Family struct {
	Name string
	Perm []int32
}

// PermSearch is the network-agnostic search over permutations of 0…N−1
// that the permutation targets share: the structured Families in order,
// then Samples uniformly random permutations, then Options.Iters moves of
// simulated annealing from the best so far, split between Restarts + 1 runs
// (the moves and, with a Deadline, the time)
// (a move swaps the targets of two inputs; a worse move is accepted with
// probability exp(Δ/T), T falling linearly from 5% of the run's starting
// value to 0), then the random baseline: as
// many uniformly random permutations as the search evaluated, whose best is
// reported beside the hunted best so the search's value is measured;
// then, with Shrink, the best is shrunk (see ShrinkPerm).
//
// Eval must be deterministic in its argument (common random numbers) and
// must not keep it. The search stops early at Options.Stop; the baseline
// stops early only when ctx is done.
type PermSearch struct {
	N        int
	Families []Family
	Samples  int
	Eval     func(p []int32) (float64, error)
	// Metric, when set, maps Eval's objective to the reported metric; it
	// must be non-decreasing (an objective may add a plateau guide below
	// the metric's resolution, e.g. a count plus a fraction). Nil: the
	// objective is the metric.
	Metric func(objective float64) float64
	// Restarts splits the annealing moves between Restarts + 1 runs: the
	// first from the best so far, each later one from a fresh uniformly
	// random permutation (its first evaluation). 0: one run.
	Restarts int
	// What names the instances in progress lines ("permutations" if empty).
	What string
	// Shrink, when set, shrinks the best permutation after the baseline
	// with ShrinkPerm (fixing swaps) while the metric stays ≥ the hunted
	// value, within the flag's evaluation cap (ShrinkFlag.Cap of the
	// search's evaluations) and Options.ShrinkTime; nil: no shrinking. An
	// evaluation error while shrinking keeps the unshrunk best (found_by
	// says so; see ShrinkFailed).
	Shrink *ShrinkFlag
}

// PermResult is what a PermSearch found.
type PermResult struct {
	Best    []int32
	Value   float64
	FoundBy string // the stage that found Best, then the baseline
	// RandomBest is the best of Evaluations random permutations (−Inf when
	// ctx ended the baseline before its first sample).
	RandomBest  float64
	Evaluations int
	// RandomPerm is the random permutation that reached RandomBest (nil
	// when none was evaluated), for re-running it on fresh seeds.
	RandomPerm []int32
	// Hunted is the metric of the best permutation the search found; Value
	// is Best's, which after shrinking may be higher (never lower).
	Hunted float64
	// MovedBefore is the number of packets of the search's best that were
	// not fixed points (Best's is Moved(Best)), and Shrunk what shrinking
	// did (zero: not shrunk).
	MovedBefore int
	Shrunk      ShrinkStats
}

// ShrinkFloor is Case.ShrinkFloor for r: the hunted value when Best was
// shrunk, nil when not.
func (r PermResult) ShrinkFloor() *float64 {
	if r.Shrunk.Passes == 0 {
		return nil
	}
	return Floor(r.Hunted)
}

// Run searches with the streams derived from o.Seed and tag. An error
// from Eval ends the search and is returned.
func (s PermSearch) Run(ctx context.Context, o Options, tag uint64) (PermResult, error) {
	what := s.What
	if what == "" {
		what = "permutations"
	}
	evals := 0
	var evalErr error
	eval := func(p []int32) float64 {
		if evalErr != nil {
			return math.Inf(-1)
		}
		evals++
		v, err := s.Eval(p)
		if err != nil {
			evalErr = err
			return math.Inf(-1)
		}
		return v
	}
	var best []int32
	bestVal, by := math.Inf(-1), ""
	consider := func(p []int32, v float64, how string) {
		if v > bestVal {
			best, bestVal, by = slices.Clone(p), v, how
			o.Logf("  %-28s %.4f", how, v)
		}
	}
	for _, f := range s.Families {
		if o.Stop(ctx) {
			break
		}
		consider(f.Perm, eval(f.Perm), "family "+f.Name)
	}
	rng := seeds.Rand(o.Seed, tag, 1)
	for i := 0; i < s.Samples && !o.Stop(ctx) && evalErr == nil; i++ {
		p := perm.Random(s.N, rng)
		consider(p, eval(p), fmt.Sprintf("random sample %d", i))
	}
	if evalErr != nil {
		return PermResult{}, evalErr
	}
	if best == nil {
		return PermResult{}, fmt.Errorf("nothing evaluated: give --samples ≥ 1, keep --families, or allow more --time")
	}
	runs := s.Restarts + 1
	for r := 0; r < runs && !o.Stop(ctx) && evalErr == nil; r++ {
		share := o.Iters / runs
		if r < o.Iters%runs {
			share++
		}
		ro := o.Share(runs - r)
		if r == 0 {
			Anneal(ctx, ro, share, rng, slices.Clone(best), bestVal, eval, consider, "annealing")
			continue
		}
		p := perm.Random(s.N, rng)
		v := eval(p)
		consider(p, v, fmt.Sprintf("restart %d start", r))
		Anneal(ctx, ro, share-1, rng, p, v, eval, consider, fmt.Sprintf("restart %d step", r))
	}
	if evalErr != nil {
		return PermResult{}, evalErr
	}
	hunted := evals
	rb := seeds.Rand(o.Seed, tag, 2)
	randBest, randPerm := math.Inf(-1), []int32(nil)
	for i := 0; i < hunted && ctx.Err() == nil; i++ {
		p := perm.Random(s.N, rb)
		if v := eval(p); v > randBest {
			randBest, randPerm = v, p
		}
	}
	if evalErr != nil {
		return PermResult{}, evalErr
	}
	metric := func(v float64) float64 {
		if s.Metric != nil && !math.IsInf(v, -1) {
			return s.Metric(v)
		}
		return v
	}
	bestVal, randBest = metric(bestVal), metric(randBest)
	o.Logf("  hunted %.4f vs random sampling %.4f at %d evaluations", bestVal, randBest, hunted)
	res := PermResult{Best: best, Value: bestVal, Hunted: bestVal, RandomBest: randBest, Evaluations: hunted, RandomPerm: randPerm, MovedBefore: Moved(best)}
	if s.Shrink != nil {
		ev := func(p []int32) (float64, error) {
			v, err := s.Eval(p)
			return metric(v), err
		}
		by += ShrinkStep(ctx, o, *s.Shrink, hunted, func(sctx context.Context, cap int) ([]int32, ShrinkStats, error) {
			return ShrinkPerm(sctx, best, ev, bestVal, cap)
		}, func(q []int32, st ShrinkStats) (string, error) {
			v, err := ev(q)
			if err != nil {
				return "", err
			}
			res.Best, res.Value, res.Shrunk = q, v, st
			o.Logf("  shrunk from %d to %d packets not fixed points (%v), value %.4f (hunted %.4f)", res.MovedBefore, Moved(q), st, v, bestVal)
			return ShrunkFixed(res.MovedBefore, Moved(q), bestVal, st), nil
		})
	}
	by += fmt.Sprintf("; hunted %.6g vs best of %d random %s %.6g", bestVal, hunted, what, randBest)
	res.FoundBy = by
	return res, nil
}

// Anneal runs iters transposition moves of simulated annealing from cur
// (changed in place) with value curVal, drawing from rng: a move swaps the
// targets of two inputs (i = j draws again at the cost of a move, without
// an evaluation); a worse move is accepted with probability exp(Δ/T), T
// falling linearly (o.Used) from 5% of max(|curVal|, 10⁻³) to 0. Every
// accepted move goes to consider with the label "<label> <move>". It stops
// early at o.Stop.
func Anneal(ctx context.Context, o Options, iters int, rng *rand.Rand, cur []int32, curVal float64, eval func([]int32) float64, consider func([]int32, float64, string), label string) {
	n := len(cur)
	scale := math.Max(math.Abs(curVal), 1e-3) * 0.05
	for it := 0; it < iters && !o.Stop(ctx); it++ {
		temp := scale * (1 - o.Used(it, iters))
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		cur[i], cur[j] = cur[j], cur[i]
		v := eval(cur)
		if v >= curVal || (temp > 0 && rng.Float64() < math.Exp((v-curVal)/temp)) {
			curVal = v
			consider(cur, v, fmt.Sprintf("%s %d", label, it))
		} else {
			cur[i], cur[j] = cur[j], cur[i]
		}
	}
}

// DefaultSamples is --samples' default.
const DefaultSamples = 64

// SamplesFlag is the --samples flag of the targets that sample random
// instances before their search moves.
type SamplesFlag struct{ intFlag }

// Define adds --samples to fs; help says what is sampled before what
// (e.g. "random permutations sampled before annealing").
func (f *SamplesFlag) Define(fs *flag.FlagSet, help string) {
	f.n = fs.Int("samples", DefaultSamples, help)
}

// Check validates the flag's value.
func (f SamplesFlag) Check() error { return f.check("samples", 0, 100_000, "") }

// N is the flag's value (DefaultSamples when it was not defined).
func (f SamplesFlag) N() int { return f.value(DefaultSamples) }

// intFlag is an int flag's value as Define set it (nil before), for the
// flag types of this package.
type intFlag struct{ n *int }

// value is the flag's value, def when the flag was not defined.
func (f intFlag) value(def int) int {
	if f.n == nil {
		return def
	}
	return *f.n
}

// check reports a value outside [lo, hi]: "--name = v: must be in
// [lo, hi]" and note.
func (f intFlag) check(name string, lo, hi int, note string) error {
	if f.n != nil && (*f.n < lo || *f.n > hi) {
		return fmt.Errorf("--%s = %d: must be in [%d, %d]%s", name, *f.n, lo, hi, note)
	}
	return nil
}

// CheckFlags returns the first error of the flags' checks, in order (nil
// when every value is allowed).
func CheckFlags(flags ...interface{ Check() error }) error {
	for _, f := range flags {
		if err := f.Check(); err != nil {
			return err
		}
	}
	return nil
}

// FixingSwaps names ShrinkPerm's moves for a target's ShrinkHelp.
const FixingSwaps = "fixing swaps: p[i] = i, the packet that went to i taking the old destination"

// ShrunkFixed is the found_by clause of a permutation shrunk by fixing
// swaps (ShrinkPerm) from before to after packets not fixed points, its
// metric kept ≥ floor.
func ShrunkFixed(before, after int, floor float64, st ShrinkStats) string {
	return fmt.Sprintf(", then shrunk from %d to %d packets not fixed points keeping the value ≥ %.6g (%v)", before, after, floor, st)
}

// Baseline returns a pointer to v for Case.RandomBest, nil when v is not
// finite (no baseline sample was evaluated).
func Baseline(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}
