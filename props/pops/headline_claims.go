package pops

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	ap "routecheck/algos/pops"
	"routecheck/algos/popsds"
	"routecheck/internal/popsexp"
	"routecheck/internal/stats"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// The headline of the abstract, §I and §IV: the randomized router (A,
// measured) against the rival [8] (B, simulated: algos/popsds), per cell.

// headlineAlpha is the family false-alarm rate of each headline claim,
// split over its tests by Bonferroni.
const headlineAlpha = 1e-3

// headlineMaxN is the largest n of the cells a headline claim measures.
func headlineMaxN(b props.Budget) int { return b.Pick(1024, 4096, 16384) }

// headlineRuns is the number of runs of A at a cell: a work budget of 2^20
// (small) or 2^22 (default, large) packet-runs, between 100 and 4000. Tiny
// cells get many runs because there A and B are close (POPS(2,2): about 16
// against 17 slots).
func headlineRuns(b props.Budget, n int) int {
	work := b.Pick(1<<20, 1<<22, 1<<22)
	return min(4000, max(100, work/n))
}

type headKey struct {
	sh   mpops.Shape
	runs int
	seed uint64
}

type headEntry struct {
	once sync.Once
	xs   []float64
	sum  stats.Summary
	cens int
	err  error
}

var headCache sync.Map

// headlineA measures A (slots of the faithful randomized router, c+ε = 4,
// runs to completion) at sh: the runs' summary and the censored count.
func headlineA(env props.Env, sh mpops.Shape) (stats.Summary, int, error) {
	runs := headlineRuns(env.Budget, sh.N())
	v, _ := headCache.LoadOrStore(headKey{sh, runs, env.Seed}, &headEntry{})
	e := v.(*headEntry)
	e.once.Do(func() {
		s, err := popsexp.Run(context.Background(), popsexp.Spec{Shape: sh, Variant: ap.Faithful, Seed: env.Seed ^ 0x4ead, Runs: popsexp.Range(runs), Workers: 1})
		if err != nil {
			e.err = err
			return
		}
		xs := make([]float64, len(s))
		for i, x := range s {
			xs[i] = float64(x.Slots)
			if !x.Completed {
				e.cens++
			}
		}
		e.xs, e.sum = xs, stats.Summarize(xs)
	})
	return e.sum, e.cens, e.err
}

// headlineRunsA returns the runs' slot counts behind headlineA.
func headlineRunsA(env props.Env, sh mpops.Shape) ([]float64, error) {
	if _, _, err := headlineA(env, sh); err != nil {
		return nil, err
	}
	v, _ := headCache.Load(headKey{sh, headlineRuns(env.Budget, sh.N()), env.Seed})
	return v.(*headEntry).xs, nil
}

// checkBelowMedian is checkBelow's robust reading: at every cell a run of A
// is more likely than not to take fewer slots than B — an exact one-sided
// binomial (sign) test of P(A < B) > 1/2 per cell, α split over the cells
// → consistent; P(A < B) significantly below 1/2 at some cell →
// inconsistent; otherwise inconclusive.
func checkBelowMedian(ratios []int, b func(d, g int) float64, bname string) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		return headlineCellTests(env, ratios, "exact one-sided sign test per cell at α = %.1e/%d cells (family %.0e); ", func(sh mpops.Shape, a float64) (string, *HeadlineCell, bool, string) {
			xs, err := headlineRunsA(env, sh)
			if err != nil {
				return "", nil, false, err.Error()
			}
			bv := b(sh.D, sh.G)
			k := 0
			for _, x := range xs {
				if x < bv {
					k++
				}
			}
			n := len(xs)
			pAbove := stats.BinomAtLeast(k, n, 0.5)       // P(X ≥ k) under p = 1/2
			pBelow := 1 - stats.BinomAtLeast(k+1, n, 0.5) // P(X ≤ k)
			var against *HeadlineCell
			if pBelow < a {
				against = &HeadlineCell{D: sh.D, G: sh.G, Runs: n, B: bv, T: float64(k) / float64(n)}
			}
			return fmt.Sprintf("POPS(%d,%d): %d of %d runs below %s = %g (%.1f%%)", sh.D, sh.G, k, n, bname, bv, 100*float64(k)/float64(n)), against, pAbove >= a, ""
		}, func(c HeadlineCell, all string) string {
			return fmt.Sprintf("at POPS(%d,%d) fewer than half the runs of A beat %s, significantly. All cells: %s", c.D, c.G, bname, all)
		}, func(_ int, all string) string {
			return "more than half the runs of A beat " + bname + " at every cell: " + all
		})
	}
}

