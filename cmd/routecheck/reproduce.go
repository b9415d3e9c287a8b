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
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	_ "routecheck/internal/bflyexp" // registers bfly-figs, bfly-fit, bfly-readings
	"routecheck/internal/experiment"
	_ "routecheck/internal/mbflyexp" // registers mbfly-time
	_ "routecheck/internal/meshexp"  // registers mesh-kk
	"routecheck/internal/plotting"
	"routecheck/internal/popsexp"  // registers pops-table1, pops-table2
	_ "routecheck/internal/sotexp" // registers sot-fig3, sot-fig4, sot-fig5
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
	fs := newFlags("reproduce", stderr, "experiments (routecheck reproduce EXPERIMENT [flags]): "+strings.Join(experiment.Names(), ", "))
	runs := fs.Int("runs", 100, "runs per cell (the POPS paper used 100 for Table II)")
	maxN := fs.Int("max-n", 1<<24, "largest network size n to run")
	seed := fs.Uint64("seed", 1, "seed; run r of a cell uses a stream derived from (seed, cell, r)")
	workers := fs.Int("workers", runtime.NumCPU(), "worker goroutines")
	shard := fs.String("shard", "1/1", "run only part i of k of the cells × runs (combine the --json outputs with 'merge'); auto: i and k from a Slurm job array or a Kubernetes Indexed Job (see deploy/)")
	shards := fs.Int("shards", 0, "with --shard auto in a Kubernetes Indexed Job: k, the Job's completions (with Slurm: optional, must equal the array's task count)")
	memGiB := fs.Float64("mem-limit", 1, "memory budget in GiB for the runs in flight: large cells wait for each other so the estimates of concurrent runs stay under it, and a cell whose one run needs more is refused (capped at the available memory)")
	cEps := fs.String("c-eps", "", "pops-table1/pops-table2 only: c+ε of Theorem 3.8's stage 1 (default 4, Corollary 3.9's choice)")
	algorithm := fs.String("algorithm", "", "pops-table1/pops-table2 only: pops-rand-5slot (default, the paper's router) or pops-rand-split-delivery (the repair)")
	stage2 := fs.String("stage2", "", "pops-table1/pops-table2 only: reading of the switch to stage 2: as-written (default: p = 1 after stage 1) or keep-coin (the coin kept at its last stage-1 value)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	of := addOutputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("need exactly one experiment; allowed: %s", strings.Join(experiment.Names(), ", "))
	}
	opts := map[string]string{}
	if *cEps != "" {
		opts["c-eps"] = *cEps
	}
	if *algorithm != "" {
		opts["algorithm"] = *algorithm
	}
	if *stage2 != "" {
		opts["stage2"] = *stage2
	}
	if len(opts) == 0 {
		opts = nil
	}
	exp, err := lookupExperiment(pos[0], opts)
	if err != nil {
		return err
	}
	switch {
	case *runs < 1 || *runs > 1_000_000:
		return usagef("--runs = %d: must be in [1, 1000000]", *runs)
	case *workers < 1 || *workers > 1024:
		return usagef("--workers = %d: must be in [1, 1024]", *workers)
	case *maxN < 1:
		return usagef("--max-n = %d: must be ≥ 1", *maxN)
	case !(*memGiB > 0) || *memGiB > 1<<20:
		return usagef("--mem-limit = %v: must be a number of GiB in (0, 1048576]", *memGiB)
	}
	sh, shardSrc, err := resolveShard(*shard, *shards)
	if err != nil {
		return err
	}
	// With --shard auto the output is a shard file even for k = 1, so a
	// job array's merge step works the same for any number of tasks.
	rawShard := sh.K > 1 || *shard == "auto"
	if rawShard && !*of.asJSON {
		return usagef("--shard %s: shard output is raw samples; add --json and redirect it to a file for 'merge'", sh)
	}
	cells, skipped := exp.Cells(*maxN)
	if len(cells) == 0 {
		return usagef("--max-n = %d: no cell of %s has n ≤ %d", *maxN, exp.Name(), *maxN)
	}
	memLimit, err := checkMemory(exp, cells, *memGiB)
	if err != nil {
		return err
	}
	// The estimates bound the live data; the runtime's soft limit makes the
	// collector return a finished large run's buffers before the next one
	// grows the heap past the budget.
	debug.SetMemoryLimit(memLimit)
	if !*quiet {
		for _, s := range skipped {
			fmt.Fprintf(stderr, "skipped %s\n", s)
		}
		fmt.Fprintf(stderr, "%s: %d cells × %d runs, seed %d, %d workers, shard %s%s, memory budget %.2f GiB\n", exp.Name(), len(cells), *runs, *seed, *workers, sh, shardSrc, float64(memLimit)/(1<<30))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := time.Time{}
	plan := experiment.Plan{Exp: exp, Cells: cells, Runs: *runs, Seed: *seed, Workers: *workers, Shard: sh, MaxN: *maxN, MemLimit: memLimit, Options: opts}
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
	if rawShard {
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
	if a, ok := exp.(experiment.Analyst); ok {
		w := stdout
		if *of.asJSON {
			w = stderr
		}
		if !*of.asJSON || !quiet {
			for _, l := range a.Analysis(rows) {
				fmt.Fprintln(w, l)
			}
		}
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
	maxN := fs.Int("max-n", 0, "the --max-n the shards were run with (default: the value recorded in the shard files)")
	quiet := fs.Bool("quiet", false, "no messages on stderr")
	of := addOutputFlags(fs)
	files, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("need one or more shard files (from 'reproduce --shard i/k --json' or 'claims --shard i/k --json')")
	}
	if ledger, err := readLedgerShards(files); err != nil || ledger != nil {
		if err != nil {
			return err
		}
		if *of.csv != "" {
			return usagef("--csv: only for experiment shards (these are ledger shards; use --json)")
		}
		return mergeLedger(files, ledger, *of.asJSON, stdout)
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
	exp, err := lookupExperiment(parts[0].Experiment, parts[0].Options)
	if err != nil {
		return usagef("%s: %v", files[0], err)
	}
	if *maxN == 0 {
		for i, p := range parts {
			switch {
			case p.MaxN == 0:
				return usagef("%s: the shard file does not record --max-n (written by an older routecheck); pass the value with --max-n", files[i])
			case p.MaxN != parts[0].MaxN:
				return usagef("%s was run with --max-n %d but %s with %d: shards of one plan must agree", files[i], p.MaxN, files[0], parts[0].MaxN)
			}
		}
		*maxN = parts[0].MaxN
	} else if *maxN < 0 {
		return usagef("--max-n = %d: must be ≥ 1", *maxN)
	}
	o, err := experiment.Merge(exp, parts, *maxN)
	if err != nil {
		return usagef("%v", err)
	}
	return writeOutputs(exp, experiment.Rows(exp, o), of, stdout, stderr, *quiet)
}

// readLedgerShards reads the files as ledger shards (`claims --shard`)
// when the first one is one; nil, nil when it is not (an experiment shard).
func readLedgerShards(files []string) ([]ledgerShard, error) {
	var parts []ledgerShard
	ledger, other := "", ""
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, usagef("%v", err)
		}
		var l ledgerShard
		if json.Unmarshal(b, &l) == nil && l.Shard != "" {
			ledger = f
			parts = append(parts, l)
		} else {
			other = f
		}
	}
	switch {
	case ledger != "" && other != "":
		return nil, usagef("%s is a ledger shard (claims --shard) but %s is not: merge shards of one kind", ledger, other)
	case ledger == "":
		return nil, nil
	}
	return parts, nil
}

