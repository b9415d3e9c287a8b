package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func runCLI(args ...string) (stdout, stderr string, status int) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return o.String(), e.String(), status
}

// Bad input: one line naming the parameter, exit status 2, never a panic.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"reproduce"}, "need exactly one experiment"},
		{[]string{"reproduce", "no-such-table"}, "unknown experiment"},
		{[]string{"reproduce", "pops-table2", "--shard", "3/2"}, "--shard"},
		{[]string{"reproduce", "pops-table2", "--shard", "x"}, "--shard"},
		{[]string{"reproduce", "pops-table2", "--runs", "0"}, "--runs"},
		{[]string{"reproduce", "pops-table2", "--workers", "0"}, "--workers"},
		{[]string{"reproduce", "pops-table2", "--max-n", "3"}, "--max-n"},
		{[]string{"reproduce", "pops-table2", "--mem-limit", "0.001"}, "GiB"},
		{[]string{"reproduce", "pops-table2", "--mem-limit", "-1"}, "--mem-limit"},
		{[]string{"reproduce", "pops-table2", "--mem-limit", "NaN"}, "--mem-limit"},
		{[]string{"reproduce", "pops-table2", "--shard", "1/2"}, "add --json"},
		{[]string{"reproduce", "pops-table2", "--c-eps", "0.5"}, "c+ε"},
		{[]string{"reproduce", "pops-table2", "--c-eps", "x"}, "--c-eps"},
		{[]string{"reproduce", "mesh-kk", "--c-eps", "2"}, "pops-table1 and pops-table2 only"},
		{[]string{"reproduce", "pops-table2", "--bogus"}, "bogus"},
		{[]string{"claims", "--budget", "huge"}, "--budget"},
		{[]string{"claims", "--filter", "("}, "--filter"},
		{[]string{"claims", "--filter", "^nothing-matches$"}, "matches no claim"},
		{[]string{"hunt"}, "need a target"},
		{[]string{"hunt", "pops-steps", "--d", "0"}, "d = 0"},
		{[]string{"hunt", "pops-steps", "--d", "2", "--g", "4"}, "d = 2 < g = 4"},
		{[]string{"hunt", "pops-steps", "--g", "-1"}, "g = -1"},
		{[]string{"hunt", "pops-steps", "--algorithm", "x"}, "--algorithm"},
		{[]string{"replay"}, "exactly one case file"},
		{[]string{"replay", "/nonexistent/case.json"}, "no such file"},
		{[]string{"merge"}, "shard files"},
	} {
		out, errOut, st := runCLI(c.args...)
		if st != 2 {
			t.Errorf("%v: status %d, want 2 (stderr %q)", c.args, st, errOut)
			continue
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q, want one line mentioning %q", c.args, errOut, c.want)
		}
		if strings.Contains(errOut, "goroutine") || strings.Contains(out, "goroutine") {
			t.Errorf("%v: stack trace printed", c.args)
		}
	}
}

// The ledger JSON is an interface: exactly these keys, verdicts from the set.
func TestClaimsJSONShape(t *testing.T) {
	out, errOut, st := runCLI("claims", "--budget", "small", "--json", "--quiet", "--filter", "^pops/(prop-3.2|thm-3.8/constant)")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	for _, r := range rows {
		for _, k := range []string{"id", "source", "statement", "scope", "kind", "verdict", "evidence", "counterexample", "replay"} {
			if _, ok := r[k]; !ok {
				t.Errorf("%v: key %q missing", r["id"], k)
			}
		}
		switch r["verdict"] {
		case "holds", "violated", "consistent", "inconsistent", "inconclusive":
		default:
			t.Errorf("%v: verdict %v", r["id"], r["verdict"])
		}
		if r["verdict"] == "violated" && r["counterexample"] == nil {
			t.Errorf("%v: violated without a counterexample", r["id"])
		}
		if !strings.HasPrefix(r["replay"].(string), "go run ./cmd/routecheck claims --filter") {
			t.Errorf("replay %q", r["replay"])
		}
	}
}