// headlineCellTests runs test at every cell of ratios (up to
// headlineMaxN), α = headlineAlpha split over the cells, and judges: the
// first cell significantly against the claim → inconsistent, with that cell
// as the counterexample and against(cell, every cell's line) as the
// evidence; else a cell undecided → inconclusive, naming them; else
// consistent, with consistent(number of cells, every cell's line). test
// returns the cell's evidence line, the cell when it is significantly
// against the claim (nil otherwise), whether it is undecided (asked when
// the cell is not the first against), or msg ≠ "" to stop inconclusive
// with msg. head is a format of the evidence's first words with the
// verbs α, cells, family α.
func headlineCellTests(env props.Env, ratios []int, head string, test func(sh mpops.Shape, a float64) (line string, against *HeadlineCell, undecided bool, msg string), against func(c HeadlineCell, all string) string, consistent func(cells int, all string) string) props.Outcome {
	cells := headlineCells(ratios, headlineMaxN(env.Budget))
	a := headlineAlpha / float64(len(cells))
	var ev, undecided []string
	var first *HeadlineCell
	for _, sh := range cells {
		line, bad, und, msg := test(sh, a)
		if msg != "" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: msg}
		}
		ev = append(ev, line)
		switch {
		case bad != nil && first == nil:
			first = bad
		case und:
			undecided = append(undecided, line)
		}
	}
	h := fmt.Sprintf(head, headlineAlpha, len(cells), headlineAlpha)
	switch {
	case first != nil:
		return props.Outcome{Verdict: props.Inconsistent, Counterexample: *first, Evidence: h + against(*first, strings.Join(ev, "; "))}
	case len(undecided) > 0:
		return props.Outcome{Verdict: props.Inconclusive, Evidence: h + "not significant at: " + strings.Join(undecided, "; ") + ". All cells: " + strings.Join(ev, "; ")}
	}
	return props.Outcome{Verdict: props.Consistent, Evidence: h + consistent(len(cells), strings.Join(ev, "; "))}
}

// simB is the simulated [8]'s slot count (the same for every permutation:
// pops/rival-8/no-conflict).
func simB(d, g int) float64 { return float64(popsds.Slots(mpops.Shape{D: d, G: g})) }

func headlineCells(ratios []int, maxN int) []mpops.Shape {
	var out []mpops.Shape
	for _, c := range popspaper.Cells() {
		g, ok := c.G()
		if !ok || g < 2 || c.N > maxN || !containsInt(ratios, c.Ratio) {
			continue
		}
		out = append(out, mpops.Shape{D: c.D(), G: g})
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// HeadlineCell is one cell's comparison, for counterexamples.
type HeadlineCell struct {
	D     int     `json:"d"`
	G     int     `json:"g"`
	Runs  int     `json:"runs"`
	MeanA float64 `json:"mean_a"`
	SDA   float64 `json:"sd_a"`
	B     float64 `json:"b"`
	T     float64 `json:"t"`
}

// checkBelow: at every cell, mean A is significantly below B (one-sided
// Student t, α split over the cells) → consistent; significantly above at
// some cell → inconsistent; otherwise inconclusive.
func checkBelow(ratios []int, b func(d, g int) float64, bname string) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		return headlineCellTests(env, ratios, "one-sided Student t per cell at α = %.1e/%d cells (family %.0e, Bonferroni); ", func(sh mpops.Shape, a float64) (string, *HeadlineCell, bool, string) {
			s, cens, err := headlineA(env, sh)
			if err != nil {
				return "", nil, false, err.Error()
			}
			if cens > 0 {
				return "", nil, false, fmt.Sprintf("POPS(%d,%d): %d runs censored at the step guard", sh.D, sh.G, cens)
			}
			bv := b(sh.D, sh.G)
			se := s.SD / math.Sqrt(float64(s.N))
			t := math.Inf(-1)
			if se > 0 {
				t = (s.Mean - bv) / se
			} else if s.Mean >= bv {
				t = math.Inf(1)
			}
			crit := stats.T(2*a, s.N-1)
			var above *HeadlineCell
			if t > crit {
				above = &HeadlineCell{D: sh.D, G: sh.G, Runs: s.N, MeanA: s.Mean, SDA: s.SD, B: bv, T: t}
			}
			return fmt.Sprintf("POPS(%d,%d): A = %.2f ± %.2f (%d runs) vs %s = %g, t = %.1f", sh.D, sh.G, s.Mean, se, s.N, bname, bv, t), above, t >= -crit, ""
		}, func(c HeadlineCell, all string) string {
			return fmt.Sprintf("A is significantly ABOVE %s at POPS(%d,%d). All cells: %s", bname, c.D, c.G, all)
		}, func(cells int, all string) string {
			return fmt.Sprintf("A significantly below %s at all %d cells: %s", bname, cells, all)
		})
	}
}

