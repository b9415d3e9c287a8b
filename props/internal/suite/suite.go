// Package suite holds what the six conformance suites (props/popstest,
// meshtest, sottest, bflytest, mbflytest, sortnettest) share and knows no
// network: the defaults every suite's Options fills the same way, the
// dispatch of a check to a subtest when the caller's testing.TB has them,
// and the writing of a failure's replay file.
package suite

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"routecheck/internal/hunt"
)

// Fill sets the options every suite has to their shared defaults where the
// caller left them zero: *checks to def (the number of rapid cases, which
// differs by suite), *seed to 1 and *replayDir to os.TempDir().
func Fill(checks *int, def int, seed *uint64, replayDir *string) {
	if *checks == 0 {
		*checks = def
	}
	if *seed == 0 {
		*seed = 1
	}
	if *replayDir == "" {
		*replayDir = os.TempDir()
	}
}

// Short is testing.Short inside a test binary and false elsewhere (the
// suites also run from routecheck check, where the testing flags do not
// exist).
func Short() bool { return testing.Testing() && testing.Short() }

// Pick returns long, or short under -short in a test binary.
func Pick(long, short int) int {
	if Short() {
		return short
	}
	return long
}

// Sub runs check as the subtest name of t when t has subtests (a
// *testing.T or *testing.B) and directly on t otherwise (any other
// testing.TB), so a suite's Run works with both. check's second argument
// says whether it runs as its own subtest.
func Sub(t testing.TB, name string, check func(t testing.TB, sub bool)) {
	t.Helper()
	type runner interface {
		Run(string, func(*testing.T)) bool
	}
	if r, ok := t.(runner); ok {
		r.Run(name, func(t *testing.T) { check(t, true) })
	} else {
		check(t, false)
	}
}

// RouterName is the router's name in a replay file: name when the caller
// gave one (Options.Router; newRouter is then not called), else the Go
// type of the router newRouter returns (fmt's %T), or a note when the
// constructor panics.
func RouterName[R any](name string, newRouter func() R) (r string) {
	if name != "" {
		return name
	}
	defer func() {
		if recover() != nil {
			r = "(a router whose constructor panics)"
		}
	}()
	return fmt.Sprintf("%T", newRouter())
}

// ShortPerm is p as fmt prints it, cut after its first 32 entries with
// " …]" when longer (a failure's message; the replay file has it all).
func ShortPerm(p []int32) string {
	if len(p) > 32 {
		return strings.TrimSuffix(fmt.Sprint(p[:32]), "]") + " …]"
	}
	return fmt.Sprint(p)
}

// WriteReplay writes a failure as a routecheck case under dir
// (hunt.WriteSuiteFailure with the suite's file prefix, the case kind, the
// router's name, the foundBy line, the instance and what broke) and returns
// the failure's Replay text: how to re-run the file, with goCall (a Go
// call with one %q for the file's path) for the caller's own router, or,
// when the file cannot be written, why.
func WriteReplay(dir, prefix, kind, router, foundBy string, instance any, broke []hunt.Broken, goCall string) string {
	path, err := hunt.WriteSuiteFailure(dir, prefix, kind, router, foundBy, instance, broke)
	if err != nil {
		return "(replay file not written: " + err.Error() + ")"
	}
	return hunt.ReplayHint(path, fmt.Sprintf(goCall, path))
}

// ReplayPath is the file a failure's Replay text (WriteReplay's) names:
// the word after "routecheck replay ", or "" when the text names none (the
// file was not written).
func ReplayPath(replay string) string {
	rest, ok := strings.CutPrefix(replay, "routecheck replay ")
	if f := strings.Fields(rest); ok && len(f) > 0 {
		return f[0]
	}
	return ""
}

// Only is for the suites' own tests of a router that breaks one property:
// it fails t unless fs holds a failure and every failure is of property
// want with a message containing msg (read gives a failure's property,
// message and Replay text), and returns the replay file the first failure
// names (ReplayPath; "" after t.Fatalf when fs is empty).
func Only[F any](t testing.TB, fs []F, want, msg string, read func(F) (property, message, replay string)) string {
	t.Helper()
	if len(fs) == 0 {
		t.Fatalf("no failure, want %s failures", want)
		return ""
	}
	for _, f := range fs {
		if p, m, _ := read(f); p != want || !strings.Contains(m, msg) {
			t.Errorf("failure %v, want only %s failures saying %q", f, want, msg)
		}
	}
	_, _, replay := read(fs[0])
	return ReplayPath(replay)
}
