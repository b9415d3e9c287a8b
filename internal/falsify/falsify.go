// Package falsify runs a property under rapid outside (or inside) go test
// and returns a verdict instead of failing a test: the shrunk
// counterexample, or nil when every case passed — and a panic with *Error
// when rapid failed for any other reason (a crash is never a pass). The
// claims ledger (props) and the conformance suites (props/<net>test) share it.
package falsify

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// recorder is a rapid.TB that records instead of failing a Go test, so a
// property that finds a counterexample yields a verdict, in tests and in the
// CLI alike.
type recorder struct {
	mu     sync.Mutex
	failed bool
	log    strings.Builder
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "routecheck" }
func (r *recorder) Logf(f string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(&r.log, f+"\n", a...)
}
func (r *recorder) Log(a ...any)             { r.Logf("%s", fmt.Sprint(a...)) }
func (r *recorder) Skipf(f string, a ...any) { r.Logf(f, a...); runtime.Goexit() }
func (r *recorder) Skip(a ...any)            { r.Log(a...); runtime.Goexit() }
func (r *recorder) SkipNow()                 { runtime.Goexit() }
func (r *recorder) Errorf(f string, a ...any) {
	r.Logf(f, a...)
	r.Fail()
}
func (r *recorder) Error(a ...any)            { r.Log(a...); r.Fail() }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); runtime.Goexit() }
func (r *recorder) Fatal(a ...any)            { r.Error(a...); runtime.Goexit() }
func (r *recorder) FailNow()                  { r.Fail(); runtime.Goexit() }
func (r *recorder) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

var rapidMu sync.Mutex // rapid's settings are process-wide flags

// prepareFlags makes rapid usable outside `go test`: rapid reads its settings
// from flags and calls testing.Short, which needs parsed testing flags.
func prepareFlags() {
	if flag.Lookup("test.short") == nil {
		testing.Init()
	}
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
}

// Error is what Falsify panics with when rapid failed for a reason
// other than the property returning a counterexample: a panic inside the
// property, a generator that could not draw enough valid cases, a failure
// rapid could not reproduce. props.Run (and every check run through it) reports
// it as Inconclusive — a crash is never a pass, and never a finding.
type Error struct {
	Reason string // what went wrong, in one line
	Report string // rapid's report
}

func (e *Error) Error() string {
	rep := e.Report
	if len(rep) > 600 {
		rep = rep[:600] + "…"
	}
	return fmt.Sprintf("rapid could not decide the property: %s\n%s", e.Reason, rep)
}

// Falsify runs prop under rapid with the given number of cases and the
// seed (rapid's seed is seed|1). prop returns nil when the case satisfies the claim and a
// JSON-marshalable counterexample when it does not. Falsify returns the last
// (after shrinking: the minimal) counterexample, or nil when every case
// passed, and rapid's report. When rapid fails without a counterexample of
// prop's — prop panicked on some case, rapid could not draw valid cases, or
// the failure did not reproduce — Falsify panics with an *Error, so a
// caller can never read a crash as "no counterexample" (props.Run turns
// that panic into an Inconclusive verdict with the reason).
// Settings passed on the command line (-rapid.checks, -rapid.seed) are
// overridden for the duration of the call; rapid never writes fail files here.
func Falsify(seed uint64, checks int, prop func(t *rapid.T) any) (cex any, report string) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	prepareFlags()
	restore := setFlags(map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(seed|1, 10),
		"rapid.nofailfile": "true",
	})
	defer restore()
	var last any
	var panicked string
	rec := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapid.Check(rec, func(t *rapid.T) {
			last = nil
			var c any
			func() {
				defer func() {
					if p := recover(); p != nil {
						if !isRapidControl(p) && panicked == "" {
							panicked = fmt.Sprint(p)
						}
						panic(p)
					}
				}()
				c = prop(t)
			}()
			if c != nil {
				last = c
				t.Fatalf("counterexample: %s", brief(c))
			}
		})
	}()
	<-done
	rep := rec.log.String()
	switch {
	case panicked != "":
		panic(&Error{Reason: "the property panicked: " + panicked, Report: rep})
	case !rec.Failed():
		return nil, ""
	case last == nil || !strings.Contains(rep, "[rapid] failed after"):
		reason := "rapid failed without a counterexample from the property"
		if strings.Contains(rep, "only generated") {
			reason = "the generators could not draw enough valid cases"
		} else if strings.Contains(rep, "flaky") {
			reason = "the failure did not reproduce (flaky property)"
		}
		panic(&Error{Reason: reason, Report: rep})
	}
	return last, rep
}

// isRapidControl reports whether a panic value is rapid's own control flow
// (a failed-case or invalid-draw signal, or runtime.Goexit's), not a crash of
// the property.
func isRapidControl(p any) bool {
	t := fmt.Sprintf("%T", p)
	return strings.HasPrefix(t, "*rapid.") || strings.HasPrefix(t, "rapid.")
}

func setFlags(vals map[string]string) func() {
	old := map[string]string{}
	for k, v := range vals {
		f := flag.Lookup(k)
		if f == nil {
			panic("falsify: rapid flag " + k + " not registered")
		}
		old[k] = f.Value.String()
		_ = f.Value.Set(v)
	}
	return func() {
		for k, v := range old {
			_ = flag.Lookup(k).Value.Set(v)
		}
	}
}

func brief(c any) string {
	s := fmt.Sprintf("%+v", c)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
