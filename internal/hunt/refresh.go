package hunt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Refresh (`routecheck hunt refresh FILE...`) adds the fresh-seed figures
// (Case.Fresh, fresh.go) to a case saved before hunts wrote them, without
// hunting again: the file's bytes stay as they are but for one member,
// "fresh", inserted before "instance" (or, when the file has one at another
// number of runs, replaced). What it re-runs:
//
//   - the case's own instance, on FreshSeeds(hunt_seed, runs, the
//     instance's seeds) — the seeds the hunt itself would have drawn — as
//     Fresh.Hunted when the case was not shrunk (then the instance is the
//     search's best), else as Fresh.Saved; the search's best before
//     shrinking is not in the file, so a shrunk case gets no Hunted;
//   - random sampling's best, regenerated: the target's baseline drawn
//     again from hunt_seed at the case's number of evaluations (the
//     evaluations field, or found_by's "best of N random …"), evaluated on
//     the instance's seeds; used only when it gives the recorded best
//     again (random_best exactly, or found_by's figure to its 6 digits),
//     else Note says what came out instead.
//
// Before anything the case is replayed as Cite does (a case whose replay
// does not reproduce its value is refused), and afterwards the written
// bytes are parsed back: every field but Fresh must be what it was. A case
// whose file already holds fresh figures at the same number of runs is
// checked against them and left byte-for-byte as it is when they agree (so
// a second refresh changes nothing); a disagreement is an error.

// RefreshPlan is what a case kind gives Refresh for one case.
type RefreshPlan struct {
	// SearchSeeds are the seeds the hunt compared instances on (the
	// instance's), which the fresh seeds avoid.
	SearchSeeds []uint64
	// Run is the case's metric on one run of its instance with the given
	// seed (its mean over SearchSeeds is the case's value).
	Run func(seed uint64) (float64, error)
	// Random draws the target's random baseline again: evals random
	// instances from the hunt's seed, as the target draws them, each
	// evaluated on SearchSeeds; it returns the best one's value there
	// (Search) and its per-run metric (Run). nil: the target has no
	// random baseline.
	Random func(evals int) (FreshInstance, error)
}

// Refresher builds a case's RefreshPlan; an error wrapping ErrNoCoins
// says the case's metric does not depend on seeds.
type Refresher func(c Case) (RefreshPlan, error)

// ErrNoCoins is wrapped by Refresh's error for a case whose metric uses no
// coins (its kind registers no refresher): its value is the same on every
// seed, so there is nothing to re-run on fresh ones.
var ErrNoCoins = errors.New("the metric uses no coins: its value is the same on every seed, no fresh figures to add")

var refreshers = map[string]Refresher{}

// RegisterRefresher adds the refresher of a case kind (one whose metric is
// a mean over random coins); it panics on a duplicate.
func RegisterRefresher(kind string, r Refresher) { register(refreshers, "refresher of kind", kind, r) }

// Refreshable reports whether the case kind's metric uses coins (it has a
// refresher): Refresh adds fresh figures to its cases.
func Refreshable(kind string) bool {
	mu.Lock()
	defer mu.Unlock()
	_, ok := refreshers[kind]
	return ok
}

// RefreshStatus says what Refresh did to a file.
type RefreshStatus int

const (
	// Added: the case had no fresh figures; they were inserted.
	Added RefreshStatus = iota
	// Replaced: the case had fresh figures at another number of runs.
	Replaced
	// Verified: the case had these very figures; its bytes are unchanged.
	Verified
)

func (s RefreshStatus) String() string {
	return [...]string{"fresh figures added", "fresh figures replaced", "fresh figures already there and reproduced; unchanged"}[s]
}

// Shrunk reports whether the case's instance is a shrunk one (not the
// search's best itself): it records a shrink_floor, or (cases saved before
// that field) its found_by says "then shrunk …" or "then shrinking …" (a
// failed shrink's ", not shrunk (…)" keeps the search's best).
func (c Case) Shrunk() bool {
	return c.ShrinkFloor != nil || strings.Contains(c.FoundBy, "then shrunk") || strings.Contains(c.FoundBy, "then shrinking")
}

// foundByBaseline reads "best of N random <things> X" at the end of found_by.
var foundByBaseline = regexp.MustCompile(`best of (\d+) random [^;0-9]*? (\S+)$`)