// gapSlopeMin is the trend below which the gap is judged not to grow as the
// claim says (fixed before the check was run): B/A growing slower than
// (log n)^{1/2}. Under the claim's reading — [8]'s Θ(log²g) against
// Theorem 3.7's O(log log g) at d = g — log(B/A) = 2 log log n − log log log n
// + O(1) has slope near 2 − 1/ln log₂ n > 1 against log log n.
const gapSlopeMin = 0.5

// checkRatioGrows judges the trend of B/A over the d = g cells by a test
// fixed in advance: weighted least squares of y = log(B/Ā) on
// x = ln log₂ n, with var y_i = (SD_i/(Ā_i√N_i))² (delta method; B is exact),
// the slope's standard error scaled up by √(χ²/(k − 2)) when the residuals
// exceed the measurement error (model misfit), and Student t with k − 2
// degrees of freedom, one-sided at α/2 = headlineAlpha/2 each way:
// lower bound > 0 → consistent (the gap grows); upper bound < gapSlopeMin →
// inconsistent (it does not grow as claimed); else inconclusive. The
// evidence also prints each cell's ratio with its interval.
func checkRatioGrows(b func(d, g int) float64, bname string) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		cells := headlineCells([]int{1}, headlineMaxN(env.Budget))
		k := len(cells)
		if k < 3 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%d cells: too few for a trend", k)}
		}
		var ev []string
		var xs, ys, ws []float64
		for _, sh := range cells {
			s, cens, err := headlineA(env, sh)
			if err != nil || cens > 0 {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("POPS(%d,%d): error %v, %d censored runs", sh.D, sh.G, err, cens)}
			}
			bv := b(sh.D, sh.G)
			se := s.SD / (s.Mean * math.Sqrt(float64(s.N)))
			if se <= 0 {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("POPS(%d,%d): A has no spread over %d runs", sh.D, sh.G, s.N)}
			}
			y := math.Log(bv / s.Mean)
			ev = append(ev, fmt.Sprintf("n = %d: %s/A = %.3f (log %.3f ± %.3f)", sh.N(), bname, bv/s.Mean, y, se))
			xs = append(xs, math.Log(math.Log2(float64(sh.N()))))
			ys = append(ys, y)
			ws = append(ws, 1/(se*se))
		}
		var sw, mx, my float64
		for i := range xs {
			sw += ws[i]
			mx += ws[i] * xs[i]
			my += ws[i] * ys[i]
		}
		mx /= sw
		my /= sw
		var sxx, sxy float64
		for i := range xs {
			sxx += ws[i] * (xs[i] - mx) * (xs[i] - mx)
			sxy += ws[i] * (xs[i] - mx) * (ys[i] - my)
		}
		slope := sxy / sxx
		var chi2 float64
		for i := range xs {
			r := ys[i] - my - slope*(xs[i]-mx)
			chi2 += ws[i] * r * r
		}
		scale := math.Max(1, math.Sqrt(chi2/float64(k-2)))
		se := scale / math.Sqrt(sxx)
		t := stats.T(headlineAlpha, k-2) // one-sided α/2 each way
		lo, hi := slope-t*se, slope+t*se
		head := fmt.Sprintf("weighted LS slope of log(%s/A) against ln log₂ n over %d d = g cells: %.3f ± %.3f (SE, misfit scale %.2f, χ² = %.1f on %d df), interval [%.3f, %.3f] at one-sided %.0e each way (t = %.2f); ", bname, k, slope, se, scale, chi2, k-2, lo, hi, headlineAlpha/2, t)
		switch {
		case lo > 0:
			return props.Outcome{Verdict: props.Consistent, Evidence: head + "the gap grows: " + strings.Join(ev, "; ")}
		case hi < gapSlopeMin:
			return props.Outcome{Verdict: props.Inconsistent, Counterexample: map[string]any{"slope": slope, "se": se, "upper": hi, "min": gapSlopeMin},
				Evidence: head + fmt.Sprintf("upper bound below %g: the gap does not grow as claimed: ", gapSlopeMin) + strings.Join(ev, "; ")}
		}
		return props.Outcome{Verdict: props.Inconclusive, Evidence: head + fmt.Sprintf("neither above 0 nor below %g: ", gapSlopeMin) + strings.Join(ev, "; ")}
	}
}

