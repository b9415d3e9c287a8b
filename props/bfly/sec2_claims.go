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
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"

	"pgregory.net/rapid"
)

// §2's algorithm as the paper states it (algos/butterfly sec2.go):
// priorities uniform in [1, K], K = ⌈f·(log N + p)⌉ (f = 1 unless said),
// conflicts to the highest priority, ties by source (as printed), or ties
// at random, or no priorities and random conflict resolution (the
// parenthetical "in practice, random conflict resolution seems adequate").
// The older claims run Theorem 1 with §3's grouped priority and use FIFO
// for "random conflict resolution"; these claims run §2's router itself
// and measure what the FIFO stand-in changes.

// sec2Problem is one routing problem of the Theorem 1 claims: t copies of
// the transpose or of one random permutation.
type sec2Problem struct {
	name      string
	t         int // copies; 0 means log N
	mult      int // t = mult·log N when t is 0
	transpose bool
}

var sec2Problems = []sec2Problem{
	{name: "transpose", t: 1, transpose: true},
	{name: "random ×log N", mult: 1},
	{name: "random ×4 log N", mult: 4},
	{name: "transpose ×log N", mult: 1, transpose: true},
}

// perms returns the problem's permutation sequence at n, the random
// permutation drawn from rng.
func (pr sec2Problem) perms(n int, rng *rand.Rand) [][]int32 {
	t := pr.t
	if t == 0 {
		t = pr.mult * n
	}
	p := bflyforms.Transpose(n)
	if !pr.transpose {
		p = perm.Random(1<<n, rng)
	}
	out := make([][]int32, t)
	for i := range out {
		out[i] = p
	}
	return out
}

// Sec2Run is one run of a §2 claim, as a counterexample: the problem at
// log N, the rule, and the seed (seeds.Rand(Seed) draws the random
// permutation, then the priorities; seeds.Rand(Seed, 1) the conflict
// resolutions).
type Sec2Run struct {
	Problem    string  `json:"problem"`
	LogN       int     `json:"log_n"`
	Rule       string  `json:"rule"`
	KFactor    float64 `json:"k_factor"`
	Seed       uint64  `json:"seed"`
	Steps      int     `json:"steps"`
	Congestion int     `json:"congestion"`
	Bound      float64 `json:"bound"`
}

// sec2Memo caches sec2Route's outcomes (routing time, congestion, mean
// latency, and the FIFO engine's time and mean latency on the same
// packets), so a planted fault that only changes a bound or a scale does
// not route again; keyed by everything the run depends on.
type sec2MemoKey struct {
	pi, n int
	rule  ab.Sec2Rule
	kf    float64
	seed  uint64
	fifo  bool
}

type sec2MemoVal struct {
	steps, congestion int
	mean              float64
	fifoSteps         int
	fifoMean          float64
}

var sec2Memo cache[sec2MemoKey, sec2MemoVal]

// sec2Outcome routes problem pi at n under rule (K factor 1) from seed,
// and with fifo also with the FIFO engine on the same packets; memoized.
func sec2Outcome(e *ab.Sec2Engine, ef *ab.Engine, pi, n int, rule ab.Sec2Rule, seed uint64, fifo bool) (sec2MemoVal, error) {
	return sec2OutcomeK(e, ef, pi, n, rule, 1, seed, fifo)
}

// sec2OutcomeK is sec2Outcome with K factor kf (K = ⌈kf·(log N + p)⌉).
func sec2OutcomeK(e *ab.Sec2Engine, ef *ab.Engine, pi, n int, rule ab.Sec2Rule, kf float64, seed uint64, fifo bool) (sec2MemoVal, error) {
	k := sec2MemoKey{pi, n, rule, kf, seed, fifo}
	v, ok := sec2Memo.get(k)
	if ok {
		return v, nil
	}
	res, ps, err := sec2Route(e, sec2Problems[pi], n, rule, kf, seed)
	if err != nil {
		return v, err
	}
	v = sec2MemoVal{steps: res.Steps, congestion: ab.MaxCongestion(mb.Shape{LogN: n}, ps), mean: meanLat(res.Latency)}
	if fifo {
		b, err := ef.Run(ab.Options{Shape: mb.Shape{LogN: n}, Priority: ab.FIFO}, ps, 1<<24)
		if err != nil {
			return v, err
		}
		v.fifoSteps, v.fifoMean = b.Steps, meanLat(b.Latency)
	}
	sec2Memo.put(k, v)
	return v, nil
}

