package mbfly

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// Issue 13 (audit, 2026-11-24): sentences of 004_8aa7b4c265a7324b.txt that
// cannot be checked here, each as a claim that says why (inconclusive,
// the reason quoted) and what would make it checkable. The checks re-derive
// the obstruction from what is built, so the evidence changes if the
// obstruction goes away (then the claim must be rewritten to check the
// sentence itself). An inconclusive claim needs no planted fault.

func init() { registerUncheckable() }

// thm43EndToEndCheck: Theorem 4.3's end-to-end 6d + 1 steps per iteration
// on the degree-10 network. Builds the reduced network at (n, d) = (16, 4)
// (mbfly/thm-4.3/deg10-degree-census's lead size) and reports what leaves
// the iteration without a schedule: the lines between parts (layers P − 1
// and P + log n) and the interface stages above degree 4.
func thm43EndToEndCheck(env props.Env) props.Outcome {
	n, d := 16, 4
	g, err := deg10Checked(env.Seed, n, d)
	if err != nil {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d d=%d: the reduced network could not be built: %v", n, d, err)}
	}
	var cross [3][3]int
	for _, l := range g.Lines {
		a, b := g.Vertices[l.A].Part, g.Vertices[l.B].Part
		if a != b {
			cross[min(a, b)][max(a, b)]++
		}
	}
	over, worst, ws := deg10Excess(g, g.Degrees(), [3]int{4, 4, 2})
	built := fmt.Sprintf("n=%d d=%d (P = %d, G = %d, P + log 2d = %d): %d lines join the expander part to the multi-butterfly part (layer P − 1), %d the multi-butterfly part to the direct part (layer P + log n), %d the expander part to the direct part; vertices above degree 4 (2 in the direct part): %s (worst %d at stage %d)",
		n, d, g.Net.P, g.G, g.Net.P+g.L2d, cross[0][1], cross[1][2], cross[0][2], strings.Join(over, ", "), worst, ws)
	if cross[0][1]+cross[1][2]+cross[0][2] == 0 && len(over) == 0 {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: "the obstruction this claim records is gone (no line between parts, no vertex above its degree): the end-to-end time can now be measured — rewrite this claim to route on the reduced network. " + built}
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: "cannot be checked as stated: the proof's \"Thus, we can simulate each iteration on N processors with degree 10 in 6d + 1 steps\" sums the pieces (2d + 4d + 1) and gives no schedule for the lines between the parts — a processor's expander vertex is active in steps [0, 2d) of its turn, its multi-butterfly vertex in [2d, 6d), its direct vertex at 6d, so the two ends of a line between parts are never active together — nor for the interface stages, whose process must be at home to use the extra lines while Theorem 4.2 moves it round its cycle; and the reduction does not reach degree 10 (mbfly/thm-4.3/deg10-degree-census, deg10-merge-degree). What is built: " + built + ". Checkable if: a merged schedule of a processor's three vertices that gives those lines and stages their slots (then §4.2's protocol run on the reduced network and its steps per iteration counted against 6d + 1), or a reduction that reaches degree 10."}
}

// thm43PrintedDCheck: Theorem 4.3's network at the printed d = 21 and 102.
// Reports, per set, why §4.4's reduction does not apply (d not a power of
// two: no partition of a level of 2^s splitters into d identical
// patterns; log 2d not an integer, so the stage count needs a rounding —
// ⌈log 2d⌉ would define it but changes the count) and the builder's refusal, and the size
// of the proof's network at d rounded up to a power of two.
func thm43PrintedDCheck(env props.Env) props.Outcome {
	var ev []string
	accepted := false
	for _, s := range mbflyforms.Sec4Sets {
		d := s.D
		odd := d >> bits.TrailingZeros(uint(d))
		_, err := mb.BuildThm43(16, d, seeds.Rand(env.Seed, 0x7d21, uint64(d)))
		refusal := "accepted"
		if err != nil {
			refusal = "refused: " + err.Error()
		} else {
			accepted = true
		}
		up := 1 << bits.Len(uint(d-1))
		upL2d := bits.Len(uint(2*up)) - 1
		nMin := 2 * up // the least n whose first splitter has n/2 ≥ d outputs per side
		logN := bits.Len(uint(nMin)) - 1
		stages := 3*logN + 4*up*upL2d + 1
		P := logN + 2*up*upL2d
		ev = append(ev, fmt.Sprintf("%s (d = %d): odd part %d, so d divides no 2^s (no level of the multi-butterfly splits into d identical patterns); log₂ 2d = %.3f is not an integer (\"the first log 2d stages\" and the 4d log 2d added stages need a rounding the paper does not give: ⌈log 2d⌉ would define them but changes the stage count 3 log n + 4d log 2d + 1 and so the figures); mb.BuildThm43(16, %d) %s; rounded up to d = %d (6d + 1 = %d, not %d): at n = %d the proof's network has %d stages, %d nodes and %d expander edges",
			s.Name, d, odd, math.Log2(float64(2*d)), d, refusal, up, 6*up+1, 6*d+1, nMin, stages, stages*nMin, P*nMin*up))
	}
	if accepted {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: "the builder now accepts a printed d: rewrite this claim to build and route it. " + strings.Join(ev, "; ")}
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: "cannot be checked as stated: §4.4 \"assume[s] for that reduction that d is a power of 2\" (mbfly/params/sec4.4-d-power-of-two: violated for both printed sets), and the proof uses it (\"Since we assumed that d is a factor of 2, once a stage consists of more than d splitters, it can be partitioned into d identical isolated patterns\"). " + strings.Join(ev, "; ") + ". Checkable if: a degree reduction for d not a power of two (Theorem 4.2 on another partition), or a reading that rounds d up (which changes the printed figures: 6d + 1 = 193 and 769 instead of 127 and 613) together with a network of that size."}
}

func registerUncheckable() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.3/deg10-end-to-end-time",
		Mem:   props.MemEstimate{Small: 8 << 20, Default: 8 << 20, Large: 8 << 20},
		Check: thm43EndToEndCheck,
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.3/printed-d-network",
		Check: thm43PrintedDCheck,
	}))
}
