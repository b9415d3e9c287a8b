// Package hunttest holds the checks every hunt-target package runs on its
// own targets: run a target with flags, round-trip its case through a file
// and replay, and replay the saved cases under testdata/hunt/; and, for the
// claim packages that cite hunted cases, a check that the cited copies are
// the saved ones (CitedCopies), a copy with its recorded value changed
// (Revalue) and a check of a claim's outcome (Judged).
package hunttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/models/perm"
	"routecheck/props"
)

// Run hunts with the registered target name, its flags parsed from args.
func Run(t testing.TB, name string, o hunt.Options, args ...string) hunt.Case {
	t.Helper()
	c, err := Hunt(t, name, o, args...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Hunt is Run returning the hunt's error instead of failing on it (an
// unknown target or flags that do not parse still fail the test).
func Hunt(t testing.TB, name string, o hunt.Options, args ...string) (hunt.Case, error) {
	t.Helper()
	tg, err := hunt.LookupTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	tg.DefineFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return tg.Hunt(context.Background(), o)
}

// Rerun hunts as Run does and checks that the hunt gives again the saved
// case file (its name under the module's testdata/hunt/, the test running
// in internal/<pkg>/): the same value, instance (byte for byte, compacted),
// evaluations and random baseline. It returns the rerun and the saved case.
func Rerun(t testing.TB, file, name string, o hunt.Options, args ...string) (c, saved hunt.Case) {
	t.Helper()
	saved, err := hunt.Load(filepath.Join("..", "..", "testdata", "hunt", file))
	if err != nil {
		t.Fatal(err)
	}
	c = Run(t, name, o, args...)
	var a, b bytes.Buffer
	if err := errors.Join(json.Compact(&a, saved.Instance), json.Compact(&b, c.Instance)); err != nil {
		t.Fatal(err)
	}
	same := c.Value == saved.Value && bytes.Equal(a.Bytes(), b.Bytes()) && c.Evaluations == saved.Evaluations &&
		(c.RandomBest == nil) == (saved.RandomBest == nil) && (c.RandomBest == nil || *c.RandomBest == *saved.RandomBest)
	if !same {
		random := func(p *float64) any {
			if p == nil {
				return "none"
			}
			return *p
		}
		t.Fatalf("%s: rerun value %g (%d evaluations, random %v, instance %s), saved %g (%d, %v, %s)", file, c.Value, c.Evaluations, random(c.RandomBest), b.Bytes(), saved.Value, saved.Evaluations, random(saved.RandomBest), a.Bytes())
	}
	return c, saved
}

// BadFlags checks that each of bad (flags with values, the last flag the
// bad one) makes the target's hunt (seed 1, one iteration) fail with an
// error that starts with that flag's name: the user sees which flag was
// wrong.
func BadFlags(t testing.TB, name string, bad ...[]string) {
	t.Helper()
	for _, args := range bad {
		flagName := ""
		for _, a := range args {
			if strings.HasPrefix(a, "--") {
				flagName = a
			}
		}
		if _, err := Hunt(t, name, hunt.Options{Seed: 1, Iters: 1}, args...); err == nil || !strings.HasPrefix(err.Error(), flagName) {
			t.Errorf("%s %v: error %v, want one starting with %s", name, args, err, flagName)
		}
	}
}

// RoundTrip saves c, loads it back and replays it: the recorded value must
// be reproduced, and the replay must report it as the value it measured;
// the same case with its value moved by 1/1024 must not be reproduced, and
// its replay must still report the value measured, not the recorded one.
// It returns the replay's report for the caller's own assertions.
func RoundTrip(t testing.TB, c hunt.Case) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "case.json")
	if err := hunt.Save(f, c); err != nil {
		t.Fatal(err)
	}
	l, err := hunt.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := hunt.ReplayValue(l)
	if err != nil || !r.Reproduced || math.Abs(r.Value-l.Value) > 1e-9 {
		t.Fatalf("replay: reproduced %v, value %g (recorded %g), err %v\n%s", r.Reproduced, r.Value, l.Value, err, r.Report)
	}
	l.Value += 1.0 / 1024
	if tr, err := hunt.ReplayValue(l); tr.Reproduced || err != nil || tr.Value != r.Value {
		t.Errorf("tampered replay: reproduced %v, value %g (want the measured %g), err %v", tr.Reproduced, tr.Value, r.Value, err)
	}
	return r.Report
}

// ReplaySaved replays every case file matching pattern (relative to the
// test's package directory); there must be at least one.
func ReplaySaved(t *testing.T, pattern string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no saved cases match %s (%v)", pattern, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := hunt.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if r, err := hunt.ReplayValue(c); err != nil || !r.Reproduced || math.Abs(r.Value-c.Value) > 1e-9 {
				t.Fatalf("reproduced %v, value %g (recorded %g), err %v\n%s", r.Reproduced, r.Value, c.Value, err, r.Report)
			}
		})
	}
}

