package bfly

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// The probabilistic statements of 001_afbf5d537b48cc65.txt §2–3.
//
// Reading. "With probability ≥ 1 − q" is checked as P(event) ≤ q: a size
// with e exceedances in R runs is inconsistent when the exact binomial tail
// P(Bin(R, q) ≥ e) is ≤ Alpha/k (k = the number of sizes × families the
// claim tests, Bonferroni). If the event's true probability is ≤ q at every
// size, that tail is a valid p-value, so a true claim is reported
// inconsistent with probability ≤ Alpha = 1e-9; with fixed seeds the
// verdict is deterministic. (An earlier version compared the Wilson lower
// bound of e/R with q, which is not a test of P ≤ q: one exceedance in 60
// runs gave Wilson 3.7e-4 > q = 1.8e-4 while P(Bin(60, q) ≥ 1) ≈ 1.1 %.)
// A size can fail only if P(Bin(R, q) ≥ R) = q^R ≤ Alpha/k; cells where
// the event itself is impossible (e.g. a congestion threshold above the
// largest congestion the network allows) cannot fail and are labelled
// unreachable; a claim whose every cell is unreachable is Inconclusive.
// Where the paper hides a constant, the constant is fixed below (chosen
// before any simulation was run) and the evidence reports the smallest
// constant every run would have met.

// bflyExceed is one size of a statistical claim: e of R runs hit the event
// whose probability the paper bounds by q.
type bflyExceed struct {
	label string
	e, R  int
	q     float64
	// unreachable: the event cannot happen at this size (why, for the
	// evidence); such a cell cannot fail.
	unreachable string
	// counterexample: the first run that hit the event
	first any
	// pool: cells with the same non-empty pool (and the same q) are also
	// judged together, their runs summed: under the paper's bound the
	// pooled count is at most Bin(ΣR, q) in distribution (the runs are
	// independent), and a pool can flag a bound that every one of its
	// cells misses by a little.
	pool string
}

// hit counts a run in which the event happened and keeps the first such
// run as the cell's counterexample.
func (c *bflyExceed) hit(run any) {
	c.e++
	if c.first == nil {
		c.first = run
	}
}

// judgeExceed returns the verdict over sizes at overall false-alarm Alpha:
// inconsistent iff some cell has P(Bin(R, q) ≥ e) ≤ Alpha/k; inconclusive
// when every cell is unreachable or no cell could fail even with e = R;
// consistent otherwise.
func judgeExceed(cells []bflyExceed, extra string) props.Outcome {
	pools := poolExceed(cells)
	alpha := props.Alpha / float64(len(cells)+len(pools))
	var ev, unreach []string
	canFail := 0
	for _, c := range slices.Concat(cells, pools) {
		if c.unreachable != "" {
			unreach = append(unreach, fmt.Sprintf("%s (%s)", c.label, c.unreachable))
			continue
		}
		if stats.BinomAtLeast(c.R, c.R, c.q) <= alpha {
			canFail++
		}
		p := stats.BinomAtLeast(c.e, c.R, c.q)
		ev = append(ev, fmt.Sprintf("%s: %d/%d (bound %.3g, P(≥%d) = %.2g)", c.label, c.e, c.R, c.q, c.e, p))
		if p <= alpha {
			return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("%s: %d of %d runs hit the event; P(Bin(%d, %.3g) ≥ %d) = %.3g ≤ α = %.2g per size. %s", c.label, c.e, c.R, c.R, c.q, c.e, p, alpha, extra), Counterexample: c.first}

		}
	}
	un := ""
	if len(unreach) > 0 {
		un = fmt.Sprintf(" Unreachable (cannot fail, not evidence): %s.", strings.Join(unreach, "; "))
	}
	if canFail == 0 {
		judged := ""
		if len(ev) > 0 {
			judged = " Reachable cells: " + strings.Join(ev, "; ") + "."
		}
		return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("no cell could fail at these sizes (the event is impossible, or even R of R exceedances would have tail > α = %.2g).%s%s %s", alpha, judged, un, extra)}
	}
	cellsOf := fmt.Sprintf("%d cells", len(cells))
	if len(pools) > 0 {
		cellsOf = fmt.Sprintf("%d cells and %d pools", len(cells), len(pools))
	}
	return props.Outcome{Verdict: props.Consistent, Evidence: fmt.Sprintf("no size's exceedance count is implausible at α = %.2g each (Alpha = %g over %s, exact binomial tail); %d of %d reachable cells could fail: %s.%s %s", alpha, props.Alpha, cellsOf, canFail, len(ev), strings.Join(ev, "; "), un, extra)}
}

