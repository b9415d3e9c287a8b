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
	props.Register(props.Claim{
		ID:        "mbfly/thm-2.1-2/lps-ramanujan",
		Source:    mbflySrc + " Theorem 2.1(2) (\"a consequence of the construction given in [8]\": Lubotzky–Phillips–Sarnak)",
		Statement: "the explicit graphs X^{p,q} of [8] that we build are connected, (p+1)-regular and Ramanujan: every non-trivial eigenvalue has |λ| ≤ 2√p; and, as Cayley graphs on PSL(2, q), every non-trivial eigenvalue of M·Mᵀ has multiplicity ≥ (q−1)/2",
		Scope:     cases + "; p, q distinct primes ≡ 1 (mod 4); eigenvalues by gonum's EigenSym on M·Mᵀ",
		Kind:      props.Exact,
		Class:     props.Construction,
		Recorded:  props.Holds,
		Notes:     "A property of our construction of the graphs the paper cites (class construction). The generators are the p+1 quaternions of norm p with a0 > 0 odd, a1..a3 even, mapped to PGL(2, q) with ι² ≡ −1; X^{p,q} is bipartite (PGL) when (p/q) = −1 and is taken as its bipartite double cover (PSL) when (p/q) = 1. Eigenvalues in float64 with a 1e-9 relative tolerance. The q = 5 graphs have q < 2√p (many parallel edges; eigenvalues 4, 6 or 8, far below 2√p); X^{17,13} has λ = 7.851 against 2√17 = 8.246 (slack 0.952), X^{5,13} 4.250 against 4.472, X^{29,13} 9.932 against 10.770. Planted faults (fixed before running): two disjoint copies (disconnected, λ = p+1) at q = 5; the wrong ι (ι + 1, not a root of −1) at q = 13, which gives λ = 8.321 > 8.246 for p = 17 — a real near-miss construction error that the bound alone catches (now the multiplicity check, which runs first, reports it: a simple eigenvalue). Multiplicity (added after review: at small the only caught fault was a disconnected graph): M·Mᵀ is the Cayley graph of PSL(2, q) with the multiset {S·T⁻¹} (PGL case) or {S·T} (PSL case), so each eigenvalue from a non-trivial irreducible representation has multiplicity at least its dimension, ≥ (q−1)/2 (Frobenius; for q ≡ 1 mod 4 the least is (q+1)/2, we check the weaker standard bound); the trivial d² counts once. Eigenvalues are grouped when consecutive ones are within 1e-7·d² (merging only makes the check more lenient). Third planted fault (fixed before running): a random (p+1)-regular bipartite multigraph of the same size (expander.RandomRegular, seeded), whose eigenvalues are simple — caught by the multiplicity at q = 5, so the small budget has a fault other than disconnection.",
		Check:     lpsRamanujanCheck(lpsFault{lpsReal, 1}),
		Faults: []props.Fault{
			{Name: lpsTwoCopiesName, Check: lpsRamanujanCheck(lpsFault{lpsTwoCopies, 1})},
			{Name: "a random (p+1)-regular bipartite multigraph of the same size (seeded), q = 5 cases", Check: lpsRamanujanCheck(lpsFault{lpsRandom, 1})},
			{Name: "generators built with ι + 1 in place of √−1 mod q (q = 13 cases; default and large only)", Check: lpsRamanujanCheck(lpsFault{lpsWrongRoot, 1})},
		},
	})

	props.Register(lpsExpanderClaim(props.Claim{
		ID:        "mbfly/thm-2.1-2/lps-expander",
		Source:    mbflySrc + " Theorem 2.1(2)",
		Statement: "X^{p,q} (d = p + 1) is an (α, β, n, d)-expander for β = d/((d−4)α + 4): proved for every |X| ≤ αn by Tanner's bound from its computed λ₂, and exactly by enumeration where |X| ≤ 3",
		Scope:     cases + "; α ∈ {1/2, 1/4, …, 1/64} with ⌊αn⌋ ≥ 1",
		Kind:      props.Exact,
		Class:     props.Paper,
		Recorded:  props.Holds,
		Notes:     "The paper's β is what Tanner's bound gives for a Ramanujan graph, slightly weakened: with λ² ≤ 4(d−1), |Γ(X)|/|X| ≥ d²/(4(d−1) + (d−2)²α), and d²/(4(d−1) + (d−2)²α) ≥ d/((d−4)α + 4) ⟺ α ≤ 1 (cross-multiply: the difference is 4 − 4α). So Theorem 2.1(2) follows from [8] + [10] as printed; our check uses the computed λ₂, not 2√p. Evidence gives, per graph, the least ratio certified/paper β over the α checked (the slack). Planted faults (fixed before running): the disconnected two-copies graph (q = 5; certifies only β = 1), and the paper's β raised by 25 % (caught at every budget: the least certified/printed ratio is 1.20 for X^{13,5} at α = 1/2, 1.03 for X^{17,13}).",
	}, false, "Theorem 2.1(2)"))

	props.Register(lpsExpanderClaim(props.Claim{
		ID:        "mbfly/cor-2.1-2/lps-splitter",
		Source:    mbflySrc + " Corollary 2.1(2) and its proof (fold an (α, 2β, m, d)-expander; two concentrators on the same inputs)",
		Statement: "the splitter built from X^{p,q} by the corollary's proof (both concentrators folded copies of X^{p,q}, 2d-coloured) is an (α, β, n, 2d)-splitter for β = d/(2(d−4)α + 8): certified by half of Tanner's bound for X^{p,q} (|fold(Y)| ≥ |Y|/2), and exactly by enumeration of the folded graphs where |X| ≤ 3",
		Scope:     cases + "; α ∈ {1/2, …, 1/64} with ⌊αn⌋ ≥ 1; the 2d-colouring checked proper",
		Kind:      props.Exact,
		Class:     props.Paper,
		Recorded:  props.Holds,
		Notes:     "The corollary's β is Theorem 2.1(2)'s halved (2β ≤ d/((d−4)α+4) ⟺ β ≤ d/(2(d−4)α+8)), so the certificate is the theorem's halved; the exact enumeration of the folded concentrators (n = 60, |X| ≤ 3) checks the fold itself. The splitters have n = q(q²−1)/2 inputs, never a power of two (q | n), so they cannot be the splitters of a multi-butterfly, whose splitters have m = N/2^s inputs (see mbfly/cor-2.1-2/lps-sizes). Planted faults as mbfly/thm-2.1-2/lps-expander.",
	}, true, "Corollary 2.1(2)"))

	props.Register(props.Claim{
		ID:        "mbfly/cor-2.1-2/lps-sizes",
		Source:    mbflySrc + " Corollary 2.1(2) (\"an explicit construction of an (α, β, m, 2d)-splitter\", m unquantified) with §3.1 (splitters on m = N/2^s inputs)",
		Statement: "the construction of [8] gives splitters of every size m = N/2^s a multi-butterfly needs",
		Scope:     "the sizes of X^{p,q}: q(q²−1)/2 (PSL, and the bipartite halves of PGL) and q(q²−1) for every odd prime q ≤ 10⁴; exact integer arithmetic",
		Kind:      props.Exact,
		Class:     props.Reading,
		Recorded:  props.Violated,
		Notes:     "Reading: the corollary leaves m unquantified; §3 uses it for every m = N/2^s. The graphs of [8] have q(q²−1)/2 or q(q²−1) vertices, divisible by the odd prime q, so no power of two (and no m ≥ 4 of the form 2^k at all) is reached; folding halves one side but the input side keeps the group's order. The paper does not say how to get power-of-two splitters from [8] (nor the hypothesis p ≡ 1 (mod 4) of [8], see mbfly/params/*). Our explicit multi-butterflies therefore use the Margulis–Gabber–Galil graphs, whose tori Z_a × Z_b reach every power of two (mbfly/sec3.1/mgg-*).",
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
	})
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
