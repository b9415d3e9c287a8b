//go:build !unix

package benchutil

// CPUSeconds is not measured here: 0, and callers leave out their …/cpu-s
// metrics.
func CPUSeconds() float64 { return 0 }
