package mbfly

import (
	"fmt"
	"math"
	"strings"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

func registerMbflyCert() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{
			ID: "mbfly/cor-2.1/large-splitters-certified",
		}), mbflyCertCheck, mbflyDesign.D, 8, "splitters of degree d = 8 in place of 32 (fixed before running)"),
	)
}

// mbflyCertCheck is mbfly/cor-2.1/large-splitters-certified's check of
// random splitters of degree d (mbflyDesign.D: the claim's).
func mbflyCertCheck(d int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ms := []int{128, 256}
		if env.Budget >= props.Default {
			ms = append(ms, 512, 1024)
		}
		if env.Budget == props.Large {
			ms = append(ms, 2048)
		}
		reps := env.Budget.Pick(1, 1, 3)
		var ev []string
		for _, m := range ms {
			for r := range reps {
				rng := seeds.Rand(env.Seed, 0xce, uint64(m), uint64(r))
				sp := expander.NewSplitter(m, d, rng)
				k := m / 32
				cert, greedy := math.Inf(1), math.Inf(1)
				for side, g := range []expander.Graph{sp.Upper, sp.Lower} {
					c, err := expander.Spectral(g)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					for x := 1; x <= k; x++ {
						cert = math.Min(cert, float64(c.MinNeighbours(x))/float64(x))
					}
					gr, _ := expander.GreedySmallSet(g, k, 8, rng)
					greedy = math.Min(greedy, gr)
					if cert < 3 {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("m=%d rep %d %s concentrator: certified only β ≥ %.3f (λ₂ = %.2f)", m, r, []string{"upper", "lower"}[side], cert, c.Lambda2), Counterexample: map[string]any{"m": m, "d": d, "rep": r, "certified_beta": cert}}

					}
				}
				ev = append(ev, fmt.Sprintf("m=%d: certified β ≥ %.2f, greedy set ratio %.2f", m, cert, greedy))
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// mbflyCertify checks that every splitter of net is an (α, β)-splitter:
// exactly by enumeration for m ≤ 64, by Tanner's certificate above. It
// returns "" or where certification failed (for m > 64 a failure means
// "not certified", not "false").
func mbflyCertify(net *mb.Network, alpha, beta float64) string {
	return mbflyConcentrators(net, alpha, func(s, j, side int, sp expander.Splitter, k int, g expander.Graph) string {
		if sp.M <= 64 {
			ok, bad, err := expander.Expands(g, k, beta)
			if err != nil || !ok {
				return fmt.Sprintf("splitter (%d, %d), m = %d, side %d: set %v (err %v)", s, j, sp.M, side, bad, err)
			}
			return ""
		}
		c, err := expander.Spectral(g)
		if err != nil || !c.Certifies(k, beta) {
			return fmt.Sprintf("splitter (%d, %d), m = %d, side %d: not certified (err %v)", s, j, sp.M, side, err)
		}
		return ""
	})
}
