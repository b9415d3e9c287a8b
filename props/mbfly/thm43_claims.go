package mbfly

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
)

// Theorem 4.3 of 004_8aa7b4c265a7324b.txt (issue 13): its proof's network —
// 3 log n + 4d log 2d + 1 stages, identical expanders, a multi-butterfly,
// direct edges — built (models/multibutterfly.Thm43Network) and routed with
// §4.2's protocol (algos/multibutterfly.RunThm43); the time claim checked
// at the sizes we can run. mbfly/thm-4.3/node-count has the node count.

func init() {
	registerThm43Sim()
}

// thm43Start builds the network and a random destination bijection (from
// one stream).
func thm43Start(seed uint64, n, d, r int) (*mb.Thm43Network, mb.Thm43State, error) {
	rng := seeds.Rand(seed, 0x7443, uint64(n), uint64(d), uint64(r))
	net, err := mb.BuildThm43(n, d, rng)
	if err != nil {
		return nil, mb.Thm43State{}, err
	}
	np := n * (net.P + 1)
	dest := make([]int32, np)
	for i, j := range rng.Perm(np) {
		dest[i] = int32(net.FirstDirect()*n + j)
	}
	s, err := mb.InitThm43(net, dest)
	return net, s, err
}

// thm43Stall is a planted fault for the delivery half of
// mbfly/thm-4.3/routes: the router freezes one iteration before it would
// finish — it routes the first k − 1 of the k iterations the protocol
// needs and then holds its remaining packets for ever (k − 1 = 0: it never
// moves a packet). The result is the frozen run's, not complete.
func thm43Stall(s mb.Thm43State, A int) (amb.CommResult, error) {
	full, _, err := amb.RunThm43(s, A, 0, false)
	if err != nil || !full.Complete {
		return full, err
	}
	if full.Iterations <= 1 {
		return amb.CommResult{}, nil
	}
	res, _, err := amb.RunThm43Fault(s, A, full.Iterations-1, true, amb.NoFault)
	return res, err
}

