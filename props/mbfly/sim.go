package mbfly

import (
	"fmt"
	"iter"
	"math"

	"pgregory.net/rapid"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflyforms"
)

// mbflyDesign is the network the simulation claims run on: d = 32 edges
// into each output set, α = 1/32, β = 7 (the paper's β), so that
// L = ⌈1/(α(β+1))⌉ = 4 exactly and α(β+1) = 1/L. The expansion is verified
// exactly for every splitter (mbflyVerify), which needs m ≤ 64, so N ≤ 64.
var mbflyDesign = struct {
	D           int
	Alpha, Beta float64
	L           int
}{D: 32, Alpha: 1.0 / 32, Beta: 7, L: 4}

// mbflyNet builds the r-th network of size n for tag.
func mbflyNet(seed, tag uint64, n, d, r int) (*mb.Network, error) {
	return mb.Build(n, d, seeds.Rand(seed, 0xb0f1, tag, uint64(n), uint64(d), uint64(r)))
}

// mbflyDesignNet is one of the design networks, with its engine.
type mbflyDesignNet struct {
	r   int // the network's index among those of its size
	net *mb.Network
	eng *amb.Engine
}

// mbflyDesignNets yields the design networks r = 0 … nets−1 of size n —
// mbflyNet(seed, 0xd5, n, mbflyDesign.D, r), the networks
// mbfly/sec3.1/design-network-expands verifies — in order, each with a new
// engine. A build error is yielded as the error and ends the sequence.
func mbflyDesignNets(seed uint64, n, nets int) iter.Seq2[mbflyDesignNet, error] {
	return func(yield func(mbflyDesignNet, error) bool) {
		for r := range nets {
			net, err := mbflyNet(seed, 0xd5, n, mbflyDesign.D, r)
			if err != nil {
				yield(mbflyDesignNet{r: r}, err)
				return
			}
			if !yield(mbflyDesignNet{r: r, net: net, eng: amb.NewEngine(net)}, nil) {
				return
			}
		}
	}
}

// mbflyRoute is one permutation routed by mbflyRoutes.
type mbflyRoute struct {
	i      int     // the permutation's index in perms
	p      []int32 // the permutation
	s, fin mb.State
	res    amb.Result
	err    error // the run's error (a model violation, the caller's verdict)
}

// mbflyRoutes routes perms on net in order, L buffers per node, one
// engine for all of them, every run with opts, and yields each run. A
// permutation mb.Init rejects is yielded as the error (a setup failure,
// not a verdict; the route carries only i and p) and ends the sequence.
func mbflyRoutes(net *mb.Network, L int, perms [][]int32, opts amb.Options) iter.Seq2[mbflyRoute, error] {
	return func(yield func(mbflyRoute, error) bool) {
		eng := amb.NewEngine(net)
		for i, p := range perms {
			s, err := mb.Init(net, L, p)
			if err != nil {
				yield(mbflyRoute{i: i, p: p}, err)
				return
			}
			res, fin, err := eng.Run(s, opts)
			if !yield(mbflyRoute{i: i, p: p, s: s, fin: fin, res: res, err: err}, nil) {
				return
			}
		}
	}
}

// mbflyMisrouted is the first packet q of fin (routed from a state that
// mb.Init built on net with permutation p) that is not at its output
// ⟨log N, p[source]⟩, or −1 when every packet is. O(packets).
func mbflyMisrouted(net *mb.Network, p []int32, fin mb.State) int {
	for q := range fin.Pos {
		if fin.Pos[q] != net.Node(net.LogN, int(p[fin.Source[q]])) {
			return q
		}
	}
	return -1
}