// sec2Route routes the problem with §2's router (rule, K factor kf) on the
// §2 node model with the plain butterfly and returns the result and the
// packets.
func sec2Route(e *ab.Sec2Engine, pr sec2Problem, n int, rule ab.Sec2Rule, kf float64, seed uint64) (ab.Result, []mb.Packet, error) {
	o, ps, err := sec2RoutePackets(pr, n, rule, kf, seed)
	if err != nil {
		return ab.Result{}, nil, err
	}
	res, err := e.Run(o, ps, seeds.Rand(seed, 1), 1<<24)
	return res, ps, err
}

// sec2RoutePackets returns sec2Route's options and packets (the
// permutations and priorities seeds.Rand(seed) draws), without routing.
func sec2RoutePackets(pr sec2Problem, n int, rule ab.Sec2Rule, kf float64, seed uint64) (ab.Sec2Options, []mb.Packet, error) {
	rng := seeds.Rand(seed)
	o := ab.Sec2Options{Shape: mb.Shape{LogN: n}, Rule: rule, KFactor: kf}
	ps, err := ab.Sec2Packets(o, pr.perms(n, rng), rng)
	return o, ps, err
}

// sec2FIFOFault returns v with its FIFO time and mean latency replaced by
// those of the FIFO engine with the planted fault on the same packets as
// the run of sec2Outcome(…, pi, n, rule, seed, true) (v; not memoized).
func sec2FIFOFault(ef *ab.Engine, v sec2MemoVal, pi, n int, rule ab.Sec2Rule, seed uint64, fault ab.Fault) (sec2MemoVal, error) {
	_, ps, err := sec2RoutePackets(sec2Problems[pi], n, rule, 1, seed)
	if err != nil {
		return v, err
	}
	b, err := ef.Run(ab.Options{Shape: mb.Shape{LogN: n}, Priority: ab.FIFO, Fault: fault}, ps, 1<<24)
	if err != nil {
		return v, err
	}
	v.fifoSteps, v.fifoMean = b.Steps, meanLat(b.Latency)
	return v, nil
}

