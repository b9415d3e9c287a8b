package mbfly

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	amb "routecheck/algos/multibutterfly"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// mbflySizes are the design-network sizes and networks per size.
func mbflySizes(b props.Budget) (ns []int, nets int) {
	return []int{16, 32, 64}, b.Pick(1, 4, 16)
}

// mbflyInvariantRuns routes, with every model invariant and the
// one-packet-per-batch rule checked after every step (amb.Options.Check):
// every permutation of N = 4 and a sample (every, or every 97th) of N = 8
// on networks with d ∈ {1, 2, 3} and L ∈ {1, 2, 3, 5}; then the structured
// and random permutations of mbflyPerms on small-d networks up to N = 64
// and on the design networks. It calls f on every finished run and stops
// at the first error; a false return ends the permutations of that
// (N, d, L) among N = 4, 8, and all the runs on the larger networks.
func mbflyInvariantRuns(env props.Env, tag uint64, fault amb.Fault, f func(desc string, p []int32, s mb.State, res amb.Result, fin mb.State) bool) (runs int, err error) {
	stride := env.Budget.Pick(97, 1, 1)
	for _, n := range []int{4, 8} {
		for d := 1; d <= 3; d++ {
			net, err := mbflyNet(env.Seed, tag, n, d, 0)
			if err != nil {
				return runs, setupError{err}
			}
			eng := amb.NewEngine(net) // one engine for the network's runs
			for _, L := range []int{1, 2, 3, 5} {
				i := 0
				desc := fmt.Sprintf("N=%d d=%d L=%d", n, d, L) // once, not per permutation
				var ferr error
				perm.Each(n, func(p []int32) bool {
					i++
					if n == 8 && i%stride != 0 {
						return true
					}
					s, err := mb.Init(net, L, p)
					if err != nil {
						ferr = setupError{fmt.Errorf("N=%d d=%d L=%d perm %v: %w", n, d, L, p, err)}
						return false
					}
					res, fin, err := eng.Run(s, amb.Options{Check: true, Fault: fault})
					runs++
					if err != nil {
						ferr = fmt.Errorf("N=%d d=%d L=%d perm %v: %w", n, d, L, p, err)
						return false
					}
					return f(desc, p, s, res, fin)
				})
				if ferr != nil {
					return runs, ferr
				}
			}
		}
	}
	ns, nets := mbflySizes(env.Budget)
	for _, n := range ns {
		for r := range nets {
			for _, cfg := range []struct{ d, L int }{{2, 3}, {3, 8}, {mbflyDesign.D, mbflyDesign.L}} {
				net, err := mbflyNet(env.Seed, tag, n, cfg.d, r)
				if err != nil {
					return runs, setupError{err}
				}
				eng := amb.NewEngine(net)
				for _, p := range mbflyPerms(n, env.Budget.Pick(2, 6, 20), env.Seed, tag+uint64(r)) {
					s, err := mb.Init(net, cfg.L, p)
					if err != nil {
						return runs, setupError{fmt.Errorf("N=%d d=%d L=%d net %d perm %v: %w", n, cfg.d, cfg.L, r, p, err)}
					}
					res, fin, err := eng.Run(s, amb.Options{Check: true, Fault: fault})
					runs++
					if err != nil {
						return runs, fmt.Errorf("N=%d d=%d L=%d net %d perm %v: %w", n, cfg.d, cfg.L, r, p, err)
					}
					if !f(fmt.Sprintf("N=%d d=%d L=%d net %d", n, cfg.d, cfg.L, r), p, s, res, fin) {
						return runs, nil
					}
				}
			}
		}
	}
	return runs, nil
}

