package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCheckEveryNetwork: `routecheck check FILE` runs the example instance
// of every network kind under testdata/check (README "Checking your own
// instance") and reproduces its recorded value; the same file with another
// recorded value exits 1, a malformed one 2.
func TestCheckEveryNetwork(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "check", "*.json"))
	kinds := map[string]bool{}
	for _, f := range files {
		var out, errb bytes.Buffer
		if st := run([]string{"check", f}, &out, &errb); st != 0 {
			t.Errorf("%s: exit %d: %s%s", f, st, out.String(), errb.String())
		}
		kinds[strings.SplitN(out.String(), ":", 2)[0]] = true
		data, _ := os.ReadFile(f)
		for _, c := range []struct {
			from, to string
			want     int
		}{{`"value": 0`, `"value": 3`, 1}, {`"value": 1`, `"value": 0`, 1}, {`"instance": {`, `"instance": {"bogus": 1, `, 2}} {
			if !bytes.Contains(data, []byte(c.from)) || c.want == 2 && bytes.Contains(data, []byte("sortnet-network")) {
				continue // SorterHunter files may carry other keys: the network kind allows them
			}
			p := filepath.Join(t.TempDir(), "case.json")
			os.WriteFile(p, bytes.Replace(data, []byte(c.from), []byte(c.to), 1), 0o644)
			if st := run([]string{"check", p}, &out, &errb); st != c.want {
				t.Errorf("%s with %s: exit %d, want %d", f, c.to, st, c.want)
			}
		}
	}
	for _, k := range []string{"pops-suite", "mesh-suite", "sot-suite", "bfly-suite", "mbfly-suite", "sortnet-network (sorterhunter-json)"} {
		if !kinds[k] {
			t.Errorf("no example for kind %s (have %v)", k, kinds)
		}
	}
}

// TestClaimsWorkers: checking claims at once changes nothing but the time —
// the same verdicts, evidence and power, in registration order.
func TestClaimsWorkers(t *testing.T) {
	strip := func(b []byte) []map[string]any {
		var rs []map[string]any
		if err := json.Unmarshal(b, &rs); err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			delete(r, "seconds")
			delete(r, "slow_rank") // the ranking of the seconds
		}
		return rs
	}
	var got [][]map[string]any
	for _, w := range []string{"1", "3"} {
		var out, errb bytes.Buffer
		if st := run([]string{"claims", "--budget", "small", "--quiet", "--json", "--workers", w, "--filter", "^(pops/thm-3.8/constant-c|pops/lemma-2.2|sot/thm-3a|mesh/sec-2/regular)"}, &out, &errb); st != 0 {
			t.Fatalf("--workers %s: exit %d: %s", w, st, errb.String())
		}
		got = append(got, strip(out.Bytes()))
	}
	if len(got[0]) < 4 || !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("--workers 1 and 3 differ (%d and %d claims)", len(got[0]), len(got[1]))
	}
	var out, errb bytes.Buffer
	if st := run([]string{"claims", "--workers", "0"}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "--workers") {
		t.Errorf("--workers 0: exit %d, %q", st, errb.String())
	}
}

// TestReplaySuiteFiles: the failure files the conformance suites write
// (testdata/replay: one from a toy router the CLI does not have and one
// from one of routecheck's routers, per kind) replay with exit 0 — ours
// reproducing the recorded failures, the toy's saying plainly that the
// paper's algorithm ran instead and printing the Go call for the user's
// router — and a malformed one is a one-line error with exit 2.
func TestReplaySuiteFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "replay", "*.json"))
	kinds := map[string]int{}
	for _, f := range files {
		var out, errb bytes.Buffer
		if st := run([]string{"replay", f}, &out, &errb); st != 0 {
			t.Errorf("%s: exit %d: %s%s", f, st, out.String(), errb.String())
		}
		kind := strings.SplitN(out.String(), ":", 2)[0]
		kinds[kind]++
		foreign := strings.Contains(out.String(), "not one of routecheck's")
		if want := strings.Contains(f, "toy-router") && kind != "sortnet-network"; foreign != want {
			t.Errorf("%s: says the router is not ours: %v, want %v:\n%s", f, foreign, want, out.String())
		}
		if foreign && !strings.Contains(out.String(), ", err := ") {
			t.Errorf("%s: no Go call for the user's router:\n%s", f, out.String())
		}
	}
	for _, k := range []string{"pops-suite", "mesh-suite", "sot-suite", "bfly-suite", "mbfly-suite", "sortnet-network"} {
		if kinds[k] != 2 {
			t.Errorf("kind %s: %d replay examples, want 2 (have %v)", k, kinds[k], kinds)
		}
	}
	for _, bad := range []string{
		`{"kind": "mesh-suite", "metric": "property failures", "value": 1, "router": "x", "instance": {"n": "three"}}`,
		`{"kind": "pops-suite", "metric": "property failures", "value": 1, "instance": {"d": 2, "g": 2, "perm": [0, 1, 2, 9]}}`,
		`{"kind": "sot-suite", "metric": "property failures", "value": 1, "router": "greedy-a", "instance": {"n": 3, "rel": [[0, 7]]}}`,
		`{"kind": "bfly-suite", "metric": "property failures", "value": 1, "instance": {"log_n": 2, "mode": "sideways", "packets": []}}`,
		`{"kind": "mbfly-suite", "metric": "property failures", "value": 1, "instance": {"N": 3, "d": 2, "L": 2, "perm": [0, 1, 2]}}`,
		`{"kind": "sortnet-network", "metric": "property failures", "value": 1, "instance": {"N": 3, "nw": [[0, 5]]}}`,
		`{"kind": "mesh-suite", "instance": `,
	} {
		p := filepath.Join(t.TempDir(), "bad.json")
		os.WriteFile(p, []byte(bad), 0o644)
		var out, errb bytes.Buffer
		if st := run([]string{"replay", p}, &out, &errb); st != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || errb.Len() == 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line", bad, st, errb.String())
		}
	}
}
