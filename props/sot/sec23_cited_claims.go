package sot

import (
	"fmt"
	"math/big"

	"routecheck/props"
)

// Issue 13 (audit, 2026-11-24): §2.3's cited optical figures, which the
// paper takes from its references without the numbers that would let them
// be re-derived. Each is a claim that says why it cannot be checked
// (inconclusive, the reason quoted) and what would make it checkable; the
// checks evaluate, exactly, what the paper's own numbers do give.

// sotFibreLossCheck: "with a fiber loss of 0.2 dB/km, a maximum of 50 km of
// fiber could be used for the data delay line [17]" (and [13]'s 10 Gbit/s
// up to ~50 km). Evaluates the loss 50 km implies and the delay line's
// length in slots of §2.3's 51.2 ns at n = 1.44 and 1.50.
func sotFibreLossCheck(props.Env) props.Outcome {
	o := sotPaperOptics()
	lossDB := new(big.Rat).Mul(big.NewRat(2, 10), big.NewRat(50, 1)) // dB/km × km
	tp := new(big.Rat).Quo(big.NewRat(o.bits, 1), o.bandwidth)       // s
	var slots string
	for i, n := range sotIndexRange {
		// 50 km at v_c/n, in slots of T_p.
		delay := new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(50_000, 1), n), sotLightSpeed)
		k := new(big.Rat).Quo(delay, tp)
		if i > 0 {
			slots += ", "
		}
		slots += fmt.Sprintf("n = %s: %.1f µs = %.0f slots of %.1f ns", n.FloatString(2), 1e6*sotRatF(delay), sotRatF(k), 1e9*sotRatF(tp))
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("cannot be checked as stated: the 50 km follows from 0.2 dB/km only with a loss budget, which the paper does not state; both figures are Soukop et al.'s [17] (and [13]'s ~50 km at 10 Gbit/s, 1.3 µm), not in the seeds. What the paper's numbers give: 0.2 dB/km × 50 km = %s dB (a power ratio of 1/10), the budget the sentence implies; a 50 km delay line holds %s (the node amplifies the 90 %% branch, which the loss budget would have to account for). Checkable if: the loss budget (tolerable attenuation between amplifiers) were stated — then 50 km = budget / 0.2 dB/km is arithmetic — or [17]'s figures were in the seeds.", lossDB.FloatString(1), slots)}
}

// sotSwitchingCheck: "The switching time of LiNbO₃ switches lies in the
// range 10 – 15 ps [2]". Evaluates the range against §2.3's bit time and
// slot length.
func sotSwitchingCheck(props.Env) props.Outcome {
	o := sotPaperOptics()
	bitPS := new(big.Rat).Quo(big.NewRat(1_000_000_000_000, 1), o.bandwidth) // ps per bit
	slotPS := new(big.Rat).Mul(bitPS, big.NewRat(o.bits, 1))
	var parts string
	for i, ps := range []int64{10, 15} {
		x := big.NewRat(ps, 1)
		if i > 0 {
			parts += "; "
		}
		parts += fmt.Sprintf("%d ps = %s bit times, %.3g of a slot", ps, new(big.Rat).Quo(x, bitPS).FloatString(2), sotRatF(new(big.Rat).Quo(x, slotPS)))
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("cannot be checked as stated: the range is a measured property of LiNbO₃ devices reported in [2], not in the seeds, and the paper states no requirement it must meet (no guard time between slots). What the paper's numbers give: a bit lasts %s ps at 10 Gbit/s and a slot %s ps (N_p = %d bits); %s. Checkable if: [2]'s measurements were in the seeds, or the paper stated what the switching time must fit into (a guard time, a bit time) — then it is arithmetic.", bitPS.FloatString(0), slotPS.FloatString(0), o.bits, parts)}
}

func init() { sotSec23CitedClaims() }

func sotSec23CitedClaims() {
	props.Register(ledger.Text(props.Claim{ID: "sot/sec2.3/cited-fibre-loss",
		Check: sotFibreLossCheck}))
	props.Register(ledger.Text(props.Claim{ID: "sot/sec2.3/cited-switching-time",
		Check: sotSwitchingCheck}))
}