// poolExceed returns one cell per pool of two or more reachable cells
// (bflyExceed.pool), in the order the pools first appear: its runs and
// hits are the sums of its cells', its counterexample the first cell's
// that has one. Cells of one pool must share q (a pool of different
// bounds has no binomial null); a pool that does not is returned
// unreachable, with the reason, so it is reported and never judged.
func poolExceed(cells []bflyExceed) []bflyExceed {
	var order []string
	byPool := map[string]*bflyExceed{}
	count := map[string]int{}
	for _, c := range cells {
		if c.pool == "" || c.unreachable != "" {
			continue
		}
		p, ok := byPool[c.pool]
		if !ok {
			p = &bflyExceed{label: c.pool + " pooled", q: c.q}
			byPool[c.pool] = p
			order = append(order, c.pool)
		}
		count[c.pool]++
		if c.q != p.q {
			p.unreachable = fmt.Sprintf("its cells' bounds differ (%.3g, %.3g)", p.q, c.q)
		}
		p.e += c.e
		p.R += c.R
		if p.first == nil {
			p.first = c.first
		}
	}
	var out []bflyExceed
	for _, k := range order {
		if count[k] >= 2 {
			out = append(out, *byPool[k])
		}
	}
	return out
}

// BflyRenamedRun is one run of a renaming claim: the fixed permutation
// (family at n), σ from seeds.Rand(SigmaSeed), the packets' coins from
// seeds.Rand(CoinSeed).
type BflyRenamedRun struct {
	Family    string  `json:"family"`
	LogN      int     `json:"log_n"`
	R         int     `json:"r"`
	T         int     `json:"copies"`
	SigmaSeed uint64  `json:"sigma_seed"`
	CoinSeed  uint64  `json:"coin_seed"`
	Value     float64 `json:"value"`
	Bound     float64 `json:"bound"`
}

// bflyFamily returns a fixed permutation of 2^n: transpose, bit reversal,
// or one random permutation drawn from the claim's seed ("fixed-random").
func bflyFamily(name string, n int, seed uint64) []int32 {
	switch name {
	case "transpose":
		return bflyforms.Transpose(n)
	case "bit-reversal":
		return bflyforms.BitReversal(n)
	}
	return perm.Random(1<<n, seeds.Rand(seed, 0xf1, uint64(n)))
}

var bflyFamilies = []string{"transpose", "bit-reversal", "fixed-random"}

// renamed returns σ^{-1}πσ for the run.
func (b BflyRenamedRun) renamed(seed uint64) []int32 {
	pi := bflyFamily(b.Family, b.LogN, seed)
	return ab.Rename(pi, perm.Random(1<<b.LogN, seeds.Rand(b.SigmaSeed)))
}

// plainCongestion is C(π) on the plain butterfly (r = 0).
func plainCongestion(n int, p []int32) int {
	ps := make([]mb.Packet, len(p))
	for i, d := range p {
		ps[i] = mb.Packet{ID: int32(i), Src: int32(i), Dst: d}
	}
	return ab.MaxCongestion(mb.Shape{LogN: n}, ps)
}