func registerMbflySim() {
	claimtab.Register(
		// Near-boundary degrees ([2026-11-25, review], fixed before running):
		// a single input of an m = 32 splitter has its d edges per side on
		// d independent uniform outputs of 16, and β = 7 fails there when
		// fewer than 7 are distinct; by that occupancy law (and the pairs at
		// m = 64) d = 14 is caught with probability ≈ 0.7 (small) and ≈ 0.98
		// (default), d = 16 — the splitter's degree 2d read as d — ≈ 0.2 and
		// ≈ 0.6.
		claimtab.WithFault(claimtab.WithFault(claimtab.WithFault(ledger.Text(props.Claim{
			ID: "mbfly/sec3.1/design-network-expands",
		}), mbflyExpandsCheck, mbflyDesign.D, 8, "networks built with degree d = 8 in place of 32 (a quarter of the design degree; fixed before running)"),
			mbflyExpandsCheck, mbflyDesign.D, 16, "networks built with degree d = 16 in place of 32 (the splitter's degree 2d read as d: 16 matchings per side; near where β = 7 breaks at these N; fixed before running)"),
			mbflyExpandsCheck, mbflyDesign.D, 14, "networks built with degree d = 14 in place of 32 (just below where β = 7 breaks at these N; fixed before running)"),
	)

	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/sec3.2/buffers-le-L",
		Notes:  "The model (models/multibutterfly) rejects any step that fills a buffer beyond L, so the check cannot pass by a silent repair; amb.Options.Check also compares the per-batch rule against the model's positions. " + mbflyReadings,
		Check:  mbflyBuffersCheck(amb.NoFault),
		Faults: []props.Fault{mbflyFaultIgnoreBatch(mbflyBuffersCheck)},
	}))

	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{
			ID:    "mbfly/sec3.2/delivers",
			Notes: "Conservation and routing are checked by the model's CheckInvariants after every step; the final positions are compared with the permutation directly. " + mbflyReadings,
		}), mbflyDeliversCheck, amb.NoFault, amb.FaultIgnoreBit, "a router that moves a packet along any activated edge, ignoring its destination bit (amb.FaultIgnoreBit)"),
	)

	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/claim-3.1/splitter-recurrence",
		Notes:  "β is exact per splitter where it is not vacuous (a smaller certified β would only weaken the inequality). Triples where the batch-load hypothesis fails (m < L, see mbfly/sec3.2/batch-load) are not held to the inequality; the evidence counts how many of them would violate it. " + mbflyReadings,
		Check:  func(env props.Env) props.Outcome { return mbflyRecurrenceCheck(env, amb.NoFault) },
		Faults: []props.Fault{{Name: mbflyLowestName, Check: func(env props.Env) props.Outcome { return mbflyRecurrenceCheck(env, amb.FaultLowestPriority) }}},
	}))

	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/claim-3.2/stage-bound",
		Shares: mbflyDesignShares,
		Notes:  "[2026-11-23] Recorded holds before verdicts had to carry power; the planted fault (a router serving each node's lowest-priority packet first) is not caught at the small or default budget: at the sizes run the bound min[N/L, (N/L)γ^{t−θk}(1+β)^{⌈s/2⌉}] equals N/L at every stage s ≥ 1 until γ^t(1+β) < 1 (t ≥ 7 for γ = 0.736), while the runs finish in log N + 3 ≤ 9 iterations, so only stage 0 and the last iteration or two are constrained; the check cannot tell the priority rule from its reverse. L | N avoids the base-case rounding (mbfly/claim-3.2/base-case). Stage log N (delivered packets) is included: there X ≤ N/L always. " + mbflyReadings,
		Check:  mbflyClaim32Check(amb.NoFault),
		Faults: []props.Fault{{Name: mbflyLowestName, Check: mbflyClaim32Check(amb.FaultLowestPriority)}},
	}))

	props.Register(withTimeFaults(ledger.Text(props.Claim{
		ID:     "mbfly/thm-3.1/time-bound",
		Shares: mbflyDesignShares,
		Notes:  "[2026-11-23] Recorded holds before verdicts had to carry power; neither planted fault is caught (the bound ×0.5, fixed before running, and a router serving the lowest-priority packet first): the slack is about 0.12 (runs need ≤ 9 iterations against T0 = 64, 70, 76 for N = 16, 32, 64 — 76 checked by hand: (N/L)(β+1)^{3.5}γ^{θ}/(1−γ^{θ}) ≈ 321.6 at γ = 0.736, θ = 14, so T − θL > ln 321.6 / 0.3065 ≈ 18.8, T0 = 76; the note said 64…70 until 2026-11-24), so only a router about 8 times slower could fail it; recorded inconclusive (issue 9 §3: 8× slack). The theorem's '+ O(1)' is read as the proof gives it: after T0 iterations (T0 from the proof's sum) no packet is outside the outputs, so the bound is 2d·T0 steps with no hidden constant. The bound is loose (θL = 56 iterations of slack for the batches alone): the runs need log N + 3 iterations. " + mbflyReadings,
	}), mbflyTimeBoundCheck, "the bound 2d·T0"))
}