func init() {
	claimtab.Register(
		// Added by the 2026-11-24 review of the issue 12 claims.
		thm1HalfBound(ledger.Text(props.Claim{ID: "bfly/sec2/thm-1/k-quarter"}), sec2Thm1(ab.Sec2TieSource, 0.25)),

		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/sec2/engine-equals-model",
			Mem: props.MemEstimate{Small: 16 << 20, Default: 16 << 20, Large: 16 << 20},
		}), sec2EngineCheck, ab.Sec2NoFault, ab.Sec2FaultNoTieDraw, "an engine that serves the first tied packet instead of drawing (ab.Sec2FaultNoTieDraw)"),

		thm1HalfBound(ledger.Text(props.Claim{ID: "bfly/sec2/thm-1/as-stated"}), sec2Thm1(ab.Sec2TieSource, 1)),

		thm1HalfBound(ledger.Text(props.Claim{ID: "bfly/sec2/thm-1/random-resolution"}), sec2Thm1(ab.Sec2Random, 1)),
	)

	for _, rule := range []ab.Sec2Rule{ab.Sec2Random, ab.Sec2TieSource} {
		what := map[ab.Sec2Rule]string{ab.Sec2Random: "random conflict resolution (what it stands in for)", ab.Sec2TieSource: "§2's priorities as stated (ties by source)"}[rule]
		id := map[ab.Sec2Rule]string{ab.Sec2Random: "bfly/sec2/fifo-stand-in/vs-random", ab.Sec2TieSource: "bfly/sec2/fifo-stand-in/vs-priority"}[rule]
		props.Register(props.Claim{ID: id, Source: seed001 + " §2 (conflict resolution) — routecheck's FIFO stand-in", Kind: props.Statistical, Recorded: props.Consistent, Class: props.Construction,
			Statement: fmt.Sprintf("FIFO queues in place of %s change the routing time (the maximum latency) and the mean latency by less than 5 %%.", what),
			Scope:     "equivalence test (two one-sided, at Alpha = 1e-9 over problems × {routing time, mean latency}) of the paired log-ratios log(T_FIFO/T_other) and log(mean latency ratio) on the same packets (same routes), per problem pooled over N = 2^6…2^10 (Small: 2^6, 2^8; 114 runs per problem at default, 44 at small); problems of bfly/sec2/thm-1/as-stated; §2 node model, r = 0; band ±5 % (fixed before running, 2026-11-24 review; was ±10 % on the routing time only). Consistent: every interval within ±log 1.05; inconsistent: some interval wholly outside; inconclusive otherwise",
			Notes:     "The §4 experiments and bfly-readings use FIFO as the deterministic stand-in for 'random conflict resolution'; this measures what it changes. The evidence gives each problem's ratios of routing times and of mean latencies with their intervals. [2026-11-24] Power: the FIFO times multiplied by 1.25 (a stand-in 25 % slower; fixed before running) must come out inconsistent. [2026-11-24, review] The band is now ±5 %, the resolution of the §4 refit claims (their planted fault is 5 % of the mean latency), and both ratios are tested (the refit/avg claims use the mean, the max ones the maximum); a second fault near the band edge, FIFO ×1.12 (fixed before running), shows the resolution. [2026-11-25, review] Both scale faults move every ratio by the same factor, so they show the test's resolution but not that it reads the discipline. A mutant discipline, planted before running, through the same test on the same packets: LIFO queues (ab.FaultLIFO: every queue serves its newest packet first), a work-conserving discipline other than FIFO. Predicted: caught through the routing time on the multi-copy problems, the mean latency within the band. Outcome: not caught at small or default (inconclusive; the prediction was wrong on both counts). The transpose problems give LIFO = FIFO exactly; on the random problems the routing-time ratio is 1.02–1.05 with intervals about ±7 % wide, and the mean latency ratio at ×4 log N is 1.062–1.063 [1.04, 1.09] pooled, straddling 1.05. The evidence now gives each interval per N as well: N = 2^6 has 80 of the 114 runs at default and dominates the pool, and the LIFO mean latency ratio at ×4 log N grows with N (1.05 at 2^6, 1.09 at 2^8, 1.13 at 2^10) — at 2^8 its interval, [1.055, 1.124] against random resolution and [1.051, 1.126] against §2's priorities, lies wholly outside the band, so a per-N rule would have caught it there. The verdict rule is left as it was fixed (pooled per problem): changing it after seeing this fault would fit the check to the fault. What this says of the claim: the pooled test at these run counts cannot tell FIFO from LIFO, a discipline about 6 % slower in mean latency at ×4 log N, so 'consistent' means 'within 5 % pooled, mostly at N = 2^6'; for the real FIFO the per-N intervals at 2^6 and 2^8 are within the band, and 2^10 (4 runs) is too few for an interval at this level. Cost of the new fault at default: about 0.2 s (vs-random 0.39 → 0.57 s, vs-priority 0.52 → 0.63 s).",
			Check:     sec2FIFOCheck(rule, 1, ab.NoFault),
			Faults: []props.Fault{
				{Name: "the FIFO times multiplied by 1.25 (fixed before running)", Check: sec2FIFOCheck(rule, 1.25, ab.NoFault)},
				{Name: "the FIFO times multiplied by 1.12 (near the band edge; fixed before running)", Check: sec2FIFOCheck(rule, 1.12, ab.NoFault)},
				{Name: "LIFO queues in place of FIFO (ab.FaultLIFO: every queue serves its newest packet first; a mutant discipline through the same test; fixed before running)", Check: sec2FIFOCheck(rule, 1, ab.FaultLIFO)},
			},
		})
	}
}

// sec2EngineCheck is bfly/sec2/engine-equals-model's check of the engine
// with fault.
func sec2EngineCheck(fault ab.Sec2Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(150, 1000, 5000)
		var e ab.Sec2Engine
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			n := rapid.IntRange(1, 5).Draw(t, "n")
			o := ab.Sec2Options{Shape: mb.Shape{LogN: n, R: rapid.IntRange(0, n).Draw(t, "r")},
				Rule:    ab.Sec2Rules[rapid.IntRange(0, len(ab.Sec2Rules)-1).Draw(t, "rule")],
				KFactor: []float64{0.25, 1, 4}[rapid.IntRange(0, 2).Draw(t, "kf")]}
			seed := rapid.Uint64().Draw(t, "seed")
			rng := seeds.Rand(seed)
			perms := make([][]int32, rapid.IntRange(1, 4).Draw(t, "t"))
			same := rapid.Bool().Draw(t, "copies")
			for l := range perms {
				perms[l] = perm.Random(1<<n, rng)
				if same && l > 0 {
					perms[l] = perms[0]
				}
			}
			in := map[string]any{"log_n": n, "r": o.Shape.R, "rule": o.Rule.String(), "k_factor": o.KFactor, "seed": seed, "perms": perms}
			ps, err := ab.Sec2Packets(o, perms, rng)
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			want, err := sec2OnModel(o, len(perms), ps, seeds.Rand(seed, 1))
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			o.Fault = fault
			got, err := e.Run(o, ps, seeds.Rand(seed, 1), 100000)
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			for k := range want {
				if got.Latency[k] != want[k] {
					return map[string]any{"instance": in, "packet": k, "model": want[k], "engine": got.Latency[k]}
				}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "engine and model differ: " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("identical delivery steps on %d random instances (rapid), invariants checked after every model step", checks)}
	}
}

