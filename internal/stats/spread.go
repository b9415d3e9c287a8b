package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// SpreadGrid bounds the integer thresholds SpreadConsistent may use: every
// threshold and interval end is an integer in [0, SpreadGrid]. The grid is
// fixed in advance so that the Bonferroni count below does not depend on the
// data.
const SpreadGrid = 4096

// spreadTests is the number of regions SpreadConsistent may examine: a
// region is {x ≤ lo} ∪ {x ≥ hi} with lo in {−1 (empty), 0 … SpreadGrid} and
// hi in {0 … SpreadGrid, SpreadGrid+1 (empty)}, used once for each of the
// two directions.
const spreadTests = 2 * (SpreadGrid + 2) * (SpreadGrid + 2)

// Published is a published summary of np runs: mean, standard deviation and
// maximum, each rounded to ±Round/2 (Round = 0.01 for two decimals), and
// the smallest value a run can take (Floor; 0 or 1 for step counts).
type Published struct {
	Mean, SD, Max float64
	Runs          int
	Round         float64
	Floor         float64
}

// SpreadResult is the outcome of SpreadConsistent: the verdict, the
// smallest Bonferroni-adjusted probability met, capped at 1 (≥ alpha when
// consistent; +Inf when no region was informative), and the region where it was met.
type SpreadResult struct {
	OK     bool
	P      float64
	Region string
}

