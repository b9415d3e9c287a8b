package mbflyhunt

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
)

// SetInstance is the "mbfly-splitter-set" case instance: the splitter
// (M inputs, degree D into each output set, expander.NewSplitter drawn
// from seeds.Rand(NetSeed, 0x6bf3, M, D)), the definition's parameters
// (sets of at most ⌊M/AlphaInv⌋ inputs must have |Γ(X)| ≥ Beta·|X|), the
// concentrator (Side: "upper" or "lower") and the set X of inputs.
type SetInstance struct {
	M        int     `json:"m"`
	D        int     `json:"d"`
	NetSeed  uint64  `json:"net_seed"`
	AlphaInv int     `json:"alpha_inv"`
	Beta     float64 `json:"beta"`
	Side     string  `json:"side"`
	Set      []int32 `json:"set"`
}

const metricExpansion = "β|X| / |Γ(X)|"

var sides = []string{"upper", "lower"}

// Splitter builds the splitter of a SetInstance.
func Splitter(m, d int, netSeed uint64) expander.Splitter {
	return expander.NewSplitter(m, d, seeds.Rand(netSeed, 0x6bf3, uint64(m), uint64(d)))
}

// MaxD is the largest degree the expansion target accepts. Nothing in the
// splitter or the count limits d (models/multibutterfly's old d ≤ 64 is gone
// too); the cap keeps a hunt's splitter at m·d ≤ 2^19 edges per side so that
// an evaluation stays cheap, and 128 covers the paper's explicit parameter
// set of §4.3 (d = 102).
const MaxD = 128

func (in SetInstance) validate() error {
	switch {
	case in.M < 4 || in.M > 4096 || in.M%2 != 0:
		return fmt.Errorf("m = %d: must be even, in [4, 4096]", in.M)
	case in.D < 1 || in.D > MaxD:
		return fmt.Errorf("d = %d: must be in [1, %d]", in.D, MaxD)
	case in.AlphaInv < 1 || in.M/in.AlphaInv < 1:
		return fmt.Errorf("alpha_inv = %d: need 1 ≤ ⌊m/alpha_inv⌋ (m = %d)", in.AlphaInv, in.M)
	case !(in.Beta > 0) || in.Beta > 1e6:
		return fmt.Errorf("beta = %g: must be in (0, 1e6]", in.Beta)
	case in.Side != "upper" && in.Side != "lower":
		return fmt.Errorf("side = %q: allowed upper, lower", in.Side)
	case len(in.Set) < 1 || len(in.Set) > in.M/in.AlphaInv:
		return fmt.Errorf("set has %d inputs: the definition concerns 1 ≤ |X| ≤ ⌊m/alpha_inv⌋ = %d", len(in.Set), in.M/in.AlphaInv)
	}
	seen := make([]bool, in.M)
	for _, x := range in.Set {
		if x < 0 || int(x) >= in.M || seen[x] {
			return fmt.Errorf("set: %d is out of range [0, %d) or repeated", x, in.M)
		}
		seen[x] = true
	}
	return nil
}

// gamma counts the distinct right neighbours of set in g, with its own
// stamp array (the replay compares it with expander.Graph.Gamma).
type gamma struct {
	stamp []int32
	now   int32
}

func (c *gamma) count(g expander.Graph, set []int32) int {
	if len(c.stamp) != g.NB {
		c.stamp, c.now = make([]int32, g.NB), 0
	}
	c.now++
	n := 0
	for _, a := range set {
		for _, b := range g.Adj[a] {
			if c.stamp[b] != c.now {
				c.stamp[b] = c.now
				n++
			}
		}
	}
	return n
}

func replaySet(c hunt.Case) (hunt.Replayed, error) {
	in, err := hunt.DecodeOne[SetInstance](c, metricExpansion)
	if err != nil {
		return hunt.Replayed{}, err
	}
	if err := in.validate(); err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	sp := Splitter(in.M, in.D, in.NetSeed)
	g := sp.Upper
	if in.Side == "lower" {
		g = sp.Lower
	}
	var gc gamma
	n1, n2 := g.Gamma(in.Set), gc.count(g, in.Set)
	x := len(in.Set)
	report := fmt.Sprintf("splitter m = %d, d = %d, net seed %d, %s concentrator; X = %v (|X| = %d ≤ ⌊m/%d⌋ = %d):\n  |Γ(X)| = %d (expander.Gamma), %d (plain count); |Γ(X)|/|X| = %.4g against β = %g\n",
		in.M, in.D, in.NetSeed, in.Side, in.Set, x, in.AlphaInv, in.M/in.AlphaInv, n1, n2, float64(n1)/float64(x), in.Beta)
	ok := n1 == n2
	if cert, err := expander.Spectral(g); err == nil {
		lb := cert.MinNeighbours(x)
		report += fmt.Sprintf("  Tanner's certificate (λ₂ = %.3f): every set of %d inputs has ≥ %d neighbours\n", cert.Lambda2, x, lb)
		if lb > n1 {
			report += "  the certificate claims more than this set has: the certificate is UNSOUND\n"
			ok = false
		}
	}
	if in.M <= expander.MaxExact {
		if min, worst, err := expander.MinNeighbours(g, x); err == nil {
			report += fmt.Sprintf("  exact: the fewest neighbours of %d inputs is %d (%v)\n", x, min[x], worst[x])
			if min[x] > n1 {
				report += "  the set has fewer neighbours than the exact minimum: enumeration or Gamma is WRONG\n"
				ok = false
			}
		}
	}
	got := in.Beta * float64(x) / float64(n1)
	ok = ok && math.Abs(got-c.Value) < 1e-9
	report += fmt.Sprintf("%s: %.6g (recorded %.6g; Definition 2.2: ≤ 1 on an (α, β)-expanding concentrator) — %s\n", c.Metric, got, c.Value, hunt.Verdict(ok))
	return hunt.Replayed{Report: report, Value: got, Reproduced: ok}, nil
}