// sec2OnModel routes ps with §2's router on the step model, checking the
// invariants and every delivery, and returns the delivery steps.
func sec2OnModel(o ab.Sec2Options, p int, ps []mb.Packet, rng *rand.Rand) ([]int32, error) {
	st, err := mb.New(o.Shape, ps)
	if err != nil {
		return nil, err
	}
	lat := make([]int32, len(ps))
	r := ab.Sec2Router{Sec2Options: o, P: p}
	for st.InFlight() > 0 {
		if st.Step > 100000 {
			return nil, fmt.Errorf("%d packets undelivered after 100000 steps", st.InFlight())
		}
		next, ev, _, err := mb.RouteStep(st, r, rng)
		if err != nil {
			return nil, err
		}
		if err := mb.CheckInvariants(next, len(ps)); err != nil {
			return nil, err
		}
		for _, d := range ev.Delivered {
			if d.Row != ps[d.ID].Dst {
				return nil, fmt.Errorf("packet %d delivered at output %d, destination %d", d.ID, d.Row, ps[d.ID].Dst)
			}
			lat[d.ID] = int32(next.Step)
		}
		st = next
	}
	return lat, nil
}

// sec2Thm1 returns Theorem 1's check with §2's router under rule and
// K = ⌈kf·(log N + p)⌉, against the bound factor·3·C.
func sec2Thm1(rule ab.Sec2Rule, kf float64) func(factor float64) func(props.Env) props.Outcome {
	return func(factor float64) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			sizes := bflySizes(env.Budget, []bflySize{{4, 40}, {6, 15}, {8, 4}},
				[]bflySize{{4, 200}, {6, 100}, {8, 30}, {10, 5}},
				[]bflySize{{4, 1000}, {6, 500}, {8, 150}, {10, 50}, {12, 15}})
			var cells []bflyExceed
			var e ab.Sec2Engine
			worst := 0.0
			for _, sz := range sizes {
				n := sz.n
				for pi, pr := range sec2Problems {
					c := bflyExceed{label: fmt.Sprintf("N=2^%d %s", n, pr.name), q: math.Pow(2, -7*float64(n))}
					for run := range sz.runs {
						sd := seeds.Derive(env.Seed, 0x5e2, uint64(rule), uint64(n), uint64(pi), uint64(run))
						v, err := sec2OutcomeK(&e, nil, pi, n, rule, kf, sd, false)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						C := v.congestion
						if C < n || !thm1Attainable(factor, C, n) {
							continue
						}
						c.R++
						worst = math.Max(worst, float64(v.steps)/float64(C))
						if float64(v.steps) > factor*3*float64(C) {
							c.hit(Sec2Run{Problem: pr.name, LogN: n, Rule: rule.String(), KFactor: kf, Seed: sd, Steps: v.steps, Congestion: C, Bound: factor * 3 * float64(C)})
						}
					}
					if c.R > 0 {
						cells = append(cells, c)
					}
				}
			}
			o := judgeExceed(cells, fmt.Sprintf("Rule %s, K = ⌈%g·(log N + p)⌉. Bound %g·C. Smallest constant every run met (time/C): %.3f.", rule, kf, factor*3, worst))
			o.Slack = props.SlackOf(worst, factor*3)
			return o
		}
	}
}

