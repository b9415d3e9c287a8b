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
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/sec3.3/degree-4-trees-d60",
		Mem:   props.MemEstimate{Small: 32 << 20, Default: 32 << 20, Large: 32 << 20},
		Check: tree4CheckAt([]int{60}, false, nil),
		Faults: []props.Fault{
			{Name: "trees one level shallower than ⌈log₃ g⌉ (fixed before running)", Check: tree4CheckAt([]int{60}, true, nil)},
			{Name: "each colour starts one step before the previous exchange returns (fixed before running)", Check: tree4CheckAt([]int{60}, false, func(_, l int) int { return l - 1 })},
		},
	}))
}
