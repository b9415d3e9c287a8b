// Package mbflyhunt registers the multi-butterfly hunt targets and the
// "mbfly-perm" case kind. Each target searches permutations π of the N
// inputs of a multi-butterfly for one that maximizes a measure of Upfal's
// §3.2 batched priority routing (routecheck/algos/multibutterfly; seed
// 004_8aa7b4c265a7324b.txt), on one network fixed by its seed: the router
// is deterministic, so an evaluation is one run and the search compares
// permutations exactly.
//
//   - mbfly-buffer: the largest buffer (packets held by one node of stage
//     ≥ 1 after any step) divided by L, on networks of any degree d and any
//     L (§3.2: "no more than L packets will be stored simultaneously in one
//     processor", so ≤ 1);
//   - mbfly-steps: the steps to deliver every packet divided by Theorem
//     3.1's bound 2d·T0, on the design network of the claims (d = 32,
//     α = 1/32, β = 7, L = 4, N ≤ 64, its expansion verified by exact
//     enumeration before the hunt; T0 from routecheck/oracles/mbflyforms,
//     as props/mbfly's mbfly/thm-3.1/time-bound reads it), so ≤ 1;
//   - mbfly-expansion: over sets X of at most ⌊αm⌋ inputs of either
//     concentrator of a random splitter (expander.NewSplitter, as mb.Build
//     draws them), β|X|/|Γ(X)| (Definition 2.2: an (α, β)-expanding
//     concentrator keeps it ≤ 1): the sets that come closest to breaking
//     expansion. The hunted set's |Γ(X)|/|X| is an upper bound on the
//     splitter's true β, beside Tanner's certificate (a lower bound) in the
//     replay, and beside exact enumeration where m ≤ 64. Its search (not
//     hunt.PermSearch): expander.GreedySmallSet on both concentrators, random
//     sets, then annealing on each concentrator from its best set with
//     add/remove/swap moves, half of them bringing in an input that shares a
//     neighbour with X; the baseline is random sets (size uniform in
//     1…⌊αm⌋) at the same evaluations, the greedy's counted as
//     starts·(⌊αm⌋−1)·m + starts.
//
// The search is hunt.PermSearch: the structured families (identity, bit
// reversal, transpose, flip: the claims' structured permutations), random
// permutations, simulated annealing with transposition moves, and as many
// random permutations again as the baseline.
//
// Hunted against random sampling at the same number of evaluations (seed
// 1, net seed 1, --iters 2000 unless said; CPU time user+sys on the shared
// 2-core machine; the saved cases under testdata/hunt/ record their figures
// in found_by):
//
//	routecheck hunt mbfly-buffer --iters 2000        (N = 64, d = 2, L = 4)
//	    1 (a node holds L = 4 packets) vs random 1 at 2035 evaluations (0.7 s)
//	routecheck hunt mbfly-buffer --l 8 --iters 2000
//	    0.5 vs random 0.5 (4 of 8 slots: 15% of random permutations reach 4,
//	    none of 4000 reached 5)
//	routecheck hunt mbfly-buffer --logn 8 --l 8 --iters 2000
//	    0.5 vs random 0.625: random sampling WINS here (a buffer of 5 comes
//	    up once in ~4000 random permutations; annealing, with or without
//	    --restarts 7, did not find one)
//	routecheck hunt mbfly-steps --iters 2000         (N = 64, T0 = 76)
//	    0.1447 = 11 iterations = 704 steps vs random 0.1447 at 2030
//	    evaluations (4.3 s): 11 iterations come up on ~0.4% of random
//	    permutations (9 on the rest), and nothing took 13; Theorem 3.1's
//	    2d·T0 = 4864 steps has ~6.9× slack. Over seeds 1…6 the hunt tied
//	    random on 4 and lost (9 against 11 iterations) on 2; with
//	    --restarts 4 it tied on 5 and lost on 1.
//	routecheck hunt mbfly-buffer --logn 5 --d 1 --l 4 --iters 300 --shrink-evals -1 \
//	    --out testdata/hunt/mbfly-buffer-n5-d1-l4-small.json
//	    0.75 vs random 0.75 at 359 evaluations
//	routecheck hunt mbfly-steps --logn 5 --iters 300 --shrink-evals -1 \
//	    --out testdata/hunt/mbfly-steps-n5-small.json
//	    0.1429 (10 iterations, T0 = 70) vs random 0.1429 at 359 evaluations
//
//	routecheck hunt mbfly-expansion --iters 2000     (m = 256, d = 32, α = 1/32, β = 7)
//	    0.6437: |X| = 8 with |Γ(X)| = 87, ratio 10.88 (greedy) vs random sets
//	    0.56 (ratio 12.5) at 30692 evaluations (0.9 s); Tanner certifies
//	    ≥ 35 neighbours (ratio 4.4): the true β at |X| = 8 lies in [4.4, 10.88]
//	routecheck hunt mbfly-expansion --iters 2000 --families=false \
//	    --out testdata/hunt/mbfly-expansion-m256-d32-a32-annealed.json
//	    0.5895 (ratio 11.88, annealing alone) vs random 0.5437 at 1987
//	routecheck hunt mbfly-expansion --m 1024 --iters 2000
//	    0.6512 (ratio 10.75, greedy) vs random 0.5346 at 509921 evaluations;
//	    annealing alone (--families=false) 0.5398 vs 0.5185 at 2008
//	routecheck hunt mbfly-expansion --m 2048 --d 8 --iters 2000
//	    1.799: 64 inputs with 249 neighbours (ratio 3.89 < β = 7: degree 8
//	    does not give β = 7) vs random 1.183 at 2066374 evaluations
//	routecheck hunt mbfly-expansion --m 64 --d 3 --alpha-inv 16 --iters 300 \
//	    --out testdata/hunt/mbfly-expansion-m64-d3-a16-small.json
//	    5.25 (3 inputs, 4 neighbours: the exact worst) vs random 4.2 at 3392
//
// For the routing targets the measured value of the search is nil: the
// router's buffers and times are near-constant over permutations, and what
// varies is rare and not reached more often by transposition moves than by
// sampling. The hunted worst cases still bound the claims' slack from
// below at these sizes.
//
// A mbfly-perm case replays on the fast engine (Run, every invariant
// checked after every step) and on the router interface (Priority through
// the model's RunRouter); it is reproduced when both agree and give the
// recorded value.
package mbflyhunt

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflyforms"
)

