package pops

import (
	"fmt"
	"math"
	"strings"

	asn "routecheck/algos/sortnet"
	msn "routecheck/models/sortnet"
	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// §IV's sentences about its own tables and about [8]'s step count (issue
// 12): checked against the printed numbers and against a built network.

// checkOEMSteps: Batcher's odd-even merge sort on m = g² items has
// steps(m) stages, for g = 2 … 64 (the built network's depth).
func checkOEMSteps(steps func(lm int) int, name string) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		var ev []string
		// g ≤ 64 (m ≤ 2^12 wires): every network is built, so the depth is
		// the built network's, not a count of the construction's loops.
		for lg := 1; lg <= 6; lg++ {
			m := 1 << (2 * lg)
			nw, err := asn.OddEvenMergeSort(m)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			// The depth is laid out anew from the comparators in order
			// (greedy layering: the least depth that keeps each wire's
			// order), not read from the builder's stages; the two must
			// agree.
			var flat []msn.Comparator
			for _, st := range nw.Stages {
				flat = append(flat, st...)
			}
			depth := msn.Layer(m, flat).Depth()
			if depth != nw.Depth() {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("g = %d: the builder's %d stages lay out in %d by greedy layering", 1<<lg, nw.Depth(), depth)}
			}
			if want := steps(2 * lg); depth != want {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("g = %d (m = %d items): the odd-even merge sort has %d steps, %s gives %d", 1<<lg, m, depth, name, want),
					Counterexample: map[string]any{"g": 1 << lg, "items": m, "depth": depth, "claimed": want}}
			}
			ev = append(ev, fmt.Sprintf("g = %d: %d", 1<<lg, depth))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("Batcher's odd-even merge sort on g² items (built by algos/sortnet, g ≤ 64: up to 2^12 wires) has log m(1 + log m)/2 = 2log²g + log g steps (depth by greedy layering of its comparators, equal to the builder's stages): %s; [8]'s log²m would be 4log²g, twice as many", strings.Join(ev, ", "))}
	}
}

// checkTableIIsigma: every σ printed in Table II is below limit.
func checkTableIIsigma(limit float64) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		var over []string
		cells := 0
		var first map[string]any
		for _, c := range popspaper.Cells() {
			if !c.HasPaper() {
				continue
			}
			cells++
			if c.Sigma >= limit {
				over = append(over, fmt.Sprintf("n=%d d=%dg: σ = %.2f", c.N, c.Ratio, c.Sigma))
				if first == nil {
					first = map[string]any{"n": c.N, "ratio": c.Ratio, "sigma": c.Sigma}
				}
			}
		}
		if len(over) > 0 {
			return props.Outcome{Verdict: props.Violated, Counterexample: first,
				Evidence: fmt.Sprintf("%d of the %d printed σ are not below %g: %s", len(over), cells, limit, strings.Join(over, "; "))}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("all %d printed σ are below %g", cells, limit)}
	}
}

// checkTableIAB: at every printed cell of Table I, A < B (edit may change a
// cell: the planted fault).
func checkTableIAB(edit func(popspaper.Cell) popspaper.Cell) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		minRatio, at, cells := math.Inf(1), "", 0
		for _, c := range popspaper.Cells() {
			if !c.HasPaper() {
				continue
			}
			c = edit(c)
			cells++
			if r := float64(c.B) / c.A; r < minRatio {
				minRatio, at = r, fmt.Sprintf("n=%d d=%dg (A = %.2f, B = %d)", c.N, c.Ratio, c.A, c.B)
			}
			if c.A >= float64(c.B) {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%dg: A = %.2f is not below B = %d", c.N, c.Ratio, c.A, c.B), Counterexample: map[string]any{"n": c.N, "ratio": c.Ratio, "a": c.A, "b": c.B}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("A < B at all %d printed cells; smallest B/A = %.2f at %s", cells, minRatio, at)}
	}
}

func init() {
	src := seed000 + " §IV"
	props.Register(ledger.Text(props.Claim{ID: "pops/sec4/oem-steps", Source: src + " (the correction of [8]'s count)",
		Check:  checkOEMSteps(func(lm int) int { return lm * (1 + lm) / 2 }, "log m(1 + log m)/2"),
		Faults: []props.Fault{{Name: "[8]'s count log²m", Check: checkOEMSteps(func(lm int) int { return lm * lm }, "log²m")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/sec4/table-1-a-below-b", Source: src + " and Table I",
		Check: checkTableIAB(func(c popspaper.Cell) popspaper.Cell { return c }),
		Faults: []props.Fault{{Name: "A at n = 64, d = 16g printed as 442.00 (= B)", Check: checkTableIAB(func(c popspaper.Cell) popspaper.Cell {
			if c.N == 64 && c.Ratio == 16 {
				c.A = float64(c.B)
			}
			return c
		})}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/sec4/sigma-below-one", Source: src + " and Table II",
		Check: checkTableIIsigma(1)}))
}