type expansionTarget struct {
	m, d, alphaInv, starts *int
	samples                hunt.SamplesFlag
	beta                   *float64
	netSeed                *uint64
	families               *bool
}

func (t *expansionTarget) Name() string { return "mbfly-expansion" }
func (t *expansionTarget) Description() string {
	return "input sets of a random splitter's concentrators maximizing " + metricExpansion + " (Definition 2.2 / Corollary 2.1: ≤ 1 when |X| ≤ αm; the multi-butterfly's splitters), greedy and annealing beside random sets"
}

func (t *expansionTarget) DefineFlags(fs *flag.FlagSet) {
	t.m = fs.Int("m", 256, "splitter inputs m (even, 4 … 4096)")
	t.d = fs.Int("d", 32, fmt.Sprintf("degree into each output set, 1 … %d (the design: 32; §4.3's explicit set: 102)", MaxD))
	t.alphaInv = fs.Int("alpha-inv", 32, "1/α: sets of at most ⌊m/alpha-inv⌋ inputs (the design: 32)")
	t.beta = fs.Float64("beta", 7, "β the sets must expand by (the design: 7)")
	t.netSeed = fs.Uint64("net-seed", 1, "seed of the splitter's random matchings")
	t.samples.Define(fs, "random sets sampled before annealing")
	t.starts = fs.Int("starts", 8, "greedy starts per concentrator (expander.GreedySmallSet), counted as starts·(⌊αm⌋−1)·m + starts evaluations")
	t.families = fs.Bool("families", true, "run the greedy construction first (false: sampling and annealing alone)")
}

func (t *expansionTarget) Shrinking() string {
	return "shrinking: none — the set X has at most ⌊αm⌋ inputs already, the annealing's own moves add and remove members, and a smaller set as bad would be another witness, not a simpler form of this one"
}

func (t *expansionTarget) DefaultFile() string {
	return fmt.Sprintf("testdata/hunt/mbfly-expansion-m%d-d%d-a%d.json", *t.m, *t.d, *t.alphaInv)
}

