package mbfly

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// Issue 13, "§4 checked": the simulation of the 3N-node network of §4.1 on
// N = n(log n + 1) processors (degree 6d + 2, three buffers, 3d + 1 steps
// per iteration) and §4.2's batch load per splitter.

func init() {
	registerSec4()
	registerSec4Literal()
	registerThm43Counts()
}

// sec4Mapping assigns node ⟨s, q⟩ (s = 0 … 3 log n) of the §4.1 network to
// a processor (row, q), row = 0 … log n, and returns row·n + q. rowOf is
// the reading: the paper does not say which three nodes share a processor.
type sec4Mapping func(k, s int) (row int)

// sec4Rows: processor row i hosts stages i, i + log n + 1 and
// i + 2 log n + 2 (our reading: in each of the three phases of an
// iteration — expander edges, splitter edges, direct edges — every row
// hosts exactly one stage touched by that phase).
func sec4Rows(k, s int) int { return s % (k + 1) }

// sec4Naive: row i hosts stages i, log n + i and 2 log n + i (i ≥ 1 for
// the last two) — the planted fault: rows log n and 0 collide on the
// stages log n and 2 log n shared by two parts.
func sec4Naive(k, s int) int {
	switch {
	case s <= k:
		return s
	case s <= 2*k:
		return s - k
	default:
		return s - 2*k
	}
}

// sec4MergeCheck checks, on §4.1 networks, that mapping puts at most three
// nodes on each of the n(log n + 1) processors, that a processor's degree
// (the sum of its nodes' degrees) is at most 6d + 2, and that in every
// iteration parity each of the three phases (expander, multi-butterfly,
// direct edges) involves at most one node per processor and uses at most
// d, 2d and 1 colours — so the network's colouring is a schedule of
// d + 2d + 1 = 3d + 1 steps.
func sec4MergeCheck(mapping sec4Mapping) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		for _, n := range []int{4, 8, 16, 32, 64}[:env.Budget.Pick(3, 5, 5)] {
			for _, d := range []int{1, 2, 3, 5} {
				net, err := mb.BuildComm(n, d, seeds.Rand(env.Seed, 0x5ec4, uint64(n), uint64(d)))
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				k := net.LogN
				procs := n * (k + 1)
				proc := func(v int32) int { s, q := int(v)/n, int(v)%n; return mapping(k, s)*n + q }
				maxHosted, maxDeg, bad := mergeCensus(net, n, procs, proc)
				if bad != nil {
					return *bad
				}
				cex := map[string]any{"n": n, "d": d}
				if maxHosted > 3 || maxDeg > 6*d+2 {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d: a processor hosts %d nodes, degree %d (6d + 2 = %d)", n, d, maxHosted, maxDeg, 6*d+2), Counterexample: cex}
				}
				if _, bad := mergePhaseCheck(net, n, d, procs, proc, cex); bad != nil {
					return *bad
				}
				// The phases' lengths d, 2d and 1: the schedule's steps per
				// iteration, 3d + 1 by construction (what can fail is the
				// phases' content, checked above; a "steps > 3d + 1" test on
				// this sum could not).
				steps := d + 2*d + 1
				if d == 5 {
					ev = append(ev, fmt.Sprintf("n=%d d=5: %d processors, ≤ %d nodes each, max degree %d (6d + 2 = 32), %d steps per iteration (3d + 1 = 16)", n, procs, maxHosted, maxDeg, steps))
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// sec4Overloaded returns, for α = a and A = ⌈1/α⌉, the splitter sizes
// m = 2, 4, …, 2^maxLog whose batch load ⌈m/A⌉ exceeds αm, and the largest
// excess ⌈m/A⌉ − αm among them (exact rationals).
func sec4Overloaded(a *big.Rat, maxLog int) (A int64, ms []int64, maxExcess *big.Rat) {
	inv := new(big.Rat).Inv(a)
	A = new(big.Int).Quo(new(big.Int).Add(inv.Num(), new(big.Int).Sub(inv.Denom(), big.NewInt(1))), inv.Denom()).Int64() // ⌈1/α⌉
	maxExcess = new(big.Rat)
	for lg := 1; lg <= maxLog; lg++ {
		m := int64(1) << lg
		ex := new(big.Rat).Sub(big.NewRat((m+A-1)/A, 1), new(big.Rat).Mul(a, big.NewRat(m, 1)))
		if ex.Sign() > 0 {
			ms = append(ms, m)
			if ex.Cmp(maxExcess) > 0 {
				maxExcess = ex
			}
		}
	}
	return A, ms, maxExcess
}

// sec4LoadCheck checks §4.2's batch load: with A = ⌈1/α⌉ and batch k =
// destinations ⟨2 log n + ⌊k/A⌋, q⟩ with q ≡ k (mod A), the packets of one
// batch entering the m-splitter (s, j) are those with column q in
// [jm, (j+1)m), q ≡ k (mod A): at most ⌈m/A⌉ of them, attained. It reports,
// per α, the splitter sizes m ≤ 2^12 where ⌈m/A⌉ > αm (with the largest
// excess), and the first n where a batch exceeds αn.
func sec4LoadCheck(env props.Env) props.Outcome {
	var ev []string
	var first map[string]any
	alphas := []*big.Rat{mbflyforms.Sec4Sets[0].Alpha, mbflyforms.Sec4Sets[1].Alpha, big.NewRat(1, 8), big.NewRat(1, 4)}
	for _, a := range alphas {
		A, ms, ex := sec4Overloaded(a, 12)
		found := fmt.Sprintf("α = %s: no splitter overloaded up to m = 2^12", a.RatString())
		if len(ms) > 0 {
			m := ms[0]
			load := (m + A - 1) / A
			found = fmt.Sprintf("α = %s (A = %d): %d of the 12 sizes m = 2 … 4096 overloaded (m = %d … %d; largest excess %.4g packet); first: the m = %d splitter receives %d > αm = %.4g packets of batch 0", a.RatString(), A, len(ms), ms[0], ms[len(ms)-1], mbflyforms.F(ex), m, load, mbflyforms.F(a)*float64(m))
			if l := int64(1024); len(ms) == 12 {
				found += fmt.Sprintf(" — every power of two (m = %d: %d > %.4g)", l, (l+A-1)/A, mbflyforms.F(a)*float64(l))
			}
			if first == nil {
				first = map[string]any{"alpha": a.RatString(), "A": A, "m": m, "load": load}
			}
		}
		batch := ""
		for logn := 1; logn <= 12; logn++ {
			n := int64(1) << logn
			if c := (n + A - 1) / A; big.NewRat(c, 1).Cmp(new(big.Rat).Mul(a, big.NewRat(n, 1))) > 0 {
				batch = fmt.Sprintf("; at n = %d a batch has %d > αn = %.4g packets", n, c, mbflyforms.F(a)*float64(n))
				break
			}
		}
		ev = append(ev, found+batch)
	}
	if first != nil {
		return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: first}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

func registerSec4() {
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/sec4.2/processor-merge",
		Check:  sec4MergeCheck(sec4Rows),
		Faults: []props.Fault{{Name: "the naive placement: row i hosts stages i, log n + i, 2 log n + i (fixed before running)", Check: sec4MergeCheck(sec4Naive)}},
	}))

	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/sec4.2/batch-load",
		Check: sec4LoadCheck,
	}))
}

