package mbfly

import (
	"math"
	"math/big"
	"slices"
	"testing"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
)

// A d = 102 splitter with m = 256 (m/2 = 128 ≥ d) is certified a
// (0.04, 6.4)-concentrator on both sides; with one input's 102 upper edges
// collapsed onto a single output (a planted wrong set of edges: the graph
// is no longer biregular) the exact singleton step names that input.
func TestE102ExpandsCatchesCollapsedInput(t *testing.T) {
	sp := expander.NewSplitter(256, 102, seeds.Rand(0xe102, 1))
	for side, g := range []expander.Graph{sp.Upper, sp.Lower} {
		e, err := e102Expands(e102Conc{m: 256, k: 10, g: g}, 10, 6.4)
		if err != nil || e.bad != nil || e.ratio < 6.4 {
			t.Fatalf("side %d: ratio %.3f, bad %v, err %v; want certified ≥ 6.4", side, e.ratio, e.bad, err)
		}
	}
	g := sp.Upper
	g.Adj = slices.Clone(g.Adj)
	g.Adj[5] = slices.Repeat([]int32{g.Adj[5][0]}, len(g.Adj[5]))
	e, err := e102Expands(e102Conc{m: 256, k: 10, g: g}, 10, 6.4)
	if err != nil || !slices.Equal(e.bad, []int32{5}) || e.ratio != 1 {
		t.Fatalf("collapsed input 5: bad %v, ratio %v, err %v; want the singleton {5} with 1 neighbour", e.bad, e.ratio, err)
	}
}

// For m = 64 (⌊αm⌋ = 2) e102Expands is exact: its ratio is the least
// |Γ(X)|/|X| over all singletons and pairs, computed here by brute force.
func TestE102ExactSmallAgreesWithBruteForce(t *testing.T) {
	for r := range uint64(3) {
		sp := expander.NewSplitter(64, 102, seeds.Rand(0xe102, 2, r))
		g := sp.Lower
		want := math.Inf(1)
		for a := range g.NA {
			want = math.Min(want, float64(g.Gamma([]int32{int32(a)})))
			for b := a + 1; b < g.NA; b++ {
				want = math.Min(want, float64(g.Gamma([]int32{int32(a), int32(b)}))/2)
			}
		}
		e, err := e102Expands(e102Conc{m: 64, k: 2, g: g}, 2, 6.4)
		if err != nil || e.ratio != want || e.how != "exact" {
			t.Fatalf("r=%d: ratio %v (%s, err %v), brute force %v", r, e.ratio, e.how, err, want)
		}
	}
}

// e102Concs recovers, from a §4.1 network's edges, exactly the expanders'
// degrees and the splitters the multi-butterfly part was built from (as
// multisets of neighbours per input), with k = ⌊αm⌋.
func TestE102ConcsRecoversSplitters(t *testing.T) {
	const n, d = 64, 3
	net, err := mb.BuildComm(n, d, seeds.Rand(0xe102, 3))
	if err != nil {
		t.Fatal(err)
	}
	alpha := big.NewRat(1, 25)
	cs := e102Concs(net, alpha)
	k := net.LogN
	if want := k + 2*(n-1); len(cs) != want {
		t.Fatalf("%d graphs, want log n + 2(n − 1) = %d", len(cs), want)
	}
	for s := range k {
		if dA, dB, ok := cs[s].g.Biregular(); !ok || dA != d || dB != d || cs[s].k != 2 {
			t.Fatalf("expander %d: degrees %d, %d (%v), k = %d; want %d-regular, k = ⌊64/25⌋ = 2", s, dA, dB, ok, cs[s].k, d)
		}
	}
	i := k
	for sg, row := range net.MB.Splitters {
		for j, sp := range row {
			for side, want := range []expander.Graph{sp.Upper, sp.Lower} {
				c := cs[i]
				i++
				if c.m != sp.M || c.k != sp.M/25 || c.g.NA != want.NA || c.g.NB != want.NB {
					t.Fatalf("splitter (%d, %d) side %d: m = %d, k = %d, %d×%d; want m = %d, k = %d, %d×%d", sg, j, side, c.m, c.k, c.g.NA, c.g.NB, sp.M, sp.M/25, want.NA, want.NB)
				}
				for a := range want.Adj {
					x, y := slices.Sorted(slices.Values(c.g.Adj[a])), slices.Sorted(slices.Values(want.Adj[a]))
					if !slices.Equal(x, y) {
						t.Fatalf("splitter (%d, %d) side %d input %d: %v, built %v", sg, j, side, a, x, y)
					}
				}
			}
		}
	}
}