// routeCopies routes t copies of p on the network (node model mode, §3's
// priorities) with coins from rng and returns the result and the packets.
func routeCopies(e *ab.Engine, sh mb.Shape, p []int32, t int, rng *rand.Rand) (ab.Result, []mb.Packet, error) {
	return routeCopiesWith(e, sh, p, t, rng, nil)
}

// routeCopiesWith is routeCopies with the packets passed through mutate
// (nil: unchanged; a planted fault otherwise) before routing; mutate gets
// the packets, log N and t.
func routeCopiesWith(e *ab.Engine, sh mb.Shape, p []int32, t int, rng *rand.Rand, mutate func([]mb.Packet, int, int)) (ab.Result, []mb.Packet, error) {
	return routeCopiesUpTo(e, sh, p, t, rng, mutate, 1<<24)
}

// routeCopiesUpTo is routeCopiesWith with the engine's step limit given
// (the run fails if packets are undelivered after limit steps).
func routeCopiesUpTo(e *ab.Engine, sh mb.Shape, p []int32, t int, rng *rand.Rand, mutate func([]mb.Packet, int, int), limit int) (ab.Result, []mb.Packet, error) {
	perms := make([][]int32, t)
	for i := range perms {
		perms[i] = p
	}
	o := ab.Options{Shape: sh}
	ps, err := ab.Packets(o, perms, rng)
	if err != nil {
		return ab.Result{}, nil, err
	}
	if mutate != nil {
		mutate(ps, sh.LogN, t)
	}
	res, err := e.Run(o, ps, limit)
	return res, ps, err
}

// bflyMaxNodeLoad is an upper bound on C for t copies of a permutation on
// the butterfly with r extra stages: a node at stage s (0 ≤ s ≤ n + r) is
// reached from ≤ 2^s inputs and reaches ≤ 2^{n+r−s} outputs, so it carries
// ≤ t·min(2^s, 2^{n+r−s}) packets; the maximum over s is t·2^⌊(n+r)/2⌋.
func bflyMaxNodeLoad(n, r, t int) int { return t << ((n + r) / 2) }

// bflyMaxM is max over s of bflyforms.MBound(n, r, s), the largest
// |M(π, s, a)| any permutation can have.
func bflyMaxM(n, r int) int {
	m := 0
	for s := 0; s <= n; s++ {
		m = max(m, bflyforms.MBound(n, r, s))
	}
	return m
}

type bflySize struct{ n, runs int }

func bflySizes(b props.Budget, small, def, large []bflySize) []bflySize {
	switch b {
	case props.Small:
		return small
	case props.Large:
		return large
	}
	return def
}

func init() {
	claimtab.Register(
		withFaults(ledger.Text(props.Claim{ID: "bfly/thm-2/congestion-renamed"}), bflyThm2CongCheck, renameFull, renameFaults...),

		thm1HalfBound(ledger.Text(props.Claim{ID: "bfly/thm-1/time-O-congestion"}), bflyThm1Check),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/thm-2/time-renamed"}), bflyThm2TimeCheck, 1, 0.5, "the bound 3·log N scaled by 0.5 (1.5·log N; factor fixed before running)"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/sec1/transpose-sqrt-n"}), bflyTransposeCheck, 1, 2, "the lower bound √N scaled by 2 (fixed before running)"),

		ledger.Text(props.Claim{ID: "bfly/thm-3/random-congestion",
			Check: thm3CongestionCheck,
		}),

		ledger.Text(props.Claim{ID: "bfly/thm-6/good-fraction", Check: props.NotJudged("sampled draws cannot test a bound of e^{−c·2^r}; bfly/thm-6/exact-tail checks the theorem exactly (see notes)", bflyThm6Check())}),

		ledger.Text(props.Claim{ID: "bfly/lemma-7/renamed-good-fraction",
			Check: bflyLemma7Check,
		}),

		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/thm-8/time-and-congestion"}), bflyThm8Check, 1, 0.5, "both bounds scaled by 0.5 (3.5·log N steps, 21·log N congestion; factor fixed before running)"),

		ledger.Text(props.Claim{ID: "bfly/thm-11/pipelined",
			Check: bflyThm11Check(1, nil),
			Faults: []props.Fault{
				{Name: "§3's priorities with the block ⌈ℓ/log N⌉ reversed (later permutations first; bflyReverseBlocks)", Check: bflyThm11Check(1, bflyReverseBlocks)},
				{Name: "the bound 7·(f + log N) scaled by 0.5 (3.5·(f + log N); factor fixed before running)", Check: bflyThm11Check(0.5, nil)},
			},
		}),
	)
}