// sec4LiteralRun runs §4.2's protocol on s with A = ⌈1/α⌉ and reports
// whether it completed (a run of the keep-buffer rule, or of a fault).
type sec4LiteralRun func(s mb.CommState, A int) (amb.CommResult, mb.CommState, error)

func sec4LiteralOrder(order amb.RowOrder) sec4LiteralRun {
	return func(s mb.CommState, A int) (amb.CommResult, mb.CommState, error) {
		return amb.RunCommLiteralOrder(s, A, 0, true, order)
	}
}

// sec4Stuck describes where a run that did not complete is stuck.
func sec4Stuck(fin mb.CommState, n, k int) string {
	stuck := ""
	for v, p := range fin.Buf {
		if p >= 0 && fin.Dest[p] != int32(v) {
			stuck = fmt.Sprintf("packet %d (destination ⟨%d, %d⟩) stuck at ⟨%d, %d⟩", p, int(fin.Dest[p])/n, int(fin.Dest[p])%n, v/n, v%n)
			if w := int32(v + n); v/n >= 2*k && int(w) < len(fin.Buf) && fin.Buf[w] >= 0 && fin.Dest[fin.Buf[w]] == w {
				stuck += fmt.Sprintf(", behind packet %d delivered at ⟨%d, %d⟩", fin.Buf[w], int(w)/n, int(w)%n)
			}
			break
		}
	}
	held := 0
	for q := range n {
		if p := fin.Buf[2*k*n+q]; p >= 0 && fin.Dest[p] == int32(2*k*n+q) {
			held++
		}
	}
	return fmt.Sprintf("%s; %d of the %d nodes of stage 2 log n hold the packet delivered there", stuck, held, n)
}

