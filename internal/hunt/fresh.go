package hunt

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"routecheck/internal/seeds"
)

// Fresh seeds: a target whose metric is a mean over random coins (a
// randomized router run on fixed seeds, common random numbers) compares
// instances on those seeds and keeps the best, so the value it reports is
// selected on their noise and overfits them; so is random sampling's best,
// the largest of K noisy means. After the search such a target re-runs the
// hunted best, the random-sampling best (and the saved instance, when
// shrinking changed it) on --fresh-runs seeds disjoint from the search's,
// and records both figures in Case.Fresh: the value on the search's seeds
// and the mean on the fresh ones with its standard error. The fresh means
// are the honest hunted-vs-random figure; a deterministic metric's fresh
// value equals its search value.

// FreshValue is one instance's metric on the search's seeds and on fresh ones.
type FreshValue struct {
	// Search is the value on the search's seeds (what the search compared).
	Search float64 `json:"search"`
	// Fresh is the mean of the per-run metric over the fresh runs, and SE
	// its standard error (sample standard deviation / √runs; 0 when every
	// run gave the same value).
	Fresh float64 `json:"fresh"`
	SE    float64 `json:"se"`
}

// Fresh is Case.Fresh: the re-evaluation on fresh seeds.
type Fresh struct {
	// Runs is the number of fresh runs (seeds) per instance.
	Runs int `json:"runs"`
	// Hunted is the search's best instance (before shrinking), Random the
	// best of random sampling (nil: the target has no baseline), Saved the
	// case's instance when shrinking changed it (nil: it is Hunted's).
	// A hunt always sets Hunted; `routecheck hunt refresh` (refresh.go)
	// leaves it nil for a shrunk case, whose file does not hold the
	// search's best before shrinking, and says so in Note.
	Hunted *FreshValue `json:"hunted,omitempty"`
	Random *FreshValue `json:"random,omitempty"`
	Saved  *FreshValue `json:"saved,omitempty"`
	// Note, written by a refresh only, says what it could not re-run
	// (empty when the refresh gives what the hunt itself would have).
	Note string `json:"note,omitempty"`
}

// String is the one-line summary the hunt command prints.
func (f Fresh) String() string {
	one := func(name string, v FreshValue) string {
		return fmt.Sprintf("%s %.4g on the search's seeds, %.4g ± %.2g fresh", name, v.Search, v.Fresh, v.SE)
	}
	var parts []string
	if f.Hunted != nil {
		parts = append(parts, one("hunted", *f.Hunted))
	}
	if f.Random != nil {
		parts = append(parts, one("random best", *f.Random))
	}
	if f.Saved != nil {
		parts = append(parts, one("saved (shrunk)", *f.Saved))
	}
	s := fmt.Sprintf("on %d fresh seeds (standard errors): %s", f.Runs, strings.Join(parts, "; "))
	if f.Note != "" {
		s += " (" + f.Note + ")"
	}
	return s
}

// DefaultFreshRuns is --fresh-runs' default: the standard error of a fresh
// mean is the per-run standard deviation / 20.
const DefaultFreshRuns = 400

// FreshFlag is the --fresh-runs flag of the targets whose metric has coins.
type FreshFlag struct{ intFlag }

// Define adds --fresh-runs to fs.
func (f *FreshFlag) Define(fs *flag.FlagSet) {
	f.n = fs.Int("fresh-runs", DefaultFreshRuns, "after the search, re-run the hunted best, the random-sampling best and the saved instance on this many fresh seeds (disjoint from the search's, derived from --seed) and report their means with standard errors: the search's own seeds overfit (cost: this many runs per instance, 2–3 instances; 0: none)")
}

// Check validates the flag's value.
func (f FreshFlag) Check() error {
	return f.check("fresh-runs", 0, 1_000_000, " (0: no fresh re-evaluation)")
}

// Runs is the flag's value (DefaultFreshRuns when it was not defined).
func (f FreshFlag) Runs() int { return f.value(DefaultFreshRuns) }

// SearchSeeds are the n seeds a target's search evaluates every instance
// on (common random numbers): seeds.Derive(seed, tag, i) for i < n, tag
// the target's own.
func SearchSeeds(seed, tag uint64, n int) []uint64 {
	sds := make([]uint64, n)
	for i := range sds {
		sds[i] = seeds.Derive(seed, tag, uint64(i))
	}
	return sds
}