// sec2FIFOCheck is the FIFO stand-in's equivalence check against rule;
// scale multiplies the FIFO times (1: none; the planted fault otherwise)
// and fault is planted in the FIFO engine (ab.NoFault: none). The verdict
// is the test per problem pooled over N; the evidence also gives each
// problem's intervals per N (at the same level, not part of the verdict).
func sec2FIFOCheck(rule ab.Sec2Rule, scale float64, fault ab.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		sizes := bflySizes(env.Budget, []bflySize{{6, 40}, {8, 4}},
			[]bflySize{{6, 80}, {8, 30}, {10, 4}},
			[]bflySize{{6, 200}, {8, 100}, {10, 40}})
		var e2 ab.Sec2Engine
		var ef ab.Engine
		alpha := props.Alpha / float64(2*len(sec2Problems))
		var ev []string
		verdict := props.Consistent
		var first any
		for pi, pr := range sec2Problems {
			var dt, dm []float64
			var byN [2][]string // per N: T ratio, mean ratio
			for _, sz := range sizes {
				n := sz.n
				from := len(dt)
				for run := range sz.runs {
					sd := seeds.Derive(env.Seed, 0x5e3, uint64(rule), uint64(n), uint64(pi), uint64(run))
					v, err := sec2Outcome(&e2, &ef, pi, n, rule, sd, true)
					if err == nil && fault != ab.NoFault {
						v, err = sec2FIFOFault(&ef, v, pi, n, rule, sd, fault)
					}
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					dt = append(dt, math.Log(scale*float64(v.fifoSteps)/float64(v.steps)))
					dm = append(dm, math.Log(scale*v.fifoMean/v.mean))
				}
				for i, d := range [2][]float64{dt[from:], dm[from:]} {
					byN[i] = append(byN[i], fmt.Sprintf("2^%d %s (%d)", n, fifoByN(fifoEquiv(d, alpha)), len(d)))
				}
			}
			for i, q := range []struct {
				what string
				d    []float64
			}{{"T_FIFO/T", dt}, {"mean latency ratio", dm}} {
				eq := fifoEquiv(q.d, alpha)
				ev = append(ev, fmt.Sprintf("%s: %s = %s (%d runs; by N: %s)", pr.name, q.what, eq, len(q.d), strings.Join(byN[i], ", ")))
				verdict = eq.merge(verdict)
				if eq.verdict == props.Inconsistent && first == nil {
					first = map[string]any{"problem": pr.name, "ratio": q.what, "mean": eq.mid, "lo": eq.lo, "hi": eq.hi}
				}
			}
		}
		return props.Outcome{Verdict: verdict, Counterexample: first, Evidence: fmt.Sprintf("FIFO against %s, band ±%g %% (log ratio within ±%.4f), intervals at %.2g per side per problem and ratio: %s", rule, 100*fifoBand, math.Log(1+fifoBand), alpha, strings.Join(ev, "; "))}
	}
}

// fifoBand is the equivalence band of the FIFO stand-in claims: ±5 %, the
// resolution of the §4 refit claims (fixed before running, 2026-11-24).
const fifoBand = 0.05

// fifoEq is one equivalence interval of a paired log-ratio, back on the
// ratio scale.
type fifoEq struct {
	mid, lo, hi float64
	verdict     props.Verdict
}

func (q fifoEq) String() string { return fmt.Sprintf("%.3f [%.3f, %.3f]", q.mid, q.lo, q.hi) }

// merge combines q's verdict with the verdict so far: inconsistent wins,
// then inconclusive.
func (q fifoEq) merge(v props.Verdict) props.Verdict {
	if v == props.Inconsistent || q.verdict == props.Inconsistent {
		return props.Inconsistent
	}
	if v == props.Inconclusive || q.verdict == props.Inconclusive {
		return props.Inconclusive
	}
	return v
}

// fifoEquiv is the two one-sided test of the mean of d (log-ratios) at
// alpha per side against ±log(1 + fifoBand): consistent if the
// Student-t interval lies within the band, inconsistent if wholly outside,
// inconclusive otherwise.
func fifoEquiv(d []float64, alpha float64) fifoEq {
	lo, hi := math.Log(1/(1+fifoBand)), math.Log(1+fifoBand)
	s := stats.Summarize(d)
	T := stats.T(2*alpha, len(d)-1)
	se := s.SD / math.Sqrt(float64(len(d)))
	l, h := s.Mean-T*se, s.Mean+T*se
	q := fifoEq{mid: math.Exp(s.Mean), lo: math.Exp(l), hi: math.Exp(h), verdict: props.Consistent}
	switch {
	case h < lo || l > hi:
		q.verdict = props.Inconsistent
	case l < lo || h > hi:
		q.verdict = props.Inconclusive
	}
	return q
}

// fifoByN formats a per-N interval of the FIFO claims' evidence: as
// fifoEq.String, with an upper end above 100 (a handful of runs at this
// level) written "> 100".
func fifoByN(q fifoEq) string {
	if q.hi > 100 {
		return fmt.Sprintf("%.3f [%.3f, > 100]", q.mid, q.lo)
	}
	return q.String()
}

