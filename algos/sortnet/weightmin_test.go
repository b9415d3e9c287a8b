package sortnet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// laneSampler fills lane 0 of w (n wires) with a 0-1 input of the given
// weight from the Fisher–Yates picks ds (ds[i] < n − i, len(ds) = what
// the sampler draws), given idx's current order.
type laneSampler struct {
	picks func(n, weight int) int // how many picks it draws
	fill  func(n, weight int, idx []int32, w []uint64, ds []uint32)
}

// minSampler is drawPCGMin's lane: minPicks and pickLane.
var minSampler = laneSampler{
	picks: func(n, weight int) int { m, _ := minPicks(n, weight); return m },
	fill: func(n, weight int, idx []int32, w []uint64, ds []uint32) {
		_, fill := minPicks(n, weight)
		for i := range w {
			w[i] = fill
		}
		pickLane(idx, w, ds, 1)
	},
}

// plainSampler is drawPCG's lane, written out independently: weight picks
// of a partial Fisher–Yates shuffle, ones at the picked wires.
var plainSampler = laneSampler{
	picks: func(n, weight int) int { return weight },
	fill: func(n, weight int, idx []int32, w []uint64, ds []uint32) {
		clear(w)
		for i, d := range ds {
			j := i + int(d)
			idx[i], idx[j] = idx[j], idx[i]
			w[idx[i]] |= 1
		}
	},
}

// laneDistribution enumerates every sequence of the sampler's random
// choices (ds[i] = 0..n−i−1, each sequence equally likely) from the
// starting order start of idx, and returns how often each lane-0 vector
// (bit i = wire i) comes out.
func laneDistribution(s laneSampler, n, weight int, start []int32) map[uint64]int {
	m := s.picks(n, weight)
	out := map[uint64]int{}
	ds := make([]uint32, m)
	idx, w := make([]int32, n), make([]uint64, n)
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			copy(idx, start)
			s.fill(n, weight, idx, w, ds)
			var v uint64
			for j := range n {
				v |= (w[j] & 1) << j
			}
			out[v]++
			return
		}
		for d := range n - i {
			ds[i] = uint32(d)
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// binom is C(n, k) by Pascal's rule (independent of the samplers).
func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	row := []int{1}
	for range n {
		next := make([]int, len(row)+1)
		for j := range next {
			if j < len(row) {
				next[j] += row[j]
			}
			if j > 0 {
				next[j] += row[j-1]
			}
		}
		row = next
	}
	return row[k]
}

// uniformOverWeight reports why dist is not the uniform distribution over
// the C(n, weight) vectors of that weight (nil if it is).
func uniformOverWeight(dist map[uint64]int, n, weight int) error {
	if len(dist) != binom(n, weight) {
		return fmt.Errorf("%d distinct vectors, want C(%d, %d) = %d", len(dist), n, weight, binom(n, weight))
	}
	first := -1
	for v, c := range dist {
		if bits.OnesCount64(v) != weight || v>>n != 0 {
			return fmt.Errorf("vector %b has the wrong weight", v)
		}
		if first < 0 {
			first = c
		} else if c != first {
			return fmt.Errorf("vectors come out %d and %d times", first, c)
		}
	}
	return nil
}

// starts are the orders of idx the enumeration starts from: drawPCGMin's
// lanes start wherever the previous lanes left idx.
func starts(n int) [][]int32 {
	id := make([]int32, n)
	for i := range id {
		id[i] = int32(i)
	}
	rev := slices.Clone(id)
	slices.Reverse(rev)
	rot := append(slices.Clone(id[n/2:]), id[:n/2]...)
	return [][]int32{id, rev, rot}
}

// drawPCGMin's lane sampler, by exhaustive enumeration of its random
// choices for n ≤ 7, every weight and three starting orders of idx,
// reaches every vector of the weight equally often — the distribution of
// drawPCG's lane sampler, checked the same way — with fewer picks where
// weight > n/2. A planted wrong sampler (the complement's picks off by
// one: its zeros drawn from n − 1 wires only) fails the same check.
func TestWeight01MinSameDistribution(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for weight := 0; weight <= n; weight++ {
			if m, _ := minPicks(n, weight); m != min(weight, n-weight) {
				t.Fatalf("n = %d, weight %d: %d picks, want %d", n, weight, m, min(weight, n-weight))
			}
			for _, st := range starts(n) {
				for name, s := range map[string]laneSampler{"min": minSampler, "plain": plainSampler} {
					if err := uniformOverWeight(laneDistribution(s, n, weight, st), n, weight); err != nil {
						t.Fatalf("%s sampler, n = %d, weight %d, start %v: %v", name, n, weight, st, err)
					}
				}
			}
		}
	}
	bad := minSampler
	bad.fill = func(n, weight int, idx []int32, w []uint64, ds []uint32) {
		_, fill := minPicks(n, weight)
		for i := range w {
			w[i] = fill
		}
		for i, d := range ds {
			j := i + int(d)
			if j == n-1 && fill != 0 { // never picks the last wire as a zero
				j = i
			}
			a := idx[j]
			idx[i], idx[j] = a, idx[i]
			w[a] ^= 1
		}
	}
	if err := uniformOverWeight(laneDistribution(bad, 5, 3, starts(5)[0]), 5, 3); err == nil {
		t.Fatal("the planted wrong sampler passes the uniformity check")
	}
}

