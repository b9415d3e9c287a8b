package mbfly

import (
	"fmt"
	"math"
	"strings"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
)

// Appendix A of 004_8aa7b4c265a7324b.txt: the multi-butterfly as d
// superimposed butterflies, each splitter made of four copies of one
// (α, β, m/2, d)-expander G_s (models/expander.AppendixASplitter).

func init() {
	registerAppendixA()
}

// appACfgs are (h = m/2, 1/α) with αh a positive integer (so ⌊αm⌋ = 2αh)
// and 2h ≤ 64 (exact enumeration).
var appACfgs = [][2]int{{4, 4}, {8, 4}, {8, 8}, {16, 8}, {16, 16}, {32, 16}, {32, 32}}

// appABetaCheck checks that the Appendix A splitter of a random d-regular
// G on h vertices is an (α, β_G/divisor)-splitter, β_G the exact expansion
// of G for |X| ≤ αh (divisor 2: the appendix's claim; 1: the planted fault).
func appABetaCheck(divisor float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		reps := env.Budget.Pick(2, 6, 20)
		worst, checked := math.Inf(1), 0
		for _, c := range appACfgs {
			h, ainv := c[0], c[1]
			for d := 2; d <= 6; d++ {
				for r := range reps {
					g := expander.RandomRegular(h, d, seeds.Rand(env.Seed, 0xa99a, uint64(h), uint64(ainv), uint64(d), uint64(r)))
					kG := h / ainv
					mg, _, err := expander.MinNeighbours(g, kG)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					bG := math.Inf(1)
					for x := 1; x <= kG; x++ {
						bG = math.Min(bG, float64(mg[x])/float64(x))
					}
					sp, err := expander.AppendixASplitter(g)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					kS := 2 * h / ainv
					for side, conc := range []expander.Graph{sp.Upper, sp.Lower} {
						ms, ws, err := expander.MinNeighbours(conc, kS)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						for x := 1; x <= kS; x++ {
							ratio := float64(ms[x]) / float64(x) / bG
							worst = math.Min(worst, ratio)
							checked++
							if float64(ms[x]) < bG/divisor*float64(x)-1e-9 {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("m=%d d=%d α=1/%d rep %d, %s: X = %v has %d < (β_G/%g)|X| = %.3f neighbours (β_G = %.3f)", 2*h, d, ainv, r, []string{"upper", "lower"}[side], ws[x], ms[x], divisor, bG/divisor*float64(x), bG), Counterexample: map[string]any{"h": h, "d": d, "alpha_inv": ainv, "G": g.Adj, "X": ws[x]}}
							}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d (graph, side, |X|) cases; least |Γ(X)|/(β_G|X|) = %.3f (≥ 1/2)", checked, worst)}
	}
}

// appAClass lists v's upper and lower neighbours over G-colour c of a
// network of degree d (colours c and d + c), in edge order.
func appAClass(net *mb.Network, v int32, d, c int) (up, low []int32) {
	for _, ei := range net.Out[v] {
		e := net.Edges[ei]
		if int(e.Colour)%d != c {
			continue
		}
		if e.Lower {
			low = append(low, e.To)
		} else {
			up = append(up, e.To)
		}
	}
	return up, low
}

// appAButterflyCheck checks that, on networks from build, the edges of
// G-colour c (colours c and d + c) from every set A_{s,j} form a butterfly
// stage: each input has one upper and one lower such edge, and inputs
// jm + q and jm + m/2 + q have the same two neighbours.
func appAButterflyCheck(build func(n, d int, seed uint64) (*mb.Network, error)) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		nets := 0
		for _, n := range []int{8, 32, 128}[:env.Budget.Pick(2, 3, 3)] {
			for d := 1; d <= 4; d++ {
				net, err := build(n, d, env.Seed)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				nets++
				for s := range net.LogN {
					m := n >> s
					for k := range n {
						v := net.Node(s, k)
						for c := range d {
							up, low := appAClass(net, v, d, c)
							if len(up) != 1 || len(low) != 1 {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d node ⟨%d, %d⟩, colour class %d: %d upper and %d lower edges", n, d, s, k, c, len(up), len(low)), Counterexample: map[string]any{"N": n, "d": d, "stage": s, "node": k}}
							}
							if k%m >= m/2 {
								continue
							}
							// the partner's last edge of each kind (its count is
							// checked at its own turn, k + m/2)
							wu, wl := appAClass(net, net.Node(s, k+m/2), d, c)
							if len(wu) == 0 || wu[len(wu)-1] != up[0] || len(wl) == 0 || wl[len(wl)-1] != low[0] {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d stage %d: partners ⟨%d, %d⟩ and ⟨%d, %d⟩ have different colour-%d neighbours", n, d, s, s, k, s, k+m/2, c), Counterexample: map[string]any{"N": n, "d": d, "stage": s, "node": k}}
							}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d networks: every colour class of every stage is a butterfly stage", nets)}
	}
}

func appARouteCheck(fault amb.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		runs := 0
		var ev []string
		for _, n := range []int{16, 64, 256}[:env.Budget.Pick(2, 3, 3)] {
			for _, c := range []struct{ d, L int }{{2, 3}, {8, 4}} {
				net, err := mb.BuildAppendixA(n, c.d, seeds.Rand(env.Seed, 0xa99c, uint64(n), uint64(c.d)))
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				worst := 0
				for x, err := range mbflyRoutes(net, c.L, mbflyPerms(n, env.Budget.Pick(2, 4, 12), env.Seed, 0xa99d), amb.Options{Check: n <= 64, Fault: fault}) {
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d d=%d L=%d permutation %d: %v", n, c.d, c.L, x.i, err)}
					}
					runs++
					cex := map[string]any{"N": n, "d": c.d, "L": c.L, "perm": x.p}
					if x.err != nil || !x.res.Complete || x.res.MaxBuffer > c.L {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d L=%d permutation %d: complete %v, max buffer %d, err %v", n, c.d, c.L, x.i, x.res.Complete, x.res.MaxBuffer, x.err), Counterexample: cex}
					}
					if q := mbflyMisrouted(net, x.p, x.fin); q >= 0 {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d permutation %d: packet from %d at node %d", n, c.d, x.i, x.fin.Source[q], x.fin.Pos[q]), Counterexample: cex}
					}
					worst = max(worst, x.res.Iterations)
				}
				ev = append(ev, fmt.Sprintf("N=%d d=%d L=%d: ≤ %d iterations", n, c.d, c.L, worst))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d runs delivered; %s", runs, strings.Join(ev, ", "))}
	}
}

func registerAppendixA() {
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/app-a/splitter-beta-halves",
		Check:  appABetaCheck(2),
		Faults: []props.Fault{{Name: "β in place of β/2 (fixed before running)", Check: appABetaCheck(1)}},
	}))
	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/app-a/superimposed-butterflies",
		Check: appAButterflyCheck(func(n, d int, seed uint64) (*mb.Network, error) {
			return mb.BuildAppendixA(n, d, seeds.Rand(seed, 0xa99b, uint64(n), uint64(d)))
		}),
		Faults: []props.Fault{{Name: "networks from mb.Build (independent random concentrators) in place of Appendix A's", Check: appAButterflyCheck(func(n, d int, seed uint64) (*mb.Network, error) {
			return mb.Build(n, d, seeds.Rand(seed, 0xa99b, uint64(n), uint64(d)))
		})}},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/app-a/routes",
		Notes: "Delivery on the appendix's construction (expansion not verified here; delivery does not depend on it). " + mbflyReadings,
		Check: appARouteCheck(amb.NoFault),
		Faults: []props.Fault{
			{Name: "a router that moves a packet along any activated edge, ignoring its destination bit (amb.FaultIgnoreBit)", Check: appARouteCheck(amb.FaultIgnoreBit)},
			// A near miss (a fresh review's suggestion, 2026-11-25): the
			// routes stay right, only §3.2's one-batch-at-a-time rule is
			// dropped, which the model's step check sees at N ≤ 64.
			{Name: "a router that ignores the batch rule, sending packets of several batches in one iteration (amb.FaultIgnoreBatch)", Check: appARouteCheck(amb.FaultIgnoreBatch)},
		},
	}))
}
