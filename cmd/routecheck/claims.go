package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"routecheck/internal/experiment"
	"routecheck/props"
)

func runClaims(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("claims", stderr)
	filter := fs.String("filter", "", "regular expression selecting claim IDs")
	budget := fs.String("budget", "default", "check budget: small, default or large")
	seed := fs.Uint64("seed", props.DefaultSeed, "seed of every random choice (the ledger's verdicts are recorded at the default)")
	asJSON := fs.Bool("json", false, "print the ledger as a JSON array instead of a table")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "claims checked at once (default one per core); the ledger is printed in registration order and no verdict depends on it")
	shard := fs.String("shard", "1/1", "check only part i of k of the claims (every k-th in registration order, from the i-th) and print a ledger shard for 'merge' (needs --json); auto: i and k from a Slurm job array or a Kubernetes Indexed Job (see deploy/)")
	shards := fs.Int("shards", 0, "with --shard auto in a Kubernetes Indexed Job: k, the Job's completions")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the checks to this file, for go tool pprof (where a ledger run spends its time)")
	memGiB := fs.Float64("mem-limit", 1, "memory budget in GiB for the claims in flight: each claim declares its peak heap per budget, large claims wait for each other so the estimates of concurrent claims stay under it, and a claim whose own estimate is over it runs alone (capped at the available memory)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q (claims takes only flags)", pos[0])
	}
	if *workers < 1 || *workers > 256 {
		return usagef("--workers = %d: must be in [1, 256]", *workers)
	}
	if !(*memGiB > 0) || *memGiB > 1<<20 {
		return usagef("--mem-limit = %v: must be a number of GiB in (0, 1048576]", *memGiB)
	}
	b, err := props.ParseBudget(*budget)
	if err != nil {
		return usagef("--budget: %v", err)
	}
	sh, _, err := resolveShard(*shard, *shards)
	if err != nil {
		return err
	}
	sharded := sh.K > 1 || *shard == "auto"
	if sharded && !*asJSON {
		return usagef("--shard %s: a ledger shard is JSON for 'merge'; add --json and redirect it to a file", sh)
	}
	claims, err := props.Claims(*filter)
	if err != nil {
		return usagef("--filter: %v", err)
	}
	if len(claims) == 0 {
		return usagef("--filter %q matches no claim", *filter)
	}
	total := len(claims)
	var indices []int
	if sharded {
		var mine []props.Claim
		for i, c := range claims {
			if i%sh.K == sh.I-1 {
				mine, indices = append(mine, c), append(indices, i)
			}
		}
		claims = mine
	}
	env := props.Env{Budget: b, Seed: *seed}
	if !*quiet {
		env.Progress = func(f string, a ...any) { fmt.Fprintf(stderr, "    "+f+"\n", a...) }
	}
	limit := min(int64(*memGiB*(1<<30)), availableMemory())
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return usagef("--cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return usagef("--cpuprofile: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	results, mismatches := checkClaims(claims, env, *workers, limit, stderr, *quiet)
	if sharded {
		// A shard's mismatches are reported by 'merge' (which fails on
		// them), so a job array's merge step is not blocked by a finding.
		if !*quiet {
			fmt.Fprintf(stderr, "ledger shard %s: %d of %d claims checked in %.1fs at budget %s, seed %d; %d differ from the ledger\n", sh, len(results), total, time.Since(start).Seconds(), b, *seed, mismatches)
		}
		return json.NewEncoder(stdout).Encode(ledgerShard{Shard: sh.String(), Budget: b.String(), Seed: *seed, Filter: *filter, Total: total, Indices: indices, Results: results})
	}
	markSlowest(results)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
		if !*quiet {
			printSlowest(stderr, results)
		}
	} else {
		printLedger(stdout, results, b, *seed)
		printSlowest(stdout, results)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%d claims checked in %.1fs at budget %s, seed %d, %d workers, memory budget %.2f GiB (peak memory %s); %d differ from the ledger\n", len(results), time.Since(start).Seconds(), b, *seed, *workers, float64(limit)/(1<<30), peakRSS(), mismatches)
	}
	if mismatches > 0 {
		return failure{fmt.Sprintf("%d claim(s) reached a verdict different from the ledger (see 'recorded')", mismatches)}
	}
	return nil
}

