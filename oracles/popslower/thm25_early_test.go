package popslower

import (
	"math"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Hand trace of the direct router on POPS(g,g): (a, b] = {c(group b,
// group a), b}, so S_0 = {0} ∪ {c(0, x) : x} (each coupler carries d or
// d − 1 ≥ √g/2 paths) and the same couplers are in S_1, S_2, …: the first
// node to reach K = ⌈√g/2⌉ sets is c(0,0) (node n) after K destinations.
// The greedy step then pairs b = 0,1,2,3,… with the first free source of
// group 0 other than b: 1, 0, 3, 2, …
func TestTheorem25EarlyDirectHand(t *testing.T) {
	for _, tc := range []struct {
		g             int
		dests, forced []int32
	}{
		{16, []int32{0, 1}, []int32{1, 0}},
		{64, []int32{0, 1, 2, 3}, []int32{1, 0, 3, 2}},
		{256, []int32{0, 1, 2, 3, 4, 5, 6, 7}, []int32{1, 0, 3, 2, 5, 4, 7, 6}},
	} {
		sh := pops.Shape{D: tc.g, G: tc.g}
		res, err := Theorem25Early(sh, direct)
		if err != nil {
			t.Fatalf("g = %d: %v", tc.g, err)
		}
		if res.Node != sh.N() || res.K != len(tc.dests) || res.Processed != len(tc.dests) ||
			!slices.Equal(res.Dests, tc.dests) || !slices.Equal(res.Forced, tc.forced) {
			t.Fatalf("g = %d: node %d K %d processed %d dests %v forced %v; want node %d, dests %v, forced %v",
				tc.g, res.Node, res.K, res.Processed, res.Dests, res.Forced, sh.N(), tc.dests, tc.forced)
		}
		// |S_b| = 1 + g (b and the g couplers into its group).
		if res.MinS != tc.g+1 {
			t.Fatalf("g = %d: min |S_b| = %d, want g+1 = %d", tc.g, res.MinS, tc.g+1)
		}
		want := perm.Identity(sh.N())
		for i, a := range tc.forced {
			want[a] = tc.dests[i]
		}
		if !slices.Equal(res.Perm, want) {
			t.Fatalf("g = %d: permutation differs from the forced pairs plus identity", tc.g)
		}
	}
}

// naiveNodes is the node set of (a, b] written independently of pathNodes:
// coupler c(to, from) numbered n + to·g + from, then the processor.
func naiveNodes(sh pops.Shape, fam Family, a, b int32) map[int]bool {
	m := map[int]bool{}
	prev := a
	for _, q := range fam(a, b) {
		m[sh.N()+(int(q)/sh.D)*sh.G+int(prev)/sh.D] = true
		m[int(q)] = true
		prev = q
	}
	return m
}

// testFamilies are oblivious families written here (the oracle's tests do
// not import algos/): direct, a two-hop one and a three-hop one that sends
// the packet through two intermediate groups chosen from a, b.
func testFamilies(sh pops.Shape) map[string]Family {
	d, g, n := int32(sh.D), int32(sh.G), int32(sh.N())
	return map[string]Family{
		"direct": direct,
		"two-hop": func(a, b int32) []int32 {
			m := ((a/d+b/d+1)%g)*d + b%d
			if m == a || m == b {
				return []int32{b}
			}
			return []int32{m, b}
		},
		"three-hop": func(a, b int32) []int32 {
			m1 := (a*7 + b*3 + 1) % n
			m2 := (m1 + b + d) % n
			var p []int32
			prev := a
			for _, q := range []int32{m1, m2, b} {
				if q != prev && !slices.Contains(p, q) {
					p = append(p, q)
					prev = q
				}
			}
			if p[len(p)-1] != b {
				return []int32{b}
			}
			return p
		},
	}
}

// Theorem25Early against a naive recount of the sets S_b: every b_i has the
// node in S_{b_i}, no node was in K sets before the last processed b (the
// stop is the first possible), every forced path crosses the node, the
// permutation is one and has congestion ≥ K ≥ √g/2, and the minimum |S_b|
// over the processed b is at least Theorem25's minimum over all b.
func TestTheorem25EarlyAgainstNaive(t *testing.T) {
	for _, g := range []int{2, 3, 4, 9, 16, 25} {
		checkEarlyNaive(t, pops.Shape{D: g, G: g}, Theorem25Early)
	}
}

// The same checks on POPS(d, g) with d ≠ g (Theorem25EarlyAnyD, the
// proof's d = Θ(g) extension).
func TestTheorem25EarlyAnyDAgainstNaive(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 8, G: 4}, {D: 2, G: 4}, {D: 32, G: 16}, {D: 8, G: 16}, {D: 3, G: 9}} {
		checkEarlyNaive(t, sh, Theorem25EarlyAnyD)
	}
	if _, err := Theorem25EarlyAnyD(pops.Shape{D: 4, G: 1}, direct); err == nil {
		t.Fatal("g = 1 accepted")
	}
}

func checkEarlyNaive(t *testing.T, sh pops.Shape, construct func(pops.Shape, Family) (Thm25Early, error)) {
	t.Helper()
	g := sh.G
	n, half := sh.N(), math.Sqrt(float64(g))/2
	for name, fam := range testFamilies(sh) {
		res, err := construct(sh, fam)
		if err != nil {
			t.Fatalf("%v %s: %v", sh, name, err)
		}
		inS := func(b int) map[int]bool {
			cnt := map[int]int{}
			for a := range n {
				if a != b {
					for v := range naiveNodes(sh, fam, int32(a), int32(b)) {
						cnt[v]++
					}
				}
			}
			s := map[int]bool{}
			for v, c := range cnt {
				if float64(c) >= half {
					s[v] = true
				}
			}
			return s
		}
		count := map[int]int{}
		var dests []int32
		minS := math.MaxInt
		for b := range res.Processed {
			s := inS(b)
			minS = min(minS, len(s))
			if b < res.Processed-1 {
				for v := range s {
					if count[v]++; count[v] >= res.K {
						t.Fatalf("%v %s: node %d was in K = %d sets already at b = %d < %d", sh, name, v, res.K, b, res.Processed-1)
					}
				}
			}
			if s[res.Node] {
				dests = append(dests, int32(b))
			}
		}
		if !slices.Equal(dests, res.Dests) || len(dests) != res.K || float64(res.K) < half || minS != res.MinS {
			t.Fatalf("%v %s: dests %v (naive %v), K %d, min|S_b| %d (naive %d)", sh, name, res.Dests, dests, res.K, res.MinS, minS)
		}
		for i, a := range res.Forced {
			if res.Perm[a] != res.Dests[i] || !naiveNodes(sh, fam, a, res.Dests[i])[res.Node] {
				t.Fatalf("%v %s: forced pair %d → %d does not cross node %d", sh, name, a, res.Dests[i], res.Node)
			}
		}
		if err := perm.Validate(res.Perm, true); err != nil {
			t.Fatalf("%v %s: %v", sh, name, err)
		}
		if c, _ := Congestion(sh, fam, res.Perm); c < res.K {
			t.Fatalf("%v %s: congestion %d < K = %d", sh, name, c, res.K)
		}
		if sh.D != sh.G {
			continue
		}
		full, err := Theorem25(sh, fam)
		if err != nil {
			t.Fatalf("%v %s: Theorem25: %v", sh, name, err)
		}
		if res.MinS < full.MinS {
			t.Fatalf("%v %s: min over processed b %d < min over all b %d", sh, name, res.MinS, full.MinS)
		}
	}
}

// Shapes outside the proof's assumption (d = g ≥ 2) are refused.
func TestTheorem25EarlyRefusesShape(t *testing.T) {
	if _, err := Theorem25Early(pops.Shape{D: 4, G: 2}, direct); err == nil {
		t.Fatal("POPS(4,2) accepted; the construction is stated for d = g")
	}
	if _, err := Theorem25Early(pops.Shape{D: 1, G: 1}, direct); err == nil {
		t.Fatal("POPS(1,1) accepted; it needs g ≥ 2")
	}
}
