package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt"
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
