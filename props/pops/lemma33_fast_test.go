package pops

import (
	"math"
	"slices"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/internal/seeds"
	mpops "routecheck/models/pops"
)

// The scratch-buffer instance generator draws exactly lemma33Instance's
// instances from the same stream (and leaves the stream where it does),
// over repeated calls on one scratch, for degrees that fill every group
// early (deg 1) and late (deg ⌊√g⌋) and a degree no group reaches (g), with g a power of two (shifts) or not (divisions).
func TestLemma33ScratchInstance(t *testing.T) {
	var s lemma33Scratch
	for _, c := range []struct{ g, deg int }{{16, 4}, {16, 1}, {32, 5}, {16, 16}, {64, 8}, {16, 4}, {12, 3}, {20, 4}, {20, 20}} {
		for r := range 5 {
			want := lemma33Instance(c.g, c.deg, seeds.Rand(9, uint64(c.g), uint64(c.deg), uint64(r)))
			src := seeds.PCG(9, uint64(c.g), uint64(c.deg), uint64(r))
			got := s.instance(c.g, c.deg, src)
			if !slices.Equal(got, want) {
				t.Fatalf("g = %d, deg = %d, run %d: instances differ", c.g, c.deg, r)
			}
			ref := seeds.Rand(9, uint64(c.g), uint64(c.deg), uint64(r))
			lemma33Instance(c.g, c.deg, ref)
			if a, b := src.Uint64(), ref.Uint64(); a != b {
				t.Fatalf("g = %d, deg = %d, run %d: the stream is left elsewhere", c.g, c.deg, r)
			}
		}
	}
}

// Planted difference for TestLemma33ScratchInstance's comparison: a scratch
// that forgets which entries of dst the last call set (so does not reset
// them) draws instances that differ from lemma33Instance's, and the
// comparison sees it.
func TestLemma33ScratchInstanceCatchesStaleEntries(t *testing.T) {
	var s lemma33Scratch
	caught := false
	for r := range 5 {
		s.acc = s.acc[:0] // the planted fault
		got := s.instance(16, 4, seeds.PCG(9, 16, 4, uint64(r)))
		want := lemma33Instance(16, 4, seeds.Rand(9, 16, 4, uint64(r)))
		if !slices.Equal(got, want) {
			caught = true
		}
	}
	if !caught {
		t.Fatal("stale entries of dst not caught by comparing with lemma33Instance")
	}
}

// lemma33Simulate on any number of workers gives, run by run, the step
// counts of the sequential loop it replaced (lemma33Instance and the engine
// on one seeds.Rand stream per run), including runs that do not complete.
func TestLemma33SimulateMatchesSequential(t *testing.T) {
	for _, c := range []struct {
		g     int
		alpha float64
	}{{16, 0.5}, {32, 0.25}, {64, 0.5}, {24, 0.5}} {
		deg := int(math.Floor(math.Pow(float64(c.g), c.alpha) + 1e-9))
		const runs = 13
		want := make([]int, runs)
		var e ap.Engine
		for r := range runs {
			rng := seeds.Rand(7, 33, uint64(c.alpha*100), uint64(r))
			dst := lemma33Instance(c.g, deg, rng)
			res, err := e.Run(mpops.Shape{D: c.g, G: c.g}, dst, rng, ap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want[r] = res.Steps
			if !res.Completed {
				want[r] = -1
			}
		}
		for _, w := range []int{1, 2, 3, 20} {
			got, err := lemma33Simulate(7, c.g, runs, c.alpha, deg, w)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("g = %d, α = %g, %d workers: %v, sequential %v", c.g, c.alpha, w, got, want)
			}
		}
	}
}

// BenchmarkLemma33Instance draws one default-budget instance (g = 1024,
// α = 1/2): lemma33Instance against the scratch version.
func BenchmarkLemma33Instance(b *testing.B) {
	b.Run("alloc", func(b *testing.B) {
		for i := range b.N {
			lemma33Instance(1024, 32, seeds.Rand(1, uint64(i)))
		}
	})
	b.Run("scratch", func(b *testing.B) {
		var s lemma33Scratch
		for i := range b.N {
			s.instance(1024, 32, seeds.PCG(1, uint64(i)))
		}
	})
}
