package mbfly

import (
	"fmt"
	"math"
	"strings"

	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
)

// Issue 13 (audit, 2026-11-24): the explicit network that is routed
// (mb.BuildMGG, d = 8, α = 1/64) gets its expansion checked as a claim at
// the routed sizes above N = 64 (mbfly/sec3.1/mgg-expands-1-64 stops there;
// mbfly/sec3.2/mgg-delivers routes N = 128, 256 at the default budget):
// exactly where m ≤ mggExactMaxM (every X with |X| ≤ ⌊m/64⌋, by
// expander.MinNeighboursSmall), by Tanner's bound from each concentrator's
// computed λ₂ above, against the β > 3 that condition (1) needs. The
// spectral certificate is kept as a side finding in the evidence.

func init() { registerMGGTanner() }

// mggTannerSizes are the N of the certified networks: the routed sizes
// whose splitters are not all vacuous at α = 1/64 (m ≥ 64), 64 … 256 at
// every budget (mgg-delivers routes 128 and 256 from the default budget),
// + 1024 at large (routed there).
func mggTannerSizes(b props.Budget) []int {
	ns := []int{64, 128, 256}
	if b == props.Large {
		ns = append(ns, 1024)
	}
	return ns
}

// mggTannerBeta is the threshold: β > 3 (as mbfly/sec3.1/mgg-expands-1-32).
const mggTannerBeta = 3 + 1e-9

// tannerLambdaFor is the largest λ₂ for which Tanner's bound certifies
// |Γ(X)| ≥ β|X| for every 1 ≤ |X| = x ≤ k in an (dA, dB)-biregular graph
// with na left vertices: min over x of (dA²/β − dA·dB·x/na)/(1 − x/na)
// (Bound(x) ≥ βx solved for λ₂; the ceiling in MinNeighbours is ignored).
func tannerLambdaFor(dA, dB, na, k int, beta float64) float64 {
	l := math.Inf(1)
	for x := 1; x <= k; x++ {
		f := float64(x) / float64(na)
		l = math.Min(l, (float64(dA*dA)/beta-float64(dA*dB)*f)/(1-f))
	}
	return l
}

// mggExactMaxM is the largest splitter size whose concentrators
// mggTannerCheck counts exactly: |X| ≤ ⌊m/64⌋ = 4 at m = 256 takes a few
// milliseconds on the MGG concentrators; at m = 512 (|X| ≤ 8) the branch
// and bound passes its visit limit (5·10^7 prefixes, about 2 s).
const mggExactMaxM = 256

// mggNetworkExpands checks that every concentrator of net with ⌊αm⌋ ≥ 1
// has |Γ(X)| ≥ β|X| for 1 ≤ |X| ≤ ⌊αm⌋: exactly (MinNeighboursSmall) where
// m ≤ exactMaxM, by Tanner's bound (expander.Spectral, Cert.Certifies)
// above; the exact splitters are visited first. It returns the least exact
// ratio |Γ(X)|/|X| (+Inf if none was counted), "" or where it fails, the
// counterexample fields of the first exact failure (nil for a failure of
// Tanner's bound) and an error if a count or an eigensolve fails.
func mggNetworkExpands(net *mb.Network, alpha, beta float64, exactMaxM int) (least float64, bad string, cex map[string]any, err error) {
	least = math.Inf(1)
	side := []string{"upper", "lower"}
	bad = mbflyConcentrators(net, alpha, func(s, j, sd int, sp expander.Splitter, k int, g expander.Graph) string {
		if sp.M > exactMaxM {
			return ""
		}
		min, worst, e := expander.MinNeighboursSmall(g, k, 0)
		if e != nil {
			err = e
			return "stop"
		}
		for x := 1; x <= k; x++ {
			least = math.Min(least, float64(min[x])/float64(x))
			if float64(min[x]) < beta*float64(x) {
				cex = map[string]any{"splitter": []int{s, j}, "m": sp.M, "side": side[sd], "X": worst[x], "gamma": min[x]}
				return fmt.Sprintf("splitter (%d, %d), m = %d, %s concentrator: X = %v has |Γ(X)| = %d < 3|X| = %d (exact)", s, j, sp.M, side[sd], worst[x], min[x], 3*x)
			}
		}
		return ""
	})
	if err != nil || bad != "" {
		return least, bad, cex, err
	}
	bad = mbflyConcentrators(net, alpha, func(s, j, sd int, sp expander.Splitter, k int, g expander.Graph) string {
		if sp.M <= exactMaxM {
			return ""
		}
		c, e := expander.Spectral(g)
		if e != nil {
			err = e
			return "stop"
		}
		if !c.Certifies(k, beta) {
			return fmt.Sprintf("splitter (%d, %d), m = %d, %s concentrator: not certified by Tanner's bound (λ₂ = %.2f)", s, j, sp.M, side[sd], c.Lambda2)
		}
		return ""
	})
	return least, bad, cex, err
}

