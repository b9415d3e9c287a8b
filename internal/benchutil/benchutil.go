// Package benchutil holds what the engines' throughput benchmarks share:
// the bytes a run allocates per packet and the process's CPU time, so a
// rate can be given per CPU second on a machine other jobs share.
package benchutil

import "runtime"

// AllocPerPacket is the bytes run allocates (runtime.MemStats.TotalAlloc,
// everything the run allocates, buffers included) divided by the packets.
func AllocPerPacket(run func(), packets int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(packets)
}
