// Package deploy_test runs the batch-scheduler scripts of deploy/ locally:
// the body of the Slurm array script once per task id and the Kubernetes
// Indexed Job's container command once per completion index, each with the
// environment the scheduler would set, then their merge steps; the merged
// table must equal one unsharded run of the same plan.
package deploy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// plan is small enough for CI; the scripts pass it through unchanged.
var plan = map[string]string{"EXPERIMENT": "pops-table2", "RUNS": "4", "MAX_N": "64", "SEED": "11", "MEM_LIMIT": "1"}

// TestMain removes the routecheck binary that build makes once per test
// process.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	binDir    string // holds the binary; removed by TestMain
	binPath   string
	buildErr  string // the go build failure, or why it could not run
	noGo      bool
)

// build returns routecheck built from this checkout, built once for all the
// tests of the process (each used to link its own copy: about 2 s CPU each).
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			noGo = true
			return
		}
		if binDir, err = os.MkdirTemp("", "deploy-test-"); err != nil {
			buildErr = err.Error()
			return
		}
		bin := filepath.Join(binDir, "routecheck")
		cmd := exec.Command(gobin, "build", "-o", bin, "./cmd/routecheck")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Sprintf("go build: %v\n%s", err, out)
			return
		}
		binPath = bin
	})
	switch {
	case noGo:
		t.Skip("no go command on PATH to build routecheck")
	case buildErr != "":
		t.Fatal(buildErr)
	}
	return binPath
}

// run runs a shell script (a file, or -c text) with exactly env plus PATH.
func run(t *testing.T, shell string, env map[string]string, args ...string) (string, error) {
	t.Helper()
	sh, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("no %s on PATH", shell)
	}
	cmd := exec.Command(sh, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func with(base map[string]string, kv ...string) map[string]string {
	m := map[string]string{}
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// whole is the unsharded run the merged shards must equal.
func whole(t *testing.T, bin string) []map[string]any {
	t.Helper()
	out, err := exec.Command(bin, "reproduce", plan["EXPERIMENT"], "--json", "--quiet", "--no-plot",
		"--runs", plan["RUNS"], "--max-n", plan["MAX_N"], "--seed", plan["SEED"], "--workers", "1").Output()
	if err != nil {
		t.Fatalf("unsharded run: %v", err)
	}
	return cells(t, out)
}

func cells(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var c []map[string]any
	if err := json.Unmarshal(b, &c); err != nil || len(c) == 0 {
		t.Fatalf("not a table of cells (%v): %.300s", err, b)
	}
	return c
}

func TestSlurmArrayMergesToOneRun(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	env := with(plan, "ROUTECHECK", bin, "OUT", filepath.Join(dir, "shards"), "RESULT_DIR", filepath.Join(dir, "results"))
	// sbatch --array=0-6:3 gives task ids 0, 3, 6: three shards.
	for _, id := range []string{"6", "0", "3"} {
		task := with(env, "SLURM_ARRAY_TASK_ID", id, "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "6",
			"SLURM_ARRAY_TASK_STEP", "3", "SLURM_ARRAY_TASK_COUNT", "3", "SLURM_CPUS_PER_TASK", "1")
		if out, err := run(t, "bash", task, "slurm/reproduce-array.sbatch"); err != nil {
			t.Fatalf("task %s: %v\n%s", id, err, out)
		}
	}
	if out, err := run(t, "bash", env, "slurm/merge.sbatch"); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results", plan["EXPERIMENT"]+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cells(t, b), whole(t, bin); !reflect.DeepEqual(got, want) {
		t.Fatalf("merged Slurm shards differ from one run:\n%v\nvs\n%v", got, want)
	}
	for _, f := range []string{".csv"} {
		if _, err := os.Stat(filepath.Join(dir, "results", plan["EXPERIMENT"]+f)); err != nil {
			t.Errorf("merge step did not write %s: %v", f, err)
		}
	}
	// Outside an array the script stops with routecheck's one-line usage error.
	out, err := run(t, "bash", env, "slurm/reproduce-array.sbatch")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, "neither a Slurm job array") {
		t.Errorf("script outside an array: %v\n%s", err, out)
	}
}

// body extracts the shell text between "# --- NAME body begin ---" and its
// end marker from a manifest's block scalar, dedented.
func body(t *testing.T, manifest, name string) string {
	t.Helper()
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)\n( *)# --- ` + name + ` body begin ---\n(.*?)\n *# --- ` + name + ` body end ---`)
	m := re.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("%s: no %s body markers", manifest, name)
	}
	var lines []string
	for _, l := range strings.Split(m[2], "\n") {
		lines = append(lines, strings.TrimPrefix(l, m[1]))
	}
	return strings.Join(lines, "\n")
}

