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
	props.Register(props.Claim{
		ID:        "mbfly/app-a/splitter-beta-halves",
		Source:    mbflySrc + " Appendix A (\"the edges define four (α, β, N/2^{s+1}, d)-expanders … Thus, there is an (α, β/2, …, 2d)-splitter between each set A_{s,j} and the sets A_{s+1,2j} and A_{s+1,2j+1}\")",
		Statement: "the splitter made of four copies of an (α, β, m/2, d)-expander G (A¹ and A² each joined to both output sets by G) is an (α, β/2, m, 2d)-splitter",
		Scope:     "random d-regular G (unions of d matchings), d = 2 … 6, (m/2, 1/α) ∈ {(4, 4), (8, 4), (8, 8), (16, 8), (16, 16), (32, 16), (32, 32)} (αm/2 a positive integer); β = G's exact expansion for |X| ≤ αm/2; the splitter's exact expansion for |X| ≤ αm; 2 / 6 / 20 graphs per case",
		Kind:      props.Exact,
		Class:     props.Paper,
		Recorded:  props.Holds,
		Notes:     "The halving is tight: an input and its partner share all their neighbours, so the pair {a, a + m/2} has |Γ(a)| ≤ d neighbours. Proof of the claim (ours, when αm/2 is an integer): X's two halves project onto one set of G-inputs of size ≥ |X|/2; if it is ≤ αm/2 apply G, else a subset of size αm/2 gets ≥ βαm/2 ≥ β|X|/2 neighbours. When αm/2 < 1 ≤ αm (e.g. m = 8, α = 1/8) G's definition is vacuous (any β) while the splitter's is not, so the printed conclusion fails there for β > 2d — a rounding edge we leave out of the scope. Power: the same check with β in place of β/2 (fixed before running) is caught.",
		Check:     appABetaCheck(2),
		Faults:    []props.Fault{{Name: "β in place of β/2 (fixed before running)", Check: appABetaCheck(1)}},
	})
	props.Register(props.Claim{
		ID:        "mbfly/app-a/superimposed-butterflies",
		Source:    mbflySrc + " Appendix A (\"an N log N node Multi-Butterfly network with degree d can be constructed by superimposing d butterfly networks\")",
		Statement: "in the Appendix A network every colour class of G_s is a butterfly stage: each node of stage s has one edge of that class into each output set, and the nodes jm + q and jm + m/2 + q share both neighbours",
		Scope:     "mb.BuildAppendixA networks, N ∈ {8, 32} (small), + 128; d = 1 … 4; every stage, node and colour class",
		Kind:      props.Exact,
		Class:     props.Paper,
		Recorded:  props.Holds,
		Notes:     "The appendix's labelling argument is garbled in the text; we check its conclusion on the construction its last paragraph describes (four copies of G_s per splitter, one G_s per stage). Colour c of G_s is splitter colours c and d + c (A¹: upper c, lower d + c; A²: the reverse), a proper 2d-colouring. Power: the same check on mb.Build networks (independent random concentrators, fixed before running) is caught.",
		Check: appAButterflyCheck(func(n, d int, seed uint64) (*mb.Network, error) {
			return mb.BuildAppendixA(n, d, seeds.Rand(seed, 0xa99b, uint64(n), uint64(d)))
		}),
		Faults: []props.Fault{{Name: "networks from mb.Build (independent random concentrators) in place of Appendix A's", Check: appAButterflyCheck(func(n, d int, seed uint64) (*mb.Network, error) {
			return mb.Build(n, d, seeds.Rand(seed, 0xa99b, uint64(n), uint64(d)))
		})}},
	})
	props.Register(props.Claim{
		ID:        "mbfly/app-a/routes",
		Source:    mbflySrc + " Appendix A with §3.2 (the priority routing on the superimposed-butterfly network)",
		Statement: "the priority algorithm delivers every permutation on Appendix A networks with at most L packets per node",
		Scope:     "N ∈ {16, 64} (small), + 256; (d, L) ∈ {(2, 3), (8, 4)}; structured and 2 / 4 / 12 random permutations",
		Kind:      props.Invariant,
		Class:     props.Construction,
		Recorded:  props.Holds,
		Notes:     "Delivery on the appendix's construction (expansion not verified here; delivery does not depend on it). " + mbflyReadings,
		Check:     appARouteCheck(amb.NoFault),
		Faults:    []props.Fault{{Name: "a router that moves a packet along any activated edge, ignoring its destination bit (amb.FaultIgnoreBit)", Check: appARouteCheck(amb.FaultIgnoreBit)}},
	})
}
