package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"routecheck/props"
)

func runClaims(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("claims", stderr)
	filter := fs.String("filter", "", "regular expression selecting claim IDs")
	budget := fs.String("budget", "default", "check budget: small, default or large")
	seed := fs.Uint64("seed", props.DefaultSeed, "seed of every random choice (the ledger's verdicts are recorded at the default)")
	asJSON := fs.Bool("json", false, "print the ledger as a JSON array instead of a table")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	workers := fs.Int("workers", defaultClaimWorkers(), "claims checked at once (each claim's verdict does not depend on it; the ledger is printed in registration order). Default: one per core when at least 3 GiB per worker is available, else 1 (the default budget peaks at 2.9 GB with 1 worker, 4.8 GB with 2)")
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
	b, err := props.ParseBudget(*budget)
	if err != nil {
		return usagef("--budget: %v", err)
	}
	claims, err := props.Claims(*filter)
	if err != nil {
		return usagef("--filter: %v", err)
	}
	if len(claims) == 0 {
		return usagef("--filter %q matches no claim", *filter)
	}
	env := props.Env{Budget: b, Seed: *seed}
	if !*quiet {
		env.Progress = func(f string, a ...any) { fmt.Fprintf(stderr, "    "+f+"\n", a...) }
	}
	start := time.Now()
	results := make([]props.Result, len(claims))
	mismatches, done := 0, 0
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(*workers, len(claims)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := props.Run(claims[i], env)
				mu.Lock()
				results[i] = r
				done++
				if !r.Matches {
					mismatches++
				}
				if !*quiet {
					mark := ""
					if !r.Matches {
						mark = fmt.Sprintf("  (recorded: %s)", r.Recorded)
					}
					fmt.Fprintf(stderr, "[%d/%d] %-52s %-12s %6.2fs%s\n", done, len(claims), r.ID, r.Verdict, r.Seconds, mark)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range claims {
		next <- i
	}
	close(next)
	wg.Wait()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		printLedger(stdout, results, b, *seed)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%d claims checked in %.1fs at budget %s, seed %d; %d differ from the ledger\n", len(results), time.Since(start).Seconds(), b, *seed, mismatches)
	}
	if mismatches > 0 {
		return failure{fmt.Sprintf("%d claim(s) reached a verdict different from the ledger (see 'recorded')", mismatches)}
	}
	return nil
}

// defaultClaimWorkers is one worker per core, as far as the available
// memory allows about 3 GiB each (the default budget's heaviest claims — AKS
// networks at 2^16, Table II cells at 2^24 — peak near 2.5 GB together).
func defaultClaimWorkers() int {
	return max(1, min(runtime.GOMAXPROCS(0), int(availableMemory()/(3<<30))))
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
