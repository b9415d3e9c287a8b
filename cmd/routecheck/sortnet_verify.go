package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	msn "routecheck/models/sortnet"
)

// verifyReport is the JSON of `routecheck sortnet verify FILE --json`. The
// keys n, size, depth, verdict, counterexample, redundant and covered are an
// interface (issue 10); the others are additions.
type verifyReport struct {
	File           string     `json:"file"`
	Format         string     `json:"format"`
	N              int        `json:"n"`
	Size           int        `json:"size"`
	Depth          int        `json:"depth"`
	DeclaredSize   int        `json:"declared_size,omitempty"`
	DeclaredDepth  int        `json:"declared_depth,omitempty"`
	Verdict        string     `json:"verdict"` // "holds" (sorts) or "violated"
	Counterexample []int      `json:"counterexample"`
	Output         []int      `json:"output,omitempty"` // what the network leaves for the counterexample
	Redundant      [][2]int32 `json:"redundant"`        // null when not computed (n > 24)
	Exhaustive     bool       `json:"exhaustive"`
	Inputs         int64      `json:"inputs"`
	Covered        string     `json:"covered"`
	Seconds        float64    `json:"seconds"`
}

const sortnetVerifyUsage = `usage: routecheck sortnet verify FILE [--json] [--seed S] [--workers W]
FILE is a comparator network: SorterHunter's JSON {"N": n, "L": size, "D": depth, "nw": [[i, j], …]}
(0-based pairs in order) or pairs one layer per bracket: [(0,1),(2,3)],[(0,2),(1,3)],…
exit status: 0 the network sorts (or no tried input failed, n > 30), 1 it does not, 2 a bad file or flag`

// runSortnetVerify: n, size, depth (greedy layering), redundant comparators
// (exact for n ≤ 24), and whether the network sorts — every 0-1 input for
// n ≤ 30, structured and random inputs beyond.
func runSortnetVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sortnet verify", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	seed := fs.Uint64("seed", 1, "seed of the random inputs (n > 30 only)")
	workers := fs.Int("workers", 0, "goroutines for the exhaustive check (0: one per core)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("a network file is required\n%s", sortnetVerifyUsage)
	case len(pos) > 1:
		return usagef("unexpected argument %q (verify takes one file)", pos[1])
	case *workers < 0 || *workers > 1024:
		return usagef("--workers = %d: must be in [0, 1024]", *workers)
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return usagef("%v", err)
	}
	data = caseNetwork(data)
	nw, dec, err := msn.ParseNetwork(data)
	if err != nil {
		return usagef("%s: %v", pos[0], err)
	}
	start := time.Now()
	v := msn.Verify(nw, msn.VerifyOptions{Workers: *workers, Seed: *seed})
	rep := verifyReport{File: pos[0], Format: dec.Format, N: nw.N, Size: nw.Size(), Depth: nw.Depth(),
		DeclaredSize: dec.Size, DeclaredDepth: dec.Depth, Verdict: "holds", Exhaustive: v.Exhaustive,
		Inputs: v.Inputs, Covered: v.Covered, Seconds: time.Since(start).Seconds()}
	if !v.Sorts {
		rep.Verdict, rep.Counterexample = "violated", v.Counterexample
		rep.Output = append([]int(nil), v.Counterexample...)
		msn.Apply(nw, rep.Output)
	}
	if v.RedundantKnown {
		rep.Redundant = [][2]int32{}
		for _, p := range v.Redundant {
			c := nw.Stages[p.Stage][p.Index]
			rep.Redundant = append(rep.Redundant, [2]int32{c.I, c.J})
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s (%s): n = %d, size %d, depth %d (greedy layering)", rep.File, rep.Format, rep.N, rep.Size, rep.Depth)
		if dec.Size != 0 && dec.Size != rep.Size || dec.Depth != 0 && dec.Depth != rep.Depth {
			fmt.Fprintf(stdout, "; the file declares size %d, depth %d", dec.Size, dec.Depth)
		}
		fmt.Fprintln(stdout)
		if rep.Verdict == "holds" {
			fmt.Fprintf(stdout, "sorts: %s (%.2fs)\n", rep.Covered, rep.Seconds)
		} else {
			fmt.Fprintf(stdout, "does not sort: input %v leaves %v (%s; %.2fs)\n", rep.Counterexample, rep.Output, rep.Covered, rep.Seconds)
		}
		switch {
		case rep.Redundant == nil:
			fmt.Fprintf(stdout, "redundant comparators: not computed (exact only for n ≤ %d)\n", msn.MaxRedundantN)
		case len(rep.Redundant) == 0:
			fmt.Fprintln(stdout, "redundant comparators: none (each exchanges on some input)")
		default:
			fmt.Fprintf(stdout, "redundant comparators (never exchange on any input): %v\n", rep.Redundant)
		}
	}
	if rep.Verdict == "violated" {
		return failure{fmt.Sprintf("%s does not sort (counterexample %v)", pos[0], rep.Counterexample)}
	}
	return nil
}

// caseNetwork returns the network of a sortnet-network case file (what
// sortnettest writes on a failure, and `routecheck replay` runs): its
// instance is SorterHunter JSON. Any other content is returned as it is.
func caseNetwork(data []byte) []byte {
	var c struct {
		Kind     string          `json:"kind"`
		Instance json.RawMessage `json:"instance"`
	}
	if json.Unmarshal(data, &c) == nil && c.Kind == "sortnet-network" && len(c.Instance) > 0 {
		return c.Instance
	}
	return data
}