// drawPCGMin draws exactly drawPCG's inputs (from the same stream) where
// weight ≤ n − weight, and where weight > n − weight 64 inputs of the
// right weight each, taking n − weight draws per input from src (the
// stream stands where IntNPCG(n), IntNPCG(n−1), … for that many draws
// leaves it) — fewer than drawPCG's weight.
func TestWeight01MinDraws(t *testing.T) {
	for _, n := range []int{1, 2, 7, 40, 129} {
		of := min(n+1, 17)
		for k := range of {
			gMin, gPlain := NewWeight01(n), NewWeight01(n)
			sMin, sPlain := rand.NewPCG(5, uint64(k)), rand.NewPCG(5, uint64(k))
			gMin.drawPCGMin(k, of, sMin)
			weight := gMin.weight(k, of)
			if weight <= n-weight {
				gPlain.drawPCG(k, of, sPlain)
				if !slices.Equal(gMin.w, gPlain.w) || *sMin != *sPlain {
					t.Fatalf("n = %d, weight %d ≤ n/2: drawPCGMin differs from drawPCG", n, weight)
				}
				continue
			}
			for lane := range 64 {
				c := 0
				for _, x := range gMin.w {
					c += int(x >> lane & 1)
				}
				if c != weight {
					t.Fatalf("n = %d, weight %d: lane %d has weight %d", n, weight, lane, c)
				}
			}
			ref := rand.NewPCG(5, uint64(k))
			for range 64 {
				for i := range n - weight {
					IntNPCG(ref, n-i)
				}
			}
			if *sMin != *ref {
				t.Fatalf("n = %d, weight %d: drawPCGMin did not take 64·(n − weight) draws", n, weight)
			}
		}
	}
}

// UnsortedManyPCGMin answers as UnsortedManyPCG does where every weight of
// the pass is ≤ n/2 (the same draws), on Batcher's network with one
// comparator deleted; where weights exceed n/2 every input it reports has
// the reported weight and is left unsorted by the faulty network (checked
// by running it again with sortnet.Eval01), it finds some, and the whole
// network leaves none unsorted. A different deleted comparator changes
// the answers (the comparison can fail).
func TestWeight01MinManyAnswers(t *testing.T) {
	const n, of = 40, 41
	bat, err := OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	del := bat.Clone()
	del.Stages[5] = slices.Delete(del.Stages[5], 1, 2)
	del2 := bat.Clone()
	del2.Stages[9] = slices.Delete(del2.Stages[9], 0, 1)
	evalMany := func(nw sortnet.Network) func([][]uint64) {
		return func(ws [][]uint64) {
			for _, w := range ws {
				sortnet.Eval01(nw, w)
			}
		}
	}
	type ans struct {
		k, weight int
		z         []int
	}
	run := func(useMin bool, nw sortnet.Network) (out []ans) {
		g, src := NewWeight01(n), rand.NewPCG(9, 4)
		for k0 := 0; k0 < of; k0 += 2 {
			var a ans
			if useMin {
				a.k, a.weight, a.z = g.UnsortedManyPCGMin(evalMany(nw), k0, min(of, k0+2), of, src)
			} else {
				a.k, a.weight, a.z = g.UnsortedManyPCG(evalMany(nw), k0, min(of, k0+2), of, src)
			}
			out = append(out, a)
		}
		return out
	}
	half := 0 // passes whose weights are all ≤ n/2: k0+1 ≤ of/2
	for k0 := 0; k0 < of && (k0+1)*n/(of-1) <= n/2; k0 += 2 {
		half++
	}
	gotMin, want := run(true, del), run(false, del)
	if !reflect.DeepEqual(gotMin[:half], want[:half]) {
		t.Fatalf("weights ≤ n/2: UnsortedManyPCGMin %v, UnsortedManyPCG %v", gotMin[:half], want[:half])
	}
	found := 0
	for _, a := range gotMin[half:] {
		if a.z == nil {
			continue
		}
		found++
		w := make([]uint64, n)
		ones := 0
		for i, b := range a.z {
			w[i], ones = uint64(b), ones+b
		}
		sortnet.Eval01(del, w)
		if ones != a.weight || sortnet.Unsorted01(w)&1 == 0 {
			t.Fatalf("k = %d: reported input %v (weight %d, stated %d) is not left unsorted", a.k, a.z, ones, a.weight)
		}
	}
	if found == 0 {
		t.Fatal("no failing input above weight n/2: the check needs some")
	}
	for _, a := range run(true, bat) {
		if a.z != nil {
			t.Fatalf("the whole network leaves %v unsorted", a.z)
		}
	}
	if reflect.DeepEqual(run(true, del2), gotMin) {
		t.Fatal("a different deleted comparator gave the same answers")
	}
}
