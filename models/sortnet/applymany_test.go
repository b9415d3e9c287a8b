package sortnet_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/models/sortnet"
)

// randomComparators is a network on n wires of size comparators drawn
// uniformly (i < j), one a stage.
func randomComparators(r *rand.Rand, n, size int) sortnet.Network {
	nw := sortnet.Network{N: n}
	for range size {
		i, j := r.IntN(n), r.IntN(n-1)
		if j >= i {
			j++
		}
		nw.Stages = append(nw.Stages, sortnet.Stage{{I: int32(min(i, j)), J: int32(max(i, j))}})
	}
	return nw
}

// applyManyInputs draws k inputs on n wires: random permutations, and
// random values with repeats over the whole int32 range (its extremes
// included, to catch an unsigned compare), alternately.
func applyManyInputs(r *rand.Rand, n, k int) [][]int32 {
	xss := make([][]int32, k)
	for l := range xss {
		xs := make([]int32, n)
		if l%2 == 0 {
			for i, x := range r.Perm(n) {
				xs[i] = int32(x)
			}
		} else {
			vals := []int32{math.MinInt32, -1, 0, 1, math.MaxInt32, int32(r.Uint32())}
			for i := range xs {
				if r.IntN(4) == 0 {
					xs[i] = vals[r.IntN(len(vals))]
				} else {
					xs[i] = int32(r.Uint32())
				}
			}
		}
		xss[l] = xs
	}
	return xss
}

// applyManyDiff runs applyMany on xss and Apply on a copy of each input,
// and describes the first input whose outputs differ (nil: none).
func applyManyDiff(p *sortnet.Packed, xss [][]int32, applyMany func(*sortnet.Packed, [][]int32)) error {
	return applyManyStagesDiff(p, xss, 0, p.Depth(), func(p *sortnet.Packed, xss [][]int32, _, _ int) { applyMany(p, xss) })
}

// applyManyStagesDiff runs applyMany(p, xss, from, to) on xss and
// ApplyStages(from, to) on a copy of each input, and describes the first
// input whose outputs differ (nil: none).
func applyManyStagesDiff(p *sortnet.Packed, xss [][]int32, from, to int, applyMany func(*sortnet.Packed, [][]int32, int, int)) error {
	want := make([][]int32, len(xss))
	got := make([][]int32, len(xss))
	for l, xs := range xss {
		want[l], got[l] = slices.Clone(xs), slices.Clone(xs)
		p.ApplyStages(want[l], from, to)
	}
	applyMany(p, got, from, to)
	for l := range xss {
		if !slices.Equal(got[l], want[l]) {
			return fmt.Errorf("n = %d, %d inputs, stages %d..%d of %d: input %d differs from ApplyStages", p.N, len(xss), from, to, p.Depth(), l)
		}
	}
	return nil
}

