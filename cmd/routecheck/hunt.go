package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	_ "routecheck/internal/bflyhunt" // registers bfly-latency, bfly-queue and the bfly-perm case kind
	"routecheck/internal/hunt"
	_ "routecheck/internal/mbflyhunt"   // registers mbfly-buffer, mbfly-steps, mbfly-expansion and the mbfly-perm, mbfly-splitter-set case kinds
	_ "routecheck/internal/meshhunt"    // registers mesh-phase2-queue, mesh-phase2-time, mesh-phase3-time and the mesh-kk case kind
	_ "routecheck/internal/popsdethunt" // registers pops-sort-slots and the pops-sort-perm case kind
	_ "routecheck/internal/popshunt"    // registers pops-steps, pops-loss and the pops-router case kind
	_ "routecheck/internal/sortnethunt" // registers sortnet-unsorted and the sortnet-input case kind
	_ "routecheck/internal/sothunt"     // registers sot-time, sot-deflections and the sot-relation case kind
	_ "routecheck/internal/suitecheck"  // registers the check kinds pops-suite, mesh-suite, sot-suite, bfly-suite, mbfly-suite, sortnet-network
)

// huntList writes one line per registered target: its name and what it
// maximizes, against which claim.
func huntList(w io.Writer) {
	fmt.Fprintln(w, "hunt targets (routecheck hunt TARGET [--iters N] [--time D] [--seed N] [--json] [--out FILE]; TARGET -h for its flags):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, n := range hunt.Targets() {
		t, _ := hunt.LookupTarget(n)
		fmt.Fprintf(tw, "  %s\t%s\n", n, t.Description())
	}
	fmt.Fprintf(tw, "  %s\t%s\n", "refresh", "routecheck hunt refresh FILE... [--fresh-runs N]: add the fresh-seed figures to saved cases without hunting again (only the \"fresh\" member changes)")
	tw.Flush()
}

// huntJSON is the --json output: the case as saved, where it was saved and
// the wall time.
type huntJSON struct {
	hunt.Case
	Saved   string  `json:"saved"`
	Seconds float64 `json:"seconds"`
}

// runHunt: with no target (or flags before one) the list of targets goes
// to stderr and the status is 2, as for routecheck with no command;
// -h, --help or help lists them on stdout with status 0.
func runHunt(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help"):
		huntList(stdout)
		return nil
	case len(args) == 0 || strings.HasPrefix(args[0], "-"):
		huntList(stderr)
		return usagef("need a target first; allowed: %s", strings.Join(hunt.Targets(), ", "))
	}
	if args[0] == "refresh" {
		return runHuntRefresh(args[1:], stdout, stderr)
	}
	t, err := hunt.LookupTarget(args[0])
	if err != nil {
		return usageError{err.Error()}
	}
	extra := []string{t.Name() + ": " + t.Description()}
	if sn, ok := t.(hunt.ShrinkNoter); ok {
		extra = append(extra, sn.Shrinking())
	}
	fs := newFlags("hunt "+t.Name(), stderr, extra...)
	seed := fs.Uint64("seed", 1, "seed of the search")
	iters := fs.Int("iters", 2000, "search iterations (annealing moves or random samples); with --time and no --iters, no limit but the time")
	limit := fs.Duration("time", 0, "stop the search after this long (e.g. 30s, 5m; 0: no limit); the random baseline that follows is not cut short (it makes as many evaluations as the search), and shrinking the best instance then stops after a quarter of this (valid, not shown minimal); a hunt takes roughly up to 2.25× this in all")
	out := fs.String("out", "", "where to save the case (default: the target's file under testdata/hunt/)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	asJSON := fs.Bool("json", false, "print the case (best instance, value, random baseline, seed, evaluations) as JSON on stdout")
	t.DefineFlags(fs)
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *iters < 0 || *iters > 100_000_000 {
		return usagef("--iters = %d: must be in [0, 100000000]", *iters)
	}
	if *limit < 0 || *limit > 7*24*time.Hour {
		return usagef("--time = %v: must be in [0, 168h]", *limit)
	}
	o := hunt.Options{Seed: *seed, Iters: *iters}
	if *limit > 0 {
		o.Begin = time.Now()
		o.Deadline = o.Begin.Add(*limit)
		o.ShrinkTime = *limit / 4
		if !set["iters"] {
			o.Iters = 100_000_000
		}
	}
	if !*quiet {
		o.Progress = func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	c, err := t.Hunt(ctx, o)
	if err != nil {
		if strings.HasPrefix(err.Error(), "--") {
			return usageError{err.Error()}
		}
		return failure{err.Error()}
	}
	path := *out
	if path == "" {
		path = t.DefaultFile()
	}
	c.Command = huntCommand(args)
	if err := hunt.Save(path, c); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(huntJSON{Case: c, Saved: path, Seconds: time.Since(start).Seconds()})
	}
	base := ""
	if c.RandomBest != nil {
		base = fmt.Sprintf("; random sampling %.4g", *c.RandomBest)
	}
	fmt.Fprintf(stdout, "%s: %s = %.4g (found by %s%s) in %.1fs; saved %s\n", t.Name(), c.Metric, c.Value, c.FoundBy, base, time.Since(start).Seconds(), path)
	if c.Fresh != nil {
		fmt.Fprintf(stdout, "%s %s\n", c.Metric, c.Fresh)
	}
	fmt.Fprintf(stdout, "replay: go run ./cmd/routecheck replay %s\n", path)
	return nil
}

