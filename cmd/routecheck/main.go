// Command routecheck checks routing papers' claims, reproduces their tables,
// hunts for counterexamples and replays them.
//
//	routecheck claims    [--filter RE] [--budget small|default|large] [--seed N] [--json]
//	routecheck reproduce EXPERIMENT [--runs 100] [--max-n N] [--seed N] [--workers W] [--shard i/k|auto [--shards k]] [--json] [--csv F] [--out DIR]
//	routecheck merge     SHARD.json...  [--json] [--csv F] [--out DIR]
//	routecheck hunt      TARGET [--iters N] [--time D] [--seed N] [--json] [--out FILE] [target flags]   (hunt alone lists the targets)
//	routecheck replay    FILE           (also: routecheck check FILE)
//	routecheck sortnet   oddeven|bitonic|aks --n N [--halver exact|expander] [--d D] [--json]
//	routecheck sortnet   depths [--max-k K] [--json]
//
// Bad parameters give a one-line error naming the parameter and what is
// allowed, and exit status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"routecheck/internal/experiment"
	"routecheck/internal/hunt"
)

// usageError is a bad parameter: printed on one line, exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

const usage = `routecheck — property-based verification of permutation-routing algorithms

commands:
  claims      check the claims ledger (every registered claim) and print it
  reproduce   re-run a paper's table or figure: %s
  merge       merge the shard outputs of 'reproduce --shard i/k --json'
  hunt        search for bad instances: %s
  replay      re-run a saved case (also: check FILE for your own instance)
  sortnet     build a sorting network (oddeven, bitonic, aks) and verify it; 'sortnet depths' tabulates AKS depth against Batcher;
              'sortnet verify FILE' checks a network from a file (SorterHunter JSON or a list of pairs)

run 'routecheck COMMAND -h' for a command's flags`

// usageText is the top-level usage, listing every registered experiment
// and hunt target.
func usageText() string {
	return fmt.Sprintf(usage, strings.Join(experiment.Names(), ", "), strings.Join(hunt.Targets(), ", "))
}

type command func(args []string, stdout, stderr io.Writer) error

var commands = map[string]command{
	"claims":    runClaims,
	"reproduce": runReproduce,
	"merge":     runMerge,
	"hunt":      runHunt,
	"replay":    runReplay,
	"check":     runReplay,
	"sortnet":   runSortnet,
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes one command and returns the exit status: 0 success, 1 a
// check failed (replay not reproduced, ledger mismatch), 2 bad usage, 3 an
// internal error.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "routecheck: internal error: %v (please report it with the command line)\n", p)
			status = 3
		}
	}()
	switch {
	case len(args) == 0:
		fmt.Fprintln(stderr, usageText())
		return 2
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		fmt.Fprintln(stdout, usageText())
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "routecheck: unknown command %q; allowed: claims, reproduce, merge, hunt, replay, check, sortnet\n", args[0])
		return 2
	}
	err := cmd(args[1:], stdout, stderr)
	var ue usageError
	var fe failure
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "routecheck %s: %s\n", args[0], oneLine(err.Error()))
		return 2
	case errors.As(err, &fe):
		fmt.Fprintf(stderr, "routecheck %s: %s\n", args[0], oneLine(err.Error()))
		return 1
	default:
		fmt.Fprintf(stderr, "routecheck %s: %s\n", args[0], oneLine(err.Error()))
		return 3
	}
}

// failure is a check that ran and failed: exit status 1.
type failure struct{ msg string }

func (f failure) Error() string { return f.msg }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// newFlags returns a flag set whose parse errors become usage errors,
// reported once on one line by run; -h prints the flags to stderr.
// Extra lines (e.g. the registered experiments) are printed after the flags.
func newFlags(name string, stderr io.Writer, extra ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	sink := &errSink{}
	fs.SetOutput(sink)
	fs.Usage = func() {
		if sink.wrote { // a parse error: run reports it
			sink.wrote = false
			return
		}
		fs.SetOutput(stderr)
		fmt.Fprintf(stderr, "usage of routecheck %s:\n", name)
		fs.PrintDefaults()
		for _, l := range extra {
			fmt.Fprintln(stderr, l)
		}
		fs.SetOutput(sink)
	}
	return fs
}

// errSink swallows the flag package's own error output and remembers that
// there was some.
type errSink struct{ wrote bool }

func (e *errSink) Write(p []byte) (int, error) { e.wrote = true; return len(p), nil }

// parse parses flags (which may follow positional arguments) and returns
// the positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
