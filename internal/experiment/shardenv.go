package experiment

import (
	"fmt"
	"strconv"
)

// ShardFromEnv resolves `--shard auto`: the part i of k that this process
// runs, read from the environment of the batch scheduler that started it.
//
//   - A Slurm job array (sbatch --array=MIN-MAX[:STEP]): i is the task's
//     position in the array, (SLURM_ARRAY_TASK_ID − MIN) / STEP + 1, and k
//     is SLURM_ARRAY_TASK_COUNT. An array whose ids are not an arithmetic
//     range (--array=1,3,8) has no such position and is refused. A task
//     resubmitted alone (--array=3) is an array of one: it would run the
//     whole plan as 1/1, so rerun a failed task with --shard i/k instead.
//   - A Kubernetes Indexed Job: i = JOB_COMPLETION_INDEX + 1 (the index is
//     0-based) and k = shards, which the caller must pass (the pod cannot
//     see the Job's completions count).
//
// shards > 0 is the caller's k; with Slurm it must agree with the array.
// getenv is os.Getenv in the CLI (an argument so tests need not touch the
// process environment). The returned string says where i and k came from.
func ShardFromEnv(getenv func(string) string, shards int) (Shard, string, error) {
	if shards < 0 {
		return Shard{}, "", fmt.Errorf("--shards = %d: must be ≥ 1 (or left unset with Slurm)", shards)
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		sh, err := slurmShard(getenv)
		if err != nil {
			return Shard{}, "", err
		}
		if shards > 0 && shards != sh.K {
			return Shard{}, "", fmt.Errorf("--shards = %d but the Slurm array has %d tasks (SLURM_ARRAY_TASK_COUNT); drop --shards or make them agree", shards, sh.K)
		}
		return sh, fmt.Sprintf("Slurm array task %s of %d", id, sh.K), nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 {
			return Shard{}, "", fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX = %q: must be an integer ≥ 0", idx)
		}
		if shards == 0 {
			return Shard{}, "", fmt.Errorf("--shard auto in a Kubernetes Indexed Job needs --shards k (the Job's completions; JOB_COMPLETION_INDEX = %d)", i)
		}
		if i >= shards {
			return Shard{}, "", fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX = %d must be < --shards = %d (set completions to %d)", i, shards, shards)
		}
		return Shard{I: i + 1, K: shards}, fmt.Sprintf("Kubernetes Indexed Job completion index %d of %d", i, shards), nil
	}
	return Shard{}, "", fmt.Errorf("--shard auto: neither a Slurm job array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment; give --shard i/k")
}

func slurmShard(getenv func(string) string) (Shard, error) {
	num := func(name string, def int, min int) (int, error) {
		s := getenv(name)
		if s == "" {
			if def >= 0 {
				return def, nil
			}
			return 0, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID is set but %s is not (not a job array?)", name)
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < min {
			return 0, fmt.Errorf("--shard auto: %s = %q: must be an integer ≥ %d", name, s, min)
		}
		return v, nil
	}
	id, err := num("SLURM_ARRAY_TASK_ID", -1, 0)
	if err != nil {
		return Shard{}, err
	}
	lo, err := num("SLURM_ARRAY_TASK_MIN", -1, 0)
	if err != nil {
		return Shard{}, err
	}
	hi, err := num("SLURM_ARRAY_TASK_MAX", -1, 0)
	if err != nil {
		return Shard{}, err
	}
	step, err := num("SLURM_ARRAY_TASK_STEP", 1, 1)
	if err != nil {
		return Shard{}, err
	}
	count, err := num("SLURM_ARRAY_TASK_COUNT", -1, 1)
	if err != nil {
		return Shard{}, err
	}
	if hi < lo || id < lo || id > hi || (id-lo)%step != 0 {
		return Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID = %d is not in the array %d-%d:%d", id, lo, hi, step)
	}
	if want := (hi-lo)/step + 1; count != want {
		return Shard{}, fmt.Errorf("--shard auto: the Slurm array %d-%d:%d has %d tasks, not an arithmetic range (SLURM_ARRAY_TASK_COUNT = %d); use --array=MIN-MAX[:STEP] or give --shard i/k", lo, hi, step, want, count)
	}
	return Shard{I: (id-lo)/step + 1, K: count}, nil
}
