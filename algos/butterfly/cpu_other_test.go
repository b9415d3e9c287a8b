//go:build !unix

package butterfly

// cpuSeconds is not measured here: the …/cpu-s metrics are left out.
func cpuSeconds() float64 { return 0 }