func (t *expansionTarget) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	switch {
	case *t.m < 4 || *t.m > 4096 || *t.m%2 != 0:
		return hunt.Case{}, fmt.Errorf("--m = %d: must be even, in [4, 4096]", *t.m)
	case *t.d < 1 || *t.d > MaxD:
		return hunt.Case{}, fmt.Errorf("--d = %d: must be in [1, %d]", *t.d, MaxD)
	case *t.alphaInv < 1 || *t.m / *t.alphaInv < 1:
		return hunt.Case{}, fmt.Errorf("--alpha-inv = %d: need 1 ≤ ⌊m/alpha-inv⌋ (m = %d)", *t.alphaInv, *t.m)
	case !(*t.beta > 0) || *t.beta > 1e6:
		return hunt.Case{}, fmt.Errorf("--beta = %g: must be in (0, 1e6]", *t.beta)
	}
	if err := t.samples.Check(); err != nil {
		return hunt.Case{}, err
	}
	if *t.starts < 1 || *t.starts > 1000 {
		return hunt.Case{}, fmt.Errorf("--starts = %d: must be in [1, 1000]", *t.starts)
	}
	m, k, beta := *t.m, *t.m / *t.alphaInv, *t.beta
	sp := Splitter(m, *t.d, *t.netSeed)
	gs := []expander.Graph{sp.Upper, sp.Lower}
	var gc gamma
	evals := 0
	eval := func(side int, set []int32) float64 {
		evals++
		return beta * float64(len(set)) / float64(gc.count(gs[side], set))
	}
	bestSide, bestVal, by := 0, math.Inf(-1), ""
	var best []int32
	// Each concentrator's best, where its annealing run starts.
	var sideBest [2][]int32
	sideVal := [2]float64{math.Inf(-1), math.Inf(-1)}
	consider := func(side int, set []int32, v float64, how string) {
		if v > sideVal[side] {
			sideBest[side], sideVal[side] = slices.Clone(set), v
		}
		if v > bestVal {
			bestSide, best, bestVal, by = side, slices.Clone(set), v, how
			o.Logf("  %-28s %s %.4f (|X| = %d, %s)", how, metricExpansion, v, len(set), sides[side])
		}
	}
	rng := seeds.Rand(o.Seed, 0x6bf4)
	if *t.families {
		for side, g := range gs {
			if o.Stop(ctx) {
				break
			}
			_, set := expander.GreedySmallSet(g, k, *t.starts, rng)
			evals += *t.starts*(k-1)*m + *t.starts - 1
			consider(side, set, eval(side, set), "greedy "+sides[side])
		}
	}
	randomSet := func(r *rand.Rand) (int, []int32) {
		x := 1 + r.IntN(k)
		seen := map[int32]bool{}
		set := make([]int32, 0, x)
		for len(set) < x {
			v := int32(r.IntN(m))
			if !seen[v] {
				seen[v] = true
				set = append(set, v)
			}
		}
		return r.IntN(2), set
	}
	for i := 0; i < t.samples.N() && !o.Stop(ctx); i++ {
		side, set := randomSet(rng)
		consider(side, set, eval(side, set), fmt.Sprintf("random set %d", i))
	}
	if best == nil {
		return hunt.Case{}, fmt.Errorf("nothing evaluated: give --samples ≥ 1, keep --families, or allow more --time")
	}
	// Simulated annealing, on each concentrator in turn from its best set
	// (half the moves each; a concentrator nothing was tried on starts
	// from a random set): swap an element for another input, add or remove
	// one (1 ≤ |X| ≤ k). Half of the inputs brought in are local: they
	// share a right neighbour with a member of X (a random member's random
	// neighbour's random left neighbour), the only inputs that can keep
	// |Γ(X)| from growing.
	for side, g := range gs {
		if o.Stop(ctx) {
			break
		}
		o := o.Share(len(gs) - side) // each concentrator half the time left
		rev := make([][]int32, g.NB)
		for a, bs := range g.Adj {
			for _, b := range bs {
				rev[b] = append(rev[b], int32(a))
			}
		}
		cur, curVal := sideBest[side], sideVal[side]
		if cur == nil {
			_, cur = randomSet(rng)
			curVal = eval(side, cur)
			consider(side, cur, curVal, "annealing start "+sides[side])
		}
		cur = slices.Clone(cur)
		in := make([]bool, m)
		for _, v := range cur {
			in[v] = true
		}
		pick := func() int32 {
			if rng.IntN(2) == 0 {
				return int32(rng.IntN(m))
			}
			nb := g.Adj[cur[rng.IntN(len(cur))]]
			back := rev[nb[rng.IntN(len(nb))]]
			return back[rng.IntN(len(back))]
		}
		iters := o.Iters / 2
		if side == 0 {
			iters += o.Iters % 2
		}
		scale := math.Max(curVal, 1e-3) * 0.05
		for it := 0; it < iters && !o.Stop(ctx); it++ {
			temp := scale * (1 - o.Used(it, iters))
			next := slices.Clone(cur)
			switch mv := rng.IntN(4); {
			case mv == 0 && len(cur) < k:
				v := pick()
				if in[v] {
					continue
				}
				next = append(next, v)
			case mv == 1 && len(cur) > 1:
				i := rng.IntN(len(next))
				next = slices.Delete(next, i, i+1)
			default:
				v := pick()
				if in[v] {
					continue
				}
				next[rng.IntN(len(next))] = v
			}
			v := eval(side, next)
			if v >= curVal || (temp > 0 && rng.Float64() < math.Exp((v-curVal)/temp)) {
				for _, x := range cur {
					in[x] = false
				}
				for _, x := range next {
					in[x] = true
				}
				cur, curVal = next, v
				consider(side, cur, v, fmt.Sprintf("annealing %s step %d", sides[side], it))
			}
		}
	}
	hunted := evals
	rb := seeds.Rand(o.Seed, 0x6bf5)
	randBest := math.Inf(-1)
	for i := 0; i < hunted && ctx.Err() == nil; i++ {
		s, set := randomSet(rb)
		randBest = max(randBest, eval(s, set))
	}
	o.Logf("  hunted %.4f vs random sets %.4f at %d evaluations", bestVal, randBest, hunted)
	by += fmt.Sprintf("; hunted %.6g (|Γ(X)|/|X| = %.4g) vs best of %d random sets %.6g", bestVal, beta/bestVal, hunted, randBest)
	slices.Sort(best)
	raw, err := json.Marshal(SetInstance{M: m, D: *t.d, NetSeed: *t.netSeed, AlphaInv: *t.alphaInv, Beta: beta, Side: sides[bestSide], Set: best})
	if err != nil {
		return hunt.Case{}, err
	}
	return hunt.Case{Kind: "mbfly-splitter-set", Target: t.Name(), Metric: metricExpansion, Value: bestVal, FoundBy: by, Seed: o.Seed,
		RandomBest: hunt.Baseline(randBest), Evaluations: hunted, Instance: raw}, nil
}