// The near-threshold planted fault of mbfly/sec4.3/explicit-d102-network
// keeps §4.1's degree census (so only the expansion check can catch it):
// expander stage 0 stays d-regular and properly coloured, every node of
// stage 0 has at most 6 distinct heads there (it had more before), and no
// other edge moves.
func TestE102SixHeadsKeepsCensus(t *testing.T) {
	const n, d = 64, 12
	net, err := mb.BuildComm(n, d, seeds.Rand(0xe102, 4))
	if err != nil {
		t.Fatal(err)
	}
	x := e102Planted(net, e102SixHeads)
	if err := x.CheckShape(); err != nil {
		t.Fatalf("census of the planted network: %v", err)
	}
	heads := func(c *mb.CommNetwork) map[int32]map[int32]bool {
		h := map[int32]map[int32]bool{}
		for i, e := range c.Edges {
			if c.Part[i] == 0 && e.Stage == 0 {
				if h[e.From] == nil {
					h[e.From] = map[int32]bool{}
				}
				h[e.From][e.To] = true
			}
		}
		return h
	}
	before, after := heads(net), heads(x)
	more := false
	for v := range before {
		if len(after[v]) > 6 || len(after[v]) == 0 {
			t.Fatalf("node %d: %d distinct heads after the plant, want 1…6", v, len(after[v]))
		}
		more = more || len(before[v]) > 6
	}
	if !more {
		t.Fatalf("no node of the built stage 0 had more than 6 heads: the plant changes nothing")
	}
	for i, e := range net.Edges {
		if (net.Part[i] != 0 || e.Stage != 0) && x.Edges[i] != e {
			t.Fatalf("edge %d (part %d, stage %d) moved: %v → %v", i, net.Part[i], e.Stage, e, x.Edges[i])
		}
	}
}

// e102SameGraph (which lets a planted fault reuse the measurement of a
// graph it left as built) tells a graph from a copy with one neighbour
// moved, and from one with a different output count.
func TestE102SameGraph(t *testing.T) {
	sp := expander.NewSplitter(64, 102, seeds.Rand(0xe102, 5))
	g := sp.Upper
	h := g
	h.Adj = make([][]int32, len(g.Adj))
	for i := range g.Adj {
		h.Adj[i] = slices.Clone(g.Adj[i])
	}
	if !e102SameGraph(g, h) {
		t.Fatal("a copy differs")
	}
	h.Adj[7][3] = (h.Adj[7][3] + 1) % int32(h.NB)
	if e102SameGraph(g, h) {
		t.Fatal("a moved neighbour is not seen")
	}
	h.Adj[7][3] = g.Adj[7][3]
	h.NB++
	if e102SameGraph(g, h) {
		t.Fatal("a different output count is not seen")
	}
}

// The observer's Claim 4.1 records at the printed β (rec[4]) and its two
// planted recurrence faults (rec[5]: Σ over batch k alone; rec[6]: the
// next stage's packets left out) agree with a count written here from the
// buffers alone: per iteration t, expander stage s < log n with s ≡ t
// (mod 2) and batch k, c = (Σ/X − 1)/6.4 over the cells with X > 0.
func TestE102Claim41PrintedBetaRecount(t *testing.T) {
	const n, d = 64, 3
	net, err := mb.BuildComm(n, d, seeds.Rand(0xe102, 6))
	if err != nil {
		t.Fatal(err)
	}
	k, A := net.LogN, e102A()
	nb := A * (k + 1)
	cs := e102Concs(net, e102Set().Alpha)
	x := &e102Net{n: n, net: net, exp: make([]*e102Expansion, len(cs)), load: make([]*e102Expansion, len(cs))}
	np := n * (k + 1)
	dest := make([]int32, np)
	for i, j := range seeds.Rand(0xe102, 7).Perm(np) {
		dest[i] = int32(2*k*n + j)
	}
	s0, err := mb.InitComm(net, dest)
	if err != nil {
		t.Fatal(err)
	}
	var rec [7]e102Rec
	var c43 e102C43
	obs := e102Observer(x, s0, &rec, &c43)
	count := func(st mb.CommState) [][]int {
		c := make([][]int, k+1)
		for s := range c {
			c[s] = make([]int, nb)
		}
		for v, p := range st.Buf {
			if p >= 0 && v/n <= k {
				c[v/n][amb.CommBatch(net, A, st.Dest[p])]++
			}
		}
		return c
	}
	want := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	cells := 0
	prev := count(s0)
	_, _, err = amb.RunCommObserved(s0, A, 0, true, func(it int, st mb.CommState) error {
		cur := count(st)
		for s := 0; s < k; s++ {
			if s%2 != it%2 {
				continue
			}
			for b := range nb {
				if cur[s][b] == 0 {
					continue
				}
				var sum [3]int
				for j := 0; j <= b; j++ {
					sum[0] += prev[s][j] + prev[s+1][j]
					sum[2] += prev[s][j]
				}
				sum[1] = prev[s][b] + prev[s+1][b]
				cells++
				for i := range sum {
					want[i] = math.Min(want[i], (float64(sum[i])/float64(cur[s][b])-1)/6.4)
				}
			}
		}
		prev = cur
		return obs(it, st)
	})
	if err != nil {
		t.Fatal(err)
	}
	if cells == 0 {
		t.Fatal("no expander cell held a packet: nothing compared")
	}
	for i, w := range want {
		if got := rec[4+i].c; math.Abs(got-w) > 1e-12 {
			t.Fatalf("rec[%d].c = %v, recount %v (%d cells)", 4+i, got, w, cells)
		}
	}
}