// CitedCopies checks the cases a claim package embeds (files: the paths
// its claims cite, relative to the module root, which is root from the
// test's directory, e.g. "props/bfly/testdata/x.json" with root "../.."):
// each is a byte-for-byte copy of the saved case of the same name under the
// module's testdata/hunt/, which `go test ./cmd/routecheck` replays and
// `routecheck replay` runs, so a re-hunted case must be copied again.
func CitedCopies(t testing.TB, root string, files ...string) {
	t.Helper()
	if len(files) == 0 {
		t.Errorf("no cited cases given")
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Errorf("cited case %s: %v", f, err)
			continue
		}
		saved := filepath.Join("testdata", "hunt", filepath.Base(f))
		want, err := os.ReadFile(filepath.Join(root, saved))
		if err != nil {
			t.Errorf("%s has no original under testdata/hunt: %v", f, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s", f, saved)
		}
	}
}

// Revalue returns a copy of the case file raw (a saved case, as a claim
// embeds it) with its recorded value — the top-level "value" member, on a
// line of its own as Save writes it — set to v and nothing else changed:
// a case whose replay no longer gives what it records, for testing what a
// claim citing it does. It fails the test when raw has no such line or the
// copy does not parse back to the same case with value v.
func Revalue(t testing.TB, raw []byte, v float64) []byte {
	t.Helper()
	line := regexp.MustCompile(`(?m)^  "value": [^,\n]+,$`)
	if n := len(line.FindAll(raw, -1)); n != 1 {
		t.Fatalf("Revalue: %d lines `  \"value\": …,` in the case, want 1", n)
	}
	out := line.ReplaceAll(raw, []byte(`  "value": `+strconv.FormatFloat(v, 'g', -1, 64)+`,`))
	was, err := hunt.Parse("raw", raw)
	if err != nil {
		t.Fatal(err)
	}
	now, err := hunt.Parse("raw", out)
	if err != nil {
		t.Fatalf("Revalue: %v", err)
	}
	was.Value = v
	if !reflect.DeepEqual(now, was) {
		t.Fatalf("Revalue changed more than the value:\n%+v\n%+v", now, was)
	}
	return out
}

// Judged checks a claim's outcome on a cited case (name says which, for
// the messages): its verdict is want, its evidence contains has, and its
// counterexample (a map) holds the members of cx.
func Judged(t testing.TB, name string, got props.Outcome, want props.Verdict, has string, cx map[string]any) {
	t.Helper()
	if got.Verdict != want || !strings.Contains(got.Evidence, has) {
		t.Errorf("%s: %v, want %v with %q: %s", name, got.Verdict, want, has, got.Evidence)
	}
	m, _ := got.Counterexample.(map[string]any)
	for k, v := range cx {
		if m[k] != v {
			t.Errorf("%s: counterexample %q = %v, want %v", name, k, m[k], v)
		}
	}
}

// Shrunk checks what a target that shrinks saved in c: found_by says the
// shrink ran to a local minimum ("shrunk from", "locally minimal").
func Shrunk(t testing.TB, c hunt.Case) {
	t.Helper()
	if !strings.Contains(c.FoundBy, "shrunk from") || !strings.Contains(c.FoundBy, "locally minimal") {
		t.Errorf("found_by does not report a shrink to a local minimum: %q", c.FoundBy)
	}
}

// Floor is the value a shrunk case's shrink kept its metric at or above
// (c.ShrinkFloor); the test fails when the case records none.
func Floor(t testing.TB, c hunt.Case) float64 {
	t.Helper()
	if c.ShrinkFloor == nil {
		t.Fatalf("case records no shrink_floor (found_by %q)", c.FoundBy)
	}
	return *c.ShrinkFloor
}

// LocallyMinimalPerm checks a shrunk full permutation p against the
// target's own metric eval: p is a permutation, eval(p) ≥ floor, and every
// fixing swap (p[i] = i, the packet that went to i taking p[i]) brings
// eval below floor. floor must be the value the shrink kept the metric at
// or above (Floor of the case), not the case's value: shrinking can raise
// the value above the hunted one, and a move that keeps the metric between
// the two would be kept by the shrink yet pass a check against the value.
// It returns the number of packets not fixed points.
func LocallyMinimalPerm(t testing.TB, p []int32, eval func([]int32) float64, floor float64) int {
	t.Helper()
	if err := perm.Validate(p, true); err != nil {
		t.Fatalf("shrunk instance: %v", err)
	}
	if v := eval(p); v < floor {
		t.Fatalf("shrunk instance: metric %g < %g", v, floor)
	}
	inv := perm.Inverse(p)
	for i, x := range p {
		if x == int32(i) {
			continue
		}
		q := slices.Clone(p)
		q[i], q[inv[i]] = int32(i), x
		if v := eval(q); v >= floor {
			t.Errorf("not locally minimal: fixing packet %d (→ %d) keeps the metric at %g ≥ %g", i, x, v, floor)
		}
	}
	return hunt.Moved(p)
}

