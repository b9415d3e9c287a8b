package bfly

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	mb "routecheck/models/butterfly"
	"routecheck/props"
	"routecheck/props/internal/claimtab"

	"gonum.org/v1/gonum/stat"
)

// §1's background results of 001_afbf5d537b48cc65.txt, timed: with log N
// extra randomizing stages any permutation routes in O(log N) steps and t
// of them in O(t + log N) ([16]); with fewer than (log N)/2 a worst-case
// permutation needs Ω(√N) steps and t executions of it Ω(t√N) ([8]).

// partialTranspose is the adversary of a network with r < n extra stages:
// the last n − r address bits transposed (destination bits r+1…s take the
// source bits s+1…n and the other way round, s = (n + r)/2; bits 1…r
// kept). All 2^s sources with given bits s+1…n go to the 2^r·2^{n−s}
// outputs with given bits r+1…s, so |M(π, s, a)| = 2^{(n+r)/2}: t copies
// put t·2^{(n+r)/2} packets through the 2^r nodes of one set B(s, a), and
// one of them carries ≥ t·2^{(n−r)/2} whatever the random transitions (for
// r = 0 it is the transpose). n − r must be even.
func partialTranspose(n, r int) []int32 {
	h := (n - r) / 2
	out := make([]int32, 1<<n)
	for x := range out {
		top := x >> (n - r) << (n - r)
		mid := x >> h & (1<<h - 1) // bits r+1…s
		low := x & (1<<h - 1)      // bits s+1…n
		out[x] = int32(top | low<<h | mid)
	}
	return out
}

func init() {
	claimtab.Register(
		withFaults(ledger.Text(props.Claim{ID: "bfly/sec1/log-n-stages"}), logNStagesCheck, 0,
			plant("a router that does not randomize (X = 0 for every packet)", 1),
			plant("no extra stages (r = 0) for the same problems", 2)),

		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/sec1/few-stages/lower-bound"}), fewStagesLBCheck, 1, 2, "the bound doubled (fixed before running)"),

		ledger.Text(props.Claim{ID: "bfly/sec1/few-stages/sqrt-exponent",
			Check: sqrtExponentCheck,
		}),
	)
}

// logNStagesCheck is bfly/sec1/log-n-stages' check; mutant 1 draws X = 0,
// mutant 2 routes on the plain butterfly.
func logNStagesCheck(mutant int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := bflySizes(env.Budget, []bflySize{{4, 20}, {6, 8}, {8, 3}},
			[]bflySize{{4, 80}, {6, 30}, {8, 10}, {10, 2}},
			[]bflySize{{4, 500}, {6, 200}, {8, 80}, {10, 25}, {12, 8}})
		var cells []bflyExceed
		var e ab.Engine
		worst := map[int]float64{}
		for _, sz := range sizes {
			n := sz.n
			r := n
			if mutant == 2 {
				r = 0
			}
			for fi, f := range bflyFamilies {
				p := bflyFamily(f, n, env.Seed)
				for mi, m := range []int{0, 1, 4} {
					t := max(1, m*n)
					c := bflyExceed{label: fmt.Sprintf("N=2^%d %s t=%d", n, f, t), R: sz.runs, q: 1 / float64(int(1)<<n), pool: fmt.Sprintf("N=2^%d", n)}
					for run := range sz.runs {
						sd := seeds.Derive(env.Seed, 0x51, uint64(n), uint64(fi), uint64(mi), uint64(run))
						var mutate func([]mb.Packet, int, int)
						if mutant == 1 {
							mutate = func(ps []mb.Packet, _, _ int) {
								for k := range ps {
									ps[k].X = 0
								}
							}
						}
						steps, err := cappedCopies(&e, mb.Shape{LogN: n, R: r}, p, t, seeds.Rand(sd), mutate, 7*(t+n))
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						ratio := float64(steps) / float64(t+n)
						worst[m] = math.Max(worst[m], ratio)
						if ratio > 7 {
							c.hit(BflyRenamedRun{Family: f, LogN: n, R: r, T: t, CoinSeed: sd, Value: float64(steps), Bound: float64(7 * (t + n))})
						}
					}
					cells = append(cells, c)
				}
			}
		}
		o := judgeExceed(cells, fmt.Sprintf("Bound 7·(t + log N). Largest time/(t + log N): t = 1: %.2f; t = log N: %.2f; t = 4 log N: %.2f.", worst[0], worst[1], worst[4]))
		o.Slack = props.SlackOf(math.Max(worst[0], math.Max(worst[1], worst[4])), 7)
		return o
	}
}