// The design of props/mbfly's simulation claims: d = 32, α = 1/32, β = 7,
// so L = ⌈1/(α(β+1))⌉ = 4.
const (
	designD     = 32
	designAlpha = 1.0 / 32
	designBeta  = 7.0
	designL     = 4
)

// Instance is the "mbfly-perm" case instance: the network (N = 2^LogN
// inputs, degree D, built by mb.Build from NetSeed), the number of batches
// L, and the permutation (Perm[x] is input x's destination).
type Instance struct {
	LogN    int     `json:"log_n"`
	D       int     `json:"d"`
	L       int     `json:"l"`
	NetSeed uint64  `json:"net_seed"`
	Perm    []int32 `json:"perm"`
}

const (
	metricBuffer = "largest buffer / L"
	metricSteps  = "steps / (2d·T0)"
)

var claims = map[string]string{
	metricBuffer: "§3.2: no node ever stores more than L packets (≤ 1)",
	metricSteps:  "Theorem 3.1: every permutation is routed within 2d·T0 steps on an (N, 32, 1/32, 7)-multi-butterfly (≤ 1)",
}

func init() {
	hunt.RegisterTarget(&target{name: "mbfly-buffer", metric: metricBuffer})
	hunt.RegisterTarget(&target{name: "mbfly-steps", metric: metricSteps})
	hunt.RegisterTarget(&expansionTarget{})
	hunt.RegisterReplayer("mbfly-perm", replay)
	hunt.RegisterReplayer("mbfly-splitter-set", replaySet)
}

// Network builds the network of an instance: mb.Build(2^logN, d) drawn
// from the stream seeds.Rand(netSeed, 0x6bf1, logN, d).
func Network(logN, d int, netSeed uint64) (*mb.Network, error) {
	return mb.Build(1<<logN, d, seeds.Rand(netSeed, 0x6bf1, uint64(logN), uint64(d)))
}

