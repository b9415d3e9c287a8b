package mbfly

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
	"routecheck/props"
)

// Claims of issue 13 on the explicit constructions of
// 004_8aa7b4c265a7324b.txt: Theorem 2.1(2) and Corollary 2.1(2), checked on
// the Lubotzky–Phillips–Sarnak graphs X^{p,q} (the paper's ref. [8]) that
// models/expander builds, with the spectrum computed (gonum) and turned into
// expansion by Tanner's bound (ref. [10]).

func init() {
	registerExplicit()
}

// lpsCase is one X^{p,q}.
type lpsCase struct{ p, q int }

// lpsCases are the graphs a budget builds: q = 5 (60 vertices a side) at
// every budget; X^{17,13} (1092 a side, about 1.5 s of eigenvalues) from
// default; X^{5,13} and X^{29,13} at large.
func lpsCases(b props.Budget) []lpsCase {
	cs := []lpsCase{{13, 5}, {17, 5}, {29, 5}, {37, 5}}
	if b >= props.Default {
		cs = append(cs, lpsCase{17, 13})
	}
	if b == props.Large {
		cs = append(cs, lpsCase{5, 13}, lpsCase{29, 13})
	}
	return cs
}

// The graph variants: the construction, and the planted faults.
const (
	lpsReal       = iota
	lpsTwoCopies  // two disjoint copies of X^{p,q} (a disconnected graph)
	lpsWrongRoot  // ι replaced by ι + 1, not a square root of −1 (q = 13 only)
	lpsRandom     // a random (p+1)-regular bipartite multigraph of the same size (q = 5 only; not memoized: seeded)
	lpsVariantEnd // sentinel
)

// lpsVariantCases restricts a fault's cases to where it is defined and
// cheap: two copies only at q = 5 (a 2184-vertex spectrum would cost 8×),
// the wrong root only at q = 13 (at q = 5, ι + 1 is the other root).
func lpsVariantCases(b props.Budget, variant int) []lpsCase {
	var out []lpsCase
	for _, c := range lpsCases(b) {
		if (variant == lpsTwoCopies || variant == lpsRandom) && c.q != 5 || variant == lpsWrongRoot && c.q == 5 {
			continue
		}
		out = append(out, c)
	}
	return out
}

var lpsMemo = struct {
	sync.Mutex
	m map[[3]int]lpsSpec
}{m: map[[3]int]lpsSpec{}}

// lpsSpec is a built graph with its spectral certificate.
type lpsSpec struct {
	g    expander.Graph
	cert expander.Cert
	eig  []float64 // every eigenvalue of M·Mᵀ, increasing
}

// lpsSpectrum builds the variant of X^{p,q} and computes its certificate,
// memoized (deterministic: no randomness), so the three claims share one
// eigen-decomposition per graph — the first claim to run pays for it.
func lpsSpectrum(c lpsCase, variant int) (lpsSpec, error) {
	key := [3]int{c.p, c.q, variant}
	lpsMemo.Lock()
	defer lpsMemo.Unlock()
	if s, ok := lpsMemo.m[key]; ok {
		return s, nil
	}
	var g expander.Graph
	var err error
	switch variant {
	case lpsWrongRoot:
		g, err = expander.LPSWrongRoot(c.p, c.q)
	default:
		g, err = expander.LPS(c.p, c.q)
	}
	if err != nil {
		return lpsSpec{}, err
	}
	if variant == lpsTwoCopies {
		n := int32(g.NA)
		two := expander.Graph{NA: 2 * g.NA, NB: 2 * g.NB, Adj: make([][]int32, 2*g.NA)}
		for a, l := range g.Adj {
			two.Adj[a] = l
			sh := make([]int32, len(l))
			for i, b := range l {
				sh[i] = b + n
			}
			two.Adj[int(n)+a] = sh
		}
		g = two
	}
	cert, eig, err := expander.SpectrumCert(g)
	if err != nil {
		return lpsSpec{}, err
	}
	s := lpsSpec{g: g, cert: cert, eig: eig}
	lpsMemo.m[key] = s
	return s, nil
}

// lpsAlphas are the α at which Theorem 2.1(2) and Corollary 2.1(2) are
// checked (those with ⌊αn⌋ ≥ 1).
var lpsAlphas = []float64{1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64}

// lpsThm212Beta is Theorem 2.1(2)'s β = d/((d−4)α + 4).
func lpsThm212Beta(d int, alpha float64) float64 {
	return float64(d) / (float64(d-4)*alpha + 4)
}

// lpsCor212Beta is Corollary 2.1(2)'s β = d/(2(d−4)α + 8).
func lpsCor212Beta(d int, alpha float64) float64 {
	return float64(d) / (2*float64(d-4)*alpha + 8)
}

type lpsFault struct {
	variant int
	scale   float64 // β (or the bound) multiplied by scale
}

