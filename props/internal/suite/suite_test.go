package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/tbrecord"
)

// TestFill: zero fields get the shared defaults (checks as given, seed 1,
// os.TempDir()); fields the caller set are kept.
func TestFill(t *testing.T) {
	var checks int
	var seed uint64
	var dir string
	Fill(&checks, 42, &seed, &dir)
	if checks != 42 || seed != 1 || dir != os.TempDir() {
		t.Errorf("zero options filled to %d, %d, %q; want 42, 1, %q", checks, seed, dir, os.TempDir())
	}
	checks, seed, dir = 7, 9, "-"
	Fill(&checks, 42, &seed, &dir)
	if checks != 7 || seed != 9 || dir != "-" {
		t.Errorf("set options changed to %d, %d, %q; want 7, 9, \"-\"", checks, seed, dir)
	}
}

// plainTB is a testing.TB without subtests.
type plainTB struct{ testing.TB }

// TestSub: a *testing.T gets a subtest of that name (sub = true); a
// testing.TB without Run gets the check directly (sub = false).
func TestSub(t *testing.T) {
	var name string
	var sub bool
	Sub(t, "family/property", func(tb testing.TB, s bool) { name, sub = tb.Name(), s })
	if name != t.Name()+"/family/property" || !sub {
		t.Errorf("with *testing.T: ran as %q (sub %v), want %q as a subtest", name, sub, t.Name()+"/family/property")
	}
	ran := false
	Sub(plainTB{t}, "ignored", func(tb testing.TB, s bool) { ran, sub = true, s })
	if !ran || sub {
		t.Errorf("with a plain TB: ran %v, sub %v; want it run directly", ran, sub)
	}
	if got := Pick(5, 2); got != map[bool]int{true: 2, false: 5}[testing.Short()] {
		t.Errorf("Pick(5, 2) = %d with -short %v", got, testing.Short())
	}
}

type namedRouter struct{}

func (*namedRouter) Route() {}

// newRouter is shaped like the suites' constructors: a named func type
// returning an interface.
type newRouter func() interface{ Route() }

// RouterName: the caller's name wins; else the Go type of what the
// constructor returns (the dynamic type when it returns an interface, as
// the suites' constructors do); a constructor that panics is named as
// such, not propagated (the suite is writing a failure file when it asks).
func TestRouterName(t *testing.T) {
	calls := 0
	ctor := func() any { calls++; return &namedRouter{} }
	if got := RouterName("mine", ctor); got != "mine" || calls != 0 {
		t.Errorf("RouterName(\"mine\") = %q after %d constructor calls, want mine and none", got, calls)
	}
	if got := RouterName("", ctor); got != "*suite.namedRouter" {
		t.Errorf("RouterName(\"\") = %q, want *suite.namedRouter", got)
	}
	if got := RouterName("", func() any { panic("boom") }); got != "(a router whose constructor panics)" {
		t.Errorf("panicking constructor: %q", got)
	}
	if got := RouterName("", newRouter(func() interface{ Route() } { return &namedRouter{} })); got != "*suite.namedRouter" {
		t.Errorf("RouterName of an interface constructor = %q, want *suite.namedRouter", got)
	}
	if got := RouterName("", newRouter(func() interface{ Route() } { return nil })); got != "<nil>" {
		t.Errorf("RouterName of a constructor returning nil = %q, want <nil>", got)
	}
}

// TestWriteReplay: the file is a case of the given kind holding the
// instance and what broke, and the text names it for routecheck replay and
// in the Go call; an unwritable directory gives the reason, not a hint.
func TestWriteReplay(t *testing.T) {
	dir := t.TempDir()
	broke := []hunt.Broken{{Property: "delivery", Step: 3, Message: "lost"}}
	got := WriteReplay(dir, "xtest", "x-suite", "mine", "xtest, family f", map[string]int{"n": 4}, broke, "xtest.CheckFile(%q)")
	if !strings.HasPrefix(got, "routecheck replay "+dir) {
		t.Fatalf("WriteReplay = %q, want a routecheck replay line for a file under %s", got, dir)
	}
	path := ReplayPath(got)
	if _, err := os.Stat(path); err != nil || filepath.Dir(path) != dir {
		t.Fatalf("ReplayPath(%q) = %q: %v; want the file written under %s", got, path, err, dir)
	}
	if !strings.Contains(got, "xtest.CheckFile(\""+path+"\")") {
		t.Errorf("WriteReplay = %q, want the Go call with the path %s quoted", got, path)
	}
	raw, c, err := hunt.ReadSuiteFile(path, "x-suite")
	if err != nil || c == nil {
		t.Fatalf("ReadSuiteFile(%s): case %v, err %v; want an x-suite case", path, c, err)
	}
	if string(raw) != `{"n":4}` || c.Router != "mine" || len(c.Broke) != 1 || c.Broke[0] != broke[0] {
		t.Errorf("case: instance %s, router %q, broke %v; want {\"n\":4}, mine, %v", raw, c.Router, c.Broke, broke)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := WriteReplay(notDir, "xtest", "x-suite", "", "", 1, nil, "%q"); !strings.HasPrefix(got, "(replay file not written: ") || ReplayPath(got) != "" {
		t.Errorf("into a file as directory: %q (path %q), want the reason the file was not written and no path", got, ReplayPath(got))
	}
}

// TestOnly: failures all of the wanted property and message pass and give
// the first one's replay file; another property, another message or no
// failure at all fail the test.
func TestOnly(t *testing.T) {
	type fail struct{ p, m, r string }
	read := func(f fail) (string, string, string) { return f.p, f.m, f.r }
	for _, c := range []struct {
		name           string
		fs             []fail
		errors, fatals int
		path           string
	}{
		{"all locality", []fail{{"locality", "x: it decides y", "routecheck replay /a/b.json (your router: f)"}, {"locality", "it decides", ""}}, 0, 0, "/a/b.json"},
		{"another property", []fail{{"locality", "it decides", ""}, {"delivery", "it decides", ""}}, 1, 0, ""},
		{"another message", []fail{{"locality", "lost", "(replay file not written: no)"}}, 1, 0, ""},
		{"none", nil, 0, 1, ""},
	} {
		r := tbrecord.New(t) // Only returns after Fatalf, so it need not stop
		path := Only(r, c.fs, "locality", "it decides", read)
		if len(r.Errs) != c.errors || len(r.Fatals) != c.fatals || path != c.path {
			t.Errorf("%s: %d errors, %d fatals, path %q; want %d, %d, %q", c.name, len(r.Errs), len(r.Fatals), path, c.errors, c.fatals, c.path)
		}
	}
}

// TestShortPerm: up to 32 entries as fmt prints them; a longer one cut
// after 32 with " …]".
func TestShortPerm(t *testing.T) {
	long := make([]int32, 40)
	for i := range long {
		long[i] = int32(i)
	}
	for _, c := range []struct {
		p    []int32
		want string
	}{
		{nil, "[]"},
		{[]int32{2, -1, 0}, "[2 -1 0]"},
		{long[:32], "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]"},
		{long, "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 …]"},
	} {
		if got := ShortPerm(c.p); got != c.want {
			t.Errorf("ShortPerm(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}
