//go:build unix

package benchutil

import (
	"syscall"
	"time"
)

// CPUSeconds is the process's user + system CPU time so far (getrusage);
// with -cpu 1 a benchmark's share of it is its own. 0 where unknown.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