// resolveShard parses --shard i/k, or with --shard auto reads i and k from
// the batch scheduler's environment (experiment.ShardFromEnv).
func resolveShard(spec string, shards int) (experiment.Shard, string, error) {
	if spec != "auto" {
		if shards != 0 {
			return experiment.Shard{}, "", usagef("--shards = %d: only with --shard auto (--shard %s already says k)", shards, spec)
		}
		sh, err := experiment.ParseShard(spec)
		if err != nil {
			return experiment.Shard{}, "", usagef("--shard: %v", err)
		}
		return sh, "", nil
	}
	sh, src, err := experiment.ShardFromEnv(os.Getenv, shards)
	if err != nil {
		return experiment.Shard{}, "", usagef("%v", err)
	}
	return sh, " (" + src + ")", nil
}

// lookupExperiment finds a registered experiment and applies its options
// (flag name → value; today only pops-table1/2's c-eps).
func lookupExperiment(name string, opts map[string]string) (experiment.Experiment, error) {
	exp, err := experiment.Lookup(name)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	if len(opts) > 0 {
		if exp, err = popsexp.TableWith(name, opts); err != nil {
			return nil, usagef("--%v", err)
		}
	}
	return exp, nil
}

// checkMemory returns the memory budget for the runs in flight — limitGiB,
// capped at the available memory — and refuses the plan when one run of its
// largest cell alone would not fit.
func checkMemory(exp experiment.Experiment, cells []experiment.Cell, limitGiB float64) (int64, error) {
	var worst experiment.Cell
	var need int64
	for _, c := range cells {
		if b := exp.BytesPerWorker(c); b > need {
			need, worst = b, c
		}
	}
	limit := int64(limitGiB * (1 << 30))
	if avail := availableMemory(); avail < limit {
		limit = avail
	}
	if need > limit {
		return 0, usagef("cell %s needs ≈ %.2f GiB for one run, more than the %.2f GiB budget; lower --max-n (or raise --mem-limit, capped at the available memory)",
			worst.Key(), float64(need)/(1<<30), float64(limit)/(1<<30))
	}
	return limit, nil
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