// mbflyExpandsCheck is mbfly/sec3.1/design-network-expands' check of the
// construction with degree d (mbflyDesign.D: the real one) against the
// design's α and β.
func mbflyExpandsCheck(d int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns, nets := mbflySizes(env.Budget)
		minR := math.Inf(1)
		for _, n := range ns {
			for r := range nets {
				net, err := mbflyNet(env.Seed, 0xd5, n, d, r)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				ratio, bad, err := mbflyVerify(net, mbflyDesign.Alpha, mbflyDesign.Beta)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if bad != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d: %s", n, r, bad), Counterexample: map[string]any{"N": n, "d": d, "network": r, "where": bad}}
				}
				minR = math.Min(minR, ratio)
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d networks per size N ∈ %v; smallest |Γ(X)|/|X| met: %.2f ≥ β = 7", nets, ns, minR)}
	}
}

// mbflyLowestName names the planted fault of the design-network checks.
const mbflyLowestName = "a router that considers each node's lowest-priority packet (highest batch) instead of its highest (amb.FaultLowestPriority)"

// withTimeFaults sets c's check to check(amb.NoFault, 1) and plants the two
// faults of the time-bound claims: the same check with the bound (named
// bound) scaled by 0.5, and with the lowest-priority router.
func withTimeFaults(c props.Claim, check func(fault amb.Fault, factor float64) func(props.Env) props.Outcome, bound string) props.Claim {
	c.Check = check(amb.NoFault, 1)
	c.Faults = append(c.Faults,
		props.Fault{Name: bound + " scaled by 0.5 (factor fixed before running)", Check: check(amb.NoFault, 0.5)},
		props.Fault{Name: mbflyLowestName, Check: check(amb.FaultLowestPriority, 1)})
	return c
}

// mbflyFaultIgnoreBatch is the planted fault of the per-step invariants: a
// router that moves a packet into a node already holding one of its batch.
func mbflyFaultIgnoreBatch(check func(amb.Fault) func(props.Env) props.Outcome) props.Fault {
	return props.Fault{Name: "a router that moves a packet into a node already holding a packet of its batch (amb.FaultIgnoreBatch)", Check: check(amb.FaultIgnoreBatch)}
}

// mbflyBuffersCheck is mbfly/sec3.2/buffers-le-L's check of the router
// with fault (amb.NoFault: the real one).
func mbflyBuffersCheck(fault amb.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxBuf := 0
		return mbflyInvariantCheck(env, 0xb1, fault, func(desc string, p []int32, s mb.State, res amb.Result, fin mb.State) (string, any) {
			maxBuf = max(maxBuf, res.MaxBuffer)
			if res.MaxBuffer > s.L {
				over := fmt.Sprintf("%s perm %v: a node held %d > L = %d packets", desc, p, res.MaxBuffer, s.L)
				return over, over
			}
			return "", nil
		}, func(runs int) string {
			return fmt.Sprintf("%d runs, every step checked; largest buffer seen %d", runs, maxBuf)
		})
	}
}

// mbflyDeliversCheck is mbfly/sec3.2/delivers' check of the router with
// fault.
func mbflyDeliversCheck(fault amb.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		return mbflyInvariantCheck(env, 0xb2, fault, func(desc string, p []int32, s mb.State, res amb.Result, fin mb.State) (string, any) {
			if !res.Complete || res.Delivered != len(s.Pos) {
				return fmt.Sprintf("%s: incomplete after %d iterations (%d of %d delivered)", desc, res.Iterations, res.Delivered, len(s.Pos)), map[string]any{"instance": desc, "perm": p}
			}
			if q := mbflyMisrouted(fin.Net, p, fin); q >= 0 {
				return fmt.Sprintf("%s: packet from %d ends at node %d", desc, fin.Source[q], fin.Pos[q]), map[string]any{"instance": desc, "perm": p}
			}
			return "", nil
		}, func(runs int) string { return fmt.Sprintf("%d runs, all delivered", runs) })
	}
}