// verifyDesign checks exactly that every concentrator of every splitter of
// net satisfies |Γ(X)| ≥ β|X| for 1 ≤ |X| ≤ ⌊αm⌋ (Definition 2.2) at the
// design's α and β; it returns where it fails ("" if nowhere).
func verifyDesign(net *mb.Network) (string, error) {
	for s, row := range net.Splitters {
		for j, sp := range row {
			k := int(math.Floor(designAlpha * float64(sp.M)))
			if k == 0 {
				continue
			}
			for side, g := range []expander.Graph{sp.Upper, sp.Lower} {
				min, worst, err := expander.MinNeighbours(g, k)
				if err != nil {
					return "", err
				}
				for x := 1; x <= k; x++ {
					if float64(min[x]) < designBeta*float64(x) {
						return fmt.Sprintf("splitter (s=%d, j=%d), %s concentrator: X = %v has |Γ(X)| = %d < β|X| = %g", s, j, []string{"upper", "lower"}[side], worst[x], min[x], designBeta*float64(x)), nil
					}
				}
			}
		}
	}
	return "", nil
}

// t0 is Theorem 3.1's T0 for the design at N = 2^logN.
func t0(logN int) (int, error) {
	T0, _, _, ok := mbflyforms.BestT0(logN, designL, designBeta)
	if !ok {
		return 0, fmt.Errorf("condition (1) infeasible at log N = %d", logN)
	}
	return T0, nil
}

func (in Instance) validate(metric string) error {
	switch {
	case in.LogN < 1 || in.LogN > 10:
		return fmt.Errorf("log_n = %d: must be in [1, 10]", in.LogN)
	case in.D < 1 || in.D > 64:
		return fmt.Errorf("d = %d: must be in [1, 64]", in.D)
	case in.L < 1 || in.L > 64:
		return fmt.Errorf("l = %d: must be in [1, 64]", in.L)
	case len(in.Perm) != 1<<in.LogN:
		return fmt.Errorf("perm has %d entries, N = %d", len(in.Perm), 1<<in.LogN)
	case metric == metricSteps && (in.D != designD || in.L != designL || in.LogN > 6):
		return fmt.Errorf("%s needs the design network d = %d, l = %d, log_n ≤ 6 (d = %d, l = %d, log_n = %d)", metric, designD, designL, in.D, in.L, in.LogN)
	}
	if err := perm.Validate(in.Perm, true); err != nil {
		return fmt.Errorf("perm: %v", err)
	}
	return nil
}

// evaluator runs the router on one network.
type evaluator struct {
	net    *mb.Network
	L      int
	bound  float64 // 2d·T0 (steps metric)
	metric string
}

func newEvaluator(in Instance, metric string) (*evaluator, string, error) {
	net, err := Network(in.LogN, in.D, in.NetSeed)
	if err != nil {
		return nil, "", err
	}
	e := &evaluator{net: net, L: in.L, metric: metric}
	note := ""
	if metric == metricSteps {
		if bad, err := verifyDesign(net); err != nil || bad != "" {
			return nil, "", fmt.Errorf("the network (N = %d, net seed %d) is not an (N, 32, 1/32, 7)-multi-butterfly, so Theorem 3.1 does not apply: %s%v", net.N, in.NetSeed, bad, err)
		}
		T0, err := t0(in.LogN)
		if err != nil {
			return nil, "", err
		}
		e.bound = float64(2 * in.D * T0)
		note = fmt.Sprintf("; expansion verified exactly; T0 = %d, 2d·T0 = %g steps", T0, e.bound)
	}
	return e, note, nil
}

func (e *evaluator) value(r amb.Result) float64 {
	if e.metric == metricSteps {
		return float64(r.Steps) / e.bound
	}
	return float64(r.MaxBuffer) / float64(e.L)
}