// meanLat is the mean of the delivery steps.
func meanLat(l []int32) float64 {
	s := 0.0
	for _, x := range l {
		s += float64(x)
	}
	return s / float64(len(l))
}

func init() {
	claimtab.Register(
		withFaults(ledger.Text(props.Claim{ID: "bfly/sec2/fifo-stand-in/buffered", RecordedAt: map[props.Budget]props.Verdict{props.Small: props.Inconclusive}}), sec2BufferedFIFOCheck, 1,
			plant("the FIFO latencies multiplied by 1.25 (fixed before running)", 1.25),
			plant("the FIFO latencies multiplied by 1.12 (near the band edge; fixed before running)", 1.12)),
	)
}

var bufMemo cache[[6]uint64, [2][2]float64]

// sec2BufferedPair runs one §4.2 instance in a buffered reading with
// random resolution (step model) and FIFO (engine) on the same packets and
// returns [random, fifo] × [mean, max] latency; memoized.
func sec2BufferedPair(ef *ab.Engine, strict bool, n, r, p int, seed uint64) ([2][2]float64, error) {
	key := [6]uint64{map[bool]uint64{true: 1}[strict], uint64(n), uint64(r), uint64(p), seed, 0}
	v, ok := bufMemo.get(key)
	if ok {
		return v, nil
	}
	rng := seeds.Rand(seed)
	sigma := perm.Random(1<<n, rng)
	perms := make([][]int32, p)
	for i := range perms {
		perms[i] = sigma
	}
	sh := mb.Shape{LogN: n, R: r, Mode: mb.Buffered, StrictBuffers: strict}
	o := ab.Sec2Options{Shape: sh, Rule: ab.Sec2Random}
	ps, err := ab.Sec2Packets(o, perms, rng)
	if err != nil {
		return v, err
	}
	lat, err := sec2OnModel(o, p, ps, seeds.Rand(seed, 1))
	if err != nil {
		return v, err
	}
	fifo, err := ef.Run(ab.Options{Shape: sh, Priority: ab.FIFO}, ps, 1<<24)
	if err != nil {
		return v, err
	}
	maxOf := func(l []int32) float64 {
		m := int32(0)
		for _, x := range l {
			m = max(m, x)
		}
		return float64(m)
	}
	v = [2][2]float64{{meanLat(lat), maxOf(lat)}, {meanLat(fifo.Latency), maxOf(fifo.Latency)}}
	bufMemo.put(key, v)
	return v, nil
}

// sec2BufferedFIFOCheck is bfly/sec2/fifo-stand-in/buffered's check; scale
// multiplies the FIFO latencies (the planted fault when ≠ 1).
func sec2BufferedFIFOCheck(scale float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := []int{6}
		runs := env.Budget.Pick(8, 15, 40)
		if env.Budget != props.Small {
			ns = []int{6, 7}
		}
		var ef ab.Engine
		alpha := props.Alpha / 4
		verdict := props.Consistent
		var first any
		var ev []string
		for _, strict := range []bool{true, false} {
			var dm, dx []float64
			for _, n := range ns {
				for _, p := range []int{1, 10} {
					for _, r := range []int{0, 3} {
						for run := range runs {
							sd := seeds.Derive(env.Seed, 0x5e4, uint64(n), uint64(p), uint64(r), uint64(run))
							v, err := sec2BufferedPair(&ef, strict, n, r, p, sd)
							if err != nil {
								return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
							}
							dm = append(dm, math.Log(scale*v[1][0]/v[0][0]))
							dx = append(dx, math.Log(scale*v[1][1]/v[0][1]))
						}
					}
				}
			}
			name := map[bool]string{true: "strict buffers", false: "pipelined buffers"}[strict]
			for _, q := range []struct {
				what string
				d    []float64
			}{{"mean latency FIFO/random", dm}, {"maximum latency FIFO/random", dx}} {
				eq := fifoEquiv(q.d, alpha)
				ev = append(ev, fmt.Sprintf("%s: %s = %s (%d runs)", name, q.what, eq, len(q.d)))
				verdict = eq.merge(verdict)
				if eq.verdict == props.Inconsistent && first == nil {
					first = map[string]any{"reading": name, "ratio": q.what, "mean": eq.mid, "lo": eq.lo, "hi": eq.hi}
				}
			}
		}
		return props.Outcome{Verdict: verdict, Counterexample: first, Evidence: fmt.Sprintf("band ±%g %%, intervals at %.2g per side per reading and ratio: %s", 100*fifoBand, alpha, strings.Join(ev, "; "))}
	}
}
