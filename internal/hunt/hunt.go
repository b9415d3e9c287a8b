// Package hunt is the network-agnostic part of `routecheck hunt` and
// `routecheck replay`: targets (searches for instances that maximize a
// metric or break a claim) and case files (what a search saves, replayable
// by `routecheck replay FILE`), with the pieces targets share: a search
// over permutations (PermSearch, its annealing Anneal), one shrinker for
// every instance shape (ShrinkPartial, ShrinkPerm, ShrinkLists,
// ShrinkSublists) and the shrink step that runs it after a search
// (ShrinkStep, capped by --shrink-evals through ShrinkFlag), the fresh-seed
// re-runs (FreshOf, Reevaluations; RandomPlan for a refresh), the flags
// --samples, --shrink-evals and --fresh-runs (SamplesFlag, ShrinkFlag,
// FreshFlag, CheckFlags), and a replayer's head and tail (DecodeCase,
// DecodeOne, Verdict). Network packages register targets and case kinds
// (see internal/popshunt); a kind's replayer returns what it measured
// (Replayed). Claims that cite a hunted case in their evidence replay it
// with Cite and report Case.Versus (cite.go); a case whose replay gives
// another value than it records comes back with a NotReproduced, and the
// claim judges the replayed value. Refresh (refresh.go, `routecheck hunt
// refresh FILE...`) adds the fresh-seed figures (fresh.go) to a case saved
// without them, re-running only its instance and its random baseline.
package hunt

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Case is a saved, replayable instance.
type Case struct {
	// Kind selects the replayer (e.g. "pops-router").
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
	// Command is the command line that produced the case, when it was
	// written into the file (informative; Replay does not read it).
	Command string `json:"command,omitempty"`
	// Metric names what Value measures; Replay recomputes it.
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
	// FoundBy says which search stage found the case.
	FoundBy string `json:"found_by,omitempty"`
	Seed    uint64 `json:"hunt_seed,omitempty"`
	// Router names the router a conformance suite (props/<net>test) ran
	// when it wrote the case; the kind's replayer runs it when it is one of
	// routecheck's and otherwise says so and runs the paper's algorithm.
	Router string `json:"router,omitempty"`
	// Broke is what that router broke on the instance (Value of them).
	Broke []Broken `json:"broke,omitempty"`
	// RandomBest is the best value of random sampling at the same number of
	// evaluations as the hunt (nil: the target reports no baseline), and
	// Evaluations the number of metric evaluations the hunt made (0:
	// not reported). Both are informative; Replay does not check them.
	RandomBest  *float64 `json:"random_best,omitempty"`
	Evaluations int      `json:"evaluations,omitempty"`
	// ShrinkFloor, for a shrunk case, is the value the shrink kept its
	// metric at or above (the hunted value, in Value's units unless found_by
	// says otherwise); Value may be higher. A move the shrink rejected
	// brings the metric below it. nil: not shrunk. Informative; Replay does
	// not check it.
	ShrinkFloor *float64 `json:"shrink_floor,omitempty"`
	// Fresh, for a target whose metric is a mean over random coins, is the
	// hunted best, the random-sampling best and the saved instance re-run
	// on seeds disjoint from the search's (fresh.go): Value and RandomBest
	// are selected on the search's seeds and overfit them, the fresh means
	// do not. nil: the metric has no coins, or --fresh-runs 0.
	// Informative; Replay does not check it.
	Fresh *Fresh `json:"fresh,omitempty"`
	// Instance is the kind-specific instance.
	Instance json.RawMessage `json:"instance"`
	// Path is the file the case was loaded from ("" when built in memory).
	Path string `json:"-"`
}

// Broken is one property a router broke: its name, the step where it
// broke (−1: not tied to a step) and the suite's message.
type Broken struct {
	Property string `json:"property"`
	Step     int    `json:"step"`
	Message  string `json:"message,omitempty"`
}

// Options are the flags every target shares.
type Options struct {
	Seed  uint64
	Iters int
	// Deadline, when not zero, ends the search (not the random baseline
	// that follows it) at that time, as well as Iters; see Stop.
	Deadline time.Time
	// ShrinkTime, when not zero, bounds the shrink that follows the search
	// and its baseline: it stops that long after it starts (the result is
	// then valid but not shown minimal); see ShrinkContext.
	ShrinkTime time.Duration
	// Begin is when the search (or this share of it) started; with
	// Deadline it lets an annealing schedule cool with time (see Used).
	Begin time.Time
	// Progress receives human-readable progress lines.
	Progress func(format string, args ...any)
}