func registerExplicit() {
	cases := "X^{p,q} for (p, q) = (13, 5), (17, 5), (29, 5), (37, 5) (60 vertices a side; small), + (17, 13) (1092 a side; default), + (5, 13), (29, 13) (large)"
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-2.1-2/lps-ramanujan",
		Scope: cases + "; p, q distinct primes ≡ 1 (mod 4); eigenvalues by gonum's EigenSym on M·Mᵀ",
		Check: lpsRamanujanCheck(lpsFault{lpsReal, 1}),
		Faults: []props.Fault{
			{Name: lpsTwoCopiesName, Check: lpsRamanujanCheck(lpsFault{lpsTwoCopies, 1})},
			{Name: "a random (p+1)-regular bipartite multigraph of the same size (seeded), q = 5 cases", Check: lpsRamanujanCheck(lpsFault{lpsRandom, 1})},
			{Name: "generators built with ι + 1 in place of √−1 mod q (q = 13 cases; default and large only)", Check: lpsRamanujanCheck(lpsFault{lpsWrongRoot, 1})},
		},
	}))

	props.Register(lpsExpanderClaim(ledger.Text(props.Claim{
		ID:    "mbfly/thm-2.1-2/lps-expander",
		Scope: cases + "; α ∈ {1/2, 1/4, …, 1/64} with ⌊αn⌋ ≥ 1",
	}), false, "Theorem 2.1(2)"))

	props.Register(lpsExpanderClaim(ledger.Text(props.Claim{
		ID:    "mbfly/cor-2.1-2/lps-splitter",
		Scope: cases + "; α ∈ {1/2, …, 1/64} with ⌊αn⌋ ≥ 1; the 2d-colouring checked proper",
	}), true, "Corollary 2.1(2)"))

	props.Register(ledger.Text(props.Claim{
		ID: "mbfly/cor-2.1-2/lps-sizes",
		Check: func(env props.Env) props.Outcome {
			for q := 3; q <= 10000; q += 2 {
				if !expander.IsPrime(q) {
					continue
				}
				for _, n := range []int{q * (q*q - 1) / 2, q * (q*q - 1)} {
					if n&(n-1) == 0 {
						return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("q = %d gives %d vertices, a power of two", q, n)}
					}
				}
			}
			return props.Outcome{Verdict: props.Violated, Evidence: "no odd prime q ≤ 10⁴ gives q(q²−1)/2 or q(q²−1) a power of two (q divides both); smallest sizes 12, 24 (q = 3), 60, 120 (q = 5), 1092, 2184 (q = 13)", Counterexample: map[string]any{"q": 5, "sizes": []int{60, 120}, "needed": "m = N/2^s, a power of two"}}
		},
	}))
}

// lpsRandomSpectrum is the lpsRandom variant: expander.RandomRegular on
// the same number of vertices and degree p + 1, seeded.
func lpsRandomSpectrum(c lpsCase, seed uint64) (lpsSpec, error) {
	g := expander.RandomRegular(expander.LPSOrder(c.q), c.p+1, seeds.Rand(seed, 0x1b5a, uint64(c.p), uint64(c.q)))
	cert, eig, err := expander.SpectrumCert(g)
	return lpsSpec{g: g, cert: cert, eig: eig}, err
}

// lpsRamanujanCheck checks, on the variant's cases, (p+1)-regularity,
// |λ| ≤ scale·2√p and the multiplicity bound of a Cayley graph on
// PSL(2, q): every eigenvalue of M·Mᵀ other than the trivial d² (one copy)
// has multiplicity ≥ (q−1)/2.
func lpsRamanujanCheck(f lpsFault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		worst := 0.0
		for _, c := range lpsVariantCases(env.Budget, f.variant) {
			var s lpsSpec
			var err error
			if f.variant == lpsRandom {
				s, err = lpsRandomSpectrum(c, env.Seed)
			} else {
				s, err = lpsSpectrum(c, f.variant)
			}
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if s.cert.DA != c.p+1 || s.cert.DB != c.p+1 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("X^{%d,%d}: degrees %d, %d ≠ p+1", c.p, c.q, s.cert.DA, s.cert.DB)}
			}
			d2 := float64((c.p + 1) * (c.p + 1))
			mult, at := expander.MinMultiplicity(s.eig, 1e-7*d2)
			if need := (c.q - 1) / 2; mult < need {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("X^{%d,%d} (%d vertices a side): the eigenvalue λ² = %.6f of M·Mᵀ has multiplicity %d < (q−1)/2 = %d (impossible for a connected Cayley graph on PSL(2, %d))", c.p, c.q, s.g.NA, at, mult, need, c.q), Counterexample: map[string]any{"p": c.p, "q": c.q, "lambda_squared": at, "multiplicity": mult, "needed": need}}
			}
			lam := math.Sqrt(math.Max(s.cert.Lambda2, 0))
			bound := f.scale * 2 * math.Sqrt(float64(c.p))
			worst = math.Max(worst, lam/bound)
			if lam > bound*(1+1e-9) {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("X^{%d,%d} (%d vertices a side): non-trivial |λ| = %.4f > 2√p = %.4f", c.p, c.q, s.g.NA, lam, bound), Counterexample: map[string]any{"p": c.p, "q": c.q, "lambda": lam, "bound": bound}, Slack: props.SlackOf(lam, bound)}
			}
			ev = append(ev, fmt.Sprintf("X^{%d,%d}: λ = %.4f ≤ %.4f, least multiplicity %d ≥ %d", c.p, c.q, lam, bound, mult, (c.q-1)/2))
		}
		if len(ev) == 0 {
			return props.Outcome{Verdict: props.Holds, Evidence: "no case at this budget"}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; "), Slack: props.SlackOf(worst, 1)}
	}
}