// envValue reads `{ name: K, value: "V" }` from a manifest.
func envValue(t *testing.T, manifest, key string) string {
	t.Helper()
	b, _ := os.ReadFile(manifest)
	m := regexp.MustCompile(`name: ` + key + `, value: "?([^"}]*?)"? }`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("%s: no env %s", manifest, key)
	}
	return m[1]
}

func TestKubernetesIndexedJobMergesToOneRun(t *testing.T) {
	const job, merge = "k8s/reproduce-indexed-job.yaml", "k8s/merge-job.yaml"
	// The pods cannot see completions: the manifest's SHARDS must equal it.
	b, err := os.ReadFile(job)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\n  completions: (\d+)\n`).FindStringSubmatch(string(b))
	if m == nil || m[1] != envValue(t, job, "SHARDS") {
		t.Fatalf("%s: completions %v and SHARDS %q differ", job, m, envValue(t, job, "SHARDS"))
	}
	bin := build(t)
	dir := t.TempDir()
	env := with(plan, "ROUTECHECK", bin, "OUT", filepath.Join(dir, "shards"), "RESULT_DIR", filepath.Join(dir, "results"),
		"SHARDS", "3", "WORKERS", "1", "EXTRA", "")
	shard := body(t, job, "shard")
	for i := 2; i >= 0; i-- {
		if out, err := run(t, "sh", with(env, "JOB_COMPLETION_INDEX", strconv.Itoa(i)), "-c", shard); err != nil {
			t.Fatalf("index %d: %v\n%s", i, err, out)
		}
	}
	if out, err := run(t, "sh", env, "-c", body(t, merge, "merge")); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	out, err := os.ReadFile(filepath.Join(dir, "results", plan["EXPERIMENT"]+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cells(t, out), whole(t, bin); !reflect.DeepEqual(got, want) {
		t.Fatalf("merged Indexed Job shards differ from one run:\n%v\nvs\n%v", got, want)
	}
	// A missing shard is refused by the merge step, by name.
	os.Remove(filepath.Join(dir, "shards", plan["EXPERIMENT"]+".1.json"))
	if out, err := run(t, "sh", env, "-c", body(t, merge, "merge")); err == nil || !strings.Contains(out, "missing") {
		t.Errorf("merge with a shard missing: %v\n%s", err, out)
	}
}

// The claims ledger through the same Slurm scripts (EXPERIMENT=claims): two
// array tasks merged give the ledger of one `claims --json` run, outcome
// fields compared (seconds and slow_rank are timing). The three claims are
// cheap (0.26 s CPU a run, against 0.73 s for the two mesh/lemma-12 claims
// used before) and still mix verdicts: two hold, one is violated with a
// counterexample. (Merging across networks: cmd/routecheck's
// TestClaimsShardMergeEqualsWholeRun.)
func TestSlurmArrayLedgerMergesToOneRun(t *testing.T) {
	const filter = "^sortnet/batcher/oddeven/(depth-size|mutation-sensitive)"
	bin := build(t)
	dir := t.TempDir()
	env := map[string]string{"EXPERIMENT": "claims", "BUDGET": "small", "FILTER": filter, "MEM_LIMIT": "1", "ROUTECHECK": bin,
		"OUT": filepath.Join(dir, "shards"), "RESULT_DIR": filepath.Join(dir, "results")}
	for _, id := range []string{"1", "0"} {
		task := with(env, "SLURM_ARRAY_TASK_ID", id, "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "1", "SLURM_ARRAY_TASK_COUNT", "2")
		if out, err := run(t, "bash", task, "slurm/reproduce-array.sbatch"); err != nil {
			t.Fatalf("task %s: %v\n%s", id, err, out)
		}
	}
	if out, err := run(t, "bash", env, "slurm/merge.sbatch"); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results", "claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	one, err := exec.Command(bin, "claims", "--json", "--quiet", "--budget", "small", "--filter", filter).Output()
	if err != nil {
		t.Fatalf("one run: %v", err)
	}
	got, want := cells(t, b), cells(t, one)
	for _, rows := range [][]map[string]any{got, want} {
		for _, r := range rows {
			delete(r, "seconds")
			delete(r, "slow_rank")
		}
	}
	verdicts := map[any]bool{}
	for _, r := range want {
		verdicts[r["verdict"]] = true
	}
	if !verdicts["holds"] || !verdicts["violated"] {
		t.Errorf("the filter's claims do not mix verdicts: %v", verdicts)
	}
	if len(want) < 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("merged ledger shards differ from one run (%d rows):\n%v\nvs\n%v", len(want), got, want)
	}
}
