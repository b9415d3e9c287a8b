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
		claimtab.WithFault(props.Claim{ID: "sot/sec2.3/slot-length", Source: seed002 + " §2.3", Kind: props.Exact, Recorded: props.Holds, Class: props.Paper,
			Statement: "With 10 Gbit/s links and 64-byte packets (N_p = 8 × 64), the length of a time slot T_p = N_p/B is about 50 ns.",
			Scope:     "the paper's numbers, exact rational arithmetic; 'about' read as ±10%",
			Notes:     "T_p = 512/10^10 s = 51.2 ns. [2026-11-24] Planted fault, fixed before running: one printed digit changed, the bandwidth 10 Gbit/s printed as 20 Gbit/s (25.6 ns).",
		}, sotSlotCheck, paper, twentyG, "the bandwidth printed as 20 Gbit/s"),
		props.Claim{ID: "sot/sec2.3/packet-length-formula", Source: seed002 + " §2.3", Kind: props.Exact, Recorded: props.Violated, Class: props.Paper,
			Statement: "The length of a packet in fibre, l_p = N_p × v_c × n / B, is about 10 meters with 10 Gbit/s links and 64-byte packets.",
			Scope:     "the paper's numbers and formula as printed, exact rational arithmetic, at refraction index n = 1.44 and 1.50 (silica at 1.3 µm; the paper gives none); 'about' read as ±10%",
			Notes:     "The printed formula multiplies by the refraction index; light in fibre travels at v_c/n, so the length of a packet is N_p·v_c/(n·B). As printed the formula gives 22.1–23.0 m for silica, and at least 15.35 m for any index n ≥ 1 (the vacuum value), never about 10 m; the corrected formula gives 10.2–10.7 m (sot/sec2.3/packet-length-corrected), which is the paper's 10 m, and agrees with the slot length: 51.2 ns × v_c/n. So the number is right and the printed formula is a slip (n in the numerator instead of the denominator).",
			Check:     sotLengthCheck(paper, true)},
		props.Claim{ID: "sot/sec2.3/packet-length-corrected", Source: seed002 + " §2.3 (formula corrected by routecheck)", Kind: props.Exact, Recorded: props.Holds, Class: props.Beyond,
			Statement: "The length of a packet in fibre, N_p·(v_c/n)/B, is about 10 meters with 10 Gbit/s links and 64-byte packets.",
			Scope:     "the paper's numbers, exact rational arithmetic, n = 1.44 and 1.50; 'about' read as ±10%",
			Notes:     "routecheck's correction of the printed formula (sot/sec2.3/packet-length-formula). [2026-11-24] Planted faults, fixed before running: the printed formula (n in the numerator), and one printed digit changed, the bandwidth 10 Gbit/s printed as 20 Gbit/s.",
			Check:     sotLengthCheck(paper, false),
			Faults: []props.Fault{
				{Name: "the printed formula (× n instead of ÷ n)", Check: sotLengthCheck(paper, true)},
				{Name: "the bandwidth printed as 20 Gbit/s", Check: sotLengthCheck(twentyG, false)},
			}},
		claimtab.WithFault(props.Claim{ID: "sot/sec2.3/temperature-error", Source: seed002 + " §2.3 (citing Soukop et al. [17])", Kind: props.Exact, Recorded: props.Holds, Class: props.Paper,
			Statement: "If the temperature-dependent delay varies 35.5 ps/(°C·km), variations of ±5 °C result in ±7.1 ps of error in a 40 meters data delay line.",
			Scope:     "the paper's numbers, exact rational arithmetic (35.5 × 5 × 0.040 = 7.1 exactly)",
			Notes:     "[2026-11-24] Planted fault, fixed before running: one printed digit changed, the delay line printed as 50 m (8.875 ps).",
		}, sotTempCheck, paper, fifty, "the delay line printed as 50 m"),
	)
}