// Baseline is the case's random-sampling figure: the number of random
// samples (evals) and their best, from random_best and evaluations, else
// from found_by's last clause (cases saved before those fields; recorded is
// then that figure's text, "%.6g"). ok is false when the case records none.
func (c Case) Baseline() (evals int, best float64, recorded string, ok bool) {
	if c.RandomBest != nil && c.Evaluations > 0 {
		return c.Evaluations, *c.RandomBest, "", true
	}
	m := foundByBaseline.FindStringSubmatch(c.FoundBy)
	if m == nil {
		return 0, 0, "", false
	}
	n, err1 := strconv.Atoi(m[1])
	v, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil || n < 1 {
		return 0, 0, "", false
	}
	return n, v, m[2], true
}

// Refresh returns the bytes of the case file raw (file names it) with its
// fresh figures at runs fresh seeds, the figures, and what it did (see the
// comment at the top of this file). Errors: a case that does not replay
// (as Cite), a kind without coins (wrapping ErrNoCoins), a run that fails,
// recorded fresh figures at these runs that are not reproduced, or recorded
// ones the refresh could not re-run (the search's best before shrinking)
// at another number of runs. progress, when not nil, gets one line per
// instance re-run.
func Refresh(file string, raw []byte, runs int, progress func(format string, args ...any)) ([]byte, *Fresh, RefreshStatus, error) {
	if runs < 1 || runs > 1_000_000 {
		return nil, nil, 0, fmt.Errorf("--fresh-runs = %d: must be in [1, 1000000]", runs)
	}
	o := Options{Progress: progress}
	c, err := Cite(file, raw)
	if err != nil {
		return nil, nil, 0, err
	}
	mu.Lock()
	r, ok := refreshers[c.Kind]
	mu.Unlock()
	if !ok {
		return nil, nil, 0, fmt.Errorf("%s: case kind %s: %w", file, c.Kind, ErrNoCoins)
	}
	plan, err := r(c)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", file, err)
	}
	fs := FreshSeeds(c.Seed, runs, plan.SearchSeeds)
	f := &Fresh{Runs: runs}
	var notes []string
	v, err := Reevaluate(c.Value, fs, plan.Run)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: the saved instance: %v", file, err)
	}
	if c.Shrunk() {
		f.Saved = &v
		notes = append(notes, "no hunted: the search's best before shrinking is not in the case file")
	} else {
		f.Hunted = &v
	}
	o.Logf("  %s: the saved instance %.4g on the search's seeds, %.4g ± %.2g on %d fresh", file, v.Search, v.Fresh, v.SE, runs)
	if plan.Random != nil {
		evals, best, text, ok := c.Baseline()
		switch {
		case !ok:
			notes = append(notes, "no random: the case records no random baseline")
		default:
			ri, err := plan.Random(evals)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("%s: regenerating the random baseline: %v", file, err)
			}
			same := ri.Search == best
			if text != "" {
				same = fmt.Sprintf("%.6g", ri.Search) == text
			}
			if !same {
				notes = append(notes, fmt.Sprintf("no random: the case records a best of %g over %d random samples, the target's sampler drawn again from hunt_seed gives %g", best, evals, ri.Search))
				break
			}
			rv, err := Reevaluate(ri.Search, fs, ri.Run)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("%s: the random-sampling best: %v", file, err)
			}
			f.Random = &rv
			o.Logf("  %s: random sampling's best of %d (regenerated) %.4g on the search's seeds, %.4g ± %.2g fresh", file, evals, rv.Search, rv.Fresh, rv.SE)
		}
	}
	f.Note = strings.Join(notes, "; ")
	status := Added
	if old := c.Fresh; old != nil {
		if old.Runs == runs {
			if err := sameFresh(old, f); err != nil {
				return nil, nil, 0, fmt.Errorf("%s: its fresh figures at %d runs are not reproduced: %v", file, runs, err)
			}
			return raw, old, Verified, nil
		}
		if old.Hunted != nil && f.Hunted == nil {
			return nil, nil, 0, fmt.Errorf("%s: its fresh figures (%d runs) come from the hunt and include the search's best before shrinking, which a refresh cannot re-run; refresh with --fresh-runs %d to check them, or hunt again with --fresh-runs %d", file, old.Runs, old.Runs, runs)
		}
		status = Replaced
	}
	out, err := spliceFresh(raw, f)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %v", file, err)
	}
	if err := sameButFresh(file, raw, out, f); err != nil {
		return nil, nil, 0, err
	}
	return out, f, status, nil
}