func (o Options) logf(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(format, args...)
	}
}

// Stop reports whether a search loop should end: ctx is done (an
// interrupt) or the Deadline has passed. A target's random baseline, which
// must match the number of evaluations the search made, checks ctx alone.
func (o Options) Stop(ctx context.Context) bool {
	return ctx.Err() != nil || !o.Deadline.IsZero() && !time.Now().Before(o.Deadline)
}

// Used is the fraction of the budget spent after it of iters moves: it/iters,
// or the fraction of the time from Begin to Deadline if that is larger (so
// an annealing run given --time and no --iters still cools). In [0, 1].
func (o Options) Used(it, iters int) float64 {
	f := 0.0
	if iters > 0 {
		f = float64(it) / float64(iters)
	}
	if !o.Deadline.IsZero() && !o.Begin.IsZero() {
		if total := o.Deadline.Sub(o.Begin); total > 0 {
			f = max(f, float64(time.Since(o.Begin))/float64(total))
		}
	}
	return min(max(f, 0), 1)
}

// Share returns o for the next of k runs that split what is left of the
// time: Begin is now and, with a Deadline, the Deadline is a k-th of the
// remaining time away. Without a Deadline only Begin changes.
func (o Options) Share(k int) Options {
	now := time.Now()
	o.Begin = now
	if !o.Deadline.IsZero() && k > 1 {
		o.Deadline = now.Add(o.Deadline.Sub(now) / time.Duration(k))
	}
	return o
}

// Logf reports progress when a sink is set.
func (o Options) Logf(format string, args ...any) { o.logf(format, args...) }

// Target is a search.
type Target interface {
	Name() string
	Description() string
	// DefineFlags adds the target's own flags; Hunt reads them after parsing.
	DefineFlags(fs *flag.FlagSet)
	// Hunt searches and returns the best case found; an error for bad flags
	// should say which flag and what is allowed.
	Hunt(ctx context.Context, o Options) (Case, error)
	// DefaultFile is where the case is saved when --out is not given.
	DefaultFile() string
}

// Replayed is what a replay of a case measured.
type Replayed struct {
	// Report is the text `routecheck replay` prints (on an error, what was
	// done before it).
	Report string
	// Value is the case's metric as the replay measured it (meaningless
	// when the replayer returned an error); NaN for a kind registered with
	// RegisterKind, whose replayer does not report it.
	Value float64
	// Reproduced says the replay gave the recorded value (and, for a kind
	// whose replayer runs two implementations, that they agreed).
	Reproduced bool
}

// Replayer re-runs a case and says what it measured.
type Replayer func(c Case) (Replayed, error)

var (
	mu        sync.Mutex
	targets   = map[string]Target{}
	replayers = map[string]Replayer{}
)

// register adds v to the registry m under name, holding mu; it panics
// ("hunt: <what> <name> registered twice") on a duplicate.
func register[V any](m map[string]V, what, name string, v V) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := m[name]; dup {
		panic("hunt: " + what + " " + name + " registered twice")
	}
	m[name] = v
}

// RegisterTarget adds a target; it panics on a duplicate.
func RegisterTarget(t Target) { register(targets, "target", t.Name(), t) }

// RegisterReplayer adds the replayer of a case kind; it panics on a
// duplicate. Every kind a claim cites (Cite) registers this way, so that a
// claim can judge the value its replay measured.
func RegisterReplayer(kind string, r Replayer) { register(replayers, "kind", kind, r) }

// RegisterKind adds a case kind whose replayer reports only its report and
// whether it reproduced the recorded value — internal/suitecheck's
// conformance-suite kinds, whose value (a count of broken properties) no
// claim cites; Replayed.Value is NaN for them. It panics on a duplicate.
func RegisterKind(kind string, r func(c Case) (report string, reproduced bool, err error)) {
	RegisterReplayer(kind, func(c Case) (Replayed, error) {
		report, ok, err := r(c)
		return Replayed{Report: report, Value: math.NaN(), Reproduced: ok}, err
	})
}

// Targets lists the target names, sorted.
func Targets() []string {
	mu.Lock()
	defer mu.Unlock()
	return slices.Sorted(maps.Keys(targets))
}