// ApplyMany gives Apply's output on every input, on Batcher's two
// networks (which sort: runs that stop early), the odd-even one with a
// comparator deleted, and random comparators, for n from 2 to 4096 and
// 1 to 9 inputs (a whole pass of ApplyManyLanes and ragged ones); with the
// lanes kernel and without, and with comparator chunks of 7 (many chunk
// boundaries). The comparison sees planted faults: one input's output
// altered, and two inputs' outputs exchanged.
func TestApplyManyMatchesApply(t *testing.T) {
	if !sortnet.HaveLanesKernel() {
		t.Log("no AVX2 here: only the fallback (Apply on each input) is tested")
	}
	r := rand.New(rand.NewPCG(14, 8))
	type net struct {
		name string
		nw   sortnet.Network
	}
	var nets []net
	for _, n := range []int{2, 3, 17, 300, 1000, 4096} {
		oe, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		bi, err := asn.BitonicSort(n)
		if err != nil {
			t.Fatal(err)
		}
		del := oe.Clone()
		s := len(del.Stages) / 2
		del.Stages[s] = slices.Delete(del.Stages[s], 0, 1)
		nets = append(nets, net{"odd-even", oe}, net{"bitonic", bi}, net{"odd-even minus one", del},
			net{"random comparators", randomComparators(r, n, 20*n)})
	}
	eachLayout(func(kernel bool, chunk int) {
		for _, c := range nets {
			p, err := sortnet.Pack(c.nw, false)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= 9; k++ {
				if err := applyManyDiff(p, applyManyInputs(r, c.nw.N, k), (*sortnet.Packed).ApplyMany); err != nil {
					t.Fatalf("%s (kernel %v, chunk %d): %v", c.name, kernel, chunk, err)
				}
			}
		}
	})
	// On a network that does not sort, so that two inputs' outputs differ.
	p, err := sortnet.Pack(randomComparators(r, 300, 3000), false)
	if err != nil {
		t.Fatal(err)
	}
	for name, plant := range map[string]func(*sortnet.Packed, [][]int32){
		"the last input's output altered": func(p *sortnet.Packed, xss [][]int32) {
			p.ApplyMany(xss)
			last := xss[len(xss)-1]
			last[0], last[len(last)-1] = last[len(last)-1], last[0]
		},
		"two inputs' outputs exchanged": func(p *sortnet.Packed, xss [][]int32) {
			p.ApplyMany(xss)
			a := slices.Clone(xss[1])
			copy(xss[1], xss[2])
			copy(xss[2], a)
		},
	} {
		if applyManyDiff(p, applyManyInputs(r, 300, sortnet.ApplyManyLanes), plant) == nil {
			t.Errorf("planted fault missed: %s", name)
		}
	}
}

// ApplyManyStages gives ApplyStages's output on every input for stage
// ranges at both ends, inside the network and empty: on Batcher's
// odd-even network (whose later stages see partly sorted values, and
// whose whole range sorts: passes that stop early), that network followed
// by random comparators (sorted inputs entering a range that would
// unsort them without the stop), and random comparators, for n from 2 to
// 1000 and 1 to 17 inputs (one and two passes of ApplyManyLanes, ragged
// ones); with the lanes kernel and without, and with comparator chunks of
// 7. The comparison sees planted faults: a range one stage short at
// either end, and the stages run from the start.
func TestApplyManyStagesMatchesApplyStages(t *testing.T) {
	if !sortnet.HaveLanesKernel() {
		t.Log("no AVX2 here: only the fallback (ApplyStages on each input) is tested")
	}
	r := rand.New(rand.NewPCG(14, 2))
	type net struct {
		name string
		nw   sortnet.Network
	}
	var nets []net
	for _, n := range []int{2, 3, 17, 300, 1000} {
		oe, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		then := oe.Clone()
		then.Stages = append(then.Stages, randomComparators(r, n, 3*n).Stages...)
		nets = append(nets, net{"odd-even", oe}, net{"odd-even then random", then}, net{"random comparators", randomComparators(r, n, 20*n)})
	}
	// ranges are the stage ranges tried on a network of depth d: the whole
	// network, a prefix, a suffix, a random inside range and an empty one.
	ranges := func(d int) [][2]int {
		a, b := r.IntN(d+1), r.IntN(d+1)
		a, b = min(a, b), max(a, b)
		m := r.IntN(d + 1)
		return [][2]int{{0, d}, {0, m}, {m, d}, {a, b}, {m, m}}
	}
	eachLayout(func(kernel bool, chunk int) {
		for _, c := range nets {
			p, err := sortnet.Pack(c.nw, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 2, 5, 8, 9, 16, 17} {
				for _, ft := range ranges(p.Depth()) {
					if err := applyManyStagesDiff(p, applyManyInputs(r, c.nw.N, k), ft[0], ft[1], (*sortnet.Packed).ApplyManyStages); err != nil {
						t.Fatalf("%s (kernel %v, chunk %d): %v", c.name, kernel, chunk, err)
					}
				}
			}
		}
	})
	// On random comparators (one a stage), ten stages inside the network:
	// a short range, so that its last comparator still exchanges on some
	// input (after many random comparators, most pairs are in order).
	p, err := sortnet.Pack(randomComparators(r, 300, 3000), false)
	if err != nil {
		t.Fatal(err)
	}
	for name, plant := range map[string]func(*sortnet.Packed, [][]int32, int, int){
		"the first stage skipped": func(p *sortnet.Packed, xss [][]int32, from, to int) { p.ApplyManyStages(xss, from+1, to) },
		"the last stage skipped":  func(p *sortnet.Packed, xss [][]int32, from, to int) { p.ApplyManyStages(xss, from, to-1) },
		"run from the start":      func(p *sortnet.Packed, xss [][]int32, _, to int) { p.ApplyManyStages(xss, 0, to) },
	} {
		if applyManyStagesDiff(p, applyManyInputs(r, 300, sortnet.ApplyManyLanes+3), 1000, 1010, plant) == nil {
			t.Errorf("planted fault missed: %s", name)
		}
	}
}

