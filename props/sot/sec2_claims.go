package sot

import (
	"fmt"
	"math/big"

	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Issue 13, step 2: §2.3's optical arithmetic evaluated with the paper's own
// numbers, exactly (math/big). The paper's numbers: packets of 64 bytes
// (N_p = 8 × 64 bits), link bandwidth B = 10 Gbit/s, "the length of packet
// … is about 10 meters and the length of time slot is about 50 ns"; the
// formulas l_p = N_p·v_c·n/B and T_p = N_p/B; a temperature-dependent delay
// of 35.5 ps/(°C·km), ±5 °C, "±7.1 ps of error in a 40 meters data delay
// line". v_c is the speed of light in vacuum, 299 792 458 m/s exactly (SI).
// The paper gives no value for the refraction index n; for silica
// single-mode fibre at 1.3 µm (the wavelength it cites from [13]) the
// index lies in [1.44, 1.50], and every claim below is evaluated at both
// ends. "About" is read as ±10 %, the ledger's reading throughout.

// sotOptics are the numbers of §2.3, as exact rationals.
type sotOptics struct {
	bits      int64    // N_p
	bandwidth *big.Rat // B, bit/s
	psPerCkm  *big.Rat // temperature coefficient, ps/(°C·km)
	degrees   int64    // ±°C
	lineM     int64    // delay-line length, m
}

func sotPaperOptics() sotOptics {
	return sotOptics{bits: 8 * 64, bandwidth: big.NewRat(10_000_000_000, 1), psPerCkm: big.NewRat(355, 10), degrees: 5, lineM: 40}
}

var (
	sotLightSpeed = big.NewRat(299_792_458, 1)                              // m/s
	sotIndexRange = [2]*big.Rat{big.NewRat(144, 100), big.NewRat(150, 100)} // silica at 1.3 µm
)

func sotRatF(x *big.Rat) float64 { f, _ := x.Float64(); return f }

// sotAbout reports whether x is within ±10 % of want.
func sotAbout(x *big.Rat, want int64) bool {
	lo, hi := big.NewRat(9*want, 10), big.NewRat(11*want, 10)
	return x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0
}

// sotSlotCheck is sot/sec2.3/slot-length's check: T_p = N_p/B against
// "about 50 ns".
func sotSlotCheck(o sotOptics) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		tp := new(big.Rat).Quo(big.NewRat(o.bits, 1), o.bandwidth)
		ns := new(big.Rat).Mul(tp, big.NewRat(1_000_000_000, 1))
		ev := fmt.Sprintf("T_p = N_p/B = %d bit / %s bit/s = %s ns (%.4g ns); stated: about 50 ns (±10%%: 45…55 ns)", o.bits, o.bandwidth.RatString(), ns.RatString(), sotRatF(ns))
		if !sotAbout(ns, 50) {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Counterexample: map[string]any{"T_p_ns": sotRatF(ns), "stated_ns": 50}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

// sotPacketLength is l_p in metres at refraction index n: the printed
// formula N_p·v_c·n/B (printed) or the physical N_p·(v_c/n)/B.
func sotPacketLength(o sotOptics, n *big.Rat, printed bool) *big.Rat {
	l := new(big.Rat).Mul(big.NewRat(o.bits, 1), sotLightSpeed)
	if printed {
		l.Mul(l, n)
	} else {
		l.Quo(l, n)
	}
	return l.Quo(l, o.bandwidth)
}

// sotLengthCheck checks "the length of packet is about 10 meters" against
// l_p by the printed or the corrected formula, at both ends of the index
// range.
func sotLengthCheck(o sotOptics, printed bool) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		var ev string
		var bad map[string]any
		for _, n := range sotIndexRange {
			l := sotPacketLength(o, n, printed)
			ev += fmt.Sprintf("n = %s: l_p = %.4g m; ", n.FloatString(2), sotRatF(l))
			if !sotAbout(l, 10) && bad == nil {
				bad = map[string]any{"refraction_index": n.FloatString(2), "l_p_m": sotRatF(l), "stated_m": 10}
			}
		}
		vac := sotPacketLength(o, big.NewRat(1, 1), true)
		ev += fmt.Sprintf("(n = 1, vacuum: %.4g m); stated: about 10 m (±10%%: 9…11 m)", sotRatF(vac))
		if bad != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Counterexample: bad}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

// sotTempCheck is sot/sec2.3/temperature-error's check: coefficient ×
// degrees × length against the printed ±7.1 ps, exactly.
func sotTempCheck(o sotOptics) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		ps := new(big.Rat).Mul(o.psPerCkm, big.NewRat(o.degrees*o.lineM, 1000))
		want := big.NewRat(71, 10)
		ev := fmt.Sprintf("%s ps/(°C·km) × %d °C × %d m = %s ps; printed ±7.1 ps", o.psPerCkm.FloatString(1), o.degrees, o.lineM, ps.FloatString(3))
		if ps.Cmp(want) != 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Counterexample: map[string]any{"computed_ps": ps.FloatString(3), "printed_ps": "7.1"}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

func init() { sotSec2Claims() }

func sotSec2Claims() {
	paper := sotPaperOptics()
	twentyG := paper
	twentyG.bandwidth = big.NewRat(20_000_000_000, 1)
	fifty := paper
	fifty.lineM = 50

	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec2.3/slot-length"}), sotSlotCheck, paper, twentyG, "the bandwidth printed as 20 Gbit/s"),
		ledger.Text(props.Claim{ID: "sot/sec2.3/packet-length-formula",
			Check: sotLengthCheck(paper, true)}),
		ledger.Text(props.Claim{ID: "sot/sec2.3/packet-length-corrected",
			Check: sotLengthCheck(paper, false),
			Faults: []props.Fault{
				{Name: "the printed formula (× n instead of ÷ n)", Check: sotLengthCheck(paper, true)},
				{Name: "the bandwidth printed as 20 Gbit/s", Check: sotLengthCheck(twentyG, false)},
			}}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec2.3/temperature-error"}), sotTempCheck, paper, fifty, "the delay line printed as 50 m"),
	)
}
