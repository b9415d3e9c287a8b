package pops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"routecheck/algos/popsobl"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props"
)

// Corollary 2.7 (§II-B) on its own (issue 12): "for any oblivious
// deterministic routing algorithm, there is a permutation for which the
// expected routing time is Ω(log g / log log g)", proved "by Yao's minimax
// principle" from Theorem 2.6. For a deterministic router the time of a
// fixed permutation is not random, so the word "expected" only means
// something for a randomized router — which is what the section's opening
// says ("any oblivious randomized routing algorithm must use Ω(log g / log
// log g) slots on the average") and what Yao's principle gives. Both
// readings are claims here; the proof gives no constant (it defers to
// [19]), so Ω is read as growth, as for Theorem 2.6, and the evidence
// prints the time divided by ln g/ln ln g.

// cor27Sizes are the g (= d) of both claims at a budget.
func cor27Sizes(b props.Budget) []int {
	if b == props.Large {
		return []int{4, 16, 64, 256}
	}
	return []int{4, 16, 64}
}

// lnRatio is ln g / ln ln g (g ≥ 4 so that ln ln g > 0).
func lnRatio(g int) float64 {
	lg := math.Log(float64(g))
	return lg / math.Log(lg)
}

// checkCor27Det is the as-printed reading: for each deterministic oblivious
// router and each g, the permutation the averaging argument promises — the
// slowest of m uniformly random permutations — is exhibited, and its time
// must be at least their mean (max ≥ mean: it cannot fail, which is why the
// claim has no planted fault and is recorded inconclusive).
func checkCor27Det(routers []oblRouter) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		for _, rt := range routers {
			var row []string
			for _, g := range cor27Sizes(env.Budget) {
				sh := mpops.Shape{D: g, G: g}
				rng := seeds.Rand(env.Seed, 27, uint64(g))
				m := env.Budget.Pick(8, 16, 16)
				if g >= 256 {
					m = 4
				}
				worst, sum := -1, 0
				for range m {
					s, err := rt.run(sh, perm.Random(sh.N(), rng))
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s g = %d: %v", rt.name, g, err)}
					}
					sum += s
					worst = max(worst, s)
				}
				mean := float64(sum) / float64(m)
				if float64(worst) < mean {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s g = %d: the slowest of %d permutations takes %d slots, below their mean %.2f", rt.name, g, m, worst, mean)}
				}
				row = append(row, fmt.Sprintf("g = %d: %d slots ≥ mean %.2f of %d (÷ ln g/ln ln g = %.2f; √g/2 = %.1f)", g, worst, mean, m, float64(worst)/lnRatio(g), math.Sqrt(float64(g))/2))
			}
			ev = append(ev, rt.name+": "+strings.Join(row, ", "))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "the exhibited permutation (slowest of m random ones) per router: " + strings.Join(ev, "; ")}
	}
}

// oblRand is a randomized oblivious router: run routes dst with random bits
// from rng and returns the slots taken.
type oblRand struct {
	name string
	run  func(sh mpops.Shape, dst []int32, rng *rand.Rand) (int, error)
}

// valiant is Valiant's two-hop scheme: popsobl.Hashed with a fresh seed per
// run, executed on the slot model.
var valiant = oblRand{name: "Valiant two-hop (popsobl.Hashed, a fresh seed per run)", run: func(sh mpops.Shape, dst []int32, rng *rand.Rand) (int, error) {
	r, err := popsobl.Execute(sh, dst, popsobl.Hashed(sh, rng.Uint64()), 64*sh.N())
	if err != nil {
		return 0, err
	}
	if r.Delivered != sh.N() {
		return 0, fmt.Errorf("%d of %d delivered", r.Delivered, sh.N())
	}
	return r.Slots, nil
}}

// constantRand is the planted non-oblivious router of the randomized claim:
// 2 slots whatever g (Theorem 2.1's off-line bound at d = g).
var constantRand = oblRand{name: "a constant-time (off-line, not oblivious) router: 2 slots", run: func(mpops.Shape, []int32, *rand.Rand) (int, error) { return 2, nil }}

