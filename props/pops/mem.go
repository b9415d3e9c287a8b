package pops

import (
	"fmt"

	"routecheck/internal/popsexp"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// Memory estimates of the POPS claims that peak above props.DefaultMem
// (see props.DeclareMem), measured on 2026-11-23 by running each claim
// alone (peak live heap, seed 20261122) unless computed. The large budget
// was not measured: it is given the default's estimate.
func init() {
	// A table cell simulates one run at a time (cellSamples), so its four
	// claims (A, μ, σ, max; whichever runs first simulates) need one
	// engine: popsexp.BytesPerWorker, which is above the measured live heap
	// (≈ 530 MB per engine at n = 2^24, d = g, against 822 MB estimated).
	for _, c := range popspaper.Cells() {
		g, ok := c.G()
		if !ok || !c.HasPaper() {
			continue
		}
		b := popsexp.BytesPerWorker(mpops.Shape{D: c.D(), G: g}) + 16*props.MiB
		if b <= props.DefaultMem {
			continue
		}
		m := props.MemEstimate{Small: b, Default: b, Large: b}
		if c.N >= fullScaleOnly {
			m = props.MemEstimate{Large: b} // not simulated below the large budget
		}
		for _, stat := range []string{"1/A", "2/mu", "2/sigma", "2/max"} {
			props.DeclareMem(fmt.Sprintf("pops/table-%s/n=%d/d=%dg", stat, c.N, c.Ratio), m)
		}
	}
	// The claims that run every survivor class of the slot model
	// (exhaustiveShape): one shape of the largest n held ≈ 220 MB before the
	// classes were stored compactly and shared (300 MiB was declared then);
	// since 2026-11-24 a claim alone peaks at ≈ 51 MB live heap, 107 MB RSS
	// (the process's baseline included), and the six share one class set.
	// 128 MiB leaves the heap room to double before the collector runs.
	for _, id := range []string{"pops/sec3-a/memory-3", "pops/sec3-a/memory-2", "pops/sec3-a/memory-1",
		"pops/repair/split-delivery/conflict-free", "pops/repair/split-delivery/no-loss-no-dup", "pops/repair/split-delivery/memory-3"} {
		props.DeclareMem(id, props.MemEstimate{Default: 128 * props.MiB, Large: 128 * props.MiB})
	}
	// Lemma 3.3 at g = 1024 (n = 2^20): the engine and the instance buffers.
	props.DeclareMem("pops/lemma-3.3", props.MemEstimate{Default: 160 * props.MiB, Large: 160 * props.MiB})
	// Corollary 2.4's sort router: ≈ 80 MB live at the default budget.
	props.DeclareMem("pops/cor-2.4/sort-router-delivers", props.MemEstimate{Default: 128 * props.MiB, Large: 128 * props.MiB})
}
