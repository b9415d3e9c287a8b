package bfly

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	mb "routecheck/models/butterfly"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// The simulations of 001_afbf5d537b48cc65.txt §4: latency of p pipelined
// copies of a random permutation σ on a 2^n-input butterfly with r extra
// stages, each point the average of independent runs.
//
// Node model. §4.1 says "a buffer of size one for each incoming link and an
// infinite queue for each outgoing link; a step is the time required for a
// packet to traverse a link or move from a buffer of an incoming link to
// the queue of an outgoing link". It does not say whether a buffer can take
// a new packet in the step its occupant leaves. We ran both readings (and
// the §2 node model) before fixing the tolerance below: with strict buffers
// (a link may send only into a buffer empty at the start of the step; so a
// link carries at most one packet per two steps) our mean latencies are
// within a few per cent of the fitted L_avg for p ≥ 20, while the pipelined
// reading is 30–45 % below it at p ≥ 100 (at full scale, `reproduce
// bfly-figs`, N = 4K, 5 runs, strict: −7 % … +2 % for p ≥ 20 at every
// r = 0…12; p = 10: −12 % … −5 %; p = 1: −23 % … −11 %). The claims use strict buffers;
// the pipelined reading is registered too (bfly/sec4/fit-avg/pipelined).
// Priorities: §3's (c = 7); FIFO gives latencies within 2 % (see the
// bfly-readings experiment).
//
// Fitted formulas. §4.3 prints L_avg and L_max "best fit" over N = 1K…8K,
// r = 0…12 and p ∈ {1, 10, 20, 50, 100, 200}, without residuals, so the
// paper gives no tolerance within which a cell "follows" the fit. Every
// comparison with a fit (both fits, both buffer readings, and the p = 1
// slope) is therefore a reported comparison, recorded Inconclusive under
// one rule: the evidence gives every cell's deviation with its Student-t
// interval and the largest band B such that some cell's interval lies
// wholly outside ±B of the formula (every tolerance below B would call the
// comparison inconsistent, none above it would). No tolerance is fixed:
// the 20 % band the ledger used to judge three of them (issue 9 §6) was
// chosen after the exploratory comparison above and was not applied to
// their strict-reading average sibling, so it is dropped for all of them.
//
// Statistics. A cell's interval is ours ± T(Alpha/cells, runs − 1)·SE
// (Student t with runs − 1 degrees of freedom, Bonferroni over cells), so a
// cell whose true mean is within the band is called outside with
// probability ≤ Alpha/cells, assuming the run means are normal (they are
// averages over ≥ 1024 packets). Comparisons of two cells use Welch's
// statistic against T(α, runs − 1), which is conservative for two samples
// of `runs` runs each (the Welch–Satterthwaite df is ≥ runs − 1). Grid:
// n = 10 (the smallest size the paper fits), r ∈ {0, 2, 4, 6, 8, 10},
// p ∈ {1, 10, 20} (+ 50 at Default/Large); 8/10/10 runs (small/default/
// large; the paper's 10). With 2 runs the t critical value at 1e-9 would
// be ≈ 1e10 and no cell could fail.

// BflySimCell is one cell of the §4 simulations, as a counterexample.
type BflySimCell struct {
	LogN    int     `json:"log_n"`
	R       int     `json:"r"`
	P       int     `json:"p"`
	Reading string  `json:"reading"`
	Runs    int     `json:"runs"`
	Seed    uint64  `json:"seed"`
	Ours    float64 `json:"ours"`
	SE      float64 `json:"se"`
	Paper   float64 `json:"paper"`
}

// BflySimReadings are the node-model readings the simulations can use.
var BflySimReadings = map[string]mb.Shape{
	"strict":     {Mode: mb.Buffered, StrictBuffers: true},
	"pipelined":  {Mode: mb.Buffered},
	"node-queue": {Mode: mb.NodeQueue},
}