// setupError marks an error of mbflyInvariantRuns that comes before any
// routing (building a network, placing the packets): the check could not
// run, so it is inconclusive, never violated (as a Run error is).
type setupError struct{ err error }

func (e setupError) Error() string { return e.err.Error() }
func (e setupError) Unwrap() error { return e.err }

// mbflyInvariantCheck runs mbflyInvariantRuns with judge, which returns ""
// for a good run and otherwise the evidence and counterexample of a bad
// one. Inconclusive on a setupError (no run could be made), violated on
// a bad run or a run's error, else holds with holds(runs)
// as the evidence. When several runs are bad the last one found is
// reported: among N = 4, 8 a bad run ends only its (N, d, L), and the runs
// go on with the next.
func mbflyInvariantCheck(env props.Env, tag uint64, fault amb.Fault, judge func(desc string, p []int32, s mb.State, res amb.Result, fin mb.State) (bad string, cex any), holds func(runs int) string) props.Outcome {
	var bad string
	var cex any
	runs, err := mbflyInvariantRuns(env, tag, fault, func(desc string, p []int32, s mb.State, res amb.Result, fin mb.State) bool {
		b, c := judge(desc, p, s, res, fin)
		if b == "" {
			return true
		}
		bad, cex = b, c
		return false
	})
	if se := (setupError{}); errors.As(err, &se) {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: "setup: " + se.Error()}
	}
	if err != nil {
		return props.Outcome{Verdict: props.Violated, Evidence: err.Error(), Counterexample: err.Error()}
	}
	if bad != "" {
		return props.Outcome{Verdict: props.Violated, Evidence: bad, Counterexample: cex}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: holds(runs)}
}

// mbflyClaim32Check is mbfly/claim-3.2/stage-bound's check of the router
// with fault.
func mbflyClaim32Check(fault amb.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		return mbflyDesignCheck(env, fault, func(n, logN int, st mbflyRunStats, T0 int) string { return st.claim32 })
	}
}

// mbflyTimeBoundCheck is mbfly/thm-3.1/time-bound's check of the router
// with fault against the bound 2d·T0 scaled by factor (1: the theorem's).
// The outcome's Slack is the worst steps/(2d·T0) seen.
func mbflyTimeBoundCheck(fault amb.Fault, factor float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		worst := 0.0
		o := mbflyDesignCheck(env, fault, func(n, logN int, st mbflyRunStats, T0 int) string {
			bound := factor * float64(2*mbflyDesign.D*T0)
			worst = math.Max(worst, float64(st.res.Steps)/bound)
			if !st.res.Complete || float64(st.res.Steps) > bound {
				return fmt.Sprintf("N=%d: %d steps (complete %v) > %g·2d·T0 = %g", n, st.res.Steps, st.res.Complete, factor, bound)
			}
			return ""
		})
		if o.Verdict != props.Holds || env.Budget == props.Small {
			o.Slack = props.SlackOf(worst, 1)
			return o
		}
		c := mbflyCertifiedTimeCheck(env, fault, factor, &worst)
		o.Slack = props.SlackOf(worst, 1)
		if c.Verdict != props.Holds {
			c.Slack = o.Slack
			return c
		}
		o.Evidence += " Certified networks: " + c.Evidence
		return o
	}
}

// mbflyDesignSize is the runs of mbflyDesignCheck at one size N, in the
// check's order: Claim 3.2's statistics of each run (a summary), the last
// run possibly one that failed; stop, when set, is the outcome that ended
// the runs after these (condition (1) infeasible, or a network that could
// not be built).
type mbflyDesignSize struct {
	n, logN, T0 int
	gamma       float64
	theta       int
	runs        []mbflyDesignRun
	stop        *props.Outcome
}

// mbflyDesignRun is one permutation routed on design network r.
type mbflyDesignRun struct {
	r, i int
	p    []int32
	st   mbflyRunStats
	err  error
}

// mbflyDesignKey names everything the design runs depend on.
type mbflyDesignKey struct {
	seed   uint64
	budget props.Budget
	fault  amb.Fault
}

// mbflyDesignMemo holds the design runs per key: mbfly/claim-3.2/stage-bound
// and mbfly/thm-3.1/time-bound (each with its planted faults) judge the
// same runs and share mbflyDesignShares. computed counts the keys run.
var mbflyDesignMemo struct {
	sync.Mutex
	m        map[mbflyDesignKey][]mbflyDesignSize
	computed atomic.Int64
}