// mbflyConcentrators calls visit for both concentrators (side 0 upper, 1
// lower) of every splitter (s, j) of net with k = ⌊αm⌋ > 0, in order,
// and stops at the first non-empty string visit returns, which it returns.
func mbflyConcentrators(net *mb.Network, alpha float64, visit func(s, j, side int, sp expander.Splitter, k int, g expander.Graph) string) string {
	for s, row := range net.Splitters {
		for j, sp := range row {
			k := int(math.Floor(alpha * float64(sp.M)))
			if k == 0 {
				continue
			}
			for side, g := range []expander.Graph{sp.Upper, sp.Lower} {
				if msg := visit(s, j, side, sp, k, g); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

// mbflyVerify checks exactly that every concentrator of every splitter of
// net satisfies |Γ(X)| ≥ β|X| for 1 ≤ |X| ≤ ⌊αm⌋ (Definition 2.2; sets of
// ⌊αm⌋ = 0 are vacuous). It returns the smallest ratio |Γ(X)|/|X| met (+Inf
// if every condition is vacuous) and, on failure, where.
func mbflyVerify(net *mb.Network, alpha, beta float64) (minRatio float64, bad string, err error) {
	minRatio = math.Inf(1)
	mbflyConcentrators(net, alpha, func(s, j, side int, sp expander.Splitter, k int, g expander.Graph) string {
		min, worst, e := expander.MinNeighbours(g, k)
		if e != nil {
			err = e
			return "stop"
		}
		for x := 1; x <= k; x++ {
			r := float64(min[x]) / float64(x)
			minRatio = math.Min(minRatio, r)
			if r < beta && bad == "" {
				bad = fmt.Sprintf("splitter (s=%d, j=%d, m=%d), %s concentrator: X = %v has |Γ(X)| = %d < β|X| = %g", s, j, sp.M, []string{"upper", "lower"}[side], worst[x], min[x], beta*float64(x))
			}
		}
		return ""
	})
	if err != nil {
		return 0, "", err
	}
	return minRatio, bad, nil
}

// mbflySplitterBeta returns, for every splitter, its exact expansion at α:
// the least |Γ(X)|/|X| over both concentrators and 1 ≤ |X| ≤ ⌊αm⌋ (NaN
// when ⌊αm⌋ = 0: the definition is vacuous there).
func mbflySplitterBeta(net *mb.Network, alpha float64) ([][]float64, error) {
	out := make([][]float64, len(net.Splitters))
	for s, row := range net.Splitters {
		out[s] = make([]float64, len(row))
		for j, sp := range row {
			k := int(math.Floor(alpha * float64(sp.M)))
			if k == 0 {
				out[s][j] = math.NaN()
				continue
			}
			b := math.Inf(1)
			for _, g := range []expander.Graph{sp.Upper, sp.Lower} {
				bg, err := exactBeta(g, k)
				if err != nil {
					return nil, err
				}
				b = math.Min(b, bg)
			}
			out[s][j] = b
		}
	}
	return out, nil
}

// exactBeta is g's exact expansion up to k: the least |Γ(X)|/|X| over
// 1 ≤ |X| ≤ k (expander.MinNeighbours, exhaustive), +Inf when k = 0.
func exactBeta(g expander.Graph, k int) (float64, error) {
	mn, _, err := expander.MinNeighbours(g, k)
	if err != nil {
		return 0, err
	}
	b := math.Inf(1)
	for x := 1; x <= k; x++ {
		b = math.Min(b, float64(mn[x])/float64(x))
	}
	return b, nil
}

// leastSplitterBeta is the least exact expansion at α over the splitters
// of net with ⌊αm⌋ ≥ 1 (mbflySplitterBeta's non-NaN entries), +Inf when
// there is none.
func leastSplitterBeta(net *mb.Network, alpha float64) (float64, error) {
	sp, err := mbflySplitterBeta(net, alpha)
	if err != nil {
		return 0, err
	}
	beta := math.Inf(1)
	for _, row := range sp {
		for _, b := range row {
			if !math.IsNaN(b) {
				beta = math.Min(beta, b)
			}
		}
	}
	return beta, nil
}

// commStageExpander is the expander of stage s (0 ≤ s < net.LogN) of a §4.1
// network as a bipartite graph on n + n nodes: the part-0 edges from stage
// s to stage s + 1, both ends numbered within their stage.
func commStageExpander(net *mb.CommNetwork, s int) expander.Graph {
	n := net.N
	g := expander.Graph{NA: n, NB: n, Adj: make([][]int32, n)}
	for i, e := range net.Edges {
		if net.Part[i] == 0 && int(e.Stage) == s {
			a := int(e.From) - s*n
			g.Adj[a] = append(g.Adj[a], e.To-int32((s+1)*n))
		}
	}
	return g
}

// mbflyRunStats is what one simulated run found.
type mbflyRunStats struct {
	res amb.Result
	// claim31 is the first violation of Claim 3.1's inequality on a splitter
	// satisfying its hypotheses ("" if none); claim31Checked counts the
	// (splitter, iteration, batch) triples checked; claim31Outside counts
	// violations on splitters outside the hypotheses (m with a batch load
	// over α(β+1)m).
	claim31                        string
	claim31Checked, claim31Outside int
	// claim32 is the first violation of Claim 3.2's bound ("" if none).
	claim32        string
	claim32Checked int
	// maxStageBatch is max over t, s < log N, k of X_s^t(k).
	delivered bool
}

// mbflyRun routes p on net with L batches and checks, after every
// iteration, Claim 3.1 on every splitter (s, j) active in that iteration
// with β = betaOf(s, j) (NaN: not checked) and, for even t, Claim 3.2 with
// (β, γ, θ) (skipped if θ = 0). fault is amb.NoFault except in the
// claims' planted faults.
func mbflyRun(net *mb.Network, eng *amb.Engine, L int, p []int32, alpha float64, betaOf func(s, j int) float64, beta, gamma float64, theta int, check bool, fault amb.Fault) (mbflyRunStats, error) {
	s, err := mb.Init(net, L, p)
	if err != nil {
		return mbflyRunStats{}, err
	}
	var st mbflyRunStats
	logN, n := net.LogN, net.N
	// counts[s][j][k] = batch-k packets in set A_{s,j} (after the last
	// iteration), prev the same one iteration earlier.
	mk := func() [][][]int {
		c := make([][][]int, logN+1)
		for s := range c {
			c[s] = make([][]int, 1<<s)
			for j := range c[s] {
				c[s][j] = make([]int, L)
			}
		}
		return c
	}
	prev, cur := mk(), mk()
	tally := func(c [][][]int, x *mb.State) {
		for s := range c {
			for j := range c[s] {
				clear(c[s][j])
			}
		}
		for q, v := range x.Pos {
			sg, k := net.StageOf(v)
			c[sg][k>>(logN-sg)][amb.Batch(x.Dest[q], L)]++
		}
	}
	// load[s][j][k]: batch-k packets routed through splitter (s, j) — those
	// whose destination has prefix j (an exact count, fixed by p).
	load := mk()
	for _, d := range p {
		if d == perm.None {
			continue
		}
		for sg := 0; sg <= logN; sg++ {
			load[sg][int(d)>>(logN-sg)][amb.Batch(d, L)]++
		}
	}
	obs := func(t int, x *mb.State) {
		prev, cur = cur, prev
		tally(cur, x)
		if t == 0 {
			return
		}
		for sg := t % 2; sg < logN; sg += 2 { // splitters active in iteration t
			m := n >> sg
			for j := range 1 << sg {
				beta := betaOf(sg, j)
				if math.IsNaN(beta) {
					continue
				}
				sum := 0 // Σ_{i<k} Y^{t−1}(i)
				for k := range L {
					Y1 := prev[sg][j][k]
					Z1 := prev[sg+1][2*j][k] + prev[sg+1][2*j+1][k]
					Y := cur[sg][j][k]
					rhs := float64(Y1+Z1)/(beta+1) + float64(sum)
					sum += Y1
					hyp := float64(load[sg][j][k]) <= alpha*(beta+1)*float64(m)+1e-9
					if float64(Y) > rhs+1e-9 {
						if !hyp {
							st.claim31Outside++
						} else if st.claim31 == "" {
							st.claim31 = fmt.Sprintf("iteration %d, splitter (s=%d, j=%d, m=%d), batch %d: Y^t = %d > (Y^{t-1} + Z^{t-1})/(β+1) + Σ_{i<k}Y^{t-1}(i) = (%d + %d)/%g + %d", t, sg, j, m, k, Y, Y1, Z1, beta+1, sum-Y1)
						}
					}
					if hyp {
						st.claim31Checked++
					}
				}
			}
		}
		if theta > 0 && t%2 == 0 {
			for sg := 0; sg <= logN; sg++ {
				for k := range L {
					X := 0
					for j := range cur[sg] {
						X += cur[sg][j][k]
					}
					b := mbflyforms.Claim32Bound(n, L, beta, gamma, theta, t, sg, k)
					st.claim32Checked++
					if float64(X) > b+1e-9 && st.claim32 == "" {
						st.claim32 = fmt.Sprintf("iteration %d, stage %d, batch %d: X = %d > %.4g", t, sg, k, X, b)
					}
				}
			}
		}
	}
	if eng == nil {
		eng = amb.NewEngine(net)
	}
	res, fin, err := eng.Run(s, amb.Options{Check: check, AfterIteration: obs, Fault: fault})
	if err != nil {
		return st, err
	}
	st.res = res
	st.delivered = res.Complete && fin.Done() && mb.CheckInvariants(fin) == nil
	if mbflyMisrouted(net, p, fin) >= 0 {
		st.delivered = false
	}
	return st, nil
}

// MbflyRouteProperty is a rapid property: on a random multi-butterfly
// (N = 2…64, d = 1…4, L = 1…6) and a random partial permutation, the
// priority routing completes, with the model's invariants and the
// one-packet-per-batch rule checked after every step, and every packet ends
// at ⟨log N, its destination⟩.
func MbflyRouteProperty(t *rapid.T) {
	logN := rapid.IntRange(1, 6).Draw(t, "logN")
	n := 1 << logN
	d := rapid.IntRange(1, 4).Draw(t, "d")
	L := rapid.IntRange(1, 6).Draw(t, "L")
	seed := rapid.Uint64().Draw(t, "seed")
	p := perm.Random(n, seeds.Rand(seed, 1))
	for i := range p {
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("idle%d", i)) == 0 {
			p[i] = perm.None
		}
	}
	net, err := mb.Build(n, d, seeds.Rand(seed, 2))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.Init(net, L, p)
	if err != nil {
		t.Fatal(err)
	}
	res, fin, err := amb.Run(s, amb.Options{Check: true})
	if err != nil {
		t.Fatalf("model violation: %v", err)
	}
	if !res.Complete || res.MaxBuffer > L {
		t.Fatalf("result %+v", res)
	}
	if q := mbflyMisrouted(net, p, fin); q >= 0 {
		t.Fatalf("packet from %d at node %d", fin.Source[q], fin.Pos[q])
	}
}