// BflySimRun is run `run` of cell (n, r, p) under a reading: σ and the
// coins from seeds.Rand(seed, 0x5ec4, n, r, p, run) (the same streams for
// every reading). It returns the mean and the maximum latency.
func BflySimRun(e *ab.Engine, reading string, n, r, p int, seed uint64, run int) (float64, int, error) {
	sh, ok := BflySimReadings[reading]
	if !ok {
		return 0, 0, fmt.Errorf("reading %q: allowed strict, pipelined, node-queue", reading)
	}
	sh.LogN, sh.R = n, r
	return ab.Sec4Run(e, ab.Options{Shape: sh}, p, seeds.Rand(seed, 0x5ec4, uint64(n), uint64(r), uint64(p), uint64(run)))
}

type simKey struct {
	reading string
	n, r, p int
	seed    uint64
	runs    int
}

type simVal struct{ avg, max stats.Summary }

var simCache cache[simKey, simVal]

// simCell runs (or recalls) a cell.
func simCell(reading string, n, r, p int, seed uint64, runs int) (simVal, error) {
	k := simKey{reading, n, r, p, seed, runs}
	v, ok := simCache.get(k)
	if ok {
		return v, nil
	}
	// Runs are independent (each has its own stream), so they are spread
	// over GOMAXPROCS workers; run i always lands in slot i.
	avgs, maxs := make([]float64, runs), make([]float64, runs)
	errs := make([]error, runs)
	workers := min(runs, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e ab.Engine
			for run := w; run < runs; run += workers {
				a, m, err := BflySimRun(&e, reading, n, r, p, seed, run)
				avgs[run], maxs[run], errs[run] = a, float64(m), err
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return simVal{}, err
		}
	}
	v = simVal{stats.Summarize(avgs), stats.Summarize(maxs)}
	simCache.put(k, v)
	return v, nil
}

var simGridR = []int{0, 2, 4, 6, 8, 10}

// simGridP is the p grid of the fit claims at budget b.
func simGridP(b props.Budget) []int {
	if b == props.Small {
		return []int{1, 10, 20}
	}
	return []int{1, 10, 20, 50}
}

const simN = 10

func simRuns(b props.Budget) int { return b.Pick(8, 10, 10) }

func se(s stats.Summary) float64 { return s.SD / math.Sqrt(float64(s.N)) }

// fitClaim registers a reported comparison of a §4.3 fit with our cells:
// always Inconclusive (the paper gives no tolerance), with every cell's
// deviation, its t interval and the largest band some cell's interval
// lies wholly outside of.
func fitClaim(id, reading, which string, notes string) {
	formula, pick := bflyforms.FitAvg, func(v simVal) stats.Summary { return v.avg }
	printed := "L_avg = −12.90 + 3.18n + 0.75p + 0.69p/2^r + 0.07np/2^r + 3.20r"
	if which == "maximum" {
		formula, pick = bflyforms.FitMax, func(v simVal) stats.Summary { return v.max }
		printed = "L_max = −29.69 + 8.09n + 1.83p + 0.84p/2^r + 0.76np/2^r − 1.43r"
	}
	scope := fmt.Sprintf("%s node-model reading; N = 2^%d, r ∈ %v, p ∈ {1, 10, 20} (+ 50 at default/large); 8/10/10 runs (small/default/large); reported comparison (the paper gives no residuals, so no tolerance is derivable; one rule for every fit comparison): recorded inconclusive, every cell's deviation and t interval (T(Alpha/cells, runs−1)·SE) in the evidence, with the largest band some cell's interval lies wholly outside of", reading, simN, simGridR)
	props.Register(props.Claim{ID: id, Source: seed001 + " §4.3 (fitted latency formulas)", Kind: props.Statistical, Recorded: props.Inconclusive,
		Statement: fmt.Sprintf("Our simulated %s latency follows the paper's fit %s.", which, printed),
		Scope:     scope,
		Notes:     notes,
		Check: func(env props.Env) props.Outcome {
			runs := simRuns(env.Budget)
			ps := simGridP(env.Budget)
			cells := len(simGridR) * len(ps)
			tc := stats.T(props.Alpha/float64(cells), runs-1)
			var ev []string
			sure, at := 0.0, "" // largest band some cell's interval lies wholly outside of
			worst1, worst10 := 0.0, 0.0
			for _, p := range ps {
				for _, r := range simGridR {
					v, err := simCell(reading, simN, r, p, env.Seed, runs)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					s := pick(v)
					c := BflySimCell{LogN: simN, R: r, P: p, Reading: reading, Runs: runs, Seed: env.Seed, Ours: s.Mean, SE: se(s), Paper: formula(simN, r, p)}
					dev := (c.Ours - c.Paper) / c.Paper
					half := tc * c.SE / c.Paper
					ev = append(ev, fmt.Sprintf("r=%d p=%d: %+.1f%% ± %.1f%%", r, p, 100*dev, 100*half))
					if p == 1 {
						worst1 = math.Max(worst1, math.Abs(dev))
					} else {
						worst10 = math.Max(worst10, math.Abs(dev))
					}
					if b := math.Abs(dev) - half; b > sure {
						sure, at = b, fmt.Sprintf("r = %d, p = %d", r, p)
					}
				}
			}
			summary := fmt.Sprintf("largest |deviation|: p = 1 %.1f%%, p ≥ 10 %.1f%%; t critical %.1f (df %d, α = %.2g per cell); cells (ours − formula)/formula ± t·SE/formula: %s", 100*worst1, 100*worst10, tc, runs-1, props.Alpha/float64(cells), strings.Join(ev, "; "))
			band := "no cell's interval lies wholly outside the formula"
			if sure > 0 {
				band = fmt.Sprintf("some cell's interval lies wholly outside ±%.1f%% of the formula (%s): any tolerance below that would call this comparison inconsistent, none above it", 100*sure, at)
			}
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("reported comparison, no tolerance derivable from the paper: %s; %s", band, summary)}
		}})
}

