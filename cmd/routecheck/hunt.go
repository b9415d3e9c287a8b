package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	_ "routecheck/internal/bflyhunt" // registers bfly-latency, bfly-queue and the bfly-perm case kind
	"routecheck/internal/hunt"
	_ "routecheck/internal/meshhunt"   // registers mesh-phase2-queue, mesh-phase2-time, mesh-phase3-time and the mesh-kk case kind
	_ "routecheck/internal/popshunt"   // registers pops-steps, pops-loss and the pops-router case kind
	_ "routecheck/internal/sothunt"    // registers sot-time, sot-deflections and the sot-relation case kind
	_ "routecheck/internal/suitecheck" // registers the check kinds pops-suite, mesh-suite, sot-suite, bfly-suite, mbfly-suite, sortnet-network
)

func runHunt(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("need a target first; allowed: %s", strings.Join(hunt.Targets(), ", "))
	}
	t, err := hunt.LookupTarget(args[0])
	if err != nil {
		return usageError{err.Error()}
	}
	fs := newFlags("hunt "+t.Name(), stderr)
	seed := fs.Uint64("seed", 1, "seed of the search")
	iters := fs.Int("iters", 2000, "search iterations (annealing moves or random samples)")
	out := fs.String("out", "", "where to save the case (default: the target's file under testdata/hunt/)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	t.DefineFlags(fs)
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if *iters < 0 || *iters > 100_000_000 {
		return usagef("--iters = %d: must be in [0, 100000000]", *iters)
	}
	o := hunt.Options{Seed: *seed, Iters: *iters}
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
	if err := hunt.Save(path, c); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s = %.4g (found by %s) in %.1fs; saved %s\nreplay: go run ./cmd/routecheck replay %s\n", t.Name(), c.Metric, c.Value, c.FoundBy, time.Since(start).Seconds(), path, path)
	return nil
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