// objective is the search's objective: the metric's integer measure (the
// largest buffer, or the iterations to deliver) plus a plateau guide in
// [0, 1), so that the metric is ⌊objective⌋ / L, or ⌊objective⌋·2d / (2d·T0).
// The guide is, for the buffer, the mean over iterations of the fullest
// non-input node's count divided by L + 1 (buffers kept fuller for longer
// are nearer to filling one more slot); for the steps, the packets not yet
// delivered summed over iterations, divided by N·iterations + 1 (packets
// kept back longer are nearer to needing one more iteration).
func (e *evaluator) objective(p []int32) (float64, error) {
	s, err := mb.Init(e.net, e.L, p)
	if err != nil {
		return 0, err
	}
	sum, its := 0, 0
	obs := func(t int, x *mb.State) {
		if t == 0 {
			return
		}
		its++
		if e.metric == metricSteps {
			for q := range x.Pos {
				if !x.Delivered(q) {
					sum++
				}
			}
			return
		}
		m := int32(0)
		for v := x.Net.N; v < len(x.Count); v++ { // nodes of stage ≥ 1
			m = max(m, x.Count[v])
		}
		sum += int(m)
	}
	r, _, err := amb.Run(s, amb.Options{AfterIteration: obs})
	if err != nil {
		return 0, err
	}
	if !r.Complete {
		return 0, fmt.Errorf("not delivered within %d iterations (%d of %d packets)", r.Iterations, r.Delivered, len(p))
	}
	if e.metric == metricSteps {
		return float64(r.Iterations) + float64(sum)/float64(len(p)*its+1), nil
	}
	return float64(r.MaxBuffer) + float64(sum)/float64(max(its, 1)*(e.L+1)), nil
}

// metricOf maps an objective to the metric.
func (e *evaluator) metricOf(obj float64) float64 {
	if e.metric == metricSteps {
		return math.Floor(obj) * float64(2*e.net.D) / e.bound
	}
	return math.Floor(obj) / float64(e.L)
}

// run routes p on the fast engine; an incomplete run is an error (every
// permutation must be delivered: mbfly/sec3.2/delivers).
func (e *evaluator) run(p []int32, check bool) (amb.Result, error) {
	s, err := mb.Init(e.net, e.L, p)
	if err != nil {
		return amb.Result{}, err
	}
	r, _, err := amb.Run(s, amb.Options{Check: check})
	if err != nil {
		return r, err
	}
	if !r.Complete {
		return r, fmt.Errorf("not delivered within %d iterations (%d of %d packets)", r.Iterations, r.Delivered, len(p))
	}
	return r, nil
}

func replay(c hunt.Case) (hunt.Replayed, error) {
	in, claim, err := hunt.DecodeCase[Instance](c, claims, fmt.Sprintf("%q, %q", metricBuffer, metricSteps))
	if err != nil {
		return hunt.Replayed{}, err
	}
	if err := in.validate(c.Metric); err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	e, note, err := newEvaluator(in, c.Metric)
	if err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	report := fmt.Sprintf("§3.2 priority routing on the multi-butterfly N = 2^%d, d = %d, L = %d, net seed %d%s:\n", in.LogN, in.D, in.L, in.NetSeed, note)
	r, err := e.run(in.Perm, true)
	if err != nil {
		return hunt.Replayed{Report: report}, fmt.Errorf("engine: %v", err)
	}
	s, _ := mb.Init(e.net, e.L, in.Perm)
	rr, _, err := mb.RunRouter(s, &amb.Priority{}, rand.New(rand.NewPCG(0, 0)), mb.RouterOptions{MaxSteps: amb.PriorityMaxSteps(in.LogN, in.D, in.L)})
	if err != nil {
		return hunt.Replayed{Report: report}, fmt.Errorf("router: %v", err)
	}
	// Run counts whole iterations of 2d steps; RunRouter the exact step.
	d2 := 2 * in.D
	agree := rr.Complete && rr.MaxBuffer == r.MaxBuffer && (rr.Steps+d2-1)/d2 == r.Iterations
	report += fmt.Sprintf("  engine: %d iterations = %d steps, largest buffer %d; router: last delivery at step %d, largest buffer %d (agree %v)\n", r.Iterations, r.Steps, r.MaxBuffer, rr.Steps, rr.MaxBuffer, agree)
	got := e.value(r)
	ok := agree && math.Abs(got-c.Value) < 1e-9
	report += fmt.Sprintf("%s: %.6g (recorded %.6g; %s) — %s\n", c.Metric, got, c.Value, claim, hunt.Verdict(ok))
	return hunt.Replayed{Report: report, Value: got, Reproduced: ok}, nil
}

type target struct {
	name, metric string
	logN, d, l   *int
	netSeed      *uint64
	samples      hunt.SamplesFlag
	restarts     *int
	families     *bool
	shrink       hunt.ShrinkFlag
}

func (t *target) Name() string { return t.name }
func (t *target) Description() string {
	return "permutations maximizing the multi-butterfly priority router's " + t.metric + " (" + claims[t.metric] + "), beside random sampling"
}

