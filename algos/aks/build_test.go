package aks

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

func randPerm(r *rand.Rand, n int) []int32 {
	xs := make([]int32, n)
	for i, x := range r.Perm(n) {
		xs[i] = int32(x)
	}
	return xs
}

func identity(n int) []int32 {
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i)
	}
	return xs
}

// With the exact separator and the §5 parameters (which satisfy every §5
// constraint), the construction is a sorting network for every n: the 0-1
// principle checked over all 2^n inputs, n ≤ 24 (20 with -short; 26 with
// -aks.long). n = 25, 26 cost three times all of n ≤ 24 together and lie in
// the regime n = 17..32 (19 stages, depth 99, final 2-sorters) that
// n = 17..24 already check exhaustively.
func TestExactSortsExhaustive(t *testing.T) {
	maxN := 24
	switch {
	case short():
		maxN = 20
	case *aksLong:
		maxN = 26
	}
	for n := 0; n <= maxN; n++ {
		res, err := Construct(n, SeiferasParams(), Exact())
		if err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		if err := res.Net.Validate(); err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		if !res.OutputIdentity {
			t.Errorf("n = %d: output positions are not the identity", n)
		}
		bad, ok, err := sortnet.Sorts01Exhaustive(res.Net)
		if err != nil || !ok {
			t.Fatalf("n = %d: 0-1 input %b not sorted (%v); replay: Construct(%d, SeiferasParams(), Exact())", n, bad, err, n)
		}
	}
}