// renameMode is how a renaming claim draws σ: fully at random (the claim),
// or one of two planted faults.
type renameMode int

const (
	renameFull    renameMode = iota // σ uniform
	renameNone                      // σ = identity
	renameLowHalf                   // σ permutes only the low ⌊n/2⌋ bits
)

// renamedBy is run b's renamed permutation under mode.
func (b BflyRenamedRun) renamedBy(seed uint64, mode renameMode) []int32 {
	switch mode {
	case renameNone:
		return bflyFamily(b.Family, b.LogN, seed)
	case renameLowHalf:
		return ab.Rename(bflyFamily(b.Family, b.LogN, seed), lowBitsSigma(b.LogN, seeds.Rand(b.SigmaSeed)))
	}
	return b.renamed(seed)
}

// lowBitsSigma is a renaming that permutes only the low ⌊n/2⌋ address
// bits: σ(x) = (high bits of x) | τ(low bits of x), τ a uniform
// permutation of [2^⌊n/2⌋] (a planted fault: a renaming that leaves the
// high half alone).
func lowBitsSigma(n int, rng *rand.Rand) []int32 {
	h := n / 2
	mask := int32(1)<<h - 1
	tau := perm.Random(1<<h, rng)
	out := make([]int32, 1<<n)
	for x := range out {
		out[x] = int32(x)&^mask | tau[int32(x)&mask]
	}
	return out
}

// bflyThm2CongCheck is bfly/thm-2/congestion-renamed's check; mode plants
// the faults (σ = identity, σ on the low half of the bits only).
func bflyThm2CongCheck(mode renameMode) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := bflySizes(env.Budget, []bflySize{{4, 300}, {6, 200}, {8, 100}, {10, 40}},
			[]bflySize{{4, 2000}, {6, 1000}, {8, 500}, {10, 200}, {12, 60}},
			[]bflySize{{4, 10000}, {6, 5000}, {8, 2000}, {10, 1000}, {12, 300}, {14, 60}})
		var cells []bflyExceed
		worst := 0.0
		for _, sz := range sizes {
			for fi, f := range bflyFamilies {
				c := bflyExceed{label: fmt.Sprintf("N=2^%d %s", sz.n, f), R: sz.runs, q: 3 / (4 * float64(int(1)<<sz.n)), pool: fmt.Sprintf("N=2^%d", sz.n)}
				if cmax := bflyMaxNodeLoad(sz.n, 0, 1); cmax < 1+3*sz.n {
					c.unreachable = fmt.Sprintf("C ≤ 2^⌊n/2⌋ = %d < 1 + 3 log N = %d", cmax, 1+3*sz.n)
				}
				for run := range sz.runs {
					b := BflyRenamedRun{Family: f, LogN: sz.n, SigmaSeed: seeds.Derive(env.Seed, 0xb2, uint64(sz.n), uint64(fi), uint64(run)), Bound: float64(1 + 3*sz.n)}
					b.Value = float64(plainCongestion(sz.n, b.renamedBy(env.Seed, mode)))
					worst = math.Max(worst, b.Value/float64(sz.n))
					if b.Value >= b.Bound {
						c.hit(b)
					}
				}
				cells = append(cells, c)
			}
		}
		return judgeExceed(cells, fmt.Sprintf("Largest C/log N seen: %.2f (the proof's threshold is 3 + 1/log N).", worst))
	}
}