// mbflyDesignShares is the Shares of the claims that read mbflyDesignMemo.
const mbflyDesignShares = "mbfly/design-runs"

// mbflyDesignRuns routes (once per key) every design network of every size
// with every permutation, Claim 3.2 observed, until a run fails or the
// runs cannot go on.
func mbflyDesignRuns(env props.Env, fault amb.Fault) []mbflyDesignSize {
	key := mbflyDesignKey{env.Seed, env.Budget, fault}
	mbflyDesignMemo.Lock()
	defer mbflyDesignMemo.Unlock()
	if got, ok := mbflyDesignMemo.m[key]; ok {
		return got
	}
	mbflyDesignMemo.computed.Add(1)
	var out []mbflyDesignSize
	ns, nets := mbflySizes(env.Budget)
	D := mbflyDesign
sizes:
	for _, n := range ns {
		sz := mbflyDesignSize{n: n, logN: ceilLog2(n)}
		var ok bool
		sz.T0, sz.gamma, sz.theta, ok = mbflyforms.BestT0(sz.logN, D.L, D.Beta)
		if !ok {
			sz.stop = &props.Outcome{Verdict: props.Inconclusive, Evidence: "condition (1) infeasible"}
			out = append(out, sz)
			break
		}
		for x, err := range mbflyDesignNets(env.Seed, n, nets) {
			if err != nil {
				sz.stop = &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				out = append(out, sz)
				break sizes
			}
			r, net, eng := x.r, x.net, x.eng
			for i, p := range mbflyPerms(n, env.Budget.Pick(4, 12, 40), env.Seed, 0xd6+uint64(r)) {
				st, err := mbflyRun(net, eng, D.L, p, D.Alpha, func(int, int) float64 { return D.Beta }, D.Beta, sz.gamma, sz.theta, false, fault)
				sz.runs = append(sz.runs, mbflyDesignRun{r, i, p, st, err})
				if err != nil {
					out = append(out, sz)
					break sizes
				}
			}
		}
		out = append(out, sz)
	}
	if mbflyDesignMemo.m == nil {
		mbflyDesignMemo.m = map[mbflyDesignKey][]mbflyDesignSize{}
	}
	mbflyDesignMemo.m[key] = out
	return out
}

// mbflyDesignCheck judges the design runs (mbflyDesignRuns) with Claim
// 3.2 observed: judge is applied to every run ("" = fine).
func mbflyDesignCheck(env props.Env, fault amb.Fault, judge func(n, logN int, st mbflyRunStats, T0 int) string) props.Outcome {
	D := mbflyDesign
	var ev []string
	runs := 0
	for _, sz := range mbflyDesignRuns(env, fault) {
		n := sz.n
		maxIt, maxSteps := 0, 0
		for _, x := range sz.runs {
			runs++
			if x.err != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: x.err.Error(), Counterexample: map[string]any{"N": n, "network": x.r, "perm": x.p}}
			}
			if msg := judge(n, sz.logN, x.st, sz.T0); msg != "" {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d permutation %d: %s", n, x.r, x.i, msg), Counterexample: map[string]any{"N": n, "d": D.D, "network": x.r, "perm": x.p}}
			}
			maxIt, maxSteps = max(maxIt, x.st.res.Iterations), max(maxSteps, x.st.res.Steps)
		}
		if sz.stop != nil {
			return *sz.stop
		}
		ev = append(ev, fmt.Sprintf("N=%d: γ=%.3f θ=%d T0=%d (2d·T0 = %d steps); worst run %d iterations = %d steps", n, sz.gamma, sz.theta, sz.T0, 2*D.D*sz.T0, maxIt, maxSteps))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d runs. %s", runs, strings.Join(ev, "; "))}
}

