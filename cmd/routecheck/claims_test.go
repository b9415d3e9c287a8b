package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// claimsLedger runs `claims --json` and returns the rows without the fields
// that are timing, not outcome (seconds, slow_rank).
func claimsLedger(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	out, errOut, st := runCLI(append([]string{"claims", "--budget", "small", "--json", "--quiet"}, args...)...)
	if st != 0 {
		t.Fatalf("%v: status %d: %s", args, st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, ok := r["seconds"].(float64); !ok {
			t.Fatalf("%v: seconds missing", r["id"])
		}
		delete(r, "seconds")
		delete(r, "slow_rank")
	}
	return rows
}

// The ledger — order, verdicts, check verdicts, power, evidence — is the
// same for any number of workers and any memory budget: one worker, three
// workers under the default 1 GiB, and three workers under a budget so
// small that every claim runs alone. The set mixes claims that share
// simulated runs through per-process caches (the pops table cells, Cor. 3.9
// and its repair) with independent ones. (The mesh claims in this file's
// filters are Lemma 9's proof facts, two holding and one violated, 0.01 s
// CPU in all at the small budget; mesh/lemma-12's two, used before, took
// 0.65 s a run, about 4.5 s over the file's runs.)
func TestClaimsSameForAnyWorkers(t *testing.T) {
	filter := "^(pops/table-2/(mu|max)/n=(64|256)/|pops/(cor-3.9|repair/split-delivery)|pops/table-1/A/n=64/|mesh/lemma-9/proof-fact|sortnet/batcher/oddeven/(depth-size|mutation))"
	one := claimsLedger(t, "--filter", filter, "--workers", "1")
	if len(one) < 12 {
		t.Fatalf("filter matched %d claims, want at least 12", len(one))
	}
	for _, args := range [][]string{{"--workers", "3"}, {"--workers", "3", "--mem-limit", "0.001"}} {
		got := claimsLedger(t, append([]string{"--filter", filter}, args...)...)
		if !reflect.DeepEqual(got, one) {
			t.Errorf("%v: ledger differs from the one-worker run", args)
			for i := range min(len(got), len(one)) {
				if !reflect.DeepEqual(got[i], one[i]) {
					t.Errorf("first difference at row %d: %v vs %v", i, got[i]["id"], one[i]["id"])
					break
				}
			}
		}
	}
}

// The run marks its ten slowest claims (slow_rank 1..10, each once, in
// order of seconds) in the JSON, and lists them at the end of the table.
func TestClaimsSlowest(t *testing.T) {
	filter := "^(pops/table-2/(mu|max)/n=(64|256)/|mesh/lemma-9/proof-fact)"
	out, errOut, st := runCLI("claims", "--budget", "small", "--json", "--quiet", "--filter", filter)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []struct {
		ID       string  `json:"id"`
		Seconds  float64 `json:"seconds"`
		SlowRank int     `json:"slow_rank"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) <= 10 {
		t.Fatalf("%d rows: the filter must match more than 10 claims", len(rows))
	}
	byRank := map[int]float64{}
	minRanked, maxUnranked := 1e300, -1.0
	for _, r := range rows {
		if r.SlowRank == 0 {
			maxUnranked = max(maxUnranked, r.Seconds)
			continue
		}
		if _, dup := byRank[r.SlowRank]; dup || r.SlowRank > 10 {
			t.Errorf("%s: slow_rank %d repeated or > 10", r.ID, r.SlowRank)
		}
		byRank[r.SlowRank] = r.Seconds
		minRanked = min(minRanked, r.Seconds)
	}
	if len(byRank) != 10 {
		t.Errorf("%d claims ranked, want 10", len(byRank))
	}
	for k := 2; k <= 10; k++ {
		if byRank[k] > byRank[k-1] {
			t.Errorf("rank %d took %.3fs, more than rank %d (%.3fs)", k, byRank[k], k-1, byRank[k-1])
		}
	}
	if maxUnranked > minRanked {
		t.Errorf("an unranked claim took %.3fs, more than a ranked one (%.3fs)", maxUnranked, minRanked)
	}
	table, errOut, st := runCLI("claims", "--budget", "small", "--quiet", "--filter", filter)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if i := strings.Index(table, "The 10 slowest claims"); i < 0 || strings.Count(table[i:], "\n") != 11 {
		t.Errorf("table does not end with the ten slowest claims:\n%s", table[max(0, len(table)-2000):])
	}
}

// Bad claims flags: one line naming the flag and the allowed range, exit 2.
func TestClaimsBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"claims", "--mem-limit", "0"}, "--mem-limit"},
		{[]string{"claims", "--mem-limit", "NaN"}, "--mem-limit"},
		{[]string{"claims", "--mem-limit", "-2"}, "(0, 1048576]"},
		{[]string{"claims", "--workers", "0"}, "[1, 256]"},
		{[]string{"claims", "--cpuprofile", "/nonexistent-dir/cpu.prof", "--filter", "^sortnet/batcher/oddeven/depth-size$"}, "--cpuprofile"},
	} {
		_, errOut, st := runCLI(c.args...)
		if st != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and one line mentioning %q", c.args, st, errOut, c.want)
		}
	}
}

// --cpuprofile writes a profile that go tool pprof reads: the gzipped
// protocol buffer starts with gzip's magic bytes.
func TestClaimsCPUProfile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "cpu.prof")
	_, errOut, st := runCLI("claims", "--budget", "small", "--quiet", "--filter", "^sortnet/batcher/oddeven/depth-size$", "--cpuprofile", f)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	b, err := os.ReadFile(f)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile %s: %d bytes, err %v; want a gzipped profile", f, len(b), err)
	}
}

// A ledger split with --shard and merged is the ledger of one run (order,
// verdicts, power, evidence); merge refuses a missing shard, a shard given
// twice and shards of different plans, naming them.
func TestClaimsShardMergeEqualsWholeRun(t *testing.T) {
	filter := "^(pops/table-2/(mu|max)/n=(64|256)/|mesh/lemma-9/proof-fact|sortnet/batcher/oddeven/depth-size)"
	whole := claimsLedger(t, "--filter", filter)
	if len(whole) < 7 {
		t.Fatalf("filter matched %d claims, want at least 7", len(whole))
	}
	dir := t.TempDir()
	shard := func(name string, args ...string) string {
		out, errOut, st := runCLI(append([]string{"claims", "--json", "--quiet", "--filter", filter}, args...)...)
		if st != 0 {
			t.Fatalf("%v: status %d: %s", args, st, errOut)
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	var files []string
	for _, s := range []string{"3/3", "1/3", "2/3"} {
		files = append(files, shard(strings.ReplaceAll(s, "/", "of")+".json", "--budget", "small", "--shard", s))
	}
	out, errOut, st := runCLI(append([]string{"merge", "--json"}, files...)...)
	if st != 0 {
		t.Fatalf("merge: status %d: %s", st, errOut)
	}
	var merged []map[string]any
	if err := json.Unmarshal([]byte(out), &merged); err != nil {
		t.Fatal(err)
	}
	for _, r := range merged {
		delete(r, "seconds")
		delete(r, "slow_rank")
	}
	if !reflect.DeepEqual(merged, whole) {
		t.Fatalf("merged ledger shards differ from one run:\n%v\nvs\n%v", merged, whole)
	}
	// Shard 2/3 of the default plan: the cheap one (0.01 s CPU, against
	// 2.2 s for 1/3, which holds pops table cells at the default budget).
	other := shard("default.json", "--budget", "default", "--shard", "2/3")
	for _, c := range []struct {
		files []string
		want  string
	}{
		{files[:2], "a shard is missing"},
		{append(files, files[0]), "give each shard once"},
		{[]string{files[0], files[1], other}, "different ledgers"},
	} {
		if _, e, st := runCLI(append([]string{"merge", "--json"}, c.files...)...); st != 2 || !strings.Contains(e, c.want) {
			t.Errorf("merge %v: status %d, %q; want 2 and %q", c.files, st, e, c.want)
		}
	}
	if _, e, st := runCLI("claims", "--budget", "small", "--shard", "1/2", "--filter", filter); st != 2 || !strings.Contains(e, "add --json") {
		t.Errorf("a shard without --json: status %d, %q", st, e)
	}
}