// thm3CongestionCheck is bfly/thm-3/random-congestion's check.
func thm3CongestionCheck(env props.Env) props.Outcome {
	sizes := bflySizes(env.Budget, []bflySize{{4, 300}, {6, 200}, {8, 100}, {10, 40}},
		[]bflySize{{4, 2000}, {6, 1000}, {8, 500}, {10, 200}, {12, 60}},
		[]bflySize{{4, 10000}, {6, 5000}, {8, 2000}, {10, 1000}, {12, 300}, {14, 60}})
	var cells []bflyExceed
	var ev []string
	for _, sz := range sizes {
		thr := 0.49 * float64(sz.n) / math.Log2(float64(sz.n))
		c := bflyExceed{label: fmt.Sprintf("N=2^%d", sz.n), R: sz.runs, q: 1 / float64(int(1)<<sz.n)}
		if thr < 1 {
			c.unreachable = fmt.Sprintf("threshold %.2f < 1 ≤ C", thr)
		} else if thr < 2 {
			c.unreachable = fmt.Sprintf("threshold %.2f < 2: needs C = 1 (node-disjoint paths), probability ≪ 1/N", thr)
		}
		sum := 0.0
		for run := range sz.runs {
			sd := seeds.Derive(env.Seed, 0xb6, uint64(sz.n), uint64(run))
			v := plainCongestion(sz.n, perm.Random(1<<sz.n, seeds.Rand(sd)))
			sum += float64(v)
			if float64(v) <= thr {
				c.hit(map[string]any{"log_n": sz.n, "perm_seed": sd, "congestion": v, "threshold": thr})
			}
		}
		cells = append(cells, c)
		ev = append(ev, fmt.Sprintf("N=2^%d: mean C %.2f, log N/log log N = %.2f", sz.n, sum/float64(sz.runs), float64(sz.n)/math.Log2(float64(sz.n))))
	}
	return judgeExceed(cells, strings.Join(ev, "; "))
}

// bflyThm6Sizes are the sizes of the Theorem 6 and Lemma 7 claims.
func bflyThm6Sizes(b props.Budget) []bflySize {
	return bflySizes(b, []bflySize{{8, 40}, {10, 10}},
		[]bflySize{{8, 300}, {10, 80}, {12, 20}},
		[]bflySize{{8, 2000}, {10, 500}, {12, 100}})
}

// maxMCell is a cell of the event |M| ≥ c·2^r at (n, r) (Theorem 6, Lemma
// 7) over runs runs, with probability bound q: run(k) gives run k's
// permutation and the record to keep, given its |M|, if it is the cell's
// first hit. The cell is unreachable where no permutation has |M| that
// large (bflyMaxM). Also returned: the largest |M| of the runs.
func maxMCell(label string, n, r, c, runs int, q float64, run func(k int) (p []int32, record func(m int) any)) (bflyExceed, int) {
	cell := bflyExceed{label: label, R: runs, q: q}
	if mmax := bflyMaxM(n, r); mmax < c<<r {
		cell.unreachable = fmt.Sprintf("|M| ≤ %d < %d·2^r = %d", mmax, c, c<<r)
	}
	worst := 0
	for k := range runs {
		p, record := run(k)
		m := bflyforms.MaxM(p, n, r)
		worst = max(worst, m)
		if m >= c<<r {
			cell.hit(record(m))
		}
	}
	return cell, worst
}