func init() {
	fitClaim("bfly/sec4/fit-avg/strict", "strict", "average",
		"Recorded inconclusive as a reported comparison (previously consistent within a 20 % band that was fixed after the exploratory comparison and that the worst cell, p = 1, r = 10 at −20.1 %, met only through its SE term). The paper prints the fit without residuals and calls it only the 'best fit', so no tolerance can be derived. What the evidence shows: for p ≥ 10 every cell is within about ±10 % of the formula (worst p = 10, r = 10, ≈ −9 %; p ≥ 20 within ≈ −4 % … +0.3 %); for p = 1 the deviation grows with r to ≈ −20 % at r = 10, because at light load an extra stage costs 2 steps in the §4.1 model (\"each packet needs two cycles (at least) to cross a single node\") while the fit charges 3.20 per stage. The p = 1 slope is reported in bfly/sec4/fit-avg/r-slope-p1. [2026-11-23] Issue 9 §6: verdict unchanged; its three siblings (fit-max/strict, fit-avg/pipelined, fit-avg/r-slope-p1), which were judged inconsistent against a ±20 % band of our choosing, now follow this claim's rule (reported comparison, inconclusive), and the evidence gives the band below which a tolerance would call the comparison inconsistent (here ≈ 17 % at the small budget and 19 % at the default, from p = 1, r = 10).")
	fitClaim("bfly/sec4/fit-max/strict", "strict", "maximum",
		"The fitted L_max is far off at both ends: for one permutation (p = 1, r = 0) it predicts 61.5 at N = 1K where every run of ours takes ≈ 25 (the path alone is 2n − 1 = 19 steps), and at r = 10 with p = 10–20 it predicts 25–35 % less than we see. A six-term linear fit of a maximum over p ∈ 1…200 cannot be accurate at both ends; the printed coefficients do not describe the §4.1 model's maxima. [2026-11-23] Recorded inconsistent until issue 9 §6, against a ±20 % band + t·SE; now inconclusive: that band was chosen by us after the exploratory comparison and was not applied to the sibling bfly/sec4/fit-avg/strict (inconclusive because the paper gives no tolerance), so every fit comparison now follows one rule — a reported comparison, inconclusive, with the deviations in the evidence. The deviation itself stands: the p = 1, r = 0 cell is 58 % below the formula, and some cell's interval lies wholly outside ±37 % (small budget: r = 0, p = 10) / ±39 % (default: r = 0, p = 1), so any tolerance below that would call the fit inconsistent.")
	fitClaim("bfly/sec4/fit-avg/pipelined", "pipelined", "average",
		"With buffers that accept a packet in the step their occupant leaves, a link carries one packet per step and latencies are 17–45 % below the fit for p ≥ 10 (p = 1: 7–22 % below, growing with r), where the strict reading is within ≈ 0–9 % (contrast bfly/sec4/fit-avg/strict). [2026-11-23] Recorded inconsistent until issue 9 §6, against a ±20 % band + t·SE set during the strict-reading exploration (not for this claim); now inconclusive: the band was not applied to the sibling bfly/sec4/fit-avg/strict, so every fit comparison now follows one rule — a reported comparison, inconclusive, with the deviations in the evidence. What the evidence shows: some cell's interval lies wholly outside ±21 % of the formula at the small budget (p ≤ 20) and ±37 % at the default (p = 50 cells ≈ 30–45 % below); the strict reading's is ≈ 17–19 %, so the comparison favours the strict reading without deciding it.")

	claimtab.Register(
		ledger.Text(props.Claim{ID: "bfly/sec4/fit-avg/r-slope-p1",
			Scope: fmt.Sprintf("strict reading, N = 2^%d, p = 1, r ∈ {2, 10}; 8/10/10 runs; reported comparison (the paper gives no tolerance; one rule for every fit comparison, as in bfly/sec4/fit-avg/strict): recorded inconclusive, the evidence gives our slope with its interval ± T(Alpha, runs − 1)·SE (Student t; SE from the two cells' run-to-run spread; conservative df) and the largest tolerance the interval lies wholly outside of", simN),
			Check: rSlopeP1Check,
		}),

		withFaults(ledger.Text(props.Claim{ID: "bfly/sec4/optimum-interior",
			Scope: fmt.Sprintf("strict reading, N = 2^%d, p = 50 (as before; 'long' read as many permutations per input), r ∈ {0, ⌈log log N⌉ = 4, n}, 8/10/10 runs; 'significantly': Welch statistic beyond T(Alpha/2, runs − 1) (Student t, conservative df) for L(⌈log log N⌉) < L(0) and L(n) > L(⌈log log N⌉); both significant: consistent (then the minimum over r is interior); either significant the other way: inconsistent; otherwise inconclusive", simN),
		}), bflyOptimumCheck, 0,
			plant("L(⌈log log N⌉) set 10 % above L(0) (effect size fixed before running; its runs' spread kept)", 1),
			plant("L(n) set 10 % below L(⌈log log N⌉) (effect size fixed before running; its runs' spread kept)", 2)),

		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/sec4/short-no-benefit",
			Scope: fmt.Sprintf("strict reading, N = 2^%d, p = 1 ('short' read as one permutation), r = 1…%d, 8/10/10 runs; significant: Welch statistic < −T(Alpha/%d, runs − 1) (Student t, conservative df); p = 10 on r ∈ %v reported in the evidence", simN, simN, simN, simGridR),
		}), bflyShortCheck, false, true, "at p = 1, L(⌈log log N⌉) set 10 % below L(0) (effect size fixed before running; its runs' spread kept)"),
	)
}