// checkClaims checks the claims on up to workers goroutines under the
// memory scheduler of internal/experiment (experiment.Pool): the estimates
// (Claim.MemFor) of the claims in flight stay within limit bytes, larger
// claims first so that the heavy ones chain on one worker while the others
// work through the small ones beside it; a claim whose own estimate is over
// the limit runs alone (said on stderr unless quiet). The results are in
// the claims' order and do not depend on workers: every claim draws its
// randomness from the seed alone.
func checkClaims(claims []props.Claim, env props.Env, workers int, limit int64, stderr io.Writer, quiet bool) (results []props.Result, mismatches int) {
	cost := make([]int64, len(claims))
	order := make([]int, len(claims))
	soft := int64(0)
	for i, c := range claims {
		cost[i], order[i] = c.MemFor(env.Budget), i
		soft = max(soft, cost[i])
		if cost[i] > limit && !quiet {
			fmt.Fprintf(stderr, "%s: estimated peak %.2f GiB > --mem-limit %.2f GiB: it runs alone\n", c.ID, float64(cost[i])/(1<<30), float64(limit)/(1<<30))
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	// The collector keeps what the runtime holds near the budget less a
	// sixteenth (64 MiB at 1 GiB: the binary and what the runtime does not
	// count, so that the resident set stays within the budget), or near the
	// largest claim's estimate when one runs alone above that, instead of
	// letting garbage double the heap.
	budget := limit - limit/16
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(max(budget, soft)))
	// And only there, while every claim fits the budget: with the
	// proportional trigger off (GOGC=off) the collector runs when the heap
	// nears the budget rather than each time the heap doubles, which the
	// many small claims made it do thousands of times. Measured on the main
	// job (2026-11-24, quiet 2-core machine, 580 claims): 128.6 s wall /
	// 249 s CPU → 119.7 s / 232 s CPU, peak RSS 994 → 998 MB, every verdict
	// the same; the price is that a run's resident set reaches the budget
	// even when its claims need less. Where a claim's estimate is above the
	// budget (it runs alone, and the limit is raised to it) the trigger
	// stays on, so that the rest of the run is not held at that estimate.
	// Both settings are put back when the claims are done (the tests call
	// this function in one process).
	if soft <= budget {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	results = make([]props.Result, len(claims))
	var mu sync.Mutex
	done := 0
	pool := experiment.Pool{Workers: workers, MemLimit: limit, Key: func(i int) string { return claims[i].Shares }}
	// A claim's check never returns an error (a panic is an inconclusive
	// verdict), so the pool runs every claim.
	_ = pool.Run(context.Background(), order, func(i int) int64 { return cost[i] }, func(_, i int) error {
		r := props.Run(claims[i], env)
		mu.Lock()
		defer mu.Unlock()
		results[i] = r
		done++
		if !r.Matches {
			mismatches++
		}
		if !quiet {
			mark := ""
			if !r.Matches {
				mark = fmt.Sprintf("  (recorded: %s)", r.Recorded)
			}
			fmt.Fprintf(stderr, "[%d/%d] %-52s %-12s %6.2fs%s\n", done, len(claims), r.ID, r.Verdict, r.Seconds, mark)
		}
		return nil
	}, nil)
	return results, mismatches
}

// slowestShown is how many of the slowest claims a run lists.
const slowestShown = 10

// markSlowest sets SlowRank (1 = slowest) on the slowest claims of a run.
func markSlowest(rs []props.Result) {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return rs[idx[a]].Seconds > rs[idx[b]].Seconds })
	for k, i := range idx[:min(slowestShown, len(idx))] {
		rs[i].SlowRank = k + 1
	}
}

// printSlowest lists the claims markSlowest ranked, slowest first.
func printSlowest(w io.Writer, rs []props.Result) {
	var top []props.Result
	for _, r := range rs {
		if r.SlowRank > 0 {
			top = append(top, r)
		}
	}
	sort.Slice(top, func(a, b int) bool { return top[a].SlowRank < top[b].SlowRank })
	fmt.Fprintf(w, "\nThe %d slowest claims (wall seconds, check and planted faults; estimated peak heap):\n", len(top))
	for _, r := range top {
		fmt.Fprintf(w, "%8.2fs  %7.0f MiB  %s\n", r.Seconds, float64(r.MemEstimate)/(1<<20), r.ID)
	}
}

