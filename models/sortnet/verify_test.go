package sortnet

import (
	"fmt"
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

func TestParseNetworkEdges(t *testing.T) {
	// A reversed pair is reported as reversed, whatever its wires.
	if _, _, err := ParseNetwork([]byte("[(3,1)]")); err == nil || !strings.Contains(err.Error(), "smaller one") {
		t.Errorf("[(3,1)]: %v, want the reversed-comparator error", err)
	}
	// n = 1 and n = MaxVerifyN are inside the allowed range.
	for _, n := range []int{1, MaxVerifyN} {
		nw, _, err := ParseNetwork([]byte(fmt.Sprintf(`{"N": %d, "nw": []}`, n)))
		if err != nil || nw.N != n {
			t.Errorf("N = %d: n %d, %v; want it accepted", n, nw.N, err)
		}
	}
	// Stray text is quoted whole up to 60 characters, cut with … beyond.
	for _, c := range []struct {
		k   int
		cut bool
	}{{60, false}, {61, true}} {
		_, _, err := ParseNetwork([]byte("[(0,1)] " + strings.Repeat("x", c.k)))
		want := `"` + strings.Repeat("x", 60)
		if c.cut {
			want += `…"`
		} else {
			want += `"`
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d stray characters: %v, want %s", c.k, err, want)
		}
	}
}

// reversal is the one-stage network [i : n−1−i]: it sorts every input of
// the form 1^w 0^(n−w) (it reverses it) but almost no permutation.
func reversal(n int) Network {
	var st Stage
	for i := 0; i < n/2; i++ {
		st = append(st, Comparator{I: int32(i), J: int32(n - 1 - i)})
	}
	return Network{N: n, Stages: []Stage{st}}
}

func coveredCounts(t *testing.T, rep VerifyReport) (structured, random int64) {
	t.Helper()
	if _, err := fmt.Sscanf(rep.Covered, "%d structured 0-1 inputs and %d random permutations", &structured, &random); err != nil {
		t.Fatalf("Covered %q: %v", rep.Covered, err)
	}
	return structured, random
}

// Beyond MaxExhaustiveN, Verify runs the n − 1 inputs 1^w 0^(n−w),
// 0 < w < n; for n ≤ 64 also the probe inputs; then random permutations
// costing Size comparators each (plus n for the check) up to RandomWork.
func TestVerifyBeyondExhaustiveCounts(t *testing.T) {
	const work = 1 << 20
	for _, n := range []int{64, 65, 70} {
		nw := oddEvenTransposition(n, n)
		rep := Verify(nw, VerifyOptions{RandomWork: work, Workers: 1})
		if !rep.Sorts || rep.Exhaustive {
			t.Fatalf("n = %d: %+v", n, rep)
		}
		structured, random := coveredCounts(t, rep)
		switch {
		case n > 64 && structured != int64(n-1):
			t.Errorf("n = %d: %d structured inputs, want n − 1 = %d", n, structured, n-1)
		case n <= 64 && structured <= int64(len(docProbes01(n))):
			t.Errorf("n = %d: %d structured inputs, want the n − 1 reversed ones and the probes (≥ %d distinct)", n, structured, len(docProbes01(n)))
		}
		size := int64(nw.Size())
		if random*size > work || random < work/(size+int64(n)) {
			t.Errorf("n = %d: %d random permutations of a %d-comparator network, want about %d / (size + n)", n, random, size, work)
		}
		if rep.Inputs != structured+random {
			t.Errorf("n = %d: Inputs %d, want %d + %d", n, rep.Inputs, structured, random)
		}
	}
}

// The zero VerifyOptions mean RandomWork 2^28 and seed 1. The reversal
// network passes every structured input beyond n = 64, so only random
// permutations can refute it: with no random work it would pass.
func TestVerifyDefaults(t *testing.T) {
	const n = 70
	nw := reversal(n)
	def := Verify(nw, VerifyOptions{Workers: 1})
	if def.Sorts || len(def.Counterexample) != n || sortsInput(nw, def.Counterexample) {
		t.Fatalf("reversal network with default options: %+v", def)
	}
	one := Verify(nw, VerifyOptions{Workers: 1, Seed: 1})
	if !slices.Equal(def.Counterexample, one.Counterexample) || !strings.Contains(def.Covered, "PCG(1, 70)") {
		t.Errorf("seed 0 should mean seed 1: %v (%s) vs %v", def.Counterexample, def.Covered, one.Counterexample)
	}
	if seven := Verify(nw, VerifyOptions{Workers: 1, Seed: 7}); !strings.Contains(seven.Covered, "PCG(7, 70)") {
		t.Errorf("seed 7: %s", seven.Covered)
	}
}

// The limits: exhaustive through n = MaxExhaustiveN, redundant comparators
// exactly through n = MaxRedundantN. A repeated [0:1] never exchanges the
// second time; the empty network fails on input 1 (wire 0 above wire 1).
func TestVerifyLimits(t *testing.T) {
	twice := func(n int) Network {
		return Network{N: n, Stages: []Stage{{{0, 1}}, {{0, 1}}}}
	}
	for _, c := range []struct {
		nw                    Network
		exhaustive, redundant bool
	}{
		{twice(MaxRedundantN), true, true},
		{twice(MaxRedundantN + 1), true, false},
		{Network{N: MaxExhaustiveN}, true, false},
		{Network{N: MaxExhaustiveN + 1}, false, false},
	} {
		rep := Verify(c.nw, VerifyOptions{Workers: 1, RandomWork: 1 << 12})
		if rep.Sorts || rep.Exhaustive != c.exhaustive || rep.RedundantKnown != c.redundant {
			t.Errorf("n = %d: sorts %v exhaustive %v redundant known %v, want false, %v, %v", c.nw.N, rep.Sorts, rep.Exhaustive, rep.RedundantKnown, c.exhaustive, c.redundant)
		}
		if c.exhaustive && !slices.Equal(rep.Counterexample[:3], []int{1, 0, 0}) {
			t.Errorf("n = %d: counterexample %v, want the smallest unsorted input 1, 0, 0, …", c.nw.N, rep.Counterexample)
		}
		if c.redundant && !slices.Equal(rep.Redundant, []Position{{1, 0}}) {
			t.Errorf("n = %d: redundant %v, want the second [0:1]", c.nw.N, rep.Redundant)
		}
	}
}

// At n ≥ 11 the exhaustive check hands out chunks of several 64-input
// words to each worker; every word of every chunk must run. Random
// near-sorting networks (a sorter with comparators dropped) are checked
// against naive01: smallest failing input and redundant comparators.
func TestVerifyExhaustiveChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{11, 12, 13} {
		full := oddEvenTransposition(n, n)
		for trial := range 4 {
			var cs []Comparator
			for _, st := range full.Stages {
				for _, c := range st {
					if trial == 0 || r.IntN(40) != 0 {
						cs = append(cs, c)
					}
				}
			}
			nw := Layer(n, cs)
			bad, found, ex := naive01(nw)
			for _, workers := range []int{1, 2} {
				rep := Verify(nw, VerifyOptions{Workers: workers})
				if rep.Sorts == found || (found && !slices.Equal(rep.Counterexample, bitsOf(uint64(bad), n))) {
					t.Fatalf("n = %d trial %d workers %d: sorts %v counterexample %v, naive: failure %v at %v", n, trial, workers, rep.Sorts, rep.Counterexample, found, bitsOf(uint64(bad), n))
				}
				k, nred := 0, 0
				for _, st := range nw.Stages {
					for range st {
						if !ex[k] {
							nred++
						}
						k++
					}
				}
				if len(rep.Redundant) != nred {
					t.Fatalf("n = %d trial %d workers %d: %d redundant, naive %d", n, trial, workers, len(rep.Redundant), nred)
				}
			}
		}
	}
	// [1:6] … [1:11] leave AND(w1, w6, …, w11) on wire 1, so the last
	// comparator [1:2] exchanges only when wires 6 … 11 are all 1: inputs of
	// the last 64-input word (bits 6 … 11 of the input = 63). It is not
	// redundant, and a check that skipped that word would call it so.
	var cs []Comparator
	for j := int32(6); j < 12; j++ {
		cs = append(cs, Comparator{I: 1, J: j})
	}
	nw := Layer(12, append(cs, Comparator{I: 1, J: 2}))
	for _, workers := range []int{1, 2} {
		rep := Verify(nw, VerifyOptions{Workers: workers})
		for _, p := range rep.Redundant {
			if c := nw.Stages[p.Stage][p.Index]; c == (Comparator{I: 1, J: 2}) {
				t.Errorf("workers %d: [1:2] reported redundant, but it exchanges on input 0b111111000010", workers)
			}
		}
	}
}