// sameFresh compares recorded figures with recomputed ones: every figure
// the refresh computed must equal the recorded one exactly (the runs are
// deterministic); a recorded Hunted of a shrunk case, which it cannot
// re-run, is kept.
func sameFresh(old, f *Fresh) error {
	cmp := func(name string, a, b *FreshValue) error {
		if b == nil {
			return nil
		}
		if a == nil || *a != *b {
			return fmt.Errorf("%s: recorded %+v, recomputed %+v", name, a, *b)
		}
		return nil
	}
	return errors.Join(cmp("hunted", old.Hunted, f.Hunted), cmp("random", old.Random, f.Random), cmp("saved", old.Saved, f.Saved))
}

// spliceFresh puts f into the case file's top-level object as "fresh":
// over the existing member, or inserted before "instance", indented as the
// file's members are.
func spliceFresh(raw []byte, f *Fresh) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	freshAt, freshEnd, instAt := -1, -1, -1
	var instGap []byte
	for dec.More() {
		before := int(dec.InputOffset())
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		at := before + bytes.IndexByte(raw[before:], '"')
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		switch key {
		case "fresh":
			freshAt, freshEnd = at, int(dec.InputOffset())
		case "instance":
			instAt, instGap = at, bytes.TrimLeft(raw[before:at], ",")
		}
	}
	if instAt < 0 {
		return nil, fmt.Errorf("no \"instance\" member")
	}
	indent := instGap[bytes.LastIndexByte(instGap, '\n')+1:]
	b, err := json.MarshalIndent(f, string(indent), "  ")
	if err != nil {
		return nil, err
	}
	member := append([]byte(`"fresh": `), b...)
	var out []byte
	if freshAt >= 0 {
		out = append(append(append(out, raw[:freshAt]...), member...), raw[freshEnd:]...)
	} else {
		out = append(append(append(append(append(out, raw[:instAt]...), member...), ','), instGap...), raw[instAt:]...)
	}
	return out, nil
}

// sameButFresh parses the written bytes back: Fresh must be f and every
// other field what raw holds.
func sameButFresh(file string, raw, out []byte, f *Fresh) error {
	a, err := Parse(file, raw)
	if err != nil {
		return err
	}
	b, err := Parse(file, out)
	if err != nil {
		return fmt.Errorf("%s: the refreshed case does not parse: %v", file, err)
	}
	if b.Fresh == nil || !reflect.DeepEqual(*b.Fresh, *f) {
		return fmt.Errorf("%s: the refreshed case's fresh figures read back as %+v, not %+v", file, b.Fresh, f)
	}
	a.Fresh, b.Fresh = nil, nil
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("%s: refreshing changed a field other than fresh", file)
	}
	return nil
}

// RandomPlan is RefreshPlan.Random for a target whose metric is a mean
// over seeds: draw is the target's random baseline (the best of evals
// instances by eval, drawn from the case's hunt_seed as the hunt draws
// them), eval the mean of run over searchSeeds. The first error of a run
// is returned, after the baseline (whose figures are then not used).
func RandomPlan[T any](searchSeeds []uint64, run func(x T, seed uint64) (float64, error), draw func(evals int, eval func(T) float64) (float64, T)) func(evals int) (FreshInstance, error) {
	return func(evals int) (FreshInstance, error) {
		var runErr error
		once := func(x T, sd uint64) float64 {
			v, err := run(x, sd)
			if err != nil && runErr == nil {
				runErr = err
			}
			return v
		}
		best, x := draw(evals, func(x T) float64 { return MeanOver(searchSeeds, x, once) })
		if runErr != nil {
			return FreshInstance{}, runErr
		}
		return FreshOf(run, best, x, true), nil
	}
}

// RandomBest is a target's random sampling: count instances drawn by draw
// from rb, the best by eval (the first of equals) and its value (−Inf and
// the zero T when none is drawn); ctx ends it early. A hunt reports it
// beside its own best, and Refresh draws it again from the same stream.
func RandomBest[T any](ctx context.Context, rb *rand.Rand, count int, draw func(*rand.Rand) T, eval func(T) float64) (float64, T) {
	best, bestX := math.Inf(-1), *new(T)
	for i := 0; i < count && ctx.Err() == nil; i++ {
		x := draw(rb)
		if v := eval(x); v > best {
			best, bestX = v, x
		}
	}
	return best, bestX
}