// bflyThm6Check is the sampled test bfly/thm-6/good-fraction reports
// without a verdict (props.NotJudged; its planted fault, a sampler
// returning the address rotation, was dropped on 2026-11-25).
func bflyThm6Check() func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var cells []bflyExceed
		var ev []string
		for _, sz := range bflyThm6Sizes(env.Budget) {
			n := sz.n
			r := logLog(n)
			rnd, worst := maxMCell(fmt.Sprintf("Thm 6, N=2^%d, r=%d", n, r), n, r, 7, sz.runs, math.Exp(-7*float64(int(1)<<r)), func(run int) ([]int32, func(m int) any) {
				sd := seeds.Derive(env.Seed, 0xb7, uint64(n), uint64(run))
				p := perm.Random(1<<n, seeds.Rand(sd))
				return p, func(m int) any { return map[string]any{"log_n": n, "r": r, "perm_seed": sd, "max_m": m} }
			})
			cells = append(cells, rnd)
			ev = append(ev, fmt.Sprintf("N=2^%d random: max |M|/2^r = %.2f", n, float64(worst)/float64(int(1)<<r)))
		}
		return judgeExceed(cells, strings.Join(ev, "; "))
	}
}

// bflyLemma7Check is bfly/lemma-7/renamed-good-fraction's check.
func bflyLemma7Check(env props.Env) props.Outcome {
	var cells []bflyExceed
	var ev []string
	for _, sz := range bflyThm6Sizes(env.Budget) {
		n := sz.n
		r := logLog(n)
		N := float64(int(1) << n)
		for fi, f := range bflyFamilies[:2] {
			c, worst := maxMCell(fmt.Sprintf("Lemma 7, N=2^%d, %s", n, f), n, r, 24, sz.runs, 3/math.Pow(N, 24.0/3-1), func(run int) ([]int32, func(m int) any) {
				b := BflyRenamedRun{Family: f, LogN: n, R: r, SigmaSeed: seeds.Derive(env.Seed, 0xb8, uint64(n), uint64(fi), uint64(run)), Bound: float64(int(24) << r)}
				return b.renamed(env.Seed), func(m int) any {
					b.Value = float64(m)
					return b
				}
			})
			cells = append(cells, c)
			ev = append(ev, fmt.Sprintf("N=2^%d %s: max |M|/2^r = %.2f", n, f, float64(worst)/float64(int(1)<<r)))
		}
	}
	return judgeExceed(cells, strings.Join(ev, "; "))
}

// bflyTransposeCheck is bfly/sec1/transpose-sqrt-n's check against the
// lower bound factor·√N (1: the paper's).
func bflyTransposeCheck(factor float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var e ab.Engine
		maxN := env.Budget.Pick(10, 12, 14)
		var ev []string
		for n := 2; n <= maxN; n += 2 {
			tr := bflyforms.Transpose(n)
			res, _, err := routeCopies(&e, mb.Shape{LogN: n}, tr, 1, seeds.Rand(env.Seed, 0xb4, uint64(n)))
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if float64(res.Steps) < factor*float64(int(1)<<(n/2)) {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=2^%d: transpose routed in %d < %g·√N = %g steps", n, res.Steps, factor, factor*float64(int(1)<<(n/2))), Counterexample: map[string]int{"log_n": n, "steps": res.Steps}}
			}
			worst := 0
			for run := range 10 {
				b := BflyRenamedRun{Family: "transpose", LogN: n, SigmaSeed: seeds.Derive(env.Seed, 0xb5, uint64(n), uint64(run))}
				r2, _, err := routeCopies(&e, mb.Shape{LogN: n}, b.renamed(env.Seed), 1, seeds.Rand(b.SigmaSeed, 1))
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				worst = max(worst, r2.Steps)
			}
			ev = append(ev, fmt.Sprintf("N=2^%d: %d steps (√N = %d), renamed ≤ %d", n, res.Steps, 1<<(n/2), worst))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "attained: " + strings.Join(ev, "; ")}
	}
}

// exceedJudged is what judging a claim's runs gives: the cells for
// judgeExceed with the evidence's closing sentence, and the largest ratio
// a run reached (worst) with the bound's ratio, whose slack the outcome
// reports.
type exceedJudged struct {
	cells        []bflyExceed
	extra        string
	worst, bound float64
}

