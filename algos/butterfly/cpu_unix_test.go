//go:build unix

package butterfly

import (
	"syscall"
	"time"
)

// cpuSeconds is the process's user + system CPU time: the throughput
// benchmarks also report their rate per CPU second, which other jobs on a
// shared machine do not dilute (with -cpu 1 a run uses one core).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