// mggTannerCheck is mbfly/sec3.1/mgg-tanner-certificate's check on the
// networks build returns (mb.BuildMGG for the claim): mggNetworkExpands at
// α = 1/64 and β > 3 on every size of mggTannerSizes, exact where
// m ≤ exactMaxM; the evidence gives, level by level of the largest network
// (splitter 0, both concentrators), λ₂, the λ₂ that β > 3 would need,
// Tanner's least certified ratio and, where m ≤ exactMaxM, the exact
// least ratio.
func mggTannerCheck(build func(n int) (*mb.Network, error), exactMaxM int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := mggTannerSizes(env.Budget)
		var res []string
		var first map[string]any
		var net *mb.Network
		for _, n := range ns {
			var err error
			net, err = build(n)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			least, msg, cex, err := mggNetworkExpands(net, mggAlpha, mggTannerBeta, exactMaxM)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d: %v", n, err)}
			}
			switch {
			case msg != "":
				res = append(res, fmt.Sprintf("N=%d: not an (N, 8, 1/64, β > 3)-multi-butterfly: %s", n, msg))
				if first == nil {
					first = map[string]any{"N": n, "alpha": mggAlpha, "beta": 3, "where": msg}
					for k, v := range cex {
						first[k] = v
					}
				}
			case math.IsInf(least, 1):
				res = append(res, fmt.Sprintf("N=%d: certified (Tanner's bound)", n))
			default:
				res = append(res, fmt.Sprintf("N=%d: holds, least |Γ(X)|/|X| = %.2f (exact)", n, least))
			}
		}
		var ev []string
		var bad string
		mbflyConcentrators(net, mggAlpha, func(s, j, side int, sp expander.Splitter, k int, g expander.Graph) string {
			if j != 0 {
				return ""
			}
			c, err := expander.Spectral(g)
			if err != nil {
				bad = fmt.Sprintf("m=%d side %d: %v", sp.M, side, err)
				return "stop"
			}
			cert := math.Inf(1)
			for x := 1; x <= k; x++ {
				cert = math.Min(cert, float64(c.MinNeighbours(x))/float64(x))
			}
			line := fmt.Sprintf("m=%d %s: (%d, %d)-biregular, λ₂ = %.2f (β > 3 needs λ₂ ≤ %.2f), Tanner's bound at |X| = 1: %.3f, certified least |Γ(X)|/|X| (|X| ≤ %d) %.3f", sp.M, []string{"upper", "lower"}[side], c.DA, c.DB, c.Lambda2, tannerLambdaFor(c.DA, c.DB, c.NA, k, 3), c.Bound(1), k, cert)
			if sp.M <= exactMaxM {
				min, _, err := expander.MinNeighboursSmall(g, k, 0)
				if err != nil {
					bad = err.Error()
					return "stop"
				}
				exact := math.Inf(1)
				for x := 1; x <= k; x++ {
					exact = math.Min(exact, float64(min[x])/float64(x))
				}
				line += fmt.Sprintf(", exact %.2f (least |Γ| for |X| = 1…%d: %v)", exact, k, min[1:])
			}
			ev = append(ev, line)
			return ""
		})
		if bad != "" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: bad}
		}
		summary := fmt.Sprintf("α = 1/64, β > 3, N ∈ %v (exact for m ≤ %d, Tanner's bound above): %s. Side finding, Tanner's bound level by level at N = %d: %s", ns, exactMaxM, strings.Join(res, "; "), ns[len(ns)-1], strings.Join(ev, "; "))
		if first != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: summary, Counterexample: first}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: summary}
	}
}

func registerMGGTanner() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/sec3.1/mgg-tanner-certificate",
		Check: mggTannerCheck(mb.BuildMGG, mggExactMaxM),
		Mem:   props.MemEstimate{Small: 16 << 20, Default: 16 << 20, Large: 96 << 20},
	}))
}
