package sortnet

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// sort4 is the optimal 4-input network (Knuth TAOCP 5.3.4): 5 comparators,
// depth 3.
var sort4 = [][2]int{{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}}

func pairsNet(n int, ps [][2]int) Network {
	cs := make([]Comparator, len(ps))
	for k, p := range ps {
		cs[k] = Comparator{I: int32(p[0]), J: int32(p[1])}
	}
	return Layer(n, cs)
}

func TestParseNetworkFormats(t *testing.T) {
	js := `{"N": 4, "L": 5, "D": 3, "nw": [[0,1],[2,3],[0,2],[1,3],[1,2]]}`
	txt := "[(0,1),(2,3)],[(0,2),(1,3)],\n[(1,2)]"
	// The same comparators written as one bracket per comparator: greedy
	// layering must still give depth 3.
	flat := "[(0,1)],[(2,3)],[(0,2)],[(1,3)],[(1,2)]"
	for _, in := range []string{js, txt, flat} {
		nw, dec, err := ParseNetwork([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if nw.N != 4 || nw.Size() != 5 || nw.Depth() != 3 {
			t.Errorf("%q: n %d size %d depth %d, want 4, 5, 3", in, nw.N, nw.Size(), nw.Depth())
		}
		if strings.HasPrefix(in, "{") && (dec.Size != 5 || dec.Depth != 3 || dec.Format != "sorterhunter-json") {
			t.Errorf("declared %+v", dec)
		}
	}
}

func TestParseNetworkErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"{not json", "not SorterHunter JSON"},
		{`{"nw": [[0,1]]}`, `without "N"`},
		{`{"N": 4, "nw": [[0,4]]}`, "out of range"},
		{`{"N": 4, "nw": [[-1,2]]}`, "out of range"},
		{`{"N": 4, "nw": [[2,2]]}`, "one wire"},
		{`{"N": 4, "nw": [[3,1]]}`, "smaller one"},
		{`{"N": 4, "nw": [[0,1,2]]}`, "not a pair"},
		{`{"N": 70000, "nw": []}`, "allowed 1 ≤ n ≤ 65536"},
		{`{"N": 0, "nw": []}`, "allowed 1 ≤ n"},
		{"hello", "not a network"},
		{"[(0,1)] trailing", "outside the bracketed layers"},
		{"[(0,1);(1,2)]", "expected pairs"},
	} {
		_, _, err := ParseNetwork([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// naive01 runs every 0-1 input one at a time on integer keys: the smallest
// unsorted input and, per comparator in stage order, whether it ever
// exchanged (an independent computation of what Verify reports).
func naive01(nw Network) (bad int, found bool, exchanged []bool) {
	exchanged = make([]bool, nw.Size())
	bad = -1
	for x := 0; x < 1<<nw.N; x++ {
		v := make([]int, nw.N)
		for i := range v {
			v[i] = x >> i & 1
		}
		k := 0
		for _, st := range nw.Stages {
			for _, c := range st {
				if v[c.I] > v[c.J] {
					exchanged[k] = true
					v[c.I], v[c.J] = v[c.J], v[c.I]
				}
				k++
			}
		}
		if !Sorted(v) && bad < 0 {
			bad = x
		}
	}
	return bad, bad >= 0, exchanged
}

func TestVerifyExhaustiveAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []Network{pairsNet(4, sort4), pairsNet(4, append(slices.Clone(sort4), [2]int{0, 1})), pairsNet(4, sort4[:4])}
	for range 200 {
		n := 2 + r.IntN(9)
		var ps [][2]int
		for range r.IntN(3 * n) {
			i, j := r.IntN(n), r.IntN(n)
			if i != j {
				ps = append(ps, [2]int{min(i, j), max(i, j)})
			}
		}
		cases = append(cases, pairsNet(n, ps))
	}
	for _, nw := range cases {
		bad, found, ex := naive01(nw)
		for _, workers := range []int{1, 3} {
			rep := Verify(nw, VerifyOptions{Workers: workers})
			if rep.Sorts == found || !rep.Exhaustive || !rep.RedundantKnown {
				t.Fatalf("%v: sorts %v exhaustive %v, naive found a failure: %v", nw, rep.Sorts, rep.Exhaustive, found)
			}
			if found && !slices.Equal(rep.Counterexample, bitsOf(uint64(bad), nw.N)) {
				t.Fatalf("%v (workers %d): counterexample %v, smallest failing input %v", nw, workers, rep.Counterexample, bitsOf(uint64(bad), nw.N))
			}
			var want []Position
			k := 0
			for s, st := range nw.Stages {
				for i := range st {
					if !ex[k] {
						want = append(want, Position{s, i})
					}
					k++
				}
			}
			if !slices.Equal(rep.Redundant, want) {
				t.Fatalf("%v: redundant %v, naive %v", nw, rep.Redundant, want)
			}
		}
	}
	// The hand-known facts: sort4 sorts with no redundant comparator; a
	// repeated [0:1] at the end never exchanges; without [1:2] the input
	// 0,1,0,0... fails.
	if rep := Verify(cases[0], VerifyOptions{}); !rep.Sorts || len(rep.Redundant) != 0 {
		t.Errorf("sort4: %+v", rep)
	}
	if rep := Verify(cases[1], VerifyOptions{}); !rep.Sorts || !slices.Equal(rep.Redundant, []Position{{3, 0}}) {
		t.Errorf("sort4 + [0:1]: %+v", rep)
	}
	// Without [1:2] (bit i of x = wire i): x = 1 (1,0,0,0) and x = 2 end
	// sorted via [0:1] then [1:3]; x = 3 (1,1,0,0) via [0:2] and [1:3];
	// x = 4 via [2:3]; x = 5 (1,0,1,0): [0:1] → 0,1,1,0, [2:3] → 0,1,0,1,
	// [0:2] and [1:3] keep it — unsorted. So the smallest failure is 1,0,1,0.
	if rep := Verify(cases[2], VerifyOptions{}); rep.Sorts || !slices.Equal(rep.Counterexample, []int{1, 0, 1, 0}) {
		t.Errorf("sort4 without [1:2]: %+v", rep)
	}
}

// oddEvenTransposition on n wires (n stages): sorts every input.
func oddEvenTransposition(n, stages int) Network {
	var cs []Comparator
	for s := range stages {
		for i := s % 2; i+1 < n; i += 2 {
			cs = append(cs, Comparator{I: int32(i), J: int32(i + 1)})
		}
	}
	return Layer(n, cs)
}

func TestVerifyBeyondExhaustive(t *testing.T) {
	const n = 40
	if rep := Verify(oddEvenTransposition(n, n), VerifyOptions{RandomWork: 1 << 20}); !rep.Sorts || rep.Exhaustive || rep.RedundantKnown || rep.Inputs == 0 {
		t.Errorf("odd-even transposition on %d wires: %+v", n, rep)
	}
	// With one stage fewer it cannot move the top key down n − 1 places.
	rep := Verify(oddEvenTransposition(n, n-1), VerifyOptions{RandomWork: 1 << 20})
	if rep.Sorts || len(rep.Counterexample) != n || sortsInput(oddEvenTransposition(n, n-1), rep.Counterexample) {
		t.Errorf("n−1 stages: %+v", rep)
	}
}

func TestLayerGreedy(t *testing.T) {
	// [0:1] [1:2] [0:1] [3:4]: wire 1 chains the first three (depth 3); [3:4]
	// goes into stage 0.
	nw := pairsNet(5, [][2]int{{0, 1}, {1, 2}, {0, 1}, {3, 4}})
	want := [][]Comparator{{{0, 1}, {3, 4}}, {{1, 2}}, {{0, 1}}}
	if nw.Depth() != 3 || len(nw.Stages[0]) != 2 || !slices.Equal(nw.Stages[0], want[0]) || !slices.Equal(nw.Stages[2], want[2]) {
		t.Errorf("layering %v, want %v", nw.Stages, want)
	}
	if err := nw.Validate(); err != nil {
		t.Error(err)
	}
}
