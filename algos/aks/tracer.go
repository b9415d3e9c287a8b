package aks

import (
	"fmt"
	"slices"
)

// Tracing an input through the construction of a network already built:
// Construct traces the inputs it is given while it builds, so an input
// chosen by running the network (one it leaves unsorted, say) needed a
// second construction. ConstructTraceable keeps, at each stage boundary,
// the bags and which wire holds each register; an input's stage reports
// then come from running the network itself up to each boundary.

// Tracer traces inputs through one network's construction (see
// ConstructTraceable). It holds 12 bytes per wire and stage boundary.
type Tracer struct {
	b     builder   // the construction's n, N, L, schedule and parameters; bags set per boundary
	depth []int     // depth[t]: network stages before boundary t
	regs  [][]int32 // regs[t]: the registers of bags 1..N−1 in bag order, bag after bag
	offs  [][]int32 // offs[t][v−1] .. offs[t][v]: bag v's registers in regs[t] (offs[t][0] = 0)
	phys  [][]int32 // phys[t][s]: the wire holding register s at boundary t
}

// ConstructTraceable is Construct with no traced inputs, also returning a
// Tracer for the network. n must be a power of two ≥ 2 (every register
// then holds a wire: no virtual items); otherwise it returns an error.
func ConstructTraceable(n int, p Params, sep Separator) (*Result, *Tracer, error) {
	return construct(n, p, sep, Mutant{}, true, nil)
}

// record keeps the state of b at the boundary it is reporting.
func (tr *Tracer) record(b *builder) {
	tr.depth = append(tr.depth, len(b.res.Net.Stages))
	regs := make([]int32, 0, b.N)
	offs := make([]int32, b.N)
	for v := 1; v < b.N; v++ {
		regs = append(regs, b.bags[v]...)
		offs[v] = int32(len(regs))
	}
	tr.regs = append(tr.regs, regs)
	tr.offs = append(tr.offs, offs)
	tr.phys = append(tr.phys, slices.Clone(b.phys))
}

// Boundaries is the number of stage reports of a trace (Stages + 1).
func (tr *Tracer) Boundaries() int { return len(tr.depth) }

// Depth is the number of network stages before boundary t (0 ≤ t <
// Boundaries); at the last boundary, the finishing sorters follow.
func (tr *Tracer) Depth(t int) int { return tr.depth[t] }

// Reports returns the stage reports (t = 0..Stages) of the input in (a
// permutation of 0..n−1), the Reports of the Trace that Construct would
// return for it (TestTracerSameAsConstruct), where apply(y, from, to) runs
// the network's stages from..to−1 on y in place (sortnet.Packed's
// ApplyStages, say). Cost: one run of the network up to the last
// boundary, plus O(N log N) per boundary.
func (tr *Tracer) Reports(apply func(y []int32, from, to int), in []int32) ([]StageReport, error) {
	b := &tr.b
	if err := checkPerm(in, b.n); err != nil {
		return nil, fmt.Errorf("aks: Tracer.Reports: %w", err)
	}
	y := slices.Clone(in)
	vals := make([]int32, b.N)
	bags := make([][]int32, b.N)
	var out []StageReport
	for t := range tr.depth {
		if t > 0 {
			apply(y, tr.depth[t-1], tr.depth[t])
		}
		for s, w := range tr.phys[t] {
			vals[s] = y[w]
		}
		regs, offs := tr.regs[t], tr.offs[t]
		lo := int32(0)
		for v := 1; v < b.N; v++ {
			bags[v] = regs[lo:offs[v]]
			lo = offs[v]
		}
		b.bags = bags
		out = append(out, b.levels(t, vals))
	}
	b.bags = nil
	return out, nil
}