// SpreadConsistent tests, without any assumption on the shape of the
// distribution, whether a published (mean, sd, max) of p.Runs runs can have
// come from the distribution our integer-valued sample xs was drawn from.
// It exists because the normal-theory F test is not valid for heavy-tailed
// step counts: a sample sd there is dominated by rare long runs, and a
// published sd that is much smaller than ours may simply come from runs that
// missed the tail.
//
// Two deterministic facts about the published runs are used (with the
// rounding interval's end most favourable to consistency):
//
//   - too little spread: for a threshold s above the mean, the number of
//     published runs ≥ s is at most n·σ²/(s − μ)² (their squared deviations
//     alone would exceed the sum otherwise); likewise below the mean;
//   - too much spread: with every run in [Floor, Max], runs inside an
//     interval [a, b] around the mean contribute at most w = max((μ−a)²,
//     (b−μ)²) each and the others at most D² = max((Max−μ)², (μ−Floor)²),
//     so at least ((n−1)σ² − n·w)/(D² − w) runs lie outside [a, b].
//
// For each region our sample gives a Wilson bound on its probability, and a
// binomial tail says how likely the published count would be. Both are taken
// at alpha/(2K) with K the number of regions the fixed grid allows, so the
// probability of a false "inconsistent" is at most alpha whatever the
// distribution (the thresholds that depend on the published numbers are all
// grid points, covered by the union bound).
func SpreadConsistent(xs []float64, p Published, alpha float64) SpreadResult {
	res := SpreadResult{OK: true, P: math.Inf(1)}
	n := len(xs)
	if n == 0 || p.Runs < 2 {
		return res
	}
	a := alpha / (2 * spreadTests)
	hist := make([]int, SpreadGrid+2) // hist[v] for v in grid; values above the grid counted in the last slot
	below := 0                        // values below 0 (none expected)
	for _, x := range xs {
		v := int(math.Round(x))
		switch {
		case v < 0:
			below++
		case v > SpreadGrid:
			hist[SpreadGrid+1]++
		default:
			hist[v]++
		}
	}
	// le[v] = #{x ≤ v} for v in [0, SpreadGrid].
	le := make([]int, SpreadGrid+1)
	run := below
	for v := 0; v <= SpreadGrid; v++ {
		run += hist[v]
		le[v] = run
	}
	np := float64(p.Runs)
	muLo, muHi := p.Mean-p.Round/2, p.Mean+p.Round/2
	sdLo, sdHi := math.Max(p.SD-p.Round/2, 0), p.SD+p.Round/2
	ssHi := np * sdHi * sdHi       // largest sum of squares (population or sample sd)
	ssLo := (np - 1) * sdLo * sdLo // smallest
	note := func(prob float64, region string) {
		adj := math.Min(prob*2*spreadTests, 1) // an adjusted probability is capped at 1
		if adj < res.P {
			res.P, res.Region = adj, region
		}
		if prob < a {
			res.OK = false
		}
	}
	// count returns #{x ≤ lo} + #{x ≥ hi}; lo = −1 or hi > SpreadGrid leave
	// that side empty.
	count := func(lo, hi int) int {
		k := 0
		if lo >= 0 {
			k += le[lo]
		}
		if hi <= SpreadGrid {
			k += n - le[hi-1]
		}
		return k
	}
	// Too little spread: runs at least e away from the mean on the side(s)
	// of the region number at most n·σ²/e².
	tooFew := func(lo, hi int) {
		e := math.Inf(1)
		if lo >= 0 {
			e = muLo - float64(lo)
		}
		if hi <= SpreadGrid {
			e = math.Min(e, float64(hi)-muHi)
		}
		k := count(lo, hi)
		if e <= 0 || k == 0 {
			return
		}
		c := math.Floor(ssHi / (e * e))
		if c >= np {
			return
		}
		qlo, _ := Wilson(k, n, a)
		note(binomCDF(c, p.Runs, qlo), fmt.Sprintf("%s: ours %d/%d, the published σ allows at most %.0f of %d", region(lo, hi), k, n, c, p.Runs))
	}
	lo0, hi0 := int(math.Ceil(muLo))-1, int(math.Floor(muHi))+1 // nearest grid points strictly beyond the mean
	for t := 0; lo0-t >= 0 || hi0+t <= SpreadGrid; t++ {
		lo, hi := lo0-t, hi0+t
		if lo < 0 {
			lo = -1
		}
		tooFew(lo, hi)
		if hi <= SpreadGrid {
			tooFew(-1, hi)
		}
		if lo >= 0 {
			tooFew(lo, SpreadGrid+1)
		}
	}
	// Too much spread: intervals around the mean (needs the published max).
	if p.Max < p.Mean {
		return res
	}
	d2 := math.Max((p.Max-muLo)*(p.Max-muLo), (muHi-p.Floor)*(muHi-p.Floor))
	for t := 0; lo0-t >= -1 && hi0+t <= SpreadGrid; t++ {
		// the published runs in [lo+1, hi−1] are within w of the mean
		lo, hi := lo0-t, hi0+t
		w := math.Max((muHi-float64(lo+1))*(muHi-float64(lo+1)), (float64(hi-1)-muLo)*(float64(hi-1)-muLo))
		if w >= d2 {
			break
		}
		m := math.Ceil((ssLo - np*w) / (d2 - w))
		if m <= 0 {
			break
		}
		k := count(lo, hi)
		_, phi := Wilson(k, n, a)
		note(binomSurvival(m, p.Runs, phi), fmt.Sprintf("%s: ours %d/%d, the published σ needs at least %.0f of %d", region(lo, hi), k, n, m, p.Runs))
	}
	return res
}

// region names {x ≤ lo} ∪ {x ≥ hi} (lo = −1 or hi > SpreadGrid: that side
// empty).
func region(lo, hi int) string {
	switch {
	case lo < 0:
		return fmt.Sprintf("runs ≥ %d", hi)
	case hi > SpreadGrid:
		return fmt.Sprintf("runs ≤ %d", lo)
	}
	return fmt.Sprintf("runs ≤ %d or ≥ %d", lo, hi)
}

// binomCDF is P(Bin(n, q) ≤ c).
func binomCDF(c float64, n int, q float64) float64 {
	switch {
	case c < 0:
		return 0
	case c >= float64(n) || q <= 0:
		return 1
	case q >= 1:
		return 0
	}
	return distuv.Binomial{N: float64(n), P: q}.CDF(c)
}

// binomSurvival is P(Bin(n, q) ≥ m), computed as the regularized incomplete
// beta I_q(m, n−m+1) so that tiny tails keep their precision (1 − CDF
// would stop at about 1e-16).
func binomSurvival(m float64, n int, q float64) float64 {
	m = math.Ceil(m)
	switch {
	case m <= 0 || q >= 1:
		return 1
	case m > float64(n) || q <= 0:
		return 0
	}
	return mathext.RegIncBeta(m, float64(n)-m+1, q)
}