// simExceedCheck is the check of a claim whose runs are kept (the Theorem
// 1, 2, 8 and 11 claims, stat_runs.go): an error in the runs makes it
// inconclusive, with the error as evidence; otherwise its outcome is
// judgeExceed's over what judge makes of the cells, with slack worst
// against bound.
func simExceedCheck[C any](sim func(props.Env) keptRuns[C], judge func(env props.Env, cells []C) exceedJudged) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		v := sim(env)
		if v.err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: v.err.Error()}
		}
		j := judge(env, v.cells)
		o := judgeExceed(j.cells, j.extra)
		o.Slack = props.SlackOf(j.worst, j.bound)
		return o
	}
}

// bflyThm1Check is bfly/thm-1/time-O-congestion's check; its runs are
// shared with its planted fault (thm1Sim).
func bflyThm1Check(factor float64) func(props.Env) props.Outcome {
	return simExceedCheck(thm1Sim, func(_ props.Env, sim []thm1Cell) exceedJudged {
		var cells []bflyExceed
		worst := 0.0
		for _, sc := range sim {
			n := sc.n
			c := bflyExceed{label: fmt.Sprintf("N=2^%d %s", n, sc.name), q: math.Pow(2, -7*float64(n))}
			for _, run := range sc.runs {
				if !thm1Attainable(factor, run.c, n) {
					continue
				}
				c.R++
				worst = math.Max(worst, float64(run.steps)/float64(run.c))
				if float64(run.steps) > factor*3*float64(run.c) {
					c.hit(map[string]any{"log_n": n, "problem": sc.name, "seed": run.sd, "steps": run.steps, "congestion": run.c, "bound": factor * 3 * float64(run.c)})
				}
			}
			if c.R > 0 {
				cells = append(cells, c)
			}
		}
		return exceedJudged{cells, fmt.Sprintf("Bound %g·C. Smallest constant every run met (time/C): %.3f.", factor*3, worst), worst, factor * 3}
	})
}

// bflyThm2TimeCheck is bfly/thm-2/time-renamed's check; its runs are
// shared with its planted fault (thm2TimeSim).
func bflyThm2TimeCheck(factor float64) func(props.Env) props.Outcome {
	return simExceedCheck(thm2TimeSim, func(env props.Env, sim [][]int) exceedJudged {
		var cells []bflyExceed
		worst := 0.0
		ci := 0
		for _, sz := range thm2TimeSizes(env.Budget) {
			for fi, f := range bflyFamilies {
				c := bflyExceed{label: fmt.Sprintf("N=2^%d %s", sz.n, f), R: sz.runs, q: 1 / float64(int(1)<<sz.n), pool: fmt.Sprintf("N=2^%d", sz.n)}
				for run, steps := range sim[ci] {
					b := thm2TimeRun(env.Seed, sz.n, fi, run)
					b.Bound = factor * float64(3*sz.n)
					b.Value = float64(steps)
					worst = math.Max(worst, b.Value/float64(sz.n))
					if b.Value >= b.Bound {
						c.hit(b)
					}
				}
				ci++
				cells = append(cells, c)
			}
		}
		return exceedJudged{cells, fmt.Sprintf("Bound %g·log N. Smallest a every run met: %.3f.", factor*3, worst), worst, factor * 3}
	})
}

