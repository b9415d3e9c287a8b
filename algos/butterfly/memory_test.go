package butterfly

import (
	"runtime"
	"testing"

	mb "routecheck/models/butterfly"
)

// BenchmarkEngineMemory is the fast engine's memory at the largest size of
// BenchmarkEngineThroughput (N = 2^16, its workload): the bytes one run of
// a fresh Engine allocates (runtime.MemStats.TotalAlloc, buffers included)
// per packet, in B/packet:
// go test ./algos/butterfly -run '^$' -bench EngineMemory -cpu 1 -benchtime 1x
func BenchmarkEngineMemory(b *testing.B) {
	for _, m := range benchShapes {
		sh := mb.Shape{LogN: 16, R: 2, Mode: m.mode, StrictBuffers: m.st}
		o, ps := benchPackets(b, sh, 4)
		b.Run(m.name+"/N=2^16", func(b *testing.B) {
			var before, after runtime.MemStats
			total := uint64(0)
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				var e Engine
				if _, err := e.Run(o, ps, 1<<26); err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				total += after.TotalAlloc - before.TotalAlloc
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(len(ps)), "B/packet")
		})
	}
}