func halfB(d, g int) float64 { return simB(d, g) / 2 }

// directBatcher is the slot count of the direct deterministic sort router
// (algos/popsdet.SortRouter with Batcher's odd-even merge sort on all dg
// wires, Lemma 2.2 per stage): a closed form that
// internal/popsexp.TestDetDirectBatcherIsTheRouter checks against the
// router on the slot model.
func directBatcher(d, g int) float64 {
	return popsexp.DetColumns(mpops.Shape{D: d, G: g})[popsexp.ColDetDirectBatcher]
}

func doubleDirect(d, g int) float64 { return 2 * directBatcher(d, g) }

// firstB is the simulated B of POPS(2,2) at every cell: a rival that does
// not grow with n.
func firstB(int, int) float64 { return simB(2, 2) }

// twicePrintedA is twice the paper's printed A (Table I, d = g) at the
// cell: a rival that grows like A, so B/A is about flat.
func twicePrintedA(d, g int) float64 {
	c, ok := popspaper.Lookup(d*g, 1)
	if !ok || !c.HasPaper() || d != g {
		panic(fmt.Sprintf("pops: no printed A at POPS(%d,%d)", d, g))
	}
	return 2 * c.A
}

func init() {
	src := seed000 + " abstract, §I and §IV (Table I, Figures 4–6)"
	note := "A is measured here (slots of the faithful randomized router, c+ε = 4, runs to completion, 100–4000 runs a cell by a work budget, stream separate from the table claims'); B is the simulated [8] of pops/rival-8 (algos/popsds), whose slot count is the same for every permutation, so B is a constant per cell. The seed describes [8] only in outline; the part after its sorts is our completion (see pops/rival-8/sort-term), within §IV's formula except at d = 16g, g ≥ 16 (pops/rival-8/within-formula), so against the formula the comparison is easier for A at every cell with d ≤ 4g. Statistical design: one-sided Student t on A's mean per cell, family false-alarm rate 1e-3 split over the cells (Bonferroni); A's step count is heavy-tailed at g ≤ 4 with d > g (pops/cor-3.9/slots), where the t-test is approximate."
	props.Register(ledger.Text(props.Claim{ID: "pops/headline/outperforms-from-pops22", Source: src,
		Notes:  note,
		Check:  checkBelow([]int{1}, simB, "simulated B"),
		Faults: []props.Fault{{Name: "B halved", Check: checkBelow([]int{1}, halfB, "B/2")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/headline/dramatic-d-gt-g", Source: src,
		Notes: note + " 'Dramatically' is not given a number: the check asks only for A below B at every cell; the evidence prints each cell's margin. " +
			"[2026-11-24] Inconclusive at the small and default budgets (seed 20261122), for two reasons at g = 2: at POPS(8,2) (n = 16, d = 4g) A is 70.7 ± 0.4 slots against the simulated B's 72 — below, but not significantly at the Bonferroni level (t = −3.6; the formula's B, 118, is far above); at POPS(32,2) (n = 64, d = 16g) A's mean is 531 ± 102, carried by a few very long runs (the heavy tail of pops/cor-3.9/slots), above the simulated B = 288 and the formula's 442 (t = 2.4, not significant). Every cell with g ≥ 4 is decisively below. " +
			"[2026-11-24, review] What the g = 2 cells mean: (i) the paper's own printed A does not beat our simulated B decisively either — Table I prints A = 71.40 at n = 16 (d = 4g) against our B = 72, and A = 317.90 at n = 64 (d = 16g) against our B = 288, so at n = 64 the paper's A is above our B too; the paper's 'dramatic' is against [8]'s formula (118 and 442), not against this completion. (ii) At g = 2 our completion is cheap: per sub-network it costs 6 sort slots + 9 run-information + min(g, d/g) = 2 wave slots + 1 final slot = 18 slots (17 before the final round), where [8]'s formula costs (4d/g·1 + 2d/g·1 + 21d/g + 3 + 7)/(d/g) = 27 + 10/(d/g), i.e. 29.5 at d = 4g and 27.6 at d = 16g — so B here is a lower estimate of [8] at g = 2. (iii) A's tail at g = 2 comes from our reading of stage 2 (every pending packet takes part, p = 1: pops/cor-3.9/slots); under the other reading (KeepCoin: the stage-1 coin is kept) the tail is much lighter — measured on the same 4000 permutations (seed 20261122 ⊕ 0x4ead, faithful variant) at POPS(32,2): mean 531 (sd 6470, max 359,455, 99.9th percentile 93,555) under p = 1 against mean 307 (sd 346, max 13,955, 99.9th percentile 6,190) under KeepCoin, with the same median 285; at POPS(8,2) 70.7 (sd 22.9, max 450) against 69.5 (sd 16.7, max 280). Even under KeepCoin A's mean at POPS(32,2) (307) is above our B (288), close to the printed 317.90. pops/headline/dramatic-d-gt-g/median is a supplementary statistic (class beyond), not support for the paper's claim about means.",
		Check:  checkBelow([]int{4, 16}, simB, "simulated B"),
		Faults: []props.Fault{{Name: "B halved", Check: checkBelow([]int{4, 16}, halfB, "B/2")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/headline/dramatic-d-gt-g/median", Source: src,
		Notes: note + " Beyond: the paper compares means (Table I column A is a mean), and pops/headline/dramatic-d-gt-g, which checks that, is inconclusive at g = 2. This median comparison (an exact sign test) was added after that result, so it is a supplementary statistic about the typical run, not support for the paper's sentence. [2026-11-24, review] Class reading → beyond, Statement reworded; verdict unchanged. [2026-11-25, review] The shared note above describes the mean claims' one-sided Student t; this claim's test is the exact sign test its evidence names. A near-miss fault, B lowered by 1 % (a completion of [8] about 1 % cheaper), is planted and not caught (consistent: at POPS(32,2) the median of A, 285, is just below 0.99·B = 285.1): the only caught fault is B halved, so the margin is thin, as a fresh reviewer noted.",
		Check: checkBelowMedian([]int{4, 16}, simB, "simulated B"),
		Faults: []props.Fault{{Name: "B halved", Check: checkBelowMedian([]int{4, 16}, halfB, "B/2")},
			{Name: "B lowered by 1 % (a completion of [8] about 1 % cheaper; [2026-11-25, review])", Check: checkBelowMedian([]int{4, 16}, func(d, g int) float64 { return 0.99 * simB(d, g) }, "0.99·B")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/headline/vs-direct-batcher", Source: src,
		Check:  checkBelow([]int{1}, directBatcher, "direct Batcher sort"),
		Faults: []props.Fault{{Name: "the sort router's count doubled", Check: checkBelow([]int{1}, doubleDirect, "2 × direct Batcher sort")}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/headline/gap-grows", Source: src,
		RecordedAt: map[props.Budget]props.Verdict{props.Default: props.Consistent, props.Large: props.Consistent},
		Notes: note + " Reading: 'exponentially' is log log against log², which a finite table cannot test; what is tested is the trend, by a test fixed in advance: weighted least squares of log(B/Ā) on ln log₂ n (weights from A's standard errors, the slope's SE scaled up by the residuals' misfit), Student t on k − 2 df, one-sided 5e-4 each way: consistent when the slope's lower bound is above 0, inconsistent when its upper bound is below 0.5 (the gap growing slower than √(log n); the reading predicts a slope near 2 − 1/ln log₂ n). " +
			"[2026-11-24, review] Replaces the pairwise test (each consecutive ratio significantly larger) and the printed-only slope; the planted faults, fixed in advance: B = twice the paper's printed A (a rival growing like A, so the ratio is about flat — close to the claim's negation), and B fixed at its POPS(2,2) value (the former fault). Verdict change: was consistent at every budget; now inconclusive at small and consistent at default (seed 20261122). At small (5 cells, n ≤ 1024) the slope is 0.94 with SE 0.14 after a misfit scale of 35 (log(B/A) is curved against ln log₂ n while A's standard errors are tiny), and t = 12.9 on 3 df gives [−0.85, 2.72]: neither side. At default (6 cells, n ≤ 4096) 1.10 ± 0.12, t = 8.6 on 4 df, [0.07, 2.13]: consistent. Both faults are caught at both budgets (2A_paper: slope 0.015 ± 0.027 at small, upper bound 0.36 < 0.5; B₂₂: −0.45). The large budget is not run here; consistent is recorded there on the expectation of 7 cells (5 df) and should be confirmed by the next large run. The regressor ln log₂ n was fixed before the data were looked at and is kept, though log(B/A) is nearly linear in log n (steps of 0.26–0.33 per factor 4 of n), which would have given a tighter fit: changing it now would be a post-hoc choice.",
		Check: checkRatioGrows(simB, "B"),
		Faults: []props.Fault{
			{Name: "a rival growing like A: B = 2 × the paper's printed A", Check: checkRatioGrows(twicePrintedA, "2A_paper")},
			{Name: "a rival that does not grow: B fixed at its POPS(2,2) value", Check: checkRatioGrows(firstB, "B₂₂")},
		}}))
}