// LookupTarget finds a target.
func LookupTarget(name string) (Target, error) {
	mu.Lock()
	t, ok := targets[name]
	mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown hunt target %q; allowed: %s", name, strings.Join(Targets(), ", "))
	}
	return t, nil
}

// Replay re-runs a case with the replayer of its kind: its report, and
// whether it reproduced the recorded value (ReplayValue's Report and
// Reproduced).
func Replay(c Case) (string, bool, error) {
	r, err := ReplayValue(c)
	return r.Report, r.Reproduced, err
}

// ReplayValue re-runs a case with the replayer of its kind and returns what
// it measured; a kind not registered is an error naming the allowed ones.
func ReplayValue(c Case) (Replayed, error) {
	mu.Lock()
	r, ok := replayers[c.Kind]
	kinds := slices.Sorted(maps.Keys(replayers))
	mu.Unlock()
	if !ok {
		return Replayed{}, fmt.Errorf("case kind %q unknown; allowed: %s", c.Kind, strings.Join(kinds, ", "))
	}
	return r(c)
}

// DecodeInstance decodes the case's instance into T, the instance type of
// its kind; the error reads "instance: …", as a replayer reports it.
func DecodeInstance[T any](c Case) (T, error) {
	var in T
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		return in, fmt.Errorf("instance: %v", err)
	}
	return in, nil
}

// DecodeCase is DecodeInstance and the case's metric looked up in metrics
// (the kind's table); a metric not there is an error naming the allowed
// ones as the kind lists them (allowed).
func DecodeCase[T, M any](c Case, metrics map[string]M, allowed string) (T, M, error) {
	in, err := DecodeInstance[T](c)
	m, ok := metrics[c.Metric]
	switch {
	case err != nil:
		return in, m, err
	case !ok:
		return in, m, fmt.Errorf("metric %q unknown; allowed: %s", c.Metric, allowed)
	}
	return in, m, nil
}

// DecodeOne is DecodeInstance for a kind with one metric: a case whose
// metric is another is an error naming the one allowed.
func DecodeOne[T any](c Case, metric string) (T, error) {
	in, _, err := DecodeCase[T](c, map[string]bool{metric: true}, strconv.Quote(metric))
	return in, err
}

// Verdict is the word a replay report ends with: "reproduced" or "NOT
// reproduced".
func Verdict(reproduced bool) string {
	if reproduced {
		return "reproduced"
	}
	return "NOT reproduced"
}

// Save writes a case as indented JSON, creating directories.
func Save(path string, c Case) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Load reads a case file; errors name the file and the problem.
func Load(path string) (Case, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Case{}, err
	}
	return Parse(path, b)
}

// WriteSuiteFailure writes the replay file of a conformance suite's failure
// (props/<net>test): a case of the given kind whose metric is "property
// failures", whose value is len(broke), naming the router and what it broke.
// The file is dir/prefix-<hash of the content>.json; it returns the path.
func WriteSuiteFailure(dir, prefix, kind, router, foundBy string, instance any, broke []Broken) (string, error) {
	raw, err := json.Marshal(instance)
	if err != nil {
		return "", err
	}
	// The case indented, the instance on one line (a permutation one
	// number a line is unreadable).
	c := Case{Kind: kind, Metric: "property failures", Value: float64(len(broke)), FoundBy: foundBy, Router: router, Broke: broke, Instance: json.RawMessage("null")}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	b = bytes.Replace(b, []byte(`"instance": null`), append([]byte(`"instance": `), raw...), 1)
	h := fnv.New32a()
	h.Write(b)
	path := filepath.Join(dir, fmt.Sprintf("%s-%08x.json", prefix, h.Sum32()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReplayHint is what a suite's failure message says about its replay file:
// the CLI command, and the Go call that re-runs the user's own router
// (goCall, e.g. `meshtest.CheckFile(newRouter, "/tmp/f.json", opts)`).
func ReplayHint(path, goCall string) string {
	return fmt.Sprintf("routecheck replay %s (your router: %s)", path, goCall)
}

// ReadSuiteFile reads a conformance suite's replay file: when it is a case
// of kind (what suites write now) it returns the case's instance and the
// case; otherwise (a suite's older format) the file's bytes and a nil case.
func ReadSuiteFile(path, kind string) (json.RawMessage, *Case, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var c Case
	if err := json.Unmarshal(b, &c); err == nil && c.Kind == kind && len(c.Instance) > 0 {
		c.Path = path
		return c.Instance, &c, nil
	}
	return b, nil, nil
}
