package mesh

import "routecheck/props"

// Memory estimates of the mesh claims above props.DefaultMem at the default
// budget (peak live heap ≈ 45–53 MB measured alone on 2026-11-23; peak heap
// under the default collector ≈ 90–100 MB), see props.DeclareMem.
func init() {
	for _, id := range []string{"mesh/lemma-10/phase-2-uniform", "mesh/lemma-11/phase-3-uniform", "mesh/thm-2/uniform-time-and-queue"} {
		props.DeclareMem(id, props.MemEstimate{Default: 96 * props.MiB, Large: 96 * props.MiB})
	}
}