// cor27Runs are the Monte Carlo sizes at a g: m candidate permutations with
// r1 runs each (choosing the exhibited one), then r2 fresh runs on it and
// r2 on fresh (permutation, seed) pairs.
func cor27Runs(b props.Budget, g int) (m, r1, r2 int) {
	if g >= 256 {
		return 4, 2, 16
	}
	return b.Pick(4, 8, 8), b.Pick(2, 4, 6), b.Pick(24, 30, 60)
}

// cor27Pick is how checkCor27Yao exhibits π*: the claim's averaging step
// (argmax of the estimated mean) or a planted fault.
type cor27Pick int

const (
	cor27Argmax    cor27Pick = iota // the slowest of m random permutations
	cor27Identity                   // the identity (0 slots)
	cor27Argmin                     // the fastest of m random permutations
	cor27HalfFixed                  // the slowest, with half its sources sent to themselves
)

// halfFixed returns pi with the sources a < n/2 fixed (a → a) and the
// displaced destinations given, in order, to the sources whose destination
// became taken: a permutation that moves about half the packets.
func halfFixed(pi []int32) []int32 {
	n := len(pi)
	out := make([]int32, n)
	used := make([]bool, n)
	for a := range n / 2 {
		out[a], used[a] = int32(a), true
	}
	var free []int32
	for a := n / 2; a < n; a++ {
		if !used[pi[a]] {
			out[a], used[pi[a]] = pi[a], true
		} else {
			out[a] = -1
		}
	}
	for b := range n {
		if !used[b] {
			free = append(free, int32(b))
		}
	}
	for a := n / 2; a < n; a++ {
		if out[a] < 0 {
			out[a], free = free[0], free[1:]
		}
	}
	return out
}

