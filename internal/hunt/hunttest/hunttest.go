// Package hunttest holds the checks every hunt-target package runs on its
// own targets: run a target with flags, round-trip its case through a file
// and replay, and replay the saved cases under testdata/hunt/.
package hunttest

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"routecheck/internal/hunt"
)

// Run hunts with the registered target name, its flags parsed from args.
func Run(t testing.TB, name string, o hunt.Options, args ...string) hunt.Case {
	t.Helper()
	tg, err := hunt.LookupTarget(name)
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	tg.DefineFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	c, err := tg.Hunt(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RoundTrip saves c, loads it back and replays it: the recorded value must
// be reproduced, and the same case with its value moved by 1/1024 must not.
// It returns the replay's report for the caller's own assertions.
func RoundTrip(t testing.TB, c hunt.Case) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "case.json")
	if err := hunt.Save(f, c); err != nil {
		t.Fatal(err)
	}
	l, err := hunt.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, ok, err := hunt.Replay(l)
	if err != nil || !ok {
		t.Fatalf("replay: reproduced %v, err %v\n%s", ok, err, rep)
	}
	l.Value += 1.0 / 1024
	if _, ok, err := hunt.Replay(l); ok || err != nil {
		t.Errorf("tampered replay: reproduced %v, err %v", ok, err)
	}
	return rep
}

// ReplaySaved replays every case file matching pattern (relative to the
// test's package directory); there must be at least one.
func ReplaySaved(t *testing.T, pattern string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no saved cases match %s (%v)", pattern, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := hunt.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if rep, ok, err := hunt.Replay(c); err != nil || !ok {
				t.Fatalf("reproduced %v, err %v\n%s", ok, err, rep)
			}
		})
	}
}
