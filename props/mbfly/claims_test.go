package mbfly

import (
	"math"
	"strings"
	"testing"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/expander"
	"routecheck/models/perm"
)

// The structured families are permutations, and the transpose and bit
// reversal are what their names say on a hand example (N = 16: 0b0001 ↦
// 0b1000 reversed, 0b0100 after swapping the 2-bit halves).
func TestMbflyPerms(t *testing.T) {
	ps := mbflyPerms(16, 3, 1, 2)
	if len(ps) != 7 {
		t.Fatalf("%d permutations", len(ps))
	}
	for _, p := range ps {
		if err := perm.Validate(p, true); err != nil {
			t.Fatal(err)
		}
	}
	if ps[1][1] != 8 || ps[2][1] != 4 || ps[3][1] != 14 {
		t.Fatalf("rev %d, transpose %d, flip %d", ps[1][1], ps[2][1], ps[3][1])
	}
}

// The Claim 3.1 checker can fail: with β huge on every splitter and one
// batch, the inequality demands Y^t ≤ 0 (every packet leaves an active
// splitter's inputs every iteration), which a weak network (d = 1) cannot
// do on every run. Likewise Claim 3.2 with γ tiny demands an empty network
// at t = 2.
func TestMbflyCheckersCanFail(t *testing.T) {
	found31, found32 := false, false
	for r := range 20 {
		net, err := mbflyNet(1, 3, 16, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		p := perm.Random(16, seeds.Rand(4, uint64(r)))
		st, err := mbflyRun(net, nil, 1, p, 1, func(int, int) float64 { return 1e12 }, 7, 0.01, 1, true, amb.NoFault)
		if err != nil {
			t.Fatal(err)
		}
		found31 = found31 || st.claim31 != ""
		found32 = found32 || strings.Contains(st.claim32, "iteration 2,")
	}
	if !found31 || !found32 {
		t.Fatalf("checkers never fired: 3.1 %v, 3.2 %v", found31, found32)
	}
}

// mbflyVerify reports a failing splitter when β is set above what the
// network has, and the least of mbflySplitterBeta's per-splitter values
// (leastSplitterBeta) is mbflyVerify's minimum.
func TestMbflyVerifyCanFail(t *testing.T) {
	net, err := mbflyNet(1, 5, 32, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, bad, err := mbflyVerify(net, 1.0/16, 100)
	if err != nil || bad == "" || r > 4 {
		t.Fatalf("ratio %v, bad %q, err %v", r, bad, err)
	}
	if m, err := leastSplitterBeta(net, 1.0/16); err != nil || m != r {
		t.Fatalf("per-splitter minimum (leastSplitterBeta over mbflySplitterBeta) %v (err %v), verify minimum %v", m, err, r)
	}
	// a hand check of one splitter: |Γ| of a single input is at most d = 2
	sp := net.Splitters[0][0]
	if g := sp.Upper.Gamma([]int32{0}); g > 2 || g < 1 {
		t.Fatalf("|Γ({0})| = %d", g)
	}
}

// The max-flow routine on hand graphs: N = 2, d = 1 has one path between
// any input and output; a 2-node cut makes it fail on a doctored network
// with an edge removed (flow 0 between the cut-off pair).
func TestMbflyMaxFlow(t *testing.T) {
	net, err := mbflyNet(1, 7, 2, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		for o := range 2 {
			if f := mbflyMaxFlow(net, net.Node(0, i), net.Node(1, o)); f != 1 {
				t.Fatalf("%d→%d: %d", i, o, f)
			}
		}
	}
	net3, _ := mbflyNet(1, 7, 8, 3, 0)
	if f := mbflyMaxFlow(net3, net3.Node(0, 5), net3.Node(3, 2)); f != 3 {
		t.Fatalf("d = 3: flow %d", f)
	}
	cut := *net3
	cut.Edges = nil
	for _, e := range net3.Edges {
		if e.From != net3.Node(0, 5) || e.Lower {
			cut.Edges = append(cut.Edges, e)
		}
	}
	if f := mbflyMaxFlow(&cut, cut.Node(0, 5), cut.Node(3, 2)); f != 0 {
		t.Fatalf("input 5 without its upper edges still reaches output 2 (upper half): %d", f)
	}
}

// exactBeta on hand graphs: K_{2,2} has |Γ(X)| = 2 for every nonempty X,
// so β = 2/1 up to k = 1 and 2/2 up to k = 2; a perfect matching has
// β = 1; k = 0 is vacuous (+Inf).
func TestExactBeta(t *testing.T) {
	k22 := expander.Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0, 1}}}
	match := expander.Graph{NA: 3, NB: 3, Adj: [][]int32{{2}, {0}, {1}}}
	for _, c := range []struct {
		name string
		g    expander.Graph
		k    int
		want float64
	}{{"K22 k=1", k22, 1, 2}, {"K22 k=2", k22, 2, 1}, {"matching k=3", match, 3, 1}, {"k=0", match, 0, math.Inf(1)}} {
		if b, err := exactBeta(c.g, c.k); err != nil || b != c.want {
			t.Errorf("%s: β = %v (err %v), want %v", c.name, b, err, c.want)
		}
	}
}

// ceilLog2 is ⌈log₂ n⌉, 0 for n ≤ 1 (values by hand).
func TestCeilLog2(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 1024: 10, 1025: 11} {
		if got := ceilLog2(n); got != want {
			t.Errorf("ceilLog2(%d) = %d, want %d", n, got, want)
		}
	}
}