// bflyThm8Check is bfly/thm-8/time-and-congestion's check; its runs are
// shared with its planted fault (thm8Sim).
func bflyThm8Check(factor float64) func(props.Env) props.Outcome {
	return simExceedCheck(thm8Sim, func(env props.Env, sim [][]thm8Run) exceedJudged {
		var cells []bflyExceed
		worst, excluded := 0.0, 0
		ci := 0
		for _, sz := range thm8Sizes(env.Budget) {
			n, r := sz.n, logLog(sz.n)
			for fi, f := range bflyFamilies {
				tc := bflyExceed{label: fmt.Sprintf("time N=2^%d %s", n, f), q: math.Exp(-float64(n)), pool: fmt.Sprintf("time N=2^%d", n)}
				cc := bflyExceed{label: fmt.Sprintf("congestion N=2^%d %s", n, f), q: math.Pow(2, -4*float64(n)), pool: fmt.Sprintf("congestion N=2^%d", n)}
				cthr := factor * float64(42*n)
				if cmax := bflyMaxNodeLoad(n, r, n); float64(cmax) < cthr {
					cc.unreachable = fmt.Sprintf("C ≤ t·2^⌊(n+r)/2⌋ = %d < %g·6c·log N = %g", cmax, factor, cthr)
				}
				for run, rv := range sim[ci] {
					if rv.excluded {
						excluded++
						continue
					}
					b := thm8RunOf(env.Seed, n, fi, run)
					b.Bound = factor * float64(7*n)
					tc.R++
					cc.R++
					b.Value = float64(rv.steps)
					worst = math.Max(worst, b.Value/float64(n))
					if b.Value > b.Bound {
						tc.hit(b)
					}
					if float64(rv.c) >= cthr {
						cb := b
						cb.Value, cb.Bound = float64(rv.c), cthr
						cc.hit(cb)
					}
				}
				ci++
				cells = append(cells, tc, cc)
			}
		}
		return exceedJudged{cells, fmt.Sprintf("Bounds %g·log N steps and %g·log N congestion. Smallest c·α every run met: %.3f; %d runs excluded (permutation outside Ψ).", factor*7, factor*42, worst, excluded), worst, factor * 7}
	})
}

// bflyThm11Check is bfly/thm-11/pipelined's check; the real router's runs
// are shared with the scaled-bound fault (thm11Sim).
func bflyThm11Check(factor float64, mutate func([]mb.Packet, int, int)) func(props.Env) props.Outcome {
	sim := func(env props.Env) keptRuns[thm11Cell] { return thm11Sim(env, mutate) }
	return simExceedCheck(sim, func(env props.Env, sim []thm11Cell) exceedJudged {
		sizes, _ := thm11Sizes(env.Budget)
		runsOf := map[int]int{}
		for _, sz := range sizes {
			runsOf[sz.n] = sz.runs
		}
		var cells []bflyExceed
		worst, worst0 := 0.0, 0.0
		for _, sc := range sim {
			n, t := sc.n, sc.m*sc.n
			c := bflyExceed{label: fmt.Sprintf("N=2^%d %s t=%d", n, bflyFamilies[sc.fi], t), R: runsOf[n], q: 1 / float64(int(1)<<n), pool: fmt.Sprintf("N=2^%d", n)}
			for run, last := range sc.last {
				b := thm11RunOf(env.Seed, n, sc.fi, sc.m, run)
				bad := false
				for f := 1; f <= t; f++ {
					ratio := float64(last[f]) / float64(f+n)
					worst = math.Max(worst, ratio)
					if ratio > factor*7 && !bad {
						bad = true
						b.Value, b.Bound = float64(last[f]), factor*float64(7*(f+n))
					}
				}
				if bad {
					c.hit(b)
				}
				if run == 0 {
					worst0 = math.Max(worst0, float64(sc.r0)/float64(t+n))
				}
			}
			cells = append(cells, c)
		}
		return exceedJudged{cells, fmt.Sprintf("Bound %g·(f + log N). Largest (time of the first f)/(f + log N) with r = ⌈log log N⌉: %.2f; with r = 0 (first run of each size): %.2f.", factor*7, worst, worst0), worst, factor * 7}
	})
}

// bflyReverseBlocks is a planted fault of §3's priorities: the block
// ⌈ℓ/log N⌉ in a packet's key is reversed (block b becomes B + 1 − b, B =
// ⌈t/log N⌉), so later permutations go first; R and the source are kept.
func bflyReverseBlocks(ps []mb.Packet, logN, t int) {
	B := uint64(ab.Block(t, logN))
	const low = uint64(1)<<56 - 1
	for i := range ps {
		b := ps[i].Key >> 56
		ps[i].Key = (B+1-b)<<56 | ps[i].Key&low
	}
}
