package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	msn "routecheck/models/sortnet"
)

// TestSortnetVerify runs the command on the files under testdata/sortnet:
// Batcher's odd-even merge sort for 24 wires (padded to 32 and pruned,
// written by an independent Python generator) sorts; with one comparator
// deleted it does not, and the counterexample must really be left unsorted.
func TestSortnetVerify(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "sortnet")
	var out, errb bytes.Buffer
	if st := run([]string{"sortnet", "verify", filepath.Join(dir, "batcher-oddeven-24.json"), "--json"}, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "size", "depth", "verdict", "counterexample", "redundant", "covered"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	// Batcher's odd-even merge sort on 32 wires has depth 15 and 191
	// comparators; pruned to 24 wires it keeps the comparators inside, 132.
	if rep["n"] != 24.0 || rep["depth"] != 15.0 || rep["size"] != 132.0 || rep["verdict"] != "holds" || rep["counterexample"] != nil {
		t.Errorf("report %v", rep)
	}
	out.Reset()
	broken := filepath.Join(dir, "batcher-oddeven-24-broken.json")
	if st := run([]string{"sortnet", "verify", broken, "--json"}, &out, &errb); st != 1 {
		t.Fatalf("broken network: exit %d, want 1", st)
	}
	var bad struct {
		Verdict        string `json:"verdict"`
		Counterexample []int  `json:"counterexample"`
	}
	if err := json.Unmarshal(out.Bytes(), &bad); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(broken)
	nw, _, err := msn.ParseNetwork(data)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(bad.Counterexample)
	msn.Apply(nw, got)
	if bad.Verdict != "violated" || len(got) != 24 || msn.Sorted(got) {
		t.Errorf("verdict %s, counterexample %v gives %v", bad.Verdict, bad.Counterexample, got)
	}
}

// Bad files: one line, exit status 2.
func TestSortnetVerifyBadFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, body, want string }{
		{"notjson.json", "{oops", "not SorterHunter JSON"},
		{"range.json", `{"N": 4, "nw": [[0, 4]]}`, "out of range"},
		{"self.json", `{"N": 4, "nw": [[1, 1]]}`, "one wire"},
		{"big.json", `{"N": 100000, "nw": []}`, "allowed 1 ≤ n ≤ 65536"},
		{"text.txt", "hello", "not a network"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		st := run([]string{"sortnet", "verify", p}, &out, &errb)
		msg := errb.String()
		if st != 2 || !strings.Contains(msg, c.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line containing %q", c.name, st, msg, c.want)
		}
	}
	var out, errb bytes.Buffer
	if st := run([]string{"sortnet", "verify"}, &out, &errb); st != 2 {
		t.Errorf("no file: exit %d", st)
	}
}

// No command: the usage on stderr, listing every registered experiment and
// hunt target, exit status 2 (issue 10 §3).
func TestNoCommandUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run(nil, &out, &errb); st != 2 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", st, out.String())
	}
	for _, name := range []string{"pops-table2", "mesh-kk", "sot-fig3", "bfly-figs", "mbfly-time", "pops-steps", "mesh-phase2-queue", "sortnet verify"} {
		if !strings.Contains(errb.String(), name) {
			t.Errorf("usage does not list %s", name)
		}
	}
}

// A sortnettest failure file (a sortnet-network case) is verified as the
// network it holds: the toy network [0:1],[2:3] on 5 wires leaves the 0-1
// input 10000 unsorted (wire 1 never meets wire 2), the first of the 2^5
// inputs in order that it fails.
func TestSortnetVerifyCaseFile(t *testing.T) {
	var out, errb bytes.Buffer
	f := filepath.Join("..", "..", "testdata", "replay", "sortnet-network-toy-router.json")
	if st := run([]string{"sortnet", "verify", f, "--json"}, &out, &errb); st != 1 {
		t.Fatalf("exit %d, want 1: %s", st, errb.String())
	}
	var rep struct {
		N, Size        int
		Verdict        string
		Counterexample []int
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.N != 5 || rep.Size != 2 || rep.Verdict != "violated" || !slices.Equal(rep.Counterexample, []int{1, 0, 0, 0, 0}) {
		t.Errorf("report %+v", rep)
	}
}
