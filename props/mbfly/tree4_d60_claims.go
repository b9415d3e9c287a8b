package mbfly

import "routecheck/props"

// Issue 13 (audit, 2026-11-24): §3.3's degree-4 network at the printed
// explicit degree d = 60 (the set behind "an explicit construction of
// degree 4 that runs in 4800 log N steps"). mbfly/sec3.3/degree-4-trees
// builds d ≤ 10 only; adding d = 60 to its cases would add a line to its
// evidence, so the printed degree is a claim of its own, with the same
// check and planted faults (tree4CheckAt).

func init() { registerTree4D60() }

func registerTree4D60() {
	props.Register(props.Claim{
		ID:        "mbfly/sec3.3/degree-4-trees-d60",
		Source:    mbflySrc + " §3.3 (\"By replacing each set of d edges adjacent to one node with a tree of depth log₃ d, one can decrease the degree to 4 …\"; \"an explicit construction of degree 4 that runs in 4800 log N steps\", the d = 60 set)",
		Statement: "at the printed d = 60, replacing each set of ≤ d edges at a node by a ternary tree of depth ⌈log₃ 60⌉ = 4 gives a network of degree ≤ 4 in which every edge is a path of 9 lines and an iteration of §3.2 runs, exchange by exchange in colour order, in 2d·9 = 1 080 steps with one line per vertex per step",
		Scope:     "random multi-butterflies with d = 60, N ∈ {8, 16} (small), + 32 (default); both iteration parities; models/multibutterfly.BuildTree4, algos/multibutterfly.SimulateTreeIteration (the construction and check of mbfly/sec3.3/degree-4-trees)",
		Kind:      props.Invariant,
		Class:     props.Construction,
		Recorded:  props.Holds,
		Mem:       props.MemEstimate{Small: 32 << 20, Default: 32 << 20, Large: 32 << 20},
		Notes:     "The construction and readings of mbfly/sec3.3/degree-4-trees (see its Notes), at the degree of §3.3's printed explicit set, which that claim does not build (its degrees are 2, 3, 4, 9, 10). At d = 60 the trees have depth 4, not log₃ 60 ≈ 3.73, so the factor is 9 = 2⌈log₃ d⌉ + 1 (mbfly/sec3.3/degree-4-factor: the printed 4 800 log N uses 8). The networks are not the paper's: they are random, not explicit (no explicit d = 60 splitter is built here), and at N ≤ 32 every splitter has m ≤ 32 inputs, so each concentrator sends an input's 60 edges into at most 16 outputs — a multigraph with parallel edges, which the trees carry as separate leaves (parallel lines, models/multibutterfly.Tree4). What is checked is the tree construction and its schedule at degree 60, not the d = 60 expander. Power (the claim's two faults, fixed before running): trees one level too shallow (degree 8 at N = 8) and colours started one step before the previous exchange returned.",
		Check:     tree4CheckAt([]int{60}, false, nil),
		Faults: []props.Fault{
			{Name: "trees one level shallower than ⌈log₃ g⌉ (fixed before running)", Check: tree4CheckAt([]int{60}, true, nil)},
			{Name: "each colour starts one step before the previous exchange returns (fixed before running)", Check: tree4CheckAt([]int{60}, false, func(_, l int) int { return l - 1 })},
		},
	})
}