// ApplyManyStages panics on a stage range outside the network, as
// ApplyStages does.
func TestApplyManyStagesPanicsOnRange(t *testing.T) {
	p, err := sortnet.Pack(sortnet.Network{N: 4, Stages: []sortnet.Stage{{{I: 0, J: 1}}, {{I: 2, J: 3}}}}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, ft := range [][2]int{{-1, 1}, {2, 1}, {0, 3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic on stages %d..%d of a network of depth 2", ft[0], ft[1])
				}
			}()
			p.ApplyManyStages([][]int32{make([]int32, 4), make([]int32, 4)}, ft[0], ft[1])
		}()
	}
}

// ApplyMany panics on an input of the wrong length, as Apply does.
func TestApplyManyPanicsOnLength(t *testing.T) {
	p, err := sortnet.Pack(sortnet.Network{N: 4}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on an input of 3 values for 4 wires")
		}
	}()
	p.ApplyMany([][]int32{make([]int32, 4), make([]int32, 3)})
}

// BenchmarkApplyMany compares Apply on each input with ApplyMany on
// groups of ApplyManyLanes, on random permutations of 2^16 values, on the
// AKS expander-halver network (8 matchings a halver, 39 million
// comparators; it does not sort, so no run stops early) and Batcher's
// bitonic network (4.5 million comparators; it sorts only at its last
// stage, so no run stops early either). The rate counts a comparator once
// per input:
//
//	go test -run '^$' -bench ApplyMany -benchtime 4x ./models/sortnet
func BenchmarkApplyMany(b *testing.B) {
	const n = 1 << 16
	exp, err := aks.ExpanderNet(n, 8, 20261122)
	if err != nil {
		b.Fatal(err)
	}
	bi, err := asn.BitonicSort(n)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		nw   sortnet.Network
	}{{"expander-d8", exp.Net}, {"bitonic", bi}} {
		p, err := sortnet.Pack(c.nw, true)
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		xss := applyManyInputs(r, n, sortnet.ApplyManyLanes)
		for l := range xss {
			for i, x := range r.Perm(n) {
				xss[l][i] = int32(x)
			}
		}
		ins := make([][]int32, len(xss))
		for l := range xss {
			ins[l] = slices.Clone(xss[l])
		}
		reset := func() {
			for l := range xss {
				copy(xss[l], ins[l])
			}
		}
		for _, m := range []struct {
			name string
			run  func()
		}{
			{"apply", func() {
				for _, xs := range xss {
					p.Apply(xs)
				}
			}},
			{"applymany", func() { p.ApplyMany(xss) }},
		} {
			b.Run(c.name+"/"+m.name, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					reset()
					b.StartTimer()
					m.run()
				}
				ci := float64(b.N) * float64(p.Size()) * float64(len(xss))
				b.ReportMetric(ci/b.Elapsed().Seconds(), "comparator-inputs/s")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/ci, "ns/comparator-input")
			})
		}
	}
}

// eachLayout runs f with the AVX2 kernel on and off, each at the packed
// chunk length the package uses and at 7 (the chunk length packs and
// evaluates: set for both), restoring both after each.
func eachLayout(f func(kernel bool, chunk int)) {
	for _, chunk := range []int{0, 7} {
		for _, kernel := range []bool{true, false} {
			restore := sortnet.SetLanesKernel(kernel)
			restoreChunk := func() {}
			if chunk > 0 {
				restoreChunk = sortnet.SetPackedChunk(chunk)
			}
			f(kernel, chunk)
			restoreChunk()
			restore()
		}
	}
}
