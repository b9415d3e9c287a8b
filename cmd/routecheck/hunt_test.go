package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
)

// hunt with no target lists every target, one line each, on stderr with
// status 2, as routecheck with no command prints its usage; -h lists them
// on stdout with status 0. Every network has a target.
func TestHuntList(t *testing.T) {
	out, errOut, st := runCLI("hunt")
	if st != 2 || out != "" {
		t.Fatalf("hunt: status %d, stdout %q", st, out)
	}
	help, errHelp, st := runCLI("hunt", "-h")
	if st != 0 || errHelp != "" {
		t.Fatalf("hunt -h: status %d, stderr %q", st, errHelp)
	}
	for _, listing := range []string{errOut, help} {
		lines := strings.Split(listing, "\n")
		for _, name := range hunt.Targets() {
			n := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "  "+name+" ") {
					n++
				}
			}
			if n != 1 {
				t.Errorf("target %s on %d lines of\n%s", name, n, listing)
			}
		}
	}
	if !strings.Contains(errOut, "routecheck hunt: need a target") {
		t.Errorf("no usage error in %q", errOut)
	}
	for _, network := range []string{"pops-", "mesh-", "sot-", "bfly-", "mbfly-", "sortnet-"} {
		if !strings.Contains(help, "\n  "+network) {
			t.Errorf("no target for %s*", network)
		}
	}
}

