package bfly

import (
	ab "routecheck/algos/butterfly"
	"routecheck/props"
)

// Claims added by the 2026-11-24 review of the issue 12 claims.

func init() {
	props.Register(props.Claim{ID: "bfly/sec2/thm-1/k-quarter", Source: seed001 + " Theorem 1 with §2's greedy algorithm (priorities in 1…K, K = Θ(log N + p): the Θ's constant)", Kind: props.Statistical, Recorded: props.Consistent, Class: props.Paper,
		Statement: "Theorem 1's O(C) bound for §2's greedy algorithm holds with K = Θ(log N + p) for another constant than 1: K = ⌈(log N + p)/4⌉.",
		Scope:     "as bfly/sec2/thm-1/as-stated (O(C) read as ≤ 3·C, fixed before running; ties by source; the same problems, sizes, seeds and test) with K = ⌈0.25·(log N + p)⌉; the evidence reports the smallest time/C every run met",
		Notes:     "[2026-11-24, review] Theorem 1 fixes K only up to Θ; bfly/sec2/thm-1/as-stated takes the constant 1, this claim 1/4 (fewer priority values, more ties, broken by source). Power: the bound scaled by 0.5 (1.5·C, fixed before running), as for the sibling.",
		Check:     sec2Thm1CheckK(ab.Sec2TieSource, 0.25, 1),
		Faults:    []props.Fault{{Name: "the bound 3·C scaled by 0.5 (1.5·C; factor fixed before running)", Check: sec2Thm1CheckK(ab.Sec2TieSource, 0.25, 0.5)}},
	})
}
