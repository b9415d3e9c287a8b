package hunttest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"routecheck/internal/hunt"
	"routecheck/internal/tbrecord"
)

// Why the check takes the shrink's floor and not the case's value: the
// 3-cycle 0→1→2→0 under eval = packets moved has value 3; every fixing
// swap leaves a 2-cycle (value 2). A shrink that kept the metric ≥ 1 would
// have kept such a swap, so the 3-cycle is not locally minimal for floor
// 1 — but every swap is below the value 3, so a check against the value
// (what the helpers did before) passes it.
func TestLocallyMinimalPermUsesTheFloor(t *testing.T) {
	p := []int32{1, 2, 0}
	eval := func(q []int32) float64 { return float64(hunt.Moved(q)) }
	atFloor, atValue := tbrecord.New(t), tbrecord.New(t)
	LocallyMinimalPerm(atFloor, p, eval, 1)
	LocallyMinimalPerm(atValue, p, eval, 3)
	if len(atFloor.Errs) != 3 {
		t.Errorf("against the floor 1: %d complaints, want one per packet (3): %q", len(atFloor.Errs), atFloor.Errs)
	}
	if len(atValue.Errs) != 0 {
		t.Errorf("against the value 3: %q", atValue.Errs)
	}
	// Two-packet swap at floor 2: fixing either packet gives the identity
	// (0 < 2): locally minimal, no complaint.
	two := tbrecord.New(t)
	if mv := LocallyMinimalPerm(two, []int32{1, 0, 2}, eval, 2); mv != 2 || len(two.Errs) != 0 {
		t.Errorf("2-cycle: %d moved, %q", mv, two.Errs)
	}
}

// TestCitedCopies: in a scratch module tree, a cited case equal to its
// saved original passes; one that differs by a byte, one with no original
// under testdata/hunt and a cited path that does not exist are each one
// complaint naming the file; no files at all is a complaint too.
func TestCitedCopies(t *testing.T) {
	root := t.TempDir()
	write := func(path, body string) {
		t.Helper()
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("testdata/hunt/same.json", `{"value": 1}`)
	write("testdata/hunt/changed.json", `{"value": 1}`)
	write("props/x/testdata/same.json", `{"value": 1}`)
	write("props/x/testdata/changed.json", `{"value": 2}`)
	write("props/x/testdata/orphan.json", `{"value": 1}`)

	ok := tbrecord.New(t)
	CitedCopies(ok, root, "props/x/testdata/same.json")
	if len(ok.Errs) != 0 {
		t.Errorf("an exact copy: %q", ok.Errs)
	}
	for _, tc := range []struct{ file, want string }{
		{"props/x/testdata/changed.json", "differs from testdata/hunt/changed.json"},
		{"props/x/testdata/orphan.json", "has no original under testdata/hunt"},
		{"props/x/testdata/missing.json", "cited case props/x/testdata/missing.json"},
	} {
		r := tbrecord.New(t)
		CitedCopies(r, root, "props/x/testdata/same.json", tc.file)
		if len(r.Errs) != 1 || !strings.Contains(r.Errs[0], tc.file[len("props/x/testdata/"):]) || !strings.Contains(r.Errs[0], tc.want) {
			t.Errorf("%s: complaints %q, want one saying %q", tc.file, r.Errs, tc.want)
		}
	}
	none := tbrecord.New(t)
	CitedCopies(none, root)
	if len(none.Errs) != 1 {
		t.Errorf("no files: complaints %q, want one", none.Errs)
	}
}

// TestRevalue: the copy differs from the case in its value only; a case
// without the value line on its own fails the test.
func TestRevalue(t *testing.T) {
	raw := []byte("{\n  \"kind\": \"k\",\n  \"metric\": \"m\",\n  \"value\": 70,\n  \"instance\": {\"value\": 3}\n}\n")
	got := Revalue(t, raw, 0.5)
	if want := strings.Replace(string(raw), `"value": 70,`, `"value": 0.5,`, 1); string(got) != want {
		t.Errorf("Revalue = %s, want %s", got, want)
	}
	r := tbrecord.New(t)
	done := make(chan bool)
	go func() {
		defer close(done)
		Revalue(&fatal{r}, []byte(`{"kind":"k","metric":"m","value":1,"instance":[]}`), 2)
		done <- true
	}()
	if <-done || len(r.Errs) != 1 || !strings.Contains(r.Errs[0], "0 lines") {
		t.Errorf("a one-line case: complaints %q, want one that stops the test", r.Errs)
	}
}

// fatal turns a Recorder's Fatalf into a complaint and a Goexit, as
// testing.T's does.
type fatal struct{ *tbrecord.Recorder }

func (f *fatal) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