// MeanOver is the mean of run(x, seed) over seeds, summed in their order
// (the metric of a target that averages runs on its search's seeds).
func MeanOver[T any](sds []uint64, x T, run func(x T, seed uint64) float64) float64 {
	s := 0.0
	for _, sd := range sds {
		s += run(x, sd)
	}
	return s / float64(len(sds))
}

// freshTag keeps fresh seeds on their own derivation path.
const freshTag = 0xf4e5

// FreshSeeds returns runs seeds derived from seed (the hunt's --seed) on a
// path of their own, none of them equal to any of avoid (the search's
// seeds): a collision, which the 64-bit derivation makes all but
// impossible, is skipped, so the result is disjoint from avoid by
// construction. Deterministic in (seed, runs, avoid).
func FreshSeeds(seed uint64, runs int, avoid []uint64) []uint64 {
	used := make(map[uint64]bool, len(avoid)+runs)
	for _, a := range avoid {
		used[a] = true
	}
	out := make([]uint64, 0, runs)
	for i := uint64(0); len(out) < runs; i++ {
		s := seeds.Derive(seed, freshTag, i)
		if !used[s] {
			used[s] = true
			out = append(out, s)
		}
	}
	return out
}

// MeanSE is the mean of xs and its standard error (sample standard
// deviation, n − 1 in the denominator, over √n; 0 for fewer than two
// values). Both are computed on the values less the first, so equal values
// give exactly that value and SE 0 (no rounding residue). It panics on an
// empty slice.
func MeanSE(xs []float64) (mean, se float64) {
	if len(xs) == 0 {
		panic("hunt: MeanSE of no values")
	}
	x0, d := xs[0], 0.0
	for _, x := range xs {
		d += x - x0
	}
	d /= float64(len(xs))
	if len(xs) < 2 {
		return x0, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - x0 - d) * (x - x0 - d)
	}
	return x0 + d, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// Reevaluate is one instance's FreshValue: search is its value on the
// search's seeds, run its metric on one run with the given seed.
func Reevaluate(search float64, fresh []uint64, run func(seed uint64) (float64, error)) (FreshValue, error) {
	xs := make([]float64, len(fresh))
	for i, s := range fresh {
		v, err := run(s)
		if err != nil {
			return FreshValue{}, fmt.Errorf("fresh seed %d: %v", s, err)
		}
		xs[i] = v
	}
	m, se := MeanSE(xs)
	return FreshValue{Search: search, Fresh: m, SE: se}, nil
}

// FreshInstance is one instance to re-evaluate: its value on the search's
// seeds and its per-run metric.
type FreshInstance struct {
	Search float64
	Run    func(seed uint64) (float64, error)
}

// FreshOf is instance x as a FreshInstance: search its value on the
// search's seeds, run(x, seed) its metric on one run. With ok false it is
// the zero FreshInstance (Run nil), which Reevaluations skips: no random
// best, or no shrunk instance beside the hunted one.
func FreshOf[T any](run func(x T, seed uint64) (float64, error), search float64, x T, ok bool) FreshInstance {
	if !ok {
		return FreshInstance{}
	}
	return FreshInstance{Search: search, Run: func(seed uint64) (float64, error) { return run(x, seed) }}
}

// Reevaluations builds Case.Fresh: runs fresh seeds (FreshSeeds(seed, runs,
// avoid)) for the hunted best, the random-sampling best (Run nil: none) and
// the saved instance (Run nil: the same as the hunted best). runs 0: nil.
// Progress goes to o.
func Reevaluations(o Options, runs int, avoid []uint64, hunted, random, saved FreshInstance) (*Fresh, error) {
	if runs <= 0 {
		return nil, nil
	}
	fs := FreshSeeds(o.Seed, runs, avoid)
	f := &Fresh{Runs: runs}
	h, err := Reevaluate(hunted.Search, fs, hunted.Run)
	if err != nil {
		return nil, fmt.Errorf("hunted best: %v", err)
	}
	f.Hunted = &h
	if random.Run != nil {
		v, err := Reevaluate(random.Search, fs, random.Run)
		if err != nil {
			return nil, fmt.Errorf("random-sampling best: %v", err)
		}
		f.Random = &v
	}
	if saved.Run != nil {
		v, err := Reevaluate(saved.Search, fs, saved.Run)
		if err != nil {
			return nil, fmt.Errorf("saved instance: %v", err)
		}
		f.Saved = &v
	}
	o.Logf("  %s", f)
	return f, nil
}
