package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"routecheck/internal/experiment"
	_ "routecheck/internal/meshexp" // registers mesh-kk
	"routecheck/internal/plotting"
	_ "routecheck/internal/popsexp" // registers pops-table1, pops-table2
)

type outputFlags struct {
	asJSON *bool
	csv    *string
	out    *string
	noPlot *bool
}

func addOutputFlags(fs interface {
	Bool(string, bool, string) *bool
	String(string, string, string) *string
}) outputFlags {
	return outputFlags{
		asJSON: fs.Bool("json", false, "print the cells as a JSON array (with --shard: the raw shard file for 'merge')"),
		csv:    fs.String("csv", "", "also write the cells as CSV to this file"),
		out:    fs.String("out", "out", "directory for plots (PNG and SVG); empty for none"),
		noPlot: fs.Bool("no-plot", false, "do not draw plots"),
	}
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reproduce", stderr)
	runs := fs.Int("runs", 100, "runs per cell (the paper used 100)")
	maxN := fs.Int("max-n", 1<<24, "largest network size n to run")
	seed := fs.Uint64("seed", 1, "seed; run r of a cell uses a stream derived from (seed, cell, r)")
	workers := fs.Int("workers", runtime.NumCPU(), "worker goroutines")
	shard := fs.String("shard", "1/1", "run only part i of k of the cells × runs (combine the --json outputs with 'merge')")
	memGiB := fs.Float64("mem-limit", 0, "refuse plans needing more memory than this many GiB (default: available memory)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	of := addOutputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("need exactly one experiment; allowed: %s", strings.Join(experiment.Names(), ", "))
	}
	exp, err := experiment.Lookup(pos[0])
	if err != nil {
		return usageError{err.Error()}
	}
	switch {
	case *runs < 1 || *runs > 1_000_000:
		return usagef("--runs = %d: must be in [1, 1000000]", *runs)
	case *workers < 1 || *workers > 1024:
		return usagef("--workers = %d: must be in [1, 1024]", *workers)
	case *maxN < 1:
		return usagef("--max-n = %d: must be ≥ 1", *maxN)
	}
	sh, err := experiment.ParseShard(*shard)
	if err != nil {
		return usagef("--shard: %v", err)
	}
	cells, skipped := exp.Cells(*maxN)
	if len(cells) == 0 {
		return usagef("--max-n = %d: no cell of %s has n ≤ %d", *maxN, exp.Name(), *maxN)
	}
	if err := checkMemory(exp, cells, *workers, *memGiB); err != nil {
		return err
	}
	if !*quiet {
		for _, s := range skipped {
			fmt.Fprintf(stderr, "skipped %s\n", s)
		}
		fmt.Fprintf(stderr, "%s: %d cells × %d runs, seed %d, %d workers, shard %s\n", exp.Name(), len(cells), *runs, *seed, *workers, sh)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := time.Time{}
	plan := experiment.Plan{Exp: exp, Cells: cells, Runs: *runs, Seed: *seed, Workers: *workers, Shard: sh}
	if !*quiet {
		plan.Progress = func(cd, c, d, t int) {
			if now := time.Now(); now.Sub(last) > 2*time.Second || d == t {
				last = now
				fmt.Fprintf(stderr, "  %d/%d runs, %d/%d cells done, %.0fs elapsed\n", d, t, cd, c, now.Sub(start).Seconds())
			}
		}
	}
	o, err := experiment.Execute(ctx, plan)
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%s: %.1fs wall, peak memory %s\n", exp.Name(), time.Since(start).Seconds(), peakRSS())
	}
	if sh.K > 1 {
		if !*of.asJSON {
			return usagef("--shard %s: shard output is raw samples; add --json and redirect it to a file for 'merge'", sh)
		}
		enc := json.NewEncoder(stdout)
		return enc.Encode(o)
	}
	return writeOutputs(exp, experiment.Rows(exp, o), of, stdout, stderr, *quiet)
}

func writeOutputs(exp experiment.Experiment, rows []experiment.Row, of outputFlags, stdout, stderr io.Writer, quiet bool) error {
	if *of.asJSON {
		if err := experiment.WriteJSON(stdout, rows); err != nil {
			return err
		}
	} else {
		experiment.WriteTable(stdout, exp.Title(), rows)
	}
	if *of.csv != "" {
		f, err := os.Create(*of.csv)
		if err != nil {
			return usagef("--csv: %v", err)
		}
		w := bufio.NewWriter(f)
		if err := experiment.WriteCSV(w, rows); err != nil {
			f.Close()
			return err
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if !quiet {
			fmt.Fprintf(stderr, "wrote %s\n", *of.csv)
		}
	}
	if *of.out != "" && !*of.noPlot {
		for _, c := range exp.Charts(rows) {
			base := filepath.Join(*of.out, c.File)
			if err := plotting.Write(base, c.Chart); err != nil {
				return fmt.Errorf("plot %s: %w", base, err)
			}
			if !quiet {
				fmt.Fprintf(stderr, "wrote %s.png and %s.svg\n", base, base)
			}
		}
	}
	return nil
}

func runMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", stderr)
	maxN := fs.Int("max-n", 1<<24, "the --max-n the shards were run with")
	quiet := fs.Bool("quiet", false, "no messages on stderr")
	of := addOutputFlags(fs)
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("need one or more shard files (from 'reproduce --shard i/k --json')")
	}
	var parts []experiment.Output
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return usagef("%v", err)
		}
		var o experiment.Output
		if err := json.Unmarshal(b, &o); err != nil {
			return usagef("%s: not a shard file: %v", f, err)
		}
		parts = append(parts, o)
	}
	exp, err := experiment.Lookup(parts[0].Experiment)
	if err != nil {
		return usagef("%s: %v", files[0], err)
	}
	o, err := experiment.Merge(exp, parts, *maxN)
	if err != nil {
		return usagef("%v", err)
	}
	return writeOutputs(exp, experiment.Rows(exp, o), of, stdout, stderr, *quiet)
}

// checkMemory refuses a plan whose largest cell would not fit.
func checkMemory(exp experiment.Experiment, cells []experiment.Cell, workers int, limitGiB float64) error {
	var worst experiment.Cell
	var need int64
	for _, c := range cells {
		if b := exp.BytesPerWorker(c); b > need {
			need, worst = b, c
		}
	}
	need *= int64(min(workers, 1<<20))
	limit := int64(limitGiB * (1 << 30))
	if limit == 0 {
		limit = availableMemory()
	}
	if need > limit {
		return usagef("cell %s needs ≈ %.2f GiB with %d workers, more than the %.2f GiB available; lower --max-n or --workers (or raise --mem-limit)",
			worst.Key(), float64(need)/(1<<30), workers, float64(limit)/(1<<30))
	}
	return nil
}

// availableMemory reads MemAvailable from /proc/meminfo (8 GiB if unknown).
func availableMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 8 << 30
}

// peakRSS is the process's peak resident set (VmHWM), or "unknown".
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return fmt.Sprintf("%.2f GiB", float64(kb)/(1<<20))
			}
		}
	}
	return "unknown"
}