// rSlopeP1Check is bfly/sec4/fit-avg/r-slope-p1's check.
func rSlopeP1Check(env props.Env) props.Outcome {
	runs := simRuns(env.Budget)
	a, err := simCell("strict", simN, 2, 1, env.Seed, runs)
	if err != nil {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	b, err := simCell("strict", simN, 10, 1, env.Seed, runs)
	if err != nil {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	ours := (b.avg.Mean - a.avg.Mean) / 8
	s := math.Sqrt(se(a.avg)*se(a.avg)+se(b.avg)*se(b.avg)) / 8
	fit := (bflyforms.FitAvg(simN, 10, 1) - bflyforms.FitAvg(simN, 2, 1)) / 8
	tc := stats.T(props.Alpha, runs-1)
	band := math.Abs(ours-fit) - tc*s
	ev := fmt.Sprintf("ours %.3f ± %.3f (SE; t critical %.1f, df %d) steps per stage, fit %.3f (%+.0f%%)", ours, s, tc, runs-1, fit, 100*(ours-fit)/fit)
	if band > 0 {
		ev += fmt.Sprintf("; our interval lies wholly outside ±%.0f%% of the fit: any tolerance below that would call the fitted slope inconsistent, none above it", 100*band/fit)
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: "reported comparison, no tolerance derivable from the paper: " + ev}
}

// bflyOptimumCheck is bfly/sec4/optimum-interior's check.
func bflyOptimumCheck(fault int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := simRuns(env.Budget)
		const p = 50
		ll := logLog(simN)
		var curve []string
		at := map[int]stats.Summary{}
		for _, r := range []int{0, ll, simN} {
			v, err := simCell("strict", simN, r, p, env.Seed, runs)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			at[r] = v.avg
			curve = append(curve, fmt.Sprintf("r=%d: %.1f", r, v.avg.Mean))
		}
		switch fault {
		case 1: // L(⌈log log N⌉) := 1.10·L(0), its own spread kept
			at[ll] = bflyShifted(at[ll], at[0].Mean*(1+bflyEffect))
			curve = append(curve, fmt.Sprintf("planted: L(%d) := %.1f", ll, at[ll].Mean))
		case 2: // L(n) := 0.90·L(⌈log log N⌉), its own spread kept
			at[simN] = bflyShifted(at[simN], at[ll].Mean*(1-bflyEffect))
			curve = append(curve, fmt.Sprintf("planted: L(%d) := %.1f", simN, at[simN].Mean))
		}
		tc := stats.T(props.Alpha/2, runs-1)
		zLL, zTop := stats.WelchZ(at[ll], at[0]), stats.WelchZ(at[simN], at[ll])
		ev := fmt.Sprintf("Welch z(L(%d) − L(0)) = %.1f, z(L(%d) − L(%d)) = %.1f, t critical %.1f (df %d); curve %s", ll, zLL, simN, ll, zTop, tc, runs-1, strings.Join(curve, ", "))
		switch {
		case zLL > tc || zTop < -tc:
			return props.Outcome{Verdict: props.Inconsistent, Evidence: ev, Counterexample: map[string]any{"log_n": simN, "p": p, "runs": runs, "seed": env.Seed}}
		case zLL < -tc && zTop > tc:
			return props.Outcome{Verdict: props.Consistent, Evidence: ev}
		}
		return props.Outcome{Verdict: props.Inconclusive, Evidence: "not significant at these runs: " + ev}
	}
}

// bflyShortCheck is bfly/sec4/short-no-benefit's check.
func bflyShortCheck(fault bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := simRuns(env.Budget)
		tc := stats.T(props.Alpha/simN, runs-1)
		var ev []string
		for _, p := range []int{1, 10} {
			rs := simGridR[1:]
			if p == 1 {
				rs = nil
				for r := 1; r <= simN; r++ {
					rs = append(rs, r)
				}
			}
			v0, err := simCell("strict", simN, 0, p, env.Seed, runs)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			minZ, at := math.Inf(1), 0
			for _, r := range rs {
				v, err := simCell("strict", simN, r, p, env.Seed, runs)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if fault && p == 1 && r == logLog(simN) { // L(⌈log log N⌉) := 0.90·L(0), its own spread kept
					v.avg = bflyShifted(v.avg, v0.avg.Mean*(1-bflyEffect))
				}
				if zz := stats.WelchZ(v.avg, v0.avg); zz < minZ {
					minZ, at = zz, r
				}
			}
			ev = append(ev, fmt.Sprintf("p=%d: most negative z(L(r) − L(0)) = %.1f at r = %d (L(0) = %.1f)", p, minZ, at, v0.avg.Mean))
			if p == 1 && minZ < -tc {
				return props.Outcome{Verdict: props.Inconsistent, Evidence: strings.Join(ev, "; "), Counterexample: map[string]any{"log_n": simN, "p": p, "r": at, "runs": runs, "seed": env.Seed}}
			}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: fmt.Sprintf("t critical %.2f (df %d); %s", -tc, runs-1, strings.Join(ev, "; "))}
	}
}

// bflyEffect is the effect size of the §4 comparison claims' planted
// faults, fixed before running: 10 % of the reference cell's mean.
const bflyEffect = 0.10

// bflyShifted is s with its mean replaced by mean (spread and runs kept):
// a cell of the alternative in which a §4 comparison is false by the
// effect size.
func bflyShifted(s stats.Summary, mean float64) stats.Summary {
	d := mean - s.Mean
	s.Mean, s.Max, s.Min = mean, s.Max+d, s.Min+d
	return s
}