// LocallyMinimalLists is LocallyMinimalPerm for k-k distributions and
// h-relations (d[p] lists processor p's destinations; k per processor):
// every processor sends and receives k, eval(d) ≥ floor, and every move of
// hunt.ShrinkLists (fix packet (p, r), its partner hunt.ListPartner taking
// the old destination) brings eval below floor (the shrink's floor, as
// there). It returns the packets not fixed points.
func LocallyMinimalLists(t testing.TB, d [][]int32, k int, eval func([][]int32) float64, floor float64) int {
	t.Helper()
	recv := make([]int, len(d))
	for p, ds := range d {
		if len(ds) != k {
			t.Fatalf("shrunk instance: processor %d sends %d, want %d", p, len(ds), k)
		}
		for _, x := range ds {
			recv[x]++
		}
	}
	for x, c := range recv {
		if c != k {
			t.Fatalf("shrunk instance: processor %d receives %d, want %d", x, c, k)
		}
	}
	if v := eval(d); v < floor {
		t.Fatalf("shrunk instance: metric %g < %g", v, floor)
	}
	for p := range d {
		for r, x := range d[p] {
			if x == int32(p) {
				continue
			}
			q, s := hunt.ListPartner(d, p, int(x))
			e := make([][]int32, len(d))
			for i := range d {
				e[i] = slices.Clone(d[i])
			}
			e[p][r], e[q][s] = int32(p), x
			if v := eval(e); v >= floor {
				t.Errorf("not locally minimal: fixing packet (%d, %d) (→ %d) keeps the metric at %g ≥ %g", p, r, x, v, floor)
			}
		}
	}
	return hunt.MovedLists(d)
}

// LocallyMinimalSublists checks lists shrunk by hunt.ShrinkSublists:
// eval(d) ≥ floor, and removing any one packet brings eval below floor
// (the shrink's floor, as for LocallyMinimalPerm; eval must measure what
// the shrink kept). It returns the number of packets.
func LocallyMinimalSublists(t testing.TB, d [][]int32, eval func([][]int32) float64, floor float64) int {
	t.Helper()
	if v := eval(d); v < floor {
		t.Fatalf("shrunk instance: metric %g < %g", v, floor)
	}
	for p := range d {
		for r := range d[p] {
			e := make([][]int32, len(d))
			for i := range d {
				e[i] = slices.Clone(d[i])
			}
			e[p] = slices.Delete(e[p], r, r+1)
			if v := eval(e); v >= floor {
				t.Errorf("not locally minimal: removing packet (%d, %d) (→ %d) keeps the metric at %g ≥ %g", p, r, d[p][r], v, floor)
			}
		}
	}
	return hunt.PacketsLists(d)
}

// FreshByReplay checks a case's fresh figure of its saved instance against
// the kind's own replayer: the instance's "seeds" are replaced by the fresh
// seeds (hunt.FreshSeeds of the hunt's seed, avoiding the instance's
// seeds) and the replay, which runs the instance on its model (not the
// search's evaluation), must reproduce want·scale (scale: what one fresh
// run's mean is multiplied by to give the kind's metric over those seeds,
// 1 for a mean, Runs for a total). want is c.Fresh.Saved, or c.Fresh.Hunted
// when the case was not shrunk.
func FreshByReplay(t testing.TB, c hunt.Case, scale float64) {
	t.Helper()
	if c.Fresh == nil {
		t.Fatal("no fresh re-evaluation in the case")
	}
	want := c.Fresh.Saved
	if want == nil {
		want = c.Fresh.Hunted
	}
	if want == nil {
		t.Fatal("fresh re-evaluation of neither the saved nor the hunted instance")
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		t.Fatal(err)
	}
	var sds []uint64
	if err := json.Unmarshal(in["seeds"], &sds); err != nil {
		t.Fatalf("instance seeds: %v", err)
	}
	fresh := hunt.FreshSeeds(c.Seed, c.Fresh.Runs, sds)
	raw, err := json.Marshal(fresh)
	if err != nil {
		t.Fatal(err)
	}
	in["seeds"] = raw
	if c.Instance, err = json.Marshal(in); err != nil {
		t.Fatal(err)
	}
	c.Value = want.Fresh * scale
	if rep, ok, err := hunt.Replay(c); err != nil || !ok {
		t.Errorf("the replay on the %d fresh seeds does not give the recorded fresh %s %g·%g (err %v):\n%s", len(fresh), c.Metric, want.Fresh, scale, err, rep)
	}
}
