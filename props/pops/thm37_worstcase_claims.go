package pops

import (
	"fmt"
	"math/big"

	"routecheck/props"
)

// Theorem 3.7's proof, before Equation 8: "Since we are computing a lower
// bound to Y_b^2, the worst case is when all packets in D_b^1 originate at
// different groups. Indeed, if two packets in D_b^1 belong to the same
// S_a^1, we already know that they have chosen two different colors ... A
// formal proof of this intuitive claim can be given, though it's omitted."
//
// Model (exact): the k packets of D_b^1 come from source groups in blocks
// of sizes m_1 … m_r (Σ m_i = k, at most g blocks of at most g each). The
// packets of one block survived slot 1, so their colors are distinct; by
// the symmetry of colors the block's color set is a uniform m_i-subset of
// the g colors, independently between blocks. A packet survives slot 2 iff
// no other packet of D_b^1 has its color, so
//
//	E[Y_b^2] = Σ_blocks m_j · Π_{i ≠ j} (1 − m_i/g),
//
// and the claim is that this is smallest when every block is a single
// packet: E = k(1 − 1/g)^{k−1} (Equation 8's first line). k ≤ g: in
// Theorem 3.7 (d = g) |D_b| ≤ d_s ≤ g.

// expectedY2 is E[Y_b^2] for the block sizes ms over g colors, exactly.
func expectedY2(ms []int, g int) *big.Rat {
	sum := new(big.Rat)
	for j, mj := range ms {
		t := big.NewRat(int64(mj), 1)
		for i, mi := range ms {
			if i != j {
				t.Mul(t, big.NewRat(int64(g-mi), int64(g)))
			}
		}
		sum.Add(sum, t)
	}
	return sum
}

// singletonBound is k(1 − 1/g)^{k−1}.
func singletonBound(k, g int) *big.Rat {
	t := big.NewRat(int64(k), 1)
	for range k - 1 {
		t.Mul(t, big.NewRat(int64(g-1), int64(g)))
	}
	return t
}

// partitions calls f with every partition of k into at most maxParts parts
// of size at most maxPart, parts in non-increasing order.
func partitions(k, maxPart, maxParts int, f func([]int)) {
	var rec func(rest, cap int, cur []int)
	rec = func(rest, cap int, cur []int) {
		if rest == 0 {
			f(cur)
			return
		}
		if len(cur) == maxParts {
			return
		}
		for m := min(rest, cap); m >= 1; m-- {
			rec(rest-m, m, append(cur, m))
		}
	}
	rec(k, maxPart, nil)
}

// checkDistinctGroupsWorst checks, for every g of the budget and k = 1 …
// g + extra, that every feasible block structure (at most g blocks of at
// most g) has E[Y_b^2] ≥ worst(k, g), the claimed worst case. worst is
// singletonBound and extra = 0 for the claim; the planted faults claim the
// single block (all k from one group) is the worst, or drop k ≤ g (extra =
// 2).
func checkDistinctGroupsWorst(worst func(k, g int) *big.Rat, name string, extra int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gs := []int{2, 3, 4, 8, 12, 16}[:env.Budget.Pick(4, 6, 6)]
		checked, tight := 0, 0
		var minRatio *big.Rat
		for _, g := range gs {
			for k := 1; k <= g+extra; k++ {
				w := worst(k, g)
				var bad []int
				partitions(k, g, g, func(ms []int) {
					if bad != nil {
						return
					}
					checked++
					e := expectedY2(ms, g)
					switch c := e.Cmp(w); {
					case c < 0:
						bad = append([]int(nil), ms...)
					case c == 0:
						tight++
					}
					if w.Sign() > 0 {
						r := new(big.Rat).Quo(e, w)
						if len(ms) < k && (minRatio == nil || r.Cmp(minRatio) < 0) { // not all singletons
							minRatio = r
						}
					}
				})
				if bad != nil {
					e := expectedY2(bad, g)
					ef, _ := e.Float64()
					wf, _ := w.Float64()
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("g = %d, k = %d: blocks %v give E[Y_b^2] = %s ≈ %.4f < %s ≈ %.4f", g, k, bad, e.RatString(), ef, name, wf),
						Counterexample: map[string]any{"g": g, "k": k, "blocks": bad}}
				}
			}
		}
		mr := 0.0
		if minRatio != nil {
			mr, _ = minRatio.Float64()
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("g ∈ %v, k = 1 … g%s, every block structure (%d in all) has E[Y_b^2] ≥ %s, exactly (rationals); equality in %d cases; smallest ratio over structures with a shared group: %.4f", gs, map[bool]string{true: fmt.Sprintf(" + %d", extra), false: ""}[extra > 0], checked, name, tight, mr)}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-3.7/distinct-groups-worst",
		Check: checkDistinctGroupsWorst(singletonBound, "k(1 − 1/g)^{k−1}", 0),
		Faults: []props.Fault{{Name: "the condition k ≤ g dropped (k = 1 … g + 2: more packets than groups)", Check: checkDistinctGroupsWorst(singletonBound, "k(1 − 1/g)^{k−1}", 2)}, {Name: "the worst case claimed to be all packets from one group", Check: checkDistinctGroupsWorst(func(k, g int) *big.Rat {
			if k > g {
				return new(big.Rat) // no single block of k > g: nothing to compare
			}
			return expectedY2([]int{k}, g)
		}, "the single-block value", 0)}}}))
}