// Sharding must not change results: two shards merged equal one run.
func TestShardMergeEqualsWholeRun(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--max-n", "256", "--runs", "7", "--seed", "5", "--quiet", "--no-plot"}
	whole, e, st := runCLI(append([]string{"reproduce", "pops-table2", "--json", "--workers", "1"}, common...)...)
	if st != 0 {
		t.Fatal(e)
	}
	files := writeShards(t, dir, append([]string{"reproduce", "pops-table2", "--json", "--workers", "2"}, common...))
	// merge reads --max-n from the shard files when it is not given.
	merged, e, st := runCLI(append([]string{"merge", "--json", "--quiet", "--no-plot"}, files...)...)
	if st != 0 {
		t.Fatal(e)
	}
	var a, b []map[string]any
	if err := json.Unmarshal([]byte(whole), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(merged), &b); err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("merged shards differ from the whole run:\n%s\nvs\n%s", whole, merged)
	}
	for _, k := range []string{"n", "d", "g", "runs", "ours", "paper"} {
		if _, ok := a[0][k]; !ok {
			t.Errorf("cell JSON lacks %q", k)
		}
	}
	// A missing shard is refused.
	if _, e, st := runCLI("merge", "--quiet", "--no-plot", "--max-n", "256", files[0]); st != 2 || !strings.Contains(e, "missing") {
		t.Errorf("merge of one shard: status %d, %q", st, e)
	}
	// Shards of different plans (here: another --max-n) are refused by name.
	other, e, st := runCLI("reproduce", "pops-table2", "--json", "--workers", "1", "--shard", "2/2", "--max-n", "64", "--runs", "7", "--seed", "5", "--quiet", "--no-plot")
	if st != 0 {
		t.Fatal(e)
	}
	f := filepath.Join(dir, "other.json")
	if err := os.WriteFile(f, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, e, st := runCLI("merge", "--quiet", "--no-plot", files[0], f); st != 2 || !strings.Contains(e, "--max-n 64") {
		t.Errorf("merge of shards with different --max-n: status %d, %q", st, e)
	}
}

// hunt pops-loss saves a case that replay reproduces on the slot model; a
// tampered value is reported as not reproduced (exit 1).
func TestHuntReplayRoundTrip(t *testing.T) {
	f := filepath.Join(t.TempDir(), "loss.json")
	out, e, st := runCLI("hunt", "pops-loss", "--d", "3", "--g", "2", "--iters", "5000", "--quiet", "--out", f)
	if st != 0 {
		t.Fatalf("hunt: %d %s %s", st, out, e)
	}
	out, e, st = runCLI("replay", f)
	if st != 0 || !strings.Contains(out, "reproduced") {
		t.Fatalf("replay: %d %s %s", st, out, e)
	}
	b, _ := os.ReadFile(f)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	c["value"] = c["value"].(float64) + 1
	b, _ = json.Marshal(c)
	_ = os.WriteFile(f, b, 0o644)
	if _, _, st := runCLI("replay", f); st != 1 {
		t.Errorf("tampered replay: status %d, want 1", st)
	}
}

// Every saved case under testdata/hunt is replayed by plain `go test`: a
// counterexample that stops reproducing fails the build.
func TestReplaySavedCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "hunt", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no saved cases under testdata/hunt")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, e, st := runCLI("replay", f)
			if st != 0 || !strings.Contains(out, "reproduced") {
				t.Fatalf("replay %s: status %d\n%s%s", f, st, out, e)
			}
		})
	}
}

// --c-eps reaches the router (the d > g cells change, the d = g cells do
// not: stage 1 is empty there), and shards carry it into merge.
func TestCEpsOption(t *testing.T) {
	common := []string{"reproduce", "pops-table2", "--json", "--max-n", "128", "--runs", "5", "--seed", "3", "--quiet", "--no-plot", "--workers", "1"}
	def, e, st := runCLI(common...)
	if st != 0 {
		t.Fatal(e)
	}
	other, e, st := runCLI(append(common, "--c-eps", "2.5")...)
	if st != 0 {
		t.Fatal(e)
	}
	var a, b []map[string]any
	if err := json.Unmarshal([]byte(def), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(other), &b); err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d vs %d cells", len(a), len(b))
	}
	changed := 0
	for i := range a {
		same := reflect.DeepEqual(a[i]["ours"], b[i]["ours"])
		if a[i]["d"] == a[i]["g"] && !same {
			t.Errorf("d = g cell %v changed with c+ε", a[i])
		}
		if a[i]["d"] != a[i]["g"] && !same {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no d > g cell changed with c+ε = 2.5")
	}
	files := writeShards(t, t.TempDir(), append(common, "--c-eps", "2.5"))
	merged, e, st := runCLI(append([]string{"merge", "--json", "--quiet", "--no-plot"}, files...)...)
	if st != 0 {
		t.Fatal(e)
	}
	var m []map[string]any
	if err := json.Unmarshal([]byte(merged), &m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, b) {
		t.Errorf("merged c+ε = 2.5 shards differ from the whole run")
	}
}

// writeShards runs the reproduce command args as shards 1/2 and 2/2 and
// writes their outputs to files in dir, which it returns.
func writeShards(t *testing.T, dir string, args []string) []string {
	t.Helper()
	var files []string
	for _, s := range []string{"1/2", "2/2"} {
		part, e, st := runCLI(append(slices.Clone(args), "--shard", s)...)
		if st != 0 {
			t.Fatal(e)
		}
		f := filepath.Join(dir, strings.ReplaceAll(s, "/", "-")+".json")
		if err := os.WriteFile(f, []byte(part), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
