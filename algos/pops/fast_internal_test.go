package pops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// TestDivisor checks the engine's division by multiplication against the
// machine's / and %: every divisor up to 300 and some large and
// power-of-two ones, on the edge numerators and random ones below 2^31.
func TestDivisor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	ds := []int{1 << 12, 1<<12 + 1, 65535, 1 << 16, 1<<16 + 3, 1<<20 - 1, 46341, 1<<30 + 7, 1<<31 - 1}
	for d := 1; d <= 300; d++ {
		ds = append(ds, d)
	}
	for _, d := range ds {
		v := newDivisor(d)
		xs := []int32{0, 1, int32(d - 1), int32(min(d, 1<<31-1)), 1<<31 - 1, 1<<31 - 2, 1 << 30, 1<<24 - 1}
		for range 2000 {
			xs = append(xs, rng.Int32())
		}
		for _, x := range xs {
			if q, r := v.div(x), v.mod(x); q != x/int32(d) || r != x%int32(d) {
				t.Fatalf("%d / %d: got %d rem %d, want %d rem %d", x, d, q, r, x/int32(d), x%int32(d))
			}
		}
	}
}

// The engine against the slot model on larger groups than
// TestEngineMatchesModel's (g up to 6): g = 16 and 24 (not a power of two),
// d = g, 2g and 3g + 5, both variants, full and partial permutations, with
// the whole trace and with a trace of one step (the degrees are then kept
// only while they are read); with runSorted's compaction of the pending
// list forced to each of its two ways and with the default choice (Run
// keeps no list; it must agree with runSorted field by field).
func TestEngineMatchesModelLargerGroups(t *testing.T) {
	defer func(c int) { compactSparse = c }(compactSparse)
	for _, c := range []int{compactSparse, 0, 1 << 30} {
		compactSparse = c
		t.Run(fmt.Sprintf("compactSparse=%d", c), engineMatchesModelLargerGroups)
	}
}

func engineMatchesModelLargerGroups(t *testing.T) {
	var e Engine
	for _, g := range []int{16, 24} {
		for _, d := range []int{g, 2 * g, 3*g + 5} {
			if testing.Short() && d != g {
				continue
			}
			sh := pops.Shape{D: d, G: g}
			rng := rand.New(rand.NewPCG(uint64(d), uint64(g)))
			for _, partial := range []bool{false, true} {
				dst := perm.Random(sh.N(), rng)
				if partial {
					for i := range dst {
						if rng.IntN(5) == 0 {
							dst[i] = perm.None
						}
					}
				}
				for _, v := range []Variant{Faithful, SplitDelivery} {
					for _, tr := range []int{0, 1} {
						o := Options{Variant: v, MaxTrace: tr}
						seed := rng.Uint64()
						m, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 9)), o, nil)
						if err != nil {
							t.Fatal(err)
						}
						f, err := e.Run(sh, dst, rand.New(rand.NewPCG(seed, 9)), o)
						if err != nil {
							t.Fatal(err)
						}
						fs, err := e.runSorted(sh, dst, rand.New(rand.NewPCG(seed, 9)), o)
						if err != nil {
							t.Fatal(err)
						}
						where := fmt.Sprintf("%v %v partial=%v trace=%d seed %d", sh, v, partial, tr, seed)
						if d := diffResults(f, fs); d != "" {
							t.Fatalf("%s: Run and runSorted differ in %s", where, d)
						}
						if m.Steps != f.Steps || m.Completed != f.Completed || m.Delivered != f.Delivered || m.Lost != f.Lost {
							t.Fatalf("%s: model steps=%d completed=%v delivered=%d lost=%d; engine %d %v %d %d",
								where, m.Steps, m.Completed, m.Delivered, m.Lost, f.Steps, f.Completed, f.Delivered, f.Lost)
						}
						if !slices.Equal(m.Remaining, f.Remaining) || !slices.Equal(m.MaxDegree, f.MaxDegree) {
							t.Fatalf("%s: traces differ:\nmodel  %v %v\nengine %v %v", where, m.Remaining, m.MaxDegree, f.Remaining, f.MaxDegree)
						}
						for k := range m.Conflicts {
							if k != 2 && k != 3 && m.Conflicts[k] != f.Conflicts[k] {
								t.Fatalf("%s: conflicts in slot %d: model %d engine %d", where, k+1, m.Conflicts[k], f.Conflicts[k])
							}
						}
					}
				}
			}
		}
	}
}
