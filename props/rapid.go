package props

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

// Falsify runs prop under rapid with the given number of cases and a seed
// derived from env. prop returns nil when the case satisfies the claim and a
// JSON-marshalable counterexample when it does not. Falsify returns the last
// (after shrinking: the minimal) counterexample, or nil, and rapid's report.
// Settings passed on the command line (-rapid.checks, -rapid.seed) are
// overridden for the duration of the call; rapid never writes fail files here.
func Falsify(env Env, checks int, prop func(t *rapid.T) any) (cex any, report string) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	prepareFlags()
	restore := setFlags(map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(env.Seed|1, 10),
		"rapid.nofailfile": "true",
	})
	defer restore()
	var last any
	rec := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapid.Check(rec, func(t *rapid.T) {
			if c := prop(t); c != nil {
				last = c
				t.Fatalf("counterexample: %s", brief(c))
			}
		})
	}()
	<-done
	if !rec.Failed() {
		return nil, ""
	}
	return last, rec.log.String()
}

func setFlags(vals map[string]string) func() {
	old := map[string]string{}
	for k, v := range vals {
		f := flag.Lookup(k)
		if f == nil {
			panic("props: rapid flag " + k + " not registered")
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