// Random permutations up to n = 2^12 (2^13 without -short), including sizes
// that are not powers of two, sorted by both the emitted network and the
// construction's own simulation.
func TestExactSortsRandom(t *testing.T) {
	sizes := []int{33, 100, 255, 256, 1000, 1 << 12}
	if !short() {
		sizes = append(sizes, 5000, 1<<13)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range sizes {
		ins := [][]int32{randPerm(r, n), randPerm(r, n), randPerm(r, n)}
		res, err := Construct(n, SeiferasParams(), Exact(), ins...)
		if err != nil {
			t.Fatal(err)
		}
		for k, in := range ins {
			xs := slices.Clone(in)
			sortnet.Apply(res.Net, xs)
			if !sortnet.Sorted(xs) || !res.Traces[k].Sorted {
				t.Fatalf("n = %d input %d: net sorted %v, trace sorted %v (PCG(11,12))", n, k, sortnet.Sorted(xs), res.Traces[k].Sorted)
			}
		}
		t.Logf("n = %5d: %3d stages, depth %6d, %9d comparators, final 2^%d-sorters", n, res.Stages, res.Net.Depth(), res.Net.Size(), res.FinalHeight+1)
	}
}

// The §4 invariant holds after every stage on random inputs with the exact
// separator: clauses 1–3 (data independent), clause 4 with the §5 bounds
// λε^(j−1)·b, and more strongly no 2-strangers at all (with ε = 0 the §5
// argument gives a 0 bound for j ≥ 2: an exact separator kicks every
// 1-stranger of a bag back, since there are at most ⌊λb⌋ of them). The
// finishing subtrees are no higher than §4's k.
func TestExactInvariants(t *testing.T) {
	sizes := []int{8, 13, 64, 100, 512, 1024}
	if !short() {
		sizes = append(sizes, 4096)
	}
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range sizes {
		ins := make([][]int32, 8)
		for k := range ins {
			ins[k] = randPerm(r, n)
		}
		res, err := Construct(n, SeiferasParams(), Exact(), ins...)
		if err != nil {
			t.Fatal(err)
		}
		for _, rep := range res.Schedule {
			if v := rep.Violations(); len(v) > 0 {
				t.Fatalf("n = %d schedule: %v", n, v)
			}
		}
		max1 := 0.0
		for k, tr := range res.Traces {
			for _, rep := range tr.Reports {
				if v := rep.Violations(); len(v) > 0 {
					t.Fatalf("n = %d input %d (PCG(21,22)): %v", n, k, v)
				}
				for _, lv := range rep.Levels {
					if len(lv.Strangers) >= 2 && lv.Strangers[1] > 0 {
						t.Fatalf("n = %d input %d t = %d depth %d: %d 2-strangers", n, k, rep.T, lv.Depth, lv.Strangers[1])
					}
					if len(lv.Strangers) >= 1 && lv.Bounds[0] > 0 {
						max1 = max(max1, float64(lv.Strangers[0])/lv.Bounds[0])
					}
				}
			}
		}
		if res.FinalHeight > res.PaperFinalHeight {
			t.Errorf("n = %d: finishing subtrees of height %d > §4's k = %d", n, res.FinalHeight, res.PaperFinalHeight)
		}
		t.Logf("n = %4d: max 1-strangers / (λb) = %.3f", n, max1)
	}
}

// The emitted standard network and the construction's generalized-comparator
// simulation agree: there is one fixed permutation π of wires with
// Apply(net, x)[π(p)] = trace output[p] for every input x. π is read off the
// identity input (a standard network leaves sorted input unchanged), so
// OutputIdentity must equal "the identity input comes out sorted". Checked
// for exact and for expander separators (where outputs may be unsorted;
// those cases use n = 2^k, since for other n an unsorted output may put a
// padding item, which has no wire, at a real position).
func TestNetMatchesTrace(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct {
		n int
		d int // 0: exact
	}{{50, 0}, {200, 0}, {64, 2}, {64, 3}, {128, 1}, {256, 4}, {1024, 6}} {
		var sep Separator = Exact()
		if c.d > 0 {
			sep = FromHalver(ExpanderHalver(c.d, rand.New(rand.NewPCG(uint64(c.n), uint64(c.d)))))
		}
		ins := [][]int32{identity(c.n)}
		for range 5 {
			ins = append(ins, randPerm(r, c.n))
		}
		res, err := Construct(c.n, SeiferasParams(), sep, ins...)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Net.Validate(); err != nil {
			t.Fatal(err)
		}
		pi := res.Traces[0].Output
		if res.OutputIdentity != res.Traces[0].Sorted {
			t.Fatalf("n = %d d = %d: OutputIdentity %v but identity input sorted %v", c.n, c.d, res.OutputIdentity, res.Traces[0].Sorted)
		}
		for k, in := range ins {
			xs := slices.Clone(in)
			sortnet.Apply(res.Net, xs)
			for p, want := range res.Traces[k].Output {
				if xs[pi[p]] != want {
					t.Fatalf("n = %d d = %d input %d: wire %d holds %d, trace position %d holds %d", c.n, c.d, k, pi[p], xs[pi[p]], p, want)
				}
			}
		}
	}
}

// The lowered network keeps no spare capacity: every stage is allocated at
// its exact size (at n = 2^16 the network is most of a claim's memory), and
// no stage is empty.
func TestStagesExactCapacity(t *testing.T) {
	for _, c := range []struct {
		n   int
		sep Separator
	}{{1000, Exact()}, {1 << 10, FromHalver(ExpanderHalver(8, rand.New(rand.NewPCG(1, 2))))}} {
		res, err := Construct(c.n, SeiferasParams(), c.sep)
		if err != nil {
			t.Fatal(err)
		}
		for s, st := range res.Net.Stages {
			if len(st) == 0 || cap(st) != len(st) {
				t.Fatalf("n = %d: stage %d has %d comparators, capacity %d", c.n, s, len(st), cap(st))
			}
		}
	}
}

// The zero Mutant is the real construction (the same network, schedule and
// traces as Construct), and Mutant{KickDelta: 1} changes the schedule: at
// N = 8 stage 1 kicks one item from each end of both depth-1 bags, so the
// root holds 4 items at t = 2, over its capacity ⌊8ν²⌋ = 3 (clause 3).
func TestConstructMutant(t *testing.T) {
	for _, n := range []int{8, 13, 64} {
		in := randPerm(rand.New(rand.NewPCG(3, uint64(n))), n)
		want, err := Construct(n, SeiferasParams(), Exact(), in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ConstructMutant(n, SeiferasParams(), Exact(), Mutant{}, in)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got.Net.Stages, want.Net.Stages, slices.Equal) || got.Stages != want.Stages ||
			!slices.Equal(got.Traces[0].Output, want.Traces[0].Output) || len(got.Schedule) != len(want.Schedule) {
			t.Fatalf("n = %d: the zero Mutant builds another construction", n)
		}
	}
	res, err := ConstructMutant(8, SeiferasParams(), Exact(), Mutant{KickDelta: 1})
	if err != nil {
		t.Fatal(err)
	}
	var v []Violation
	for _, rep := range res.Schedule {
		v = append(v, rep.Violations()...)
	}
	if len(v) == 0 || v[0].T != 2 || v[0].Depth != 0 || v[0].Clause != 3 {
		t.Fatalf("kick + 1 at n = 8: violations %v, want clause 3 at t = 2, depth 0 first", v)
	}
}