// huntCommand is the command line of a hunt, for Case.Command:
// "routecheck hunt" and the arguments as given, each quoted for a POSIX
// shell when it holds anything but letters, digits and -_./=:,+@%.
func huntCommand(args []string) string {
	var b strings.Builder
	b.WriteString("routecheck hunt")
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

// shellQuote returns a unchanged when a shell reads it as one word as it
// is, and otherwise in single quotes, each quote inside closed, escaped
// and reopened.
func shellQuote(a string) string {
	plain := a != ""
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
			plain = false
			break
		}
	}
	if plain {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("need exactly one case file (saved by 'hunt', or written by hand: see README)")
	}
	c, err := hunt.Load(pos[0])
	if err != nil {
		return usageError{err.Error()}
	}
	report, ok, err := hunt.Replay(c)
	fmt.Fprint(stdout, report)
	if err != nil {
		return usagef("%s: %v", pos[0], err)
	}
	if !ok {
		return failure{fmt.Sprintf("%s: the recorded %s was not reproduced", pos[0], c.Metric)}
	}
	return nil
}

// runHuntRefresh is `routecheck hunt refresh FILE...`: each case is
// replayed (refused unless it reproduces its value: hunt.Cite's error) and
// gets the fresh-seed figures a hunt writes today (hunt.Refresh): its
// instance and random sampling's best (drawn again from its seed) re-run on
// --fresh-runs fresh seeds. Only the file's "fresh" member changes; a case
// of a metric without coins is left as it is, with the reason. Every file
// is tried; the status is 1 when one was refused.
func runHuntRefresh(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("hunt refresh", stderr,
		"refresh FILE...: add the fresh-seed figures (the \"fresh\" member: search-seed value, fresh mean and standard error) to saved hunt cases without hunting again.",
		"The case's instance is re-run on the fresh seeds its hunt would have drawn (derived from hunt_seed, disjoint from the instance's seeds): as \"hunted\", or \"saved\" when the case was shrunk (the best before shrinking is not in the file).",
		"Random sampling's best is drawn again from hunt_seed at the case's evaluations and re-run when it reproduces the recorded best (else \"note\" says so).",
		"The case must replay first (as 'routecheck replay'); every other byte of the file stays; a case already holding these figures is checked and left unchanged.",
		"Copies of a case (props/<net>/testdata) must be refreshed or copied too.")
	runs := fs.Int("fresh-runs", hunt.DefaultFreshRuns, "fresh seeds per instance (1 … 1000000)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("refresh: need at least one case file (e.g. testdata/hunt/pops-steps-d16-g4.json)")
	}
	if *runs < 1 || *runs > 1_000_000 {
		return usagef("--fresh-runs = %d: must be in [1, 1000000]", *runs)
	}
	raws := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return usageError{err.Error()}
		}
		if _, err := hunt.Parse(f, b); err != nil {
			return usageError{err.Error()}
		}
		raws[i] = b
	}
	var progress func(string, ...any)
	if !*quiet {
		progress = func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	}
	refused := 0
	for i, f := range files {
		start := time.Now()
		out, fr, st, err := hunt.Refresh(f, raws[i], *runs, progress)
		switch {
		case errors.Is(err, hunt.ErrNoCoins):
			fmt.Fprintf(stdout, "%s: unchanged (%v)\n", f, strings.TrimPrefix(err.Error(), f+": "))
			continue
		case err != nil:
			refused++
			fmt.Fprintf(stdout, "%s: refused: %s\n", f, strings.TrimPrefix(err.Error(), f+": "))
			continue
		}
		if st != hunt.Verified {
			if err := os.WriteFile(f, out, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s: %v in %.1fs: %s\n", f, st, time.Since(start).Seconds(), fr)
	}
	if refused > 0 {
		return failure{fmt.Sprintf("hunt refresh: %d of %d case files refused (unchanged)", refused, len(files))}
	}
	return nil
}
