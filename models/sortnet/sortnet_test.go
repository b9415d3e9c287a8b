package sortnet

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bubble is the n(n−1)/2-comparator bubble-sort network (one comparator per
// stage), which sorts by construction.
func bubble(n int) Network {
	nw := Network{N: n}
	for i := n - 1; i > 0; i-- {
		for j := 0; j < i; j++ {
			nw.Stages = append(nw.Stages, Stage{{int32(j), int32(j + 1)}})
		}
	}
	return nw
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		nw Network
		ok bool
	}{
		{Network{N: 3, Stages: []Stage{{{0, 1}}, {{1, 2}}}}, true},
		{Network{N: 3, Stages: []Stage{{{0, 1}, {1, 2}}}}, false}, // wire 1 twice
		{Network{N: 3, Stages: []Stage{{{1, 0}}}}, false},         // i > j
		{Network{N: 3, Stages: []Stage{{{0, 3}}}}, false},         // out of range
		{Network{N: 3, Stages: []Stage{{{1, 1}}}}, false},
		{Network{N: 3, Stages: []Stage{{{-1, 1}}}}, false},
		{Network{N: 0}, true}, // the empty network is a network
		{Network{N: -1}, false},
	} {
		if err := c.nw.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate = %v, want ok %v", c.nw, err, c.ok)
		}
	}
}

// Eval01 agrees with Apply on every one of 64 random 0-1 inputs per word.
func TestEval01MatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := range 50 {
		n := 2 + trial%20
		nw := Network{N: n}
		for range 10 {
			perm := r.Perm(n)
			var st Stage
			for k := 0; k+1 < n; k += 2 {
				i, j := int32(perm[k]), int32(perm[k+1])
				st = append(st, Comparator{min(i, j), max(i, j)})
			}
			nw.Stages = append(nw.Stages, st)
		}
		w := make([]uint64, n)
		for i := range w {
			w[i] = r.Uint64()
		}
		in := slices.Clone(w)
		Eval01(nw, w)
		for b := range 64 {
			xs := make([]int, n)
			for i := range n {
				xs[i] = int(in[i] >> b & 1)
			}
			Apply(nw, xs)
			for i := range n {
				if uint64(xs[i]) != w[i]>>b&1 {
					t.Fatalf("trial %d input %d wire %d: Eval01 %d, Apply %d", trial, b, i, w[i]>>b&1, xs[i])
				}
			}
		}
	}
}

// The exhaustive check accepts a sorting network and returns a genuinely
// unsorted input for a broken one (checked by Apply).
func TestSorts01Exhaustive(t *testing.T) {
	for n := range 14 {
		nw := bubble(n)
		if _, ok, err := Sorts01Exhaustive(nw); !ok || err != nil {
			t.Fatalf("bubble(%d) judged not sorting (%v)", n, err)
		}
		if nw.Size() == 0 {
			continue
		}
		broken := nw.Clone()
		broken.Stages = broken.Stages[:len(broken.Stages)-1] // drop the last comparator
		bad, ok, _ := Sorts01Exhaustive(broken)
		if ok {
			t.Fatalf("bubble(%d) without its last comparator judged sorting", n)
		}
		xs := make([]int, n)
		for i := range n {
			xs[i] = int(bad >> i & 1)
		}
		Apply(broken, xs)
		if Sorted(xs) {
			t.Fatalf("n = %d: reported input %b is sorted by the broken network", n, bad)
		}
	}
	if _, _, err := Sorts01Exhaustive(Network{N: 31}); err == nil {
		t.Fatal("n = 31 accepted")
	}
}

// Probe inputs are distinct, packed faithfully, and FailsOn01 finds a real
// failure of a broken network (checked by Apply) and none for a sorter.
func TestProbes(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1, 5, 9, 16} {
		in := ProbeInputs01(n, r)
		seen := map[uint64]bool{}
		for _, x := range in {
			if seen[x] || x>>n != 0 {
				t.Fatalf("n = %d: input %b repeated or out of range", n, x)
			}
			seen[x] = true
		}
		ws, masks := Pack01(n, in)
		nw := bubble(n)
		if _, found := FailsOn01(nw, ws, masks); found {
			t.Fatalf("bubble(%d) fails on a probe", n)
		}
		if n < 2 {
			continue
		}
		broken := nw.Clone()
		broken.Stages = broken.Stages[:len(broken.Stages)-1]
		bad, found := FailsOn01(broken, ws, masks)
		if !found {
			t.Fatalf("n = %d: broken bubble network passes every probe", n)
		}
		xs := make([]int, n)
		for i := range n {
			xs[i] = int(bad >> i & 1)
		}
		Apply(broken, xs)
		if Sorted(xs) {
			t.Fatalf("n = %d: reported input %b is sorted", n, bad)
		}
	}
}

// A comparator [i:i] is reported as such (the error names the comparator and
// what is needed), not as a wire used twice.
func TestValidateNamesComparator(t *testing.T) {
	err := Network{N: 3, Stages: []Stage{{{1, 1}}}}.Validate()
	if err == nil || !strings.Contains(err.Error(), "[1:1]") || !strings.Contains(err.Error(), "need 0 ≤ i < j") {
		t.Errorf("Validate of [1:1]: %v, want an error naming [1:1] and 0 ≤ i < j", err)
	}
}

// Compact drops exactly the empty stages and keeps the others in order.
func TestCompact(t *testing.T) {
	nw := Network{N: 4, Stages: []Stage{{}, {{0, 1}}, nil, {{2, 3}, {0, 1}}, {}}}
	got := nw.Compact()
	if got.N != 4 || got.Depth() != 2 || !slices.Equal(got.Stages[0], Stage{{0, 1}}) || !slices.Equal(got.Stages[1], Stage{{2, 3}, {0, 1}}) {
		t.Errorf("Compact = %+v, want stages [0:1] and [2:3] [0:1]", got)
	}
	if nw.Depth() != 5 {
		t.Errorf("Compact changed its receiver: depth %d", nw.Depth())
	}
}

// n = 30 is the largest n Sorts01Exhaustive accepts. The network with no
// comparators leaves input 1 (a 1 on wire 0 under a 0 on wire 1) unsorted,
// and that is the smallest unsorted input, so the check stops at once.
func TestSorts01ExhaustiveLimit(t *testing.T) {
	bad, ok, err := Sorts01Exhaustive(Network{N: 30})
	if err != nil || ok || bad != 1 {
		t.Errorf("empty network on 30 wires: bad %d ok %v err %v, want 1, false, nil", bad, ok, err)
	}
}
