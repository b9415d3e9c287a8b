package mesh

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// A case worked by hand (n = 4, k = 8). Row 0 holds p0..p4 with columns
// 3, 1, 0, 2, 1; row 1 holds p5, p6, p7 with columns 2, 0, 1.
// Steps 1–2: row 0 sorted on column is p2 p1 p4 p3 p0, row 1 is p6 p7 p5.
// Step 3: row 0 has B = 5 ≥ 4, q = 1: indices ⌊i·5/4⌋ = 0, 1, 2, 3 give
// p2→0, p1→1, p4→2, p3→3; p0 remains. Step 5: row 0 → {p0}; row 1 (B = 3)
// → indices ⌊i·3/2⌋ = 0, 1: {p6, p7}, then {p5}. Steps 6–7: sizes 2, 1, 1
// with rows 1, 0, 1. Step 8: β = 2, intervals [0,2), [2,4): p6→0, p7→2,
// α = (1,0,1,0), Δ = 1; β = 1: p0→1 (smallest minimal index), α =
// (1,1,1,0); p5→3. Counts (2,2,2,2), Δ never above 1.
// Work (LinearWork's units): Sort = k + n² + (n+1) + k = 37; Extract = walk
// 5 + 4 assignments = 9; Split = 1 + (3 + 1) = 5; Order = m + L·n + m =
// 3 + 8 + 3 = 14; Lists = 8 (α, histogram) + 2 (β₀ heads) + subbucket 1
// (1 set-up + 2 × (2 rebuild + 1 pop + 1 α)) + subbucket 2 (1 + 2 unifying
// visits + 1 pop + 1 α) + subbucket 3 (1 + 1 pop + 1 α + 1 minimum advance)
// = 8 + 2 + 9 + 5 + 4 = 28. Total 93.
func TestAllocateLinearHand(t *testing.T) {
	d := []Dest{{0, 3}, {0, 1}, {0, 0}, {0, 2}, {0, 1}, {1, 2}, {1, 0}, {1, 1}}
	a, w, err := AllocateLinearWork(4, d)
	if err != nil {
		t.Fatal(err)
	}
	want := Allocation{
		Pos:        []int32{1, 1, 0, 3, 2, 3, 0, 2},
		Subbuckets: 3,
		PerRow:     []int{1, 2, 0, 0},
		Sizes:      []int{2, 1, 1},
		Counts:     []int{2, 2, 2, 2},
		MaxSpread:  1,
	}
	if !reflect.DeepEqual(a, want) {
		t.Fatalf("got %+v\nwant %+v", a, want)
	}
	if wantW := (LinearWork{Sort: 37, Extract: 9, Split: 5, Order: 14, Lists: 28}); w != wantW {
		t.Fatalf("work %+v, want %+v", w, wantW)
	}
	if w.Total() > LinearWorkBound(4, 8) {
		t.Fatalf("work %d above the bound %d", w.Total(), LinearWorkBound(4, 8))
	}
}

func TestRegularIndicesAndSplitHand(t *testing.T) {
	for _, c := range []struct {
		s, x int
		want []int
	}{
		{5, 4, []int{0, 1, 2, 3}},
		{10, 4, []int{0, 2, 5, 7}},
		{7, 3, []int{0, 2, 4}},
		{4, 4, []int{0, 1, 2, 3}},
		{3, 0, []int{}},
	} {
		if got := RegularIndices(c.s, c.x); !slices.Equal(got, c.want) {
			t.Errorf("RegularIndices(%d, %d) = %v, want %v", c.s, c.x, got, c.want)
		}
	}
	// s = 7: x = 4 takes indices 0, 1, 3, 5; of the rest {2, 4, 6}, x = 2
	// takes indices 0, 1 (elements 2, 4); {6} is last.
	got := SplitPowersOfTwo([]int32{0, 1, 2, 3, 4, 5, 6})
	want := [][]int32{{0, 1, 3, 5}, {2, 4}, {6}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SplitPowersOfTwo(0..6) = %v, want %v", got, want)
	}
}

func TestAllocateLinearErrors(t *testing.T) {
	for _, n := range []int{0, -1, 3, 6, 12} {
		if _, err := AllocateLinear(n, nil); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
	if _, err := AllocateLinear(4, []Dest{{0, 4}}); err == nil {
		t.Error("destination outside the mesh accepted")
	}
	if a, err := AllocateLinear(4, nil); err != nil || len(a.Pos) != 0 || !slices.Equal(a.Counts, []int{0, 0, 0, 0}) {
		t.Errorf("k = 0: %+v, %v", a, err)
	}
}

// multisets calls f with every multiset of k cells of an n×n mesh, in
// non-decreasing row-major order.
func multisets(n, k int, f func([]Dest)) {
	d := make([]Dest, k)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == k {
			f(d)
			return
		}
		for c := from; c < n*n; c++ {
			d[pos] = Dest{Row: int32(c / n), Col: int32(c % n)}
			rec(pos+1, c)
		}
	}
	rec(0, 0)
}