// cappedCopies is routeCopiesWith stopped after limit steps: it returns
// the routing time, or limit + 1 when packets are still undelivered then
// (a run over the bound need not be finished to be counted).
func cappedCopies(e *ab.Engine, sh mb.Shape, p []int32, t int, rng *rand.Rand, mutate func([]mb.Packet, int, int), limit int) (int, error) {
	res, _, err := routeCopiesUpTo(e, sh, p, t, rng, mutate, limit)
	if err != nil {
		if strings.Contains(err.Error(), "undelivered after") {
			return limit + 1, nil
		}
		return 0, err
	}
	return res.Steps, nil
}

var fewMemo cache[[6]uint64, []int]

// fewStagesRuns routes t copies of the adversary at (n, r) with §3's
// router and returns the routing times of runs runs.
func fewStagesRuns(e *ab.Engine, env props.Env, n, r, t, runs int) ([]int, error) {
	key := [6]uint64{env.Seed, uint64(n), uint64(r), uint64(t), uint64(runs), 0}
	v, ok := fewMemo.get(key)
	if ok {
		return v, nil
	}
	p := partialTranspose(n, r)
	var out []int
	for run := range runs {
		res, _, err := routeCopies(e, mb.Shape{LogN: n, R: r}, p, t, seeds.Rand(env.Seed, 0x52, uint64(n), uint64(r), uint64(t), uint64(run)))
		if err != nil {
			return nil, err
		}
		out = append(out, res.Steps)
	}
	fewMemo.put(key, out)
	return out, nil
}

// fewStagesLBCheck checks time ≥ factor·t·2^{(n−r)/2}.
func fewStagesLBCheck(factor int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxN := env.Budget.Pick(11, 13, 16)
		var e ab.Engine
		var ev []string
		for r := range 3 {
			lo := math.Inf(1)
			for n := 6 + r%2; n <= maxN; n += 2 {
				for _, t := range []int{1, 8} {
					times, err := fewStagesRuns(&e, env, n, r, t, env.Budget.Pick(2, 3, 5))
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					b := factor * t << ((n - r) / 2)
					for _, x := range times {
						if x < b {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N = 2^%d, r = %d, t = %d: %d steps < %d", n, r, t, x, b),
								Counterexample: map[string]any{"log_n": n, "r": r, "t": t, "steps": x, "bound": b}}
						}
						lo = math.Min(lo, float64(x)/float64(b))
					}
				}
			}
			ev = append(ev, fmt.Sprintf("r = %d: smallest time/bound %.3f", r, lo))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "every run at or above t·2^{(n−r)/2}·" + fmt.Sprint(factor) + ": " + strings.Join(ev, "; ")}
	}
}

// sqrtExponentCheck fits the growth exponent β of the routing time two
// ways (log₂ time and log₂(time − path length), on log₂ N) per (r, t) and
// reports both with their one-sided upper limits; it draws no verdict
// (bfly/sec1/few-stages/sqrt-exponent is exploratory).
func sqrtExponentCheck(env props.Env) props.Outcome {
	maxN := env.Budget.Pick(11, 13, 16)
	runs := env.Budget.Pick(2, 3, 5)
	var e ab.Engine
	alpha := props.Alpha / 6
	var ev []string
	for r := range 3 {
		for _, t := range []int{1, 8} {
			var xs, raw, queue []float64
			for n := 6 + r%2; n <= maxN; n += 2 {
				times, err := fewStagesRuns(&e, env, n, r, t, runs)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				for _, x := range times {
					xs = append(xs, float64(n))
					raw = append(raw, math.Log2(float64(x)))
					queue = append(queue, math.Log2(float64(x-n-r)))
				}
			}
			df := len(xs) - 2
			// one-sided at alpha: T(2·alpha) is the two-sided value.
			tq := stats.T(2*alpha, df)
			b1, se1 := slopeSE(xs, raw)
			b2, se2 := slopeSE(xs, queue)
			ev = append(ev, fmt.Sprintf("r = %d, t = %d (%d points, T = %.3g): log₂ time β̂ = %.3f ± %.3f (upper %.3f); log₂(time − path) β̂ = %.3f ± %.3f (upper %.3f)",
				r, t, len(xs), tq, b1, se1, b1+tq*se1, b2, se2, b2+tq*se2))
		}
	}
	return props.Outcome{Verdict: props.Inconclusive, Evidence: "exploratory, no verdict drawn (see notes); " + strings.Join(ev, "; ")}
}

// slopeSE is the least-squares slope of ys on xs and its standard error.
func slopeSE(xs, ys []float64) (b, se float64) {
	a, b := stat.LinearRegression(xs, ys, nil, false)
	rss, sxx := 0.0, 0.0
	mx := stat.Mean(xs, nil)
	for i := range xs {
		d := ys[i] - a - b*xs[i]
		rss += d * d
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return b, math.Sqrt(rss / float64(len(xs)-2) / sxx)
}