// lpsExpanderCheck checks Theorem 2.1(2) (splitter false) or Corollary
// 2.1(2) (splitter true) on the variant's cases, with the printed β
// multiplied by f.scale.
func lpsExpanderCheck(f lpsFault, splitter bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		worst := 0.0
		for _, c := range lpsVariantCases(env.Budget, f.variant) {
			s, err := lpsSpectrum(c, f.variant)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			d, n := c.p+1, s.g.NA
			var exact [][]int
			if n <= expander.MaxExact || splitter && c.q == 5 {
				gs := []expander.Graph{s.g}
				if splitter {
					if f.variant != lpsReal {
						gs = []expander.Graph{expander.Fold(s.g)}
					} else {
						sp, err := expander.LPSSplitter(c.p, c.q)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						gs = []expander.Graph{sp.Upper, sp.Lower}
					}
				}
				for _, g := range gs {
					if g.NB > 64 || g.NA > expander.MaxExact {
						continue
					}
					mn, _, err := expander.MinNeighbours(g, 3)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					exact = append(exact, mn)
				}
			}
			least := math.Inf(1) // certified / printed β, least over α
			for _, a := range lpsAlphas {
				k := int(math.Floor(a * float64(n)))
				if k < 1 {
					continue
				}
				beta := f.scale * lpsThm212Beta(d, a)
				if splitter {
					beta = f.scale * lpsCor212Beta(d, a)
				}
				cert := math.Inf(1)
				for x := 1; x <= k; x++ {
					mn := float64(s.cert.MinNeighbours(x))
					if splitter {
						mn = math.Ceil(mn / 2)
					}
					cert = math.Min(cert, mn/float64(x))
				}
				least = math.Min(least, cert/beta)
				if cert < beta*(1-1e-12) {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("X^{%d,%d}, α = 1/%d: certified β = %.4f < %.4f (λ₂ = %.3f)", c.p, c.q, int(math.Round(1/a)), cert, beta, s.cert.Lambda2), Counterexample: map[string]any{"p": c.p, "q": c.q, "alpha": a, "certified": cert, "beta": beta, "splitter": splitter}}
				}
				for _, mn := range exact {
					for x := 1; x <= min(k, 3); x++ {
						if float64(mn[x]) < beta*float64(x)*(1-1e-12) {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("X^{%d,%d}, α = 1/%d: a set of %d vertices has %d < β|X| = %.3f neighbours (exact)", c.p, c.q, int(math.Round(1/a)), x, mn[x], beta*float64(x)), Counterexample: map[string]any{"p": c.p, "q": c.q, "alpha": a, "x": x, "neighbours": mn[x], "splitter": splitter}}
						}
					}
				}
			}
			worst = math.Max(worst, 1/least)
			ev = append(ev, fmt.Sprintf("X^{%d,%d}: certified/printed β ≥ %.3f (exact sets checked: %d graphs)", c.p, c.q, least, len(exact)))
		}
		if len(ev) == 0 {
			return props.Outcome{Verdict: props.Holds, Evidence: "no case at this budget"}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; "), Slack: props.SlackOf(worst, 1)}
	}
}

// lpsTwoCopiesName names the planted fault lpsFault{lpsTwoCopies, 1}.
const lpsTwoCopiesName = "two disjoint copies of X^{p,q} (disconnected), q = 5 cases"

// lpsExpanderClaim sets c's check to lpsExpanderCheck of X^{p,q} (splitter
// false: Theorem 2.1(2)'s expander; true: Corollary 2.1(2)'s splitter) and
// plants its two faults: the disconnected two-copies graph, and the β of
// result (the theorem or corollary checked) raised by 25 %.
func lpsExpanderClaim(c props.Claim, splitter bool, result string) props.Claim {
	c.Check = lpsExpanderCheck(lpsFault{lpsReal, 1}, splitter)
	c.Faults = append(c.Faults,
		props.Fault{Name: lpsTwoCopiesName, Check: lpsExpanderCheck(lpsFault{lpsTwoCopies, 1}, splitter)},
		props.Fault{Name: result + "'s β raised by 25 % (factor fixed before running)", Check: lpsExpanderCheck(lpsFault{lpsReal, 1.25}, splitter)})
	return c
}