// sameAsAllocate is the differential test: the list organization must give
// exactly Allocate's result with the smallest-index tie rule.
func sameAsAllocate(t *testing.T, n int, d []Dest) {
	t.Helper()
	want, err := Allocate(n, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, w, err := AllocateLinearWork(n, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("n = %d, dest %v:\nlinear   %+v\nallocate %+v", n, d, got, want)
	}
	if w.Total() > LinearWorkBound(n, len(d)) {
		t.Fatalf("n = %d, k = %d: work %d > bound %d", n, len(d), w.Total(), LinearWorkBound(n, len(d)))
	}
}

func TestAllocateLinearExhaustive(t *testing.T) {
	for _, c := range []struct{ n, maxK int }{{1, 5}, {2, 8}, {4, 6}} {
		for k := 0; k <= c.maxK; k++ {
			multisets(c.n, k, func(d []Dest) { sameAsAllocate(t, c.n, d) })
		}
	}
}

// adversarialDests makes every bucket's remainder n − 1 (the most
// subbuckets, log n per row) and puts the rest on one row.
func adversarialDests(r *rand.Rand, n, k int) []Dest {
	var d []Dest
	for row := 0; row < n && len(d)+n-1 <= k; row++ {
		for range n - 1 {
			d = append(d, Dest{Row: int32(row), Col: int32(r.IntN(n))})
		}
	}
	for len(d) < k {
		d = append(d, Dest{Row: 0, Col: int32(r.IntN(n))})
	}
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

func TestAllocateLinearRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{8, 16, 32, 64} {
		for trial := range 24 {
			k := r.IntN(3*n*n + 1) // multiples of n and not
			var d []Dest
			switch trial % 4 {
			case 0, 1:
				d = make([]Dest, k)
				for i := range d {
					row := r.IntN(n)
					if trial%4 == 1 && r.IntN(2) == 0 {
						row = r.IntN(min(n, 3))
					}
					d[i] = Dest{Row: int32(row), Col: int32(r.IntN(n))}
				}
			default:
				d = adversarialDests(r, n, k)
			}
			sameAsAllocate(t, n, d)
			if k%n == 0 {
				a, _ := AllocateLinear(n, d)
				checkBalanced(t, n, d, a)
			}
		}
	}
}

// For k ≥ n² and n ≥ 4 the work per packet is at most 17 (LinearWorkBound).
func TestAllocateLinearWorkPerPacket(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{4, 8, 16, 32} {
		for _, mult := range []int{1, 4, 16} {
			k := mult * n * n
			for _, d := range [][]Dest{adversarialDests(r, n, k), randomUniform(r, n, k)} {
				_, w, err := AllocateLinearWork(n, d)
				if err != nil {
					t.Fatal(err)
				}
				if w.Total() > 17*k {
					t.Fatalf("n = %d, k = %d: %d operations > 17k", n, k, w.Total())
				}
			}
		}
	}
}

func randomUniform(r *rand.Rand, n, k int) []Dest {
	d := make([]Dest, k)
	for i := range d {
		d[i] = Dest{Row: int32(r.IntN(n)), Col: int32(r.IntN(n))}
	}
	return d
}

// BenchmarkAllocateLinear reports ns/packet for n = 32 and k = n²·{1, 4,
// 16, 64}; BenchmarkAllocate the same for the O(k log k) Allocate.
//
//	go test ./algos/mesh -run '^$' -bench 'Allocate(Linear)?$' -benchtime 20x
func BenchmarkAllocateLinear(b *testing.B) {
	benchAllocate(b, func(n int, d []Dest) { AllocateLinear(n, d) })
}

func BenchmarkAllocate(b *testing.B) { benchAllocate(b, func(n int, d []Dest) { Allocate(n, d, nil) }) }

func benchAllocate(b *testing.B, f func(int, []Dest)) {
	const n = 32
	for _, mult := range []int{1, 4, 16, 64} {
		k := mult * n * n
		d := randomUniform(rand.New(rand.NewPCG(1, uint64(k))), n, k)
		b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
			for b.Loop() {
				f(n, d)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(k), "ns/packet")
		})
	}
}

// The hand case of TestAllocateLinearHand: positions and the work per step.
func ExampleAllocateLinearWork() {
	d := []Dest{{0, 3}, {0, 1}, {0, 0}, {0, 2}, {0, 1}, {1, 2}, {1, 0}, {1, 1}}
	a, w, err := AllocateLinearWork(4, d)
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Pos, a.Counts, a.Sizes)
	fmt.Printf("%+v total %d bound %d\n", w, w.Total(), LinearWorkBound(4, len(d)))
	// Output:
	// [1 1 0 3 2 3 0 2] [2 2 2 2] [2 1 1]
	// {Sort:37 Extract:9 Split:5 Order:14 Lists:28} total 93 bound 153
}

// allocateLinear on one scratch, reused across inputs of changing n and k
// (n = 1 … 32, k from 0 to 2n² and k = 1024), gives AllocateLinearWork's
// result — Allocation and work counts — on every input; and the comparison
// catches a stale result (the previous input's), the failure that reuse
// could bring.
func TestAllocateLinearScratchReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	type input struct {
		n   int
		dst []Dest
	}
	var ins []input
	for range 300 {
		n := 1 << r.IntN(6)
		k := r.IntN(2*n*n + 1)
		if r.IntN(10) == 0 {
			k = 1024
		}
		dst := make([]Dest, k)
		for i := range dst {
			dst[i] = Dest{Row: int32(r.IntN(n)), Col: int32(r.IntN(n))}
		}
		ins = append(ins, input{n, dst})
	}
	var sc linearScratch
	stale := 0
	for i, in := range ins {
		wantA, wantW, err1 := AllocateLinearWork(in.n, in.dst)
		a, w, err2 := allocateLinear(in.n, in.dst, &sc)
		if err1 != nil || err2 != nil {
			t.Fatalf("input %d: %v, %v", i, err1, err2)
		}
		if !reflect.DeepEqual(a, wantA) || w != wantW {
			t.Fatalf("input %d (n = %d, k = %d): with reused scratch %+v %+v, fresh %+v %+v", i, in.n, len(in.dst), a, w, wantA, wantW)
		}
		if i > 0 {
			prevA, _, _ := AllocateLinearWork(ins[i-1].n, ins[i-1].dst)
			if !reflect.DeepEqual(a, prevA) {
				stale++
			}
		}
	}
	if stale == 0 {
		t.Error("planted difference (the previous input's result) never caught")
	}
}
