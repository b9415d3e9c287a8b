package sortnet

import "routecheck/props"

// Memory estimates of the AKS-family claims that build networks on 2^16
// wires at the default and large budgets (see props.DeclareMem): the
// comparators take 8 bytes each (92 million for the exact separators, 78
// million for d = 16 matchings). exact-halver/sorts-large was measured on
// 2026-11-23 alone at the default budget (peak live heap 866 MB); the
// expander claims are estimated from their comparator counts.
func init() {
	props.DeclareMem("sortnet/aks/exact-halver/sorts-large", props.MemEstimate{Default: 900 * props.MiB, Large: 900 * props.MiB})
	for _, id := range []string{"sortnet/aks/expander-halver/sorts-large", "sortnet/aks/expander-halver/invariants", "sortnet/aks/expander-halver/invariant-implies-sorted"} {
		props.DeclareMem(id, props.MemEstimate{Default: 800 * props.MiB, Large: 800 * props.MiB})
	}
}
