package mbfly

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/oracles/mbflyforms"
	"routecheck/props"
)

// Claim 4.3 of 004_8aa7b4c265a7324b.txt (issue 13, "§4 checked"): the
// uniform stage bound that Theorem 4.1 sums, checked in simulation on §4.1
// networks at sizes where the bound is below αn (so that it can fail).

func init() {
	registerClaim43()
}

// c43Cfg is one configuration: n nodes per stage, degree d, A = 1/α
// batches per row with A | n. Condition (2) needs β > 3 (its left side
// tends to 4/(β+1) as γ → 1, θ → ∞), and a splitter's concentrator has
// only m/2 outputs, so β ≤ (m/2)/(αm) = A/2 there: A ≥ 8. Measured on
// our random networks, β > 3 needs d ≥ 12 (d = 5 … 8 with A = 8, 16 gave
// β ≤ 3 on every network tried: parallel edges and small concentrators),
// hence A = 16, 32.
type c43Cfg struct{ n, d, A int }

func c43Cfgs(b props.Budget) []c43Cfg {
	cs := []c43Cfg{{16, 12, 16}, {32, 12, 16}}
	if b >= props.Default {
		cs = append(cs, c43Cfg{32, 16, 16})
	}
	if b >= props.Large {
		cs = append(cs, c43Cfg{64, 12, 32})
	}
	return cs
}

// c43Beta returns the β a §4.1 network certifies at α = 1/A: the least
// |Γ(X)|/|X| over the log n expanders (|X| ≤ αn) and over both
// concentrators of every splitter with αm ≥ 1 (|X| ≤ αm), exactly.
// Splitters with αm < 1 are left out: the claim's hypothesis (at most αm
// packets of a batch reach an m-splitter) fails there for every β
// (mbfly/sec4.2/batch-load).
func c43Beta(net *mb.CommNetwork, A int) (float64, error) {
	kk := net.N / A
	beta := math.Inf(1)
	for s := range net.LogN {
		b, err := exactBeta(commStageExpander(net, s), kk)
		if err != nil {
			return 0, err
		}
		beta = math.Min(beta, b)
	}
	sb, err := leastSplitterBeta(net.MB, 1/float64(A))
	if err != nil {
		return 0, err
	}
	return math.Min(beta, sb), nil
}

// c43Pair is an admissible (γ, θ): condition (2) holds exactly at γ (a
// rational just above the least admissible γ for this θ).
type c43Pair struct {
	gamma float64
	theta int
}

// c43Pairs returns, for θ = 1 … 64, the least γ ∈ (0, 1) (to 10⁻⁶, rounded
// up) satisfying condition (2) with β, each confirmed by mbflyforms.Cond2
// in exact arithmetic; θ with no admissible γ are left out. For t ≥ θk the
// bound αnγ^{t−θk}(1+β)^{⌈s/2⌉} grows with γ, and for t < θk it is at
// least αn, so the least γ is the tightest admissible bound for that θ.
func c43Pairs(beta float64) []c43Pair {
	lhs := func(g float64, th int) float64 {
		u := 1 - math.Pow(g, float64(th))
		return 2 / (g * g * (beta + 1) * u) * (1 + 1/u)
	}
	br := new(big.Rat).SetFloat64(beta)
	var out []c43Pair
	for th := 1; th <= 64; th++ {
		// scan for the first admissible grid point, then bisect below it
		lo, hi := 0.0, -1.0
		for g := 0.01; g < 1; g += 0.001 {
			if lhs(g, th) <= 1 {
				hi = g
				break
			}
			lo = g
		}
		if hi < 0 {
			continue
		}
		for range 60 {
			mid := (lo + hi) / 2
			if lhs(mid, th) <= 1 {
				hi = mid
			} else {
				lo = mid
			}
		}
		num := int64(math.Ceil(hi*1e6)) + 1
		if _, ok := mbflyforms.Cond2(br, big.NewRat(num, 1e6), th); !ok {
			continue
		}
		out = append(out, c43Pair{gamma: float64(num) / 1e6, theta: th})
	}
	return out
}

// c43Bound is Claim 4.3's bound for batch k in stage s after (even)
// iteration t: min[αn, f·αnγ^{t−θk}(1+β)^{⌈s/2⌉}] (exponent (s+1)/2 for
// odd s, s/2 for even s). f = 1 is the claim; the planted fault halves the
// second term after the start (at t = 0 the bound is met with equality by
// construction, so halving it there would be caught without a run).
func c43Bound(an, beta float64, p c43Pair, t, s, k int, f float64) float64 {
	if t == 0 {
		f = 1
	}
	e := float64(t) - float64(p.theta*k)
	return math.Min(an, f*an*math.Pow(p.gamma, e)*math.Pow(1+beta, float64((s+1)/2)))
}