func (t *target) DefineFlags(fs *flag.FlagSet) {
	t.logN = fs.Int("logn", 6, "log N: the network has N = 2^logn inputs")
	if t.metric == metricBuffer {
		t.d = fs.Int("d", 2, "splitter degree d (each node has 2d out edges), 1 … 32")
		t.l = fs.Int("l", 4, "batches L (the buffer bound), 1 … 32")
	} else {
		d, l := designD, designL
		t.d, t.l = &d, &l
	}
	t.netSeed = fs.Uint64("net-seed", 1, "seed of the network's random splitters")
	t.samples.Define(fs, "random permutations sampled before annealing")
	t.restarts = fs.Int("restarts", 0, "annealing runs after the first, each from a random permutation (the --iters moves are shared)")
	t.families = fs.Bool("families", true, "try the structured families first (false: measure sampling and annealing alone)")
	t.shrink.Define(fs)
}

func (t *target) Shrinking() string {
	return hunt.ShrinkHelp(hunt.FixingSwaps)
}

func (t *target) DefaultFile() string {
	return fmt.Sprintf("testdata/hunt/%s-n%d-d%d-l%d.json", t.name, *t.logN, *t.d, *t.l)
}

func (t *target) parse() error {
	maxLog := 8
	if t.metric == metricSteps {
		maxLog = 6 // exact verification of the expansion needs m ≤ 64
	}
	switch {
	case *t.logN < 2 || *t.logN > maxLog:
		return fmt.Errorf("--logn = %d: must be in [2, %d]", *t.logN, maxLog)
	case *t.d < 1 || *t.d > 32:
		return fmt.Errorf("--d = %d: must be in [1, 32]", *t.d)
	case *t.l < 1 || *t.l > 32:
		return fmt.Errorf("--l = %d: must be in [1, 32]", *t.l)
	}
	if err := t.samples.Check(); err != nil {
		return err
	}
	if *t.restarts < 0 || *t.restarts > 100000 {
		return fmt.Errorf("--restarts = %d: must be in [0, 100000]", *t.restarts)
	}
	return t.shrink.Check()
}

// families are the structured permutations of props/mbfly's claims.
func families(logN int) []hunt.Family {
	n := 1 << logN
	rev, tr, flip := make([]int32, n), make([]int32, n), make([]int32, n)
	h := logN / 2
	for q := range n {
		x := 0
		for b := range logN {
			x |= (q >> b & 1) << (logN - 1 - b)
		}
		rev[q] = int32(x)
		tr[q] = int32((q&(1<<h-1))<<(logN-h) | q>>h)
		flip[q] = int32(n - 1 - q)
	}
	return []hunt.Family{{Name: "identity", Perm: perm.Identity(n)}, {Name: "bit-reversal", Perm: rev}, {Name: "transpose", Perm: tr}, {Name: "flip", Perm: flip}}
}

func (t *target) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	if err := t.parse(); err != nil {
		return hunt.Case{}, err
	}
	in := Instance{LogN: *t.logN, D: *t.d, L: *t.l, NetSeed: *t.netSeed}
	e, note, err := newEvaluator(in, t.metric)
	if err != nil {
		return hunt.Case{}, err
	}
	o.Logf("%s on N = %d, d = %d, L = %d, net seed %d%s", t.name, e.net.N, in.D, in.L, in.NetSeed, note)
	s := hunt.PermSearch{N: e.net.N, Samples: t.samples.N(), Restarts: *t.restarts, Metric: e.metricOf, Shrink: &t.shrink, Eval: func(p []int32) (float64, error) {
		v, err := e.objective(p)
		if err != nil {
			return 0, fmt.Errorf("perm %v: %v", p, err)
		}
		return v, nil
	}}
	if *t.families {
		s.Families = families(in.LogN)
	}
	res, err := s.Run(ctx, o, 0x6bf2)
	if err != nil {
		return hunt.Case{}, err
	}
	in.Perm = res.Best
	raw, err := json.Marshal(in)
	if err != nil {
		return hunt.Case{}, err
	}
	return hunt.Case{Kind: "mbfly-perm", Target: t.name, Metric: t.metric, Value: res.Value, FoundBy: res.FoundBy, Seed: o.Seed,
		RandomBest: hunt.Baseline(res.RandomBest), Evaluations: res.Evaluations, ShrinkFloor: res.ShrinkFloor(), Instance: raw}, nil
}
