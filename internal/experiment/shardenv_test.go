package experiment

import (
	"strings"
	"testing"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// Each task of an array gets a distinct part, and together they are 1..k:
// the positions are worked out by hand from the array specs sbatch accepts.
func TestShardFromEnvSlurm(t *testing.T) {
	for _, c := range []struct {
		spec         string // what sbatch --array was given
		ids          []string
		lo, hi, step string
		count        string
		want         []Shard
	}{
		{"0-3", []string{"0", "1", "2", "3"}, "0", "3", "", "4", []Shard{{1, 4}, {2, 4}, {3, 4}, {4, 4}}},
		{"5-7", []string{"7", "5", "6"}, "5", "7", "1", "3", []Shard{{3, 3}, {1, 3}, {2, 3}}},
		{"1-9:4", []string{"1", "5", "9"}, "1", "9", "4", "3", []Shard{{1, 3}, {2, 3}, {3, 3}}},
		{"0", []string{"0"}, "0", "0", "", "1", []Shard{{1, 1}}},
	} {
		for j, id := range c.ids {
			sh, src, err := ShardFromEnv(envOf("SLURM_ARRAY_TASK_ID", id, "SLURM_ARRAY_TASK_MIN", c.lo, "SLURM_ARRAY_TASK_MAX", c.hi, "SLURM_ARRAY_TASK_STEP", c.step, "SLURM_ARRAY_TASK_COUNT", c.count), 0)
			if err != nil || sh != c.want[j] || !strings.Contains(src, "Slurm") {
				t.Errorf("--array=%s task %s: %v %q %v, want %v", c.spec, id, sh, src, err, c.want[j])
			}
		}
	}
}

func TestShardFromEnvKubernetes(t *testing.T) {
	for i, want := range []Shard{{1, 3}, {2, 3}, {3, 3}} {
		sh, src, err := ShardFromEnv(envOf("JOB_COMPLETION_INDEX", string(rune('0'+i))), 3)
		if err != nil || sh != want || !strings.Contains(src, "Kubernetes") {
			t.Errorf("index %d: %v %q %v, want %v", i, sh, src, err, want)
		}
	}
}

// Refusals name what is wrong; none of them guesses a shard.
func TestShardFromEnvRefuses(t *testing.T) {
	slurm := func(id, lo, hi, step, count string) func(string) string {
		return envOf("SLURM_ARRAY_TASK_ID", id, "SLURM_ARRAY_TASK_MIN", lo, "SLURM_ARRAY_TASK_MAX", hi, "SLURM_ARRAY_TASK_STEP", step, "SLURM_ARRAY_TASK_COUNT", count)
	}
	for _, c := range []struct {
		name   string
		env    func(string) string
		shards int
		want   string
	}{
		{"empty environment", envOf(), 0, "neither a Slurm job array"},
		{"k8s without --shards", envOf("JOB_COMPLETION_INDEX", "2"), 0, "needs --shards"},
		{"k8s index out of range", envOf("JOB_COMPLETION_INDEX", "3"), 3, "must be < --shards = 3"},
		{"k8s index not a number", envOf("JOB_COMPLETION_INDEX", "x"), 3, "JOB_COMPLETION_INDEX"},
		{"negative --shards", envOf("JOB_COMPLETION_INDEX", "0"), -1, "--shards = -1"},
		{"a list array 1,3,8", slurm("3", "1", "8", "", "3"), 0, "not an arithmetic range"},
		{"id outside the array", slurm("9", "0", "3", "", "4"), 0, "not in the array"},
		{"id off the step", slurm("2", "1", "9", "4", "3"), 0, "not in the array"},
		{"no COUNT", slurm("0", "0", "3", "", ""), 0, "SLURM_ARRAY_TASK_COUNT"},
		{"--shards disagrees", slurm("0", "0", "3", "", "4"), 5, "--shards = 5"},
		{"MIN not a number", slurm("0", "a", "3", "", "4"), 0, "SLURM_ARRAY_TASK_MIN"},
	} {
		if sh, _, err := ShardFromEnv(c.env, c.shards); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an error mentioning %q", c.name, sh, err, c.want)
		}
	}
}
