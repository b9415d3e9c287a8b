package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAvailableMemoryCgroup: availableMemory is MemAvailable capped by the
// room the process's memory cgroup leaves (limit − usage + inactive page
// cache), for cgroup v2 and v1, at the path /proc/self/cgroup names or at
// the mount's root (a container's own namespace); no limit ("max", v1's
// 2^63 − 4096) and no cgroup files leave MemAvailable; no meminfo gives
// 8 GiB. Numbers by hand: 4 GiB limit − 3 GiB used + 0.5 GiB inactive =
// 1.5 GiB.
func TestAvailableMemoryCgroup(t *testing.T) {
	const gib = int64(1) << 30
	meminfo := "MemTotal:       25165824 kB\nMemAvailable:   20971520 kB\n" // 20 GiB
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"v2 at its path", map[string]string{
			"proc/self/cgroup":                    "0::/job/42\n",
			"sys/fs/cgroup/job/42/memory.max":     "4294967296\n",
			"sys/fs/cgroup/job/42/memory.current": "3221225472\n",
			"sys/fs/cgroup/job/42/memory.stat":    "anon 2684354560\ninactive_file 536870912\nactive_file 1\n",
		}, 3 * gib / 2},
		{"v2 namespace root", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "4294967296\n",
			"sys/fs/cgroup/memory.stat":    "inactive_file 536870912\n",
			"sys/fs/cgroup/memory.current": "3221225472\n",
		}, 3 * gib / 2},
		{"v1 at the mount root", map[string]string{
			"proc/self/cgroup":                           "12:pids:/\n4:memory:/process_api/abc\n0::/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "4294967296\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes": "3221225472\n",
			"sys/fs/cgroup/memory/memory.stat":           "rss 1\ntotal_inactive_file 536870912\n",
		}, 3 * gib / 2},
		{"v1 with other controllers on the line", map[string]string{
			"proc/self/cgroup": "4:cpu,memory:/slurm/job7\n",
			"sys/fs/cgroup/memory/slurm/job7/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/memory/slurm/job7/memory.usage_in_bytes": "0\n",
		}, 2 * gib},
		{"limit below usage", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "1073741824\n",
			"sys/fs/cgroup/memory.current": "2147483648\n",
		}, 0},
		{"v2 no limit", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n",
		}, 20 * gib},
		{"v1 no limit", map[string]string{
			"proc/self/cgroup":                           "4:memory:/x\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 20 * gib},
		{"no cgroup files", map[string]string{"proc/self/cgroup": "0::/\n"}, 20 * gib},
		{"limit above MemAvailable", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "68719476736\n",
		}, 20 * gib},
	} {
		root := t.TempDir()
		files := map[string]string{"proc/meminfo": meminfo}
		for k, v := range c.files {
			files[k] = v
		}
		for name, body := range files {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := availableMemoryAt(root); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
	if got := availableMemoryAt(t.TempDir()); got != 8*gib {
		t.Errorf("nothing readable: %d, want 8 GiB", got)
	}
}