// --json prints the case (instance, value, random baseline, seed,
// evaluations) and where it was saved; the saved file is the same case;
// progress goes to stderr unless --quiet.
func TestHuntJSON(t *testing.T) {
	f := filepath.Join(t.TempDir(), "c.json")
	out, errOut, st := runCLI("hunt", "mbfly-buffer", "--logn", "4", "--d", "1", "--l", "2", "--samples", "4", "--iters", "20", "--seed", "4", "--json", "--out", f)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if !strings.Contains(errOut, "hunted") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"kind", "metric", "value", "random_best", "hunt_seed", "evaluations", "instance", "saved", "seconds"} {
		if _, ok := got[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	if got["hunt_seed"] != 4.0 || got["saved"] != f || got["evaluations"].(float64) < 20 {
		t.Errorf("seed %v, saved %v, evaluations %v", got["hunt_seed"], got["saved"], got["evaluations"])
	}
	c, err := hunt.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if c.Value != got["value"] || c.RandomBest == nil || *c.RandomBest != got["random_best"] {
		t.Errorf("saved value %g random %v, printed %v %v", c.Value, c.RandomBest, got["value"], got["random_best"])
	}
	if out, _, st := runCLI("replay", f); st != 0 || !strings.Contains(out, "reproduced") {
		t.Errorf("replay: %d %s", st, out)
	}
	if _, errOut, st := runCLI("hunt", "sortnet-unsorted", "--n", "16", "--network", "oddeven", "--iters", "5", "--quiet", "--out", filepath.Join(t.TempDir(), "q.json")); st != 0 || errOut != "" {
		t.Errorf("--quiet: status %d, stderr %q", st, errOut)
	}
}

// --time stops the search (here long before --iters' default when --time
// is given alone) and the case is still whole.
func TestHuntTime(t *testing.T) {
	f := filepath.Join(t.TempDir(), "c.json")
	out, errOut, st := runCLI("hunt", "sortnet-unsorted", "--n", "64", "--d", "1", "--time", "300ms", "--quiet", "--json", "--out", f)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var got struct {
		Evaluations int     `json:"evaluations"`
		Seconds     float64 `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Evaluations < 256 || got.Evaluations >= 100_000_000 || got.Seconds > 60 {
		t.Errorf("evaluations %d in %.1fs", got.Evaluations, got.Seconds)
	}
	if _, err := os.Stat(f); err != nil {
		t.Error(err)
	}
}

// Bad parameters of the hunt command and of the new targets: one line
// naming the parameter, status 2.
func TestHuntBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hunt", "--iters", "5"}, "need a target"},
		{[]string{"hunt", "nope"}, "unknown hunt target"},
		{[]string{"hunt", "mbfly-buffer", "--time", "-1s"}, "--time"},
		{[]string{"hunt", "mbfly-buffer", "--time", "soon"}, "-time"},
		{[]string{"hunt", "mbfly-buffer", "--iters", "-1"}, "--iters"},
		{[]string{"hunt", "mbfly-buffer", "--l", "0"}, "--l = 0"},
		{[]string{"hunt", "mbfly-steps", "--logn", "7"}, "--logn = 7"},
		{[]string{"hunt", "mbfly-steps", "--d", "4"}, "-d"},
		{[]string{"hunt", "sortnet-unsorted", "--network", "shell"}, "--network"},
		{[]string{"hunt", "sortnet-unsorted", "--n", "1"}, "--n = 1"},
		{[]string{"hunt", "sortnet-unsorted", "--iters", "0"}, "--iters = 0"},
	} {
		out, errOut, st := runCLI(c.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if st != 2 || !strings.Contains(lines[len(lines)-1], c.want) || out != "" {
			t.Errorf("%v: status %d, stderr %q, want status 2 and %q", c.args, st, errOut, c.want)
		}
		if c.args[1] != "--iters" && len(lines) != 1 {
			t.Errorf("%v: %d lines on stderr", c.args, len(lines))
		}
	}
}

// Every target's --help says what it hunts and whether and how it shrinks its
// best instance; the targets that shrink take --shrink-evals, and a value
// below -1 is refused naming the flag (exit 2).
func TestHuntTargetHelpSaysShrinking(t *testing.T) {
	for _, name := range hunt.Targets() {
		tg, _ := hunt.LookupTarget(name)
		if _, ok := tg.(hunt.ShrinkNoter); !ok {
			t.Errorf("%s: no Shrinking note", name)
			continue
		}
		_, errOut, st := runCLI("hunt", name, "--help") // sot targets define -h (the h of h-relations)
		if st != 0 || !strings.Contains(errOut, "\nshrinking: ") || !strings.Contains(errOut, tg.Description()) {
			t.Errorf("%s -h: status %d\n%s", name, st, errOut)
		}
		shrinks := !strings.Contains(errOut, "shrinking: none")
		if strings.Contains(errOut, "-shrink-evals") != shrinks {
			t.Errorf("%s -h: shrinks %v but --shrink-evals listed %v", name, shrinks, !shrinks)
		}
		if shrinks {
			if _, e, st := runCLI("hunt", name, "--shrink-evals", "-2", "--iters", "1"); st != 2 || !strings.Contains(e, "--shrink-evals = -2") {
				t.Errorf("%s --shrink-evals -2: status %d, %q", name, st, e)
			}
		}
	}
}

// hunt writes the command that produced a case into its command field,
// an argument with a space or a quote quoted for the shell, and running
// those arguments again gives the same case (the command reproduces it).
// A randomized target's text output and --json give the fresh figures;
// a deterministic target's (no coins) none; --fresh-runs out of range is
// refused naming the flag.
func TestHuntWritesCommandAndFresh(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a b")
	f := filepath.Join(dir, "it's.json")
	args := []string{"hunt", "pops-steps", "--d", "4", "--g", "2", "--iters", "30", "--fresh-runs", "20", "--quiet", "--out", f}
	out, errOut, st := runCLI(args...)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if !strings.Contains(out, "mean steps on 20 fresh seeds (standard errors): hunted ") || !strings.Contains(out, "; random best ") {
		t.Errorf("no fresh figures in the output:\n%s", out)
	}
	c, err := hunt.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	quoted := "'" + strings.ReplaceAll(f, "'", `'\''`) + "'"
	want := "routecheck hunt pops-steps --d 4 --g 2 --iters 30 --fresh-runs 20 --quiet --out " + quoted
	if c.Command != want {
		t.Errorf("command %q, want %q", c.Command, want)
	}
	if c.Fresh == nil || c.Fresh.Runs != 20 || c.Fresh.Random == nil {
		t.Errorf("saved fresh %+v", c.Fresh)
	}
	first, _ := os.ReadFile(f)
	if _, errOut, st := runCLI(args...); st != 0 {
		t.Fatalf("again: status %d: %s", st, errOut)
	}
	if again, _ := os.ReadFile(f); string(again) != string(first) {
		t.Errorf("the recorded command did not reproduce the case:\n%s\nvs\n%s", first, again)
	}
	// --json: the fresh object beside the fields that were there before.
	out, errOut, st = runCLI("hunt", "bfly-queue", "--logn", "4", "--iters", "20", "--samples", "4", "--fresh-runs", "10", "--quiet", "--json", "--out", filepath.Join(dir, "q.json"))
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var got struct {
		Command    string      `json:"command"`
		RandomBest *float64    `json:"random_best"`
		Fresh      *hunt.Fresh `json:"fresh"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Fresh == nil || got.Fresh.Runs != 10 || got.Fresh.Random == nil || got.RandomBest == nil || got.Fresh.Random.Search != *got.RandomBest || !strings.HasPrefix(got.Command, "routecheck hunt bfly-queue --logn 4 ") {
		t.Errorf("--json: %s", out)
	}
	out, _, st = runCLI("hunt", "mbfly-buffer", "--logn", "4", "--d", "1", "--l", "2", "--samples", "4", "--iters", "10", "--quiet", "--out", filepath.Join(dir, "m.json"))
	if st != 0 || strings.Contains(out, "fresh") {
		t.Errorf("deterministic target: status %d, output %q", st, out)
	}
	if _, e, st := runCLI("hunt", "sot-time", "--fresh-runs", "-3"); st != 2 || !strings.Contains(e, "--fresh-runs = -3") {
		t.Errorf("--fresh-runs -3: status %d, %q", st, e)
	}
}

// hunt refresh on a case saved without fresh figures writes the figures
// the hunt itself computes: a bfly-latency hunt (no shrinking) saved with
// --fresh-runs 0 and refreshed with 30 gets the very fresh object of the
// same hunt run with --fresh-runs 30 (hunted and random best, on the same
// fresh seeds), and every other byte of its file stays; a second refresh
// changes nothing. A shrunk pops-steps case gets the hunt's saved and
// random figures and no hunted (its best before shrinking is not in the
// file). A case of a target without coins is left as it is, saying why; a
// tampered case is refused (status 1, file unchanged); bad parameters are
// one line with status 2.
func TestHuntRefresh(t *testing.T) {
	dir := t.TempDir()
	hunted := func(name string, args ...string) (string, []byte) {
		t.Helper()
		f := filepath.Join(dir, name)
		if _, e, st := runCLI(append(append([]string{"hunt"}, args...), "--quiet", "--out", f)...); st != 0 {
			t.Fatalf("hunt %v: status %d: %s", args, st, e)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return f, b
	}
	load := func(f string) hunt.Case {
		t.Helper()
		c, err := hunt.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	bq := []string{"bfly-latency", "--logn", "4", "--iters", "20", "--samples", "4", "--shrink-evals", "-1"}
	a, before := hunted("a.json", append(bq, "--fresh-runs", "0")...)
	b, _ := hunted("b.json", append(bq, "--fresh-runs", "30")...)
	out, e, st := runCLI("hunt", "refresh", "--fresh-runs", "30", "--quiet", a)
	if st != 0 || !strings.Contains(out, "a.json: fresh figures added") {
		t.Fatalf("refresh: status %d: %s%s", st, out, e)
	}
	after, _ := os.ReadFile(a)
	i, j := strings.Index(string(after), `  "fresh": `), strings.Index(string(after), `  "instance": `)
	if i < 0 || j < i || string(after[:i])+string(after[j:]) != string(before) {
		t.Errorf("refresh changed more than the fresh member:\n%s\nvs\n%s", before, after)
	}
	if ra, rb := load(a).Fresh, load(b).Fresh; ra == nil || rb == nil || !reflect.DeepEqual(*ra, *rb) {
		t.Errorf("refreshed fresh %+v, the hunt's own %+v", ra, rb)
	}
	if out, _, st := runCLI("hunt", "refresh", "--fresh-runs", "30", "--quiet", a); st != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("second refresh: status %d: %s", st, out)
	}
	if again, _ := os.ReadFile(a); string(again) != string(after) {
		t.Error("a second refresh changed the file")
	}
	ps := []string{"pops-steps", "--d", "4", "--g", "2", "--iters", "30", "--evals", "4"}
	s, _ := hunted("s.json", append(ps, "--fresh-runs", "0")...)
	sf, _ := hunted("sf.json", append(ps, "--fresh-runs", "20")...)
	if _, e, st := runCLI("hunt", "refresh", "--fresh-runs", "20", "--quiet", s); st != 0 {
		t.Fatalf("refresh shrunk: status %d: %s", st, e)
	}
	rs, hs := load(s), load(sf)
	if rs.ShrinkFloor == nil || rs.Fresh == nil || hs.Fresh == nil || rs.Fresh.Hunted != nil || hs.Fresh.Saved == nil || hs.Fresh.Random == nil ||
		!reflect.DeepEqual(rs.Fresh.Saved, hs.Fresh.Saved) || !reflect.DeepEqual(rs.Fresh.Random, hs.Fresh.Random) || !strings.Contains(rs.Fresh.Note, "no hunted") {
		t.Errorf("shrunk case: refreshed %+v, the hunt's own %+v", rs.Fresh, hs.Fresh)
	}
	m, mb := hunted("m.json", "mbfly-buffer", "--logn", "4", "--d", "1", "--l", "2", "--samples", "4", "--iters", "10")
	if out, _, st := runCLI("hunt", "refresh", "--quiet", m); st != 0 || !strings.Contains(out, "unchanged (case kind mbfly-perm: the metric uses no coins") {
		t.Errorf("deterministic case: status %d: %s", st, out)
	}
	if again, _ := os.ReadFile(m); string(again) != string(mb) {
		t.Error("a deterministic case's file changed")
	}
	// Tampered: one of the instance's seeds changed (the first change that
	// 'routecheck replay' does not reproduce); refresh must refuse it by
	// the same replay check.
	var in struct {
		Seeds []uint64 `json:"seeds"`
	}
	if err := json.Unmarshal(load(a).Instance, &in); err != nil {
		t.Fatal(err)
	}
	tampered := ""
	for _, sd := range in.Seeds {
		x := strings.Replace(string(after), fmt.Sprint(sd), fmt.Sprint(sd+1), 1)
		_ = os.WriteFile(a, []byte(x), 0o644)
		if _, _, st := runCLI("replay", a); st == 1 {
			tampered = x
			break
		}
	}
	if tampered == "" {
		t.Fatal("no change of one seed changes the replayed value")
	}
	_ = os.WriteFile(a, []byte(tampered), 0o644)
	if out, _, st := runCLI("hunt", "refresh", "--fresh-runs", "30", "--quiet", a); st != 1 || !strings.Contains(out, "refused: the replay did not reproduce") {
		t.Errorf("tampered case: status %d: %s", st, out)
	}
	if again, _ := os.ReadFile(a); string(again) != tampered {
		t.Error("a refused case's file changed")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--fresh-runs", "0", b}, "--fresh-runs = 0: must be in [1, 1000000]"},
		{nil, "need at least one case file"},
		{[]string{filepath.Join(dir, "none.json")}, "no such file"},
		{[]string{"--bogus", b}, "flag provided but not defined: -bogus"},
	} {
		_, e, st := runCLI(append([]string{"hunt", "refresh"}, tc.args...)...)
		if st != 2 || !strings.Contains(e, tc.want) || strings.Count(strings.TrimSpace(e), "\n") != 0 {
			t.Errorf("refresh %v: status %d, stderr %q, want one line with %q", tc.args, st, e, tc.want)
		}
	}
}

// Every saved case of a metric with coins carries its fresh figures
// ('routecheck hunt refresh'), and they hold: the replay (its kind's
// replayer, on the model, not the search's evaluation) on the fresh seeds
// gives the recorded fresh mean of the saved instance, and a refresh at the
// recorded runs finds every figure again and leaves the file as it is
// (a case whose random baseline has more than 20000 evaluations, which
// takes ≈ 50 s CPU in all, only with -hunt.long; the claim citing it,
// pops/cor-3.9/hunted-steps, routes it on fresh seeds itself).
// Cases of metrics without coins have no fresh figures.
var huntLong = flag.Bool("hunt.long", false, "TestSavedCasesFresh: also the saved cases whose random baseline has more than 20000 evaluations (pops-steps-d16-g4-time60s: ≈ 25 s CPU for its replay on 400 fresh seeds, ≈ 22 s for its baseline)")

func TestSavedCasesFresh(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "hunt", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no saved cases (%v)", err)
	}
	coins := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := hunt.Parse(f, raw)
			if err != nil {
				t.Fatal(err)
			}
			if !hunt.Refreshable(c.Kind) {
				if c.Fresh != nil {
					t.Errorf("a case without coins has fresh figures")
				}
				return
			}
			coins++
			if c.Fresh == nil {
				t.Fatalf("no fresh figures: run 'routecheck hunt refresh %s'", f)
			}
			scale := 1.0
			if c.Metric == "lost packets" {
				scale = float64(c.Fresh.Runs)
			}
			if c.Evaluations > 20000 && !*huntLong {
				t.Skipf("random baseline of %d evaluations: checked with -hunt.long", c.Evaluations)
			}
			hunttest.FreshByReplay(t, c, scale)
			out, _, st, err := hunt.Refresh(f, raw, c.Fresh.Runs, nil)
			if err != nil || st != hunt.Verified || string(out) != string(raw) {
				t.Errorf("refresh at %d runs: %v, %v", c.Fresh.Runs, st, err)
			}
		})
	}
	if coins == 0 {
		t.Error("no saved case of a metric with coins")
	}
}