// sec4LiteralCheck runs the literal one-buffer rule (delivered packets keep
// their buffers) on small §4.1 networks, smallest first, with both row
// orders of the batches (names for the evidence): deadlock (nearest-row-first in the claim) must
// leave at least one run incomplete, complete (farthest-row-first) must
// finish every run. Once deadlock has failed a run it is not run again.
func sec4LiteralCheck(deadName string, deadlock sec4LiteralRun, compName string, complete sec4LiteralRun) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs, firstStuck := 0, ""
		var stuckCex map[string]any
		for _, n := range []int{2, 4, 8, 16}[:env.Budget.Pick(3, 4, 4)] {
			k := bits.Len(uint(n)) - 1
			for d := 1; d <= 2; d++ {
				for _, A := range []int{1, 2, 4} {
					for r := range env.Budget.Pick(3, 5, 10) {
						rng := seeds.Rand(env.Seed, 0x11e8, uint64(n), uint64(d), uint64(A), uint64(r))
						_, s, dest, err := commStart(n, d, rng)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						cex := map[string]any{"n": n, "d": d, "A": A, "network_seed": []uint64{env.Seed, 0x11e8, uint64(n), uint64(d), uint64(A), uint64(r)}, "dest": dest}
						if stuckCex == nil {
							res, fin, err := deadlock(s, A)
							if err != nil {
								return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
							}
							if !res.Complete {
								stuckCex = cex
								firstStuck = fmt.Sprintf("%s deadlocks at n=%d d=%d A=%d network %d (after %d runs of it): not complete after %d iterations; %s, which never moves again", deadName, n, d, A, r, runs, res.Iterations, sec4Stuck(fin, n, k))
							}
						}
						res, fin, err := complete(s, A)
						runs++
						if err != nil { // the model's check found a packet misrouted, lost or duplicated: the claim fails (inconclusive until 2026-11-25)
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s: n=%d d=%d A=%d network %d: %v (%d runs before)", compName, n, d, A, r, err, runs-1), Counterexample: cex}
						}
						if !res.Complete {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s: n=%d d=%d A=%d network %d not complete after %d iterations; %s (%d runs before)", compName, n, d, A, r, res.Iterations, sec4Stuck(fin, n, k), runs-1), Counterexample: cex}
						}
					}
				}
			}
		}
		if stuckCex == nil {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s completed all %d runs: no deadlock found", deadName, runs)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%s; %s: %d runs (the same instances), all complete", firstStuck, compName, runs), Counterexample: stuckCex}
	}
}

func registerSec4Literal() {
	absorbing := func(s mb.CommState, A int) (amb.CommResult, mb.CommState, error) {
		return amb.RunComm(s, A, 0, true)
	}
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/sec4.2/literal-exchange",
		Check: sec4LiteralCheck("nearest-row-first", sec4LiteralOrder(amb.NearestRowFirst), "farthest-row-first", sec4LiteralOrder(amb.FarthestRowFirst)),
		Faults: []props.Fault{
			{Name: "the two row orders swapped (fixed before running)", Check: sec4LiteralCheck("farthest-row-first", sec4LiteralOrder(amb.FarthestRowFirst), "nearest-row-first", sec4LiteralOrder(amb.NearestRowFirst))},
			{Name: "the absorbing rule (amb.RunComm) as the nearest-first run (fixed before running)", Check: sec4LiteralCheck("nearest-row-first, absorbing", absorbing, "farthest-row-first", sec4LiteralOrder(amb.FarthestRowFirst))},
		},
	}))
}

// thm43Counts returns, for Theorem 4.3's proof network (n nodes per
// stage, d a power of two), the node counts of its three parts — the
// expander stages (log n + 2d log 2d + 1 of them), the multi-butterfly's
// log n + 1 stages plus the cycle vertices that replace the nodes of its
// first log 2d stages (2d − 1 extra per node), and the direct-edge stages
// (log n + 2d log 2d + 1) — counting each boundary stage in the part after
// it, as §4.1 does (stage log n is the multi-butterfly's input).
func thm43Counts(logn, d int) (parts [3]int64, total int64) {
	n := int64(1) << logn
	l2d := int64(bits.Len(uint(2*d)) - 1)
	D := int64(d)
	first := int64(logn) + 2*D*l2d + 1 // stages of the expander part
	last := int64(logn) + 2*D*l2d + 1
	stages := 3*int64(logn) + 4*D*l2d + 1 // as printed; = first + (log n + 1) + last − 2
	parts[0] = n * (first - 1)
	parts[1] = n*(int64(logn)+1) + n*l2d*(2*D-1)
	parts[2] = n * (last - 1)
	total = n*stages + n*l2d*(2*D-1)
	return parts, total
}