// checkCor27Yao is the randomized reading, run as Yao's principle gives it.
// For each g: among m uniformly random permutations the one with the
// largest estimated expected time is exhibited (stage 1, r1 runs each);
// then, with fresh random bits, its expected time E_R T(π*) and the average
// over random permutations μ = E_π E_R T are estimated (r2 runs each; no
// selection bias). Tests (one-sided Welch z, normal approximation, α split
// over every test): E_R T(π*) significantly below μ → inconsistent (the
// averaging step max_π E_R T(π) ≥ μ failed); E_R T(π*) significantly lower
// after a step of g (g ×4) → inconsistent, not significantly higher →
// inconclusive; else consistent. skip, when set, exhibits the identity
// instead (a planted fault).
func checkCor27Yao(rt oblRand, pick cor27Pick) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		gs := cor27Sizes(env.Budget)
		a := sec3Alpha / float64(2*len(gs)-1)
		// crit is the one-sided Student-t critical value at α = a with
		// min(n1, n2) − 1 degrees of freedom, a lower bound on Welch's
		// Satterthwaite df, so the false-alarm rate stays ≤ a per test
		// (the normal value understated it about 3–4× at n = 24).
		crit := func(n1, n2 int) float64 { return -stats.T(2*a, min(n1, n2)-1) }
		var row, flat []string
		var prev stats.Summary
		sample := func(sh mpops.Shape, rng *rand.Rand, k int, pick func() []int32) (stats.Summary, error) {
			xs := make([]float64, k)
			for i := range xs {
				s, err := rt.run(sh, pick(), rng)
				if err != nil {
					return stats.Summary{}, err
				}
				xs[i] = float64(s)
			}
			return stats.Summarize(xs), nil
		}
		for i, g := range gs {
			sh := mpops.Shape{D: g, G: g}
			m, r1, r2 := cor27Runs(env.Budget, g)
			rng := seeds.Rand(env.Seed, 27, 2, uint64(g))
			var star []int32
			best := math.Inf(-1)
			for range m {
				p := perm.Random(sh.N(), rng)
				s, err := sample(sh, rng, r1, func() []int32 { return p })
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s g = %d: %v", rt.name, g, err)}
				}
				score := s.Mean
				if pick == cor27Argmin {
					score = -score
				}
				if score > best {
					best, star = score, p
				}
			}
			switch pick {
			case cor27Identity:
				star = perm.Identity(sh.N())
			case cor27HalfFixed:
				star = halfFixed(star)
			}
			st, err := sample(sh, rng, r2, func() []int32 { return star })
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s g = %d: %v", rt.name, g, err)}
			}
			mu, err := sample(sh, rng, r2, func() []int32 { return perm.Random(sh.N(), rng) })
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s g = %d: %v", rt.name, g, err)}
			}
			row = append(row, fmt.Sprintf("g = %d: E T(π*) = %.2f ± %.2f, μ = %.2f ± %.2f (÷ ln g/ln ln g = %.2f)", g, st.Mean, st.SD, mu.Mean, mu.SD, st.Mean/lnRatio(g)))
			if z := stats.WelchZ(st, mu); z < crit(st.N, mu.N) {
				return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("%s: at g = %d the exhibited permutation's expected time is significantly below the average over permutations (z = %.2f): %s", rt.name, g, z, strings.Join(row, ", ")),
					Counterexample: map[string]any{"router": rt.name, "g": g, "z": z}}
			}
			if i > 0 {
				z := stats.WelchZ(st, prev)
				if st.Mean == prev.Mean {
					z = 0
					if st.SD == 0 && prev.SD == 0 {
						z = math.Inf(-1) // equal exact means: certainly no growth
					}
				}
				switch c := crit(st.N, prev.N); {
				case z < c:
					return props.Outcome{Verdict: props.Inconsistent, Evidence: fmt.Sprintf("%s: the exhibited permutation's expected time falls (or, with no spread, stays) from g = %d to %d (z = %.2f): %s", rt.name, gs[i-1], g, z, strings.Join(row, ", ")),
						Counterexample: map[string]any{"router": rt.name, "g_from": gs[i-1], "g_to": g, "z": z}}
				case z <= -c:
					flat = append(flat, fmt.Sprintf("g = %d → %d (z = %.2f)", gs[i-1], g, z))
				}
			}
			prev = st
		}
		m, r1, r2 := cor27Runs(env.Budget, 4)
		head := fmt.Sprintf("%s on POPS(g,g); π* = the slowest in estimated mean of %d random permutations (%d runs each), then %d fresh runs on π* and %d on fresh random permutations (fewer at g = 256); one-sided Welch test at α = %.1e per test against Student-t with min(n1, n2) − 1 df (%.2f at n = %d): ", rt.name, m, r1, r2, r2, a, -crit(r2, r2), r2)
		if len(flat) > 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: head + "no significant increase at " + strings.Join(flat, "; ") + ". " + strings.Join(row, ", ")}
		}
		return props.Outcome{Verdict: props.Consistent, Evidence: head + "E T(π*) is not below μ and rises significantly at every step of g (g ×4). " + strings.Join(row, ", ")}
	}
}

func init() {
	det := oblRouters(oblFamily("hashed two-hop (seed 25)", func(sh mpops.Shape) popsobl.Family { return popsobl.Hashed(sh, 25) }))
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-2.7/deterministic-as-printed",
		Check: checkCor27Det(det)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-2.7/randomized-yao",
		Check: checkCor27Yao(valiant, cor27Argmax),
		Faults: []props.Fault{
			{Name: constantRand.name, Check: checkCor27Yao(constantRand, cor27Argmax)},
			{Name: "the averaging step skipped: the identity permutation exhibited (0 slots)", Check: checkCor27Yao(valiant, cor27Identity)},
			{Name: "the exhibited permutation with half its sources fixed (a → a for a < n/2)", Check: checkCor27Yao(valiant, cor27HalfFixed)},
		}}))
}