func printLedger(w io.Writer, rs []props.Result, b props.Budget, seed uint64) {
	count := map[props.Verdict]int{}
	for _, r := range rs {
		count[r.Verdict]++
	}
	fmt.Fprintf(w, "routecheck claims ledger — budget %s, seed %d: %d claims: %d holds, %d violated, %d consistent, %d inconsistent, %d inconclusive\n\n",
		b, seed, len(rs), count[props.Holds], count[props.Violated], count[props.Consistent], count[props.Inconsistent], count[props.Inconclusive])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCLASS\tKIND\tVERDICT\tPOWER\tLEDGER\tSOURCE")
	for _, r := range rs {
		ledger := "="
		if !r.Matches {
			ledger = "≠ " + string(r.Recorded)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.ScopeClass, r.Kind, r.Verdict, powerCell(r), ledger, strings.TrimPrefix(r.Source, "000_de3be866f009217f.txt "))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nPOWER is planted faults caught/tried by the same check at this budget; a holds or consistent verdict needs one caught, otherwise it is inconclusive.")
	fmt.Fprintln(w, "Findings by scope class (violated / inconsistent / inconclusive / differing from the ledger); only 'paper' and 'reading' findings are errata of a paper:")
	for _, class := range props.ScopeClasses {
		var fs []props.Result
		for _, r := range rs {
			if r.ScopeClass == class && (!r.Matches || (r.Verdict != props.Holds && r.Verdict != props.Consistent)) {
				fs = append(fs, r)
			}
		}
		fmt.Fprintf(w, "\n== %s: %d finding(s)\n", class, len(fs))
		for _, r := range fs {
			fmt.Fprintf(w, "\n* %s — %s\n  %s\n  scope: %s\n  evidence: %s\n", r.ID, r.Verdict, r.Statement, r.Scope, r.Evidence)
			if r.Counterexample != nil {
				cx, _ := json.Marshal(r.Counterexample)
				fmt.Fprintf(w, "  counterexample: %s\n", cx)
			}
			for _, p := range r.Power {
				fmt.Fprintf(w, "  planted fault %q: caught %v\n", p.Fault, p.Caught)
			}
			if r.Notes != "" {
				fmt.Fprintf(w, "  notes: %s\n", r.Notes)
			}
			fmt.Fprintf(w, "  replay: %s\n", r.Replay)
		}
	}
}

// powerCell is the POWER column: caught/tried, or "-" when no fault ran
// (the verdict came out the other way, or none is written).
func powerCell(r props.Result) string {
	if len(r.Power) == 0 {
		return "-"
	}
	s := fmt.Sprintf("%d/%d", r.Caught(), len(r.Power))
	if r.Slack != nil {
		s += fmt.Sprintf(" slack %.2f", *r.Slack)
	}
	return s
}

// ledgerShard is what `claims --shard i/k --json` prints: the results of
// the shard's claims with their positions in the whole (filtered) ledger,
// and the plan every shard of one ledger must share.
type ledgerShard struct {
	Shard   string         `json:"ledger_shard"`
	Budget  string         `json:"budget"`
	Seed    uint64         `json:"seed"`
	Filter  string         `json:"filter"`
	Total   int            `json:"total"`
	Indices []int          `json:"indices"`
	Results []props.Result `json:"results"`
}

// mergeLedger combines ledger shards into the ledger one run prints
// (registration order, the ten slowest marked), refusing shards of
// different plans, a missing claim and a claim twice; like `claims`, it
// fails when a claim's verdict differs from the recorded one.
func mergeLedger(files []string, parts []ledgerShard, asJSON bool, stdout io.Writer) error {
	first := parts[0]
	results := make([]props.Result, first.Total)
	from := make([]string, first.Total)
	for p, part := range parts {
		if part.Budget != first.Budget || part.Seed != first.Seed || part.Filter != first.Filter || part.Total != first.Total {
			return usagef("%s (budget %s, seed %d, filter %q, %d claims) and %s (budget %s, seed %d, filter %q, %d claims) are shards of different ledgers",
				files[p], part.Budget, part.Seed, part.Filter, part.Total, files[0], first.Budget, first.Seed, first.Filter, first.Total)
		}
		if len(part.Indices) != len(part.Results) {
			return usagef("%s: %d indices for %d results: not a ledger shard routecheck wrote", files[p], len(part.Indices), len(part.Results))
		}
		for j, i := range part.Indices {
			switch {
			case i < 0 || i >= first.Total:
				return usagef("%s: claim index %d outside the ledger's %d", files[p], i, first.Total)
			case from[i] != "":
				return usagef("claim %s is in both %s and %s: give each shard once", part.Results[j].ID, from[i], files[p])
			}
			results[i], from[i] = part.Results[j], files[p]
		}
	}
	missing := 0
	for i := range from {
		if from[i] == "" {
			missing++
		}
	}
	if missing > 0 {
		return usagef("%d of the ledger's %d claims are in no shard: a shard is missing (the shards are %s of k = %s)", missing, first.Total, strings.Join(files, ", "), strings.SplitN(first.Shard, "/", 2)[1])
	}
	mismatches := 0
	for _, r := range results {
		if !r.Matches {
			mismatches++
		}
	}
	markSlowest(results)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		b, _ := props.ParseBudget(first.Budget)
		printLedger(stdout, results, b, first.Seed)
		printSlowest(stdout, results)
	}
	if mismatches > 0 {
		return failure{fmt.Sprintf("%d claim(s) reached a verdict different from the ledger (see 'recorded')", mismatches)}
	}
	return nil
}