func mbflyRecurrenceCheck(env props.Env, fault amb.Fault) props.Outcome {
	ns, nets := mbflySizes(env.Budget)
	D := mbflyDesign
	checked, outside, runs := 0, 0, 0
	for _, n := range ns {
		for x, err := range mbflyDesignNets(env.Seed, n, nets) { // β = 7 everywhere
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			r, net, eng := x.r, x.net, x.eng
			for _, p := range mbflyPerms(n, env.Budget.Pick(2, 6, 20), env.Seed, 0xd7+uint64(r)) {
				st, err := mbflyRun(net, eng, D.L, p, D.Alpha, func(int, int) float64 { return D.Beta }, D.Beta, 0, 0, false, fault)
				runs++
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if st.claim31 != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("design N=%d network %d: %s", n, r, st.claim31), Counterexample: map[string]any{"N": n, "d": D.D, "network": r, "perm": p, "where": st.claim31}}
				}
				checked, outside = checked+st.claim31Checked, outside+st.claim31Outside
			}
			// small d, exact per-splitter β, several α (⌊αm⌋ ≤ 4 keeps the
			// enumeration small: α = 1/8 only up to N = 32)
			for _, inv := range []int{16, 8} {
				alpha := 1 / float64(inv)
				if n*8 > 32*inv {
					continue
				}
				for d := 1; d <= 3; d++ {
					net, err := mbflyNet(env.Seed, 0xd8, n, d, r)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					bs, err := mbflySplitterBeta(net, alpha)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					eng := amb.NewEngine(net)
					for _, L := range []int{2, 4, 8, 16} {
						for _, p := range mbflyPerms(n, env.Budget.Pick(2, 6, 20), env.Seed, 0xd9+uint64(r)) {
							st, err := mbflyRun(net, eng, L, p, alpha, func(s, j int) float64 { return bs[s][j] }, 0, 0, 0, false, fault)
							runs++
							if err != nil {
								return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
							}
							if st.claim31 != "" {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d α=1/%d L=%d network %d: %s", n, d, inv, L, r, st.claim31), Counterexample: map[string]any{"N": n, "d": d, "alpha_inv": inv, "L": L, "network": r, "perm": p, "where": st.claim31}}
							}
							checked, outside = checked+st.claim31Checked, outside+st.claim31Outside
						}
					}
				}
			}
		}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d runs, %d (splitter, iteration, batch) triples within the hypotheses, none violates; %d triples outside the batch-load hypothesis violate the inequality", runs, checked, outside)}
}

// mbflyCertifiedTimeCheck runs Theorem 3.1's bound on larger networks whose
// splitters are certified (1/32, 4)-splitters: L = 7, (γ, θ) from BestT0.
func mbflyCertifiedTimeCheck(env props.Env, fault amb.Fault, factor float64, worstRatio *float64) props.Outcome {
	const beta = 4.0
	L := amb.BatchesFor(1.0/32, beta)
	ns := []int{256}
	if env.Budget == props.Large {
		ns = append(ns, 1024)
	}
	var ev []string
	for _, n := range ns {
		logN := ceilLog2(n)
		T0, g, th, ok := mbflyforms.BestT0(logN, L, beta)
		if !ok {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "condition (1) infeasible for β = 4"}
		}
		net, err := mbflyNet(env.Seed, 0xd5c, n, mbflyDesign.D, 0)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		if bad := mbflyCertify(net, 1.0/32, beta); bad != "" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d: %s", n, bad)}
		}
		worst := 0
		for x, err := range mbflyRoutes(net, L, mbflyPerms(n, env.Budget.Pick(2, 4, 10), env.Seed, 0xd5d), amb.Options{Fault: fault}) {
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d: %v", n, err)}
			}
			if x.err != nil || !x.res.Complete {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d: %+v %v", n, x.res, x.err), Counterexample: map[string]any{"N": n, "perm": x.p}}
			}
			bound := factor * float64(2*mbflyDesign.D*T0)
			*worstRatio = math.Max(*worstRatio, float64(x.res.Steps)/bound)
			if float64(x.res.Steps) > bound {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d: %d steps > %g·2d·T0 = %g", n, x.res.Steps, factor, bound), Counterexample: map[string]any{"N": n, "perm": x.p}}
			}
			worst = max(worst, x.res.Steps)
		}
		ev = append(ev, fmt.Sprintf("N=%d (β = 4 certified, L = %d): γ=%.3f θ=%d T0=%d (2d·T0 = %d steps); worst run %d steps", n, L, g, th, T0, 2*mbflyDesign.D*T0, worst))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}