// thm43RoutesCheck routes random bijections on Theorem 4.3's networks with
// fault (amb.NoFault: the protocol; stall: thm43Stall) and every invariant
// checked after every step: every packet must be delivered, none
// misrouted or lost.
func thm43RoutesCheck(fault amb.Fault, stall bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		runs := 0
		for _, d := range []int{2, 4, 8}[:env.Budget.Pick(2, 3, 3)] {
			for _, n := range []int{4, 8, 16} {
				worst := 0
				for r := range env.Budget.Pick(1, 2, 4) {
					for _, A := range []int{1, 2, 4} {
						net, s, err := thm43Start(env.Seed, n, d, r)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						var res amb.CommResult
						if stall {
							res, err = thm43Stall(s, A)
						} else {
							res, _, err = amb.RunThm43Fault(s, A, 0, true, fault)
						}
						runs++
						cex := map[string]any{"n": n, "d": d, "A": A, "network_seed": []uint64{env.Seed, 0x7443, uint64(n), uint64(d), uint64(r)}}
						if err != nil {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d (P = %d): %v", n, d, A, r, net.P, err), Counterexample: cex}
						}
						if !res.Complete {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d: not delivered after %d iterations", n, d, A, r, res.Iterations), Counterexample: cex}
						}
						worst = max(worst, res.Iterations)
					}
				}
				ev = append(ev, fmt.Sprintf("d=%d n=%d: ≤ %d iterations (%d stages)", d, n, worst, 2*(bits.Len(uint(n))-1+2*d*(bits.Len(uint(2*d))-1))+bits.Len(uint(n))))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d runs, every packet delivered, invariants after every step; %s", runs, strings.Join(ev, "; "))}
	}
}

// thm43Beta is the expansion Theorem 4.3's network certifies at α = 1/A:
// the least |Γ(X)|/|X| over its expander (|X| ≤ αn; all layers are one
// graph) and its splitters with αm ≥ 1 (|X| ≤ αm), exactly.
func thm43Beta(net *mb.Thm43Network, A int) (float64, error) {
	n := net.N
	g := expander.Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for i, e := range net.Edges {
		if net.Part[i] == 0 && e.Stage == 0 {
			g.Adj[e.From] = append(g.Adj[e.From], e.To-int32(n))
		}
	}
	beta, err := exactBeta(g, n/A)
	if err != nil {
		return 0, err
	}
	sb, err := leastSplitterBeta(net.MB, 1/float64(A))
	if err != nil {
		return 0, err
	}
	return math.Min(beta, sb), nil
}

// thm43TimeRun is one run of the time claim.
type thm43TimeRun struct {
	n, r, iters, simSteps int
	beta, bound           float64 // bound in iterations
	gamma                 float64
	theta                 int
	err                   error
}

var thm43TimeMemo struct {
	sync.Mutex
	m map[[2]uint64][]thm43TimeRun
}

// thm43TimeRuns routes (d = 16, 1/α = 16) at n = 16 (+ 32 at default) and
// returns, per run, the iterations and the least bound (θ/α + (1 +
// log(1+β))/log(1/γ) + 1)·log N over the admissible (γ, θ) of c43Pairs for
// the network's β, with the printed N = n(log n + d log d), log = log₂.
// The runs are shared by the claim and its planted fault.
func thm43TimeRuns(env props.Env) []thm43TimeRun {
	key := [2]uint64{env.Seed, uint64(env.Budget)}
	thm43TimeMemo.Lock()
	defer thm43TimeMemo.Unlock()
	if got, ok := thm43TimeMemo.m[key]; ok {
		return got
	}
	const d, A = 16, 16
	var out []thm43TimeRun
	for _, n := range []int{16, 32}[:env.Budget.Pick(1, 2, 2)] {
		for r := range env.Budget.Pick(1, 1, 3) {
			run := thm43TimeRun{n: n, r: r}
			net, s, err := thm43Start(env.Seed, n, d, r)
			if err == nil {
				run.beta, err = thm43Beta(net, A)
			}
			var res amb.CommResult
			if err == nil {
				res, _, err = amb.RunThm43(s, A, 0, false)
				if err == nil && !res.Complete {
					err = fmt.Errorf("not delivered after %d iterations", res.Iterations)
				}
			}
			if err != nil {
				run.err = err
				out = append(out, run)
				continue
			}
			run.iters, run.simSteps = res.Iterations, res.SimSteps
			k := float64(net.LogN)
			logN := math.Log2(float64(n) * (k + float64(d)*math.Log2(d)))
			run.bound = math.Inf(1)
			for _, p := range c43Pairs(run.beta) {
				b := (float64(p.theta)*A + (1+math.Log2(1+run.beta))/math.Log2(1/p.gamma) + 1) * logN
				if b < run.bound {
					run.bound, run.gamma, run.theta = b, p.gamma, p.theta
				}
			}
			out = append(out, run)
		}
	}
	if thm43TimeMemo.m == nil {
		thm43TimeMemo.m = map[[2]uint64][]thm43TimeRun{}
	}
	thm43TimeMemo.m[key] = out
	return out
}

// thm43TimeCheck judges the runs against the bound scaled by factor (1:
// the theorem's).
func thm43TimeCheck(factor float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		worst := 0.0
		for _, r := range thm43TimeRuns(env) {
			if r.err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d network %d: %v", r.n, r.r, r.err)}
			}
			if math.IsInf(r.bound, 1) {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d network %d: β = %.3g ≤ 3, no (γ, θ) satisfies condition (2)", r.n, r.r, r.beta)}
			}
			b := factor * r.bound
			worst = max(worst, float64(r.iters)/b)
			if float64(r.iters) > b {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d network %d (β = %.3g): %d iterations (%d steps at 6d + 1 each) > %.4g·(θ/α + (1 + log(1+β))/log(1/γ) + 1) log N = %.1f at (γ, θ) = (%.6g, %d)", r.n, r.r, r.beta, r.iters, r.simSteps, factor, b, r.gamma, r.theta), Counterexample: map[string]any{"n": r.n, "d": 16, "A": 16, "network_seed": []uint64{env.Seed, 0x7443, uint64(r.n), 16, uint64(r.r)}}}
			}
			ev = append(ev, fmt.Sprintf("n=%d network %d: β = %.3g, %d iterations (%d steps) ≤ %.1f (γ = %.4g, θ = %d)", r.n, r.r, r.beta, r.iters, r.simSteps, b, r.gamma, r.theta))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; "), Slack: props.SlackOf(worst, 1)}
	}
}

func registerThm43Sim() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.3/routes",
		Check: thm43RoutesCheck(amb.NoFault, false),
		Faults: []props.Fault{
			{Name: "exchanges along edges off the packet's route (amb.FaultIgnoreBit; fixed before running)", Check: thm43RoutesCheck(amb.FaultIgnoreBit, false)},
			{Name: "a stalling router: it freezes one iteration before it would finish and holds its last packets for ever, never delivering them ([2026-11-24] review; fixed before running)", Check: thm43RoutesCheck(amb.NoFault, true)},
		},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/thm-4.3/time-bound",
		Check:  thm43TimeCheck(1),
		Faults: []props.Fault{{Name: "the bound halved (fixed before running)", Check: thm43TimeCheck(0.5)}},
	}))
}
