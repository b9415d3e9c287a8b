// Package stats holds the small, exact statistical tools the claims use:
// summaries, Wilson score intervals, and two-sided consistency tests whose
// false-alarm probability is an explicit argument. Every test here returns
// "consistent" unless the data make the hypothesis implausible at the given
// false-alarm rate alpha, so a check built with alpha = 1e-9 and fixed seeds
// cannot flake in CI.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary is mean, sample standard deviation (n−1) and maximum.
type Summary struct {
	N    int     `json:"runs"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	Max  float64 `json:"max"`
	Min  float64 `json:"min"`
}

// Summarize returns the summary of xs (SD is 0 for fewer than two values).
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	s.Mean = stat.Mean(xs, nil)
	if len(xs) > 1 {
		s.SD = stat.StdDev(xs, nil)
	}
	s.Max, s.Min = xs[0], xs[0]
	for _, x := range xs {
		s.Max = math.Max(s.Max, x)
		s.Min = math.Min(s.Min, x)
	}
	return s
}

// Z is the two-sided standard-normal critical value for false-alarm alpha:
// P(|N(0,1)| > Z(alpha)) = alpha. Z(1e-9) ≈ 6.109.
// It uses the lower tail, which keeps its precision for alpha far below
// 1e-16 (1 − alpha/2 would round to 1).
func Z(alpha float64) float64 { return -distuv.UnitNormal.Quantile(alpha / 2) }

// WelchZ is Welch's z statistic for mean(a) − mean(b) with the two
// samples' standard errors: (a.Mean − b.Mean)/√(a.SD²/a.N + b.SD²/b.N);
// ±Inf (the sign of the difference) when both spreads are 0. A caller
// that asks whether a's mean is significantly below b's compares it
// with −Z(alpha).
func WelchZ(a, b Summary) float64 {
	d := a.Mean - b.Mean
	s := math.Sqrt(a.SD*a.SD/float64(a.N) + b.SD*b.SD/float64(b.N))
	if s == 0 {
		return math.Copysign(math.Inf(1), d)
	}
	return d / s
}

// Wilson returns the Wilson score interval for k successes in n trials at
// two-sided false-alarm alpha. n = 0 gives [0, 1].
func Wilson(k, n int, alpha float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	z := Z(alpha)
	nf, p := float64(n), float64(k)/float64(n)
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, c-h), math.Min(1, c+h)
}

// MeanZ is the Welch statistic comparing our sample (mean m, sd s, n runs)
// with a published mean mp whose own standard error is sep (0 if exact):
// (m − mp) / sqrt(s²/n + sep²). It is 0 when both are exact and equal and
// ±Inf when they are exact and differ.
func MeanZ(m, s float64, n int, mp, sep float64) float64 {
	se := math.Sqrt(s*s/float64(n) + sep*sep)
	if se == 0 {
		switch {
		case m == mp:
			return 0
		case m > mp:
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return (m - mp) / se
}

// MeanConsistent tests whether our sample (summary s) and a published mean
// mp with standard error sep (0 if unknown or exact) can share a mean: the
// Welch statistic within ±Z(alpha). A sample without spread (all runs equal)
// says nothing about a standard error, so the Welch statistic would divide by
// the published error alone; instead a degenerate sample that differs from
// mp is judged by counting: the published runs (np) include at least one run
// off our constant value, and N identical runs of ours are implausible only
// if (1 − q)^N < alpha with q the Wilson lower bound of 1 in np. It returns
// the verdict and the statistic (z, or that probability).
func MeanConsistent(s Summary, mp, sep float64, np int, alpha float64) (ok bool, stat float64) {
	if s.SD == 0 && s.Mean != mp {
		qlo, _ := Wilson(1, np, alpha)
		p := math.Pow(1-qlo, float64(s.N))
		return p >= alpha, p
	}
	z := MeanZ(s.Mean, s.SD, s.N, mp, sep)
	return math.Abs(z) <= Z(alpha), z
}

// SDConsistent tests whether our sample sd s (n runs) and a published sd sp
// (np runs) can come from the same variance: a two-sided F test at alpha.
// The F test assumes normal samples and is not valid for heavy-tailed ones
// (see SpreadConsistent, which the table claims use); the ledger uses only
// its degenerate branches below, which are counting rules.
// The published value is rounded to ±round; the test uses the rounding
// interval's end that is most favourable to consistency. When the published
// sd is 0 (every published run equal), the test asks instead whether
// np runs could all have fallen on one value given our spread: with q the
// Wilson lower bound of the fraction of our runs off our mode, consistent
// iff (1−q)^np ≥ alpha; offMode is that count.
//
// A sample of ours without spread (s = 0) against a published sd > 0 is
// judged by the same counting rule as in MeanConsistent.
func SDConsistent(s float64, n int, sp float64, np int, round float64, offMode int, alpha float64) (ok bool, stat float64) {
	if s == 0 && sp > round/2 {
		qlo, _ := Wilson(1, np, alpha)
		p := math.Pow(1-qlo, float64(n))
		return p >= alpha, p
	}
	if sp <= round/2 {
		qlo, _ := Wilson(offMode, n, alpha)
		p := math.Pow(1-qlo, float64(np))
		return p >= alpha, p
	}
	if n < 2 {
		return true, math.NaN()
	}
	f := distuv.F{D1: float64(n - 1), D2: float64(np - 1)}
	lo, hi := f.Quantile(alpha/2), f.Quantile(1-alpha/2)
	spLo, spHi := math.Max(sp-round/2, 1e-300), sp+round/2
	r := s * s / (spHi * spHi) // smallest ratio
	R := s * s / (spLo * spLo) // largest ratio
	return R >= lo && r <= hi, s * s / (sp * sp)
}

// MaxConsistent tests whether a published maximum mp of np runs is plausible
// given our integer-valued sample xs: with the Wilson bounds of
// P(X ≥ mp) and P(X > mp) at alpha, it is inconsistent when even the most
// favourable bound makes P(max of np runs ≥ mp) or P(max ≤ mp) smaller than
// alpha. It returns those two probabilities (upper bounds).
//
// The test is distribution-free, so in practice only one direction can
// reject: a published maximum below values our runs often exceed. A
// published maximum above all of our runs is never implausible by rank alone
// (with as many runs as the paper, that happens with probability about 1/2),
// and no magnitude-based tail model is assumed here.
func MaxConsistent(xs []float64, mp float64, np int, alpha float64) (ok bool, pAtLeast, pAtMost float64) {
	ge, gt := 0, 0
	for _, x := range xs {
		if x >= mp {
			ge++
		}
		if x > mp {
			gt++
		}
	}
	_, qGE := Wilson(ge, len(xs), alpha) // upper bound of P(X ≥ mp)
	qGT, _ := Wilson(gt, len(xs), alpha) // lower bound of P(X > mp)
	pAtLeast = 1 - math.Pow(1-qGE, float64(np))
	pAtMost = math.Pow(1-qGT, float64(np))
	return pAtLeast >= alpha && pAtMost >= alpha, pAtLeast, pAtMost
}

// BinomAtLeast is the exact binomial upper tail P(Bin(n, q) ≥ e): 1 for
// e ≤ 0, 0 for e > n. It is computed as the regularized incomplete beta
// I_q(e, n−e+1), so tails far below 1e-16 keep their precision. A check
// that calls e exceedances of an event with probability ≤ q implausible
// when BinomAtLeast(e, n, q) ≤ alpha raises a false alarm with probability
// ≤ alpha whenever the event's true probability is ≤ q.
func BinomAtLeast(e, n int, q float64) float64 { return binomSurvival(float64(e), n, q) }

// T is the two-sided Student-t critical value with df degrees of freedom
// for false-alarm alpha: P(|t_df| > T(alpha, df)) = alpha. It panics for
// df < 1. T(0.05, 1) ≈ 12.71; T(1e-9, 29) ≈ 8.84; T → Z as df → ∞
// (gonum's quantile is accurate for the small df the claims use; it loses
// precision near df = 1e5).
func T(alpha float64, df int) float64 {
	if df < 1 {
		panic("stats: T needs df ≥ 1")
	}
	return -distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(alpha / 2)
}