func thm43Check(env props.Env) props.Outcome {
	var ev []string
	for _, d := range []int{2, 4, 8, 16, 32, 64, 128} {
		for _, logn := range []int{4, 10, 20} {
			parts, total := thm43Counts(logn, d)
			n := int64(1) << logn
			N := n * (int64(logn) + int64(d)*int64(bits.Len(uint(d))-1)) // printed N = n(log n + d log d)
			if parts[0]+parts[1]+parts[2] != total {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("internal: parts %v do not add up to %d", parts, total)}
			}
			if total > 3*N {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("d = %d, n = 2^%d: the network has %d nodes (parts %d, %d, %d) but 3N = 3n(log n + d log d) = %d; each part is about n(log n + 2d log 2d), not N", d, logn, total, parts[0], parts[1], parts[2], 3*N), Counterexample: map[string]any{"d": d, "log_n": logn, "nodes": total, "3N": 3 * N}}
			}
			ev = append(ev, fmt.Sprintf("d=%d n=2^%d: %d ≤ 3N = %d", d, logn, total, 3*N))
		}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

func registerThm43Counts() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.3/node-count",
		Check: thm43Check,
	}))
}

// mergeCensus maps every node of net to its processor (proc, onto procs
// processors; n nodes a stage) and returns the most nodes one processor
// hosts and the largest processor degree (edges counted at both ends), or
// a violated outcome if a node maps outside the processors.
func mergeCensus(net *mb.CommNetwork, n, procs int, proc func(int32) int) (maxHosted, maxDeg int, bad *props.Outcome) {
	hosted, deg := make([]int, procs), make([]int, procs)
	for v := range net.Nodes() {
		p := proc(int32(v))
		if p < 0 || p >= procs {
			return 0, 0, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d: node %d mapped to processor %d of %d", n, v, p, procs)}
		}
		hosted[p]++
	}
	for _, e := range net.Edges {
		deg[proc(e.From)]++
		deg[proc(e.To)]++
	}
	for p := range procs {
		maxHosted, maxDeg = max(maxHosted, hosted[p]), max(maxDeg, deg[p])
	}
	return maxHosted, maxDeg, nil
}

// mergePhaseCheck checks §4.2's merge schedule on net with the map proc
// from nodes to procs processors: in each parity of the stages, each of the
// three phases (expander edges, net.Part 0; splitter edges, 1; direct
// edges, 2) acts for one node per processor and uses at most d, 2d and 1
// colours. It returns the most colours each phase uses over both parities,
// or a violated outcome (cex, with the clash added where a processor must
// act for two nodes).
func mergePhaseCheck(net *mb.CommNetwork, n, d, procs int, proc func(int32) int, cex map[string]any) (used [3]int, bad *props.Outcome) {
	node := make([]int32, procs) // processor → its node in the phase
	for parity := range 2 {
		for part, limit := range []int{d, 2 * d, 1} {
			for i := range node {
				node[i] = -1
			}
			colours := map[int32]bool{}
			for i, e := range net.Edges {
				if int(net.Part[i]) != part || int(e.Stage)%2 != parity {
					continue
				}
				colours[e.Colour] = true
				for _, v := range []int32{e.From, e.To} {
					p := proc(v)
					if w := node[p]; w >= 0 && w != v {
						cex["parity"], cex["phase"], cex["processor"], cex["nodes"] = parity, part, p, []int32{w, v}
						return used, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d parity %d, phase %d: processor %d must act for nodes %d and %d (stages %d, %d)", n, d, parity, part, p, w, v, int(w)/n, int(v)/n), Counterexample: cex}
					}
					node[p] = v
				}
			}
			if len(colours) > limit {
				return used, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d phase %d uses %d colours > %d", n, d, part, len(colours), limit), Counterexample: cex}
			}
			used[part] = max(used[part], len(colours))
		}
	}
	return used, nil
}
