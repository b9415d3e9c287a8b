package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// availableMemory is the memory this process may still use: MemAvailable
// from /proc/meminfo, capped by the room its cgroup's memory limit leaves
// (cgroupMemoryRoom) — what a container, a Kubernetes pod or a Slurm job
// with a memory limit allows, which /proc/meminfo does not show. 8 GiB if
// neither is known. The --mem-limit budgets are capped by it.
func availableMemory() int64 { return availableMemoryAt("/") }

func availableMemoryAt(root string) int64 {
	avail, ok := memAvailable(root)
	if !ok {
		avail = 8 << 30
	}
	if room, ok := cgroupMemoryRoom(root); ok {
		avail = min(avail, room)
	}
	return avail
}

// memAvailable reads MemAvailable from root/proc/meminfo, in bytes.
func memAvailable(root string) (int64, bool) {
	b, err := os.ReadFile(filepath.Join(root, "proc/meminfo"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return kb << 10, true
			}
		}
	}
	return 0, false
}

// noLimit: a cgroup memory limit at or above this (cgroup v1 writes
// 9223372036854771712 for none; v2 writes "max") is no limit.
const noLimit = int64(1) << 60

// cgroupMemoryRoom returns limit − usage + reclaimable page cache
// (inactive_file) of the process's memory cgroup, and whether a limit was
// found. cgroup v2: memory.max, memory.current and memory.stat's
// inactive_file in the directory /proc/self/cgroup names ("0::/path")
// under /sys/fs/cgroup; cgroup v1: memory.limit_in_bytes,
// memory.usage_in_bytes and total_inactive_file under
// /sys/fs/cgroup/memory. Where a container's cgroup namespace mounts its
// own cgroup as the root, the files at the mount's root are read. The
// room is never negative.
func cgroupMemoryRoom(root string) (int64, bool) {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0, false
	}
	type layout struct{ dir, limit, usage, inactive string }
	var tries []layout
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		v2 := layout{"sys/fs/cgroup", "memory.max", "memory.current", "inactive_file"}
		v1 := layout{"sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"}
		switch {
		case f[0] == "0" && f[1] == "":
			tries = append(tries, layout{filepath.Join(v2.dir, f[2]), v2.limit, v2.usage, v2.inactive}, v2)
		case hasController(f[1], "memory"):
			tries = append(tries, layout{filepath.Join(v1.dir, f[2]), v1.limit, v1.usage, v1.inactive}, v1)
		}
	}
	for _, l := range tries {
		dir := filepath.Join(root, l.dir)
		limit, ok := readBytes(filepath.Join(dir, l.limit))
		if !ok {
			continue
		}
		if limit >= noLimit {
			return 0, false
		}
		usage, _ := readBytes(filepath.Join(dir, l.usage))
		return max(0, limit-usage+statField(filepath.Join(dir, "memory.stat"), l.inactive)), true
	}
	return 0, false
}

func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// readBytes reads a cgroup file holding one number of bytes ("max": no
// limit).
func readBytes(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return noLimit, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// statField reads one "name value" line of a memory.stat file (0 if absent).
func statField(path, name string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			if v, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return v
			}
		}
	}
	return 0
}