// claim43Check routes random destination bijections on §4.1 networks with
// the absorbing §4.2 protocol and checks after every even iteration t, for every stage
// s < 2 log n and batch k, X_s^t(k) ≤ c43Bound(…, f) for every admissible
// (γ, θ) of c43Pairs with β the network's certified expansion. every = 1
// is the router; every = e > 1 (a planted fault) runs it only one pair of
// iterations in e (iterations t + 1, t + 2 for t ≡ 0 mod 2e), idling
// otherwise: the router e times slower.
func claim43Check(every int, f float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checked, nonVacuous, tight, nets, skipped := 0, 0, 0, 0, 0
		minSlack := math.Inf(1) // least bound − X over non-vacuous checks
		worstRatio := 0.0       // greatest X / bound over non-vacuous checks with X > 0
		var ev []string
		for _, c := range c43Cfgs(env.Budget) {
			k := bits.Len(uint(c.n)) - 1
			an := float64(c.n / c.A)
			nb := c.A * (k + 1)
			for r := range env.Budget.Pick(2, 3, 6) {
				tag := []uint64{env.Seed, 0xc143, uint64(c.n), uint64(c.d), uint64(c.A), uint64(r)}
				net, s0, dest, err := commStart(c.n, c.d, seeds.Rand(tag[0], tag[1:]...))
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				beta, err := c43Beta(net, c.A)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				pairs := c43Pairs(beta)
				if len(pairs) == 0 {
					skipped++ // β ≤ 3: no (γ, θ) satisfies condition (2)
					continue
				}
				nets++
				st := s0
				cap := 64 * (3*k + c.A + 4) // RunComm's default cap
				for t := 0; ; t += 2 {
					X := sec4Stages(st, c.A)
					for s := 0; s < 2*k; s++ {
						for b := range nb {
							x := float64(X[s][b])
							for _, p := range pairs {
								checked++
								if t < p.theta*b {
									continue // the bound is ≥ αn ≥ X
								}
								bd := c43Bound(an, beta, p, t, s, b, f)
								if bd < an {
									nonVacuous++
									minSlack = math.Min(minSlack, bd-x)
									if bd < x+1 {
										tight++
									}
									if x > 0 {
										worstRatio = math.Max(worstRatio, x/bd)
									}
								}
								if x > bd*(1+1e-9) {
									cex := map[string]any{"n": c.n, "d": c.d, "A": c.A, "network_seed": tag, "dest": dest, "iteration": t, "stage": s, "batch": b, "beta": beta, "gamma": p.gamma, "theta": p.theta}
									return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d (β = %.4g), iteration %d, stage %d, batch %d: X = %d > %.4g = min[αn, αnγ^{t−θk}(1+β)^{⌈s/2⌉}] at (γ, θ) = (%.6g, %d)", c.n, c.d, c.A, r, beta, t, s, b, X[s][b], bd, p.gamma, p.theta), Counterexample: cex}
								}
							}
						}
					}
					if st.CommDone() {
						break
					}
					if t >= cap {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d: not delivered after %d iterations", c.n, c.d, c.A, r, t)}
					}
					// two iterations: RunComm's iteration 1 has odd parity,
					// so from an even t it runs t + 1 and t + 2
					if t%(2*every) != 0 {
						continue
					}
					_, next, err := amb.RunComm(st, c.A, 2, false)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					st = next
				}
			}
			ev = append(ev, fmt.Sprintf("(n, d, A) = (%d, %d, %d)", c.n, c.d, c.A))
		}
		if nets == 0 || nonVacuous == 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("no network with an admissible (γ, θ) and a bound below αn (%d networks skipped with β ≤ 3)", skipped)}
		}
		seen := fmt.Sprintf("largest X/bound there %.3g", worstRatio)
		var slack *float64
		if worstRatio == 0 {
			seen = "no packet of the batch was in the stage at any of them"
		} else {
			slack = props.SlackOf(worstRatio, 1)
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d networks (%d skipped: β ≤ 3), configurations %s; %d (t, s, k, θ) checks, %d with the bound below αn, %d of them below X + 1 (one packet more would break it; least bound − X = %.3g); %s", nets, skipped, strings.Join(ev, ", "), checked, nonVacuous, tight, minSlack, seen), Slack: slack}
	}
}

func registerClaim43() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/claim-4.3/stage-bound",
		Check: claim43Check(1, 1),
		Faults: []props.Fault{
			{Name: "the bound's second term halved for t > 0, min[αn, ½αnγ^{t−θk}(1+β)^{⌈s/2⌉}]", Check: claim43Check(1, 0.5)},
			{Name: "the router at half speed (idles every other pair of iterations)", Check: claim43Check(2, 1)},
		},
	}))
}
