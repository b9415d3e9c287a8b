package pops

import (
	"slices"
	"testing"

	"routecheck/internal/seeds"
)

// The scratch-buffer instance generator draws exactly lemma33Instance's
// instances from the same stream (and leaves the stream where it does),
// over repeated calls on one scratch, for degrees that fill every group
// early (deg 1) and late (deg ⌊√g⌋) and a degree no group reaches (g).
func TestLemma33ScratchInstance(t *testing.T) {
	var s lemma33Scratch
	for _, c := range []struct{ g, deg int }{{16, 4}, {16, 1}, {32, 5}, {16, 16}, {64, 8}, {16, 4}} {
		for r := range 5 {
			want := lemma33Instance(c.g, c.deg, seeds.Rand(9, uint64(c.g), uint64(c.deg), uint64(r)))
			rng := seeds.Rand(9, uint64(c.g), uint64(c.deg), uint64(r))
			got := s.instance(c.g, c.deg, rng)
			if !slices.Equal(got, want) {
				t.Fatalf("g = %d, deg = %d, run %d: instances differ", c.g, c.deg, r)
			}
			ref := seeds.Rand(9, uint64(c.g), uint64(c.deg), uint64(r))
			lemma33Instance(c.g, c.deg, ref)
			if a, b := rng.Uint64(), ref.Uint64(); a != b {
				t.Fatalf("g = %d, deg = %d, run %d: the stream is left elsewhere", c.g, c.deg, r)
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
			s.instance(1024, 32, seeds.Rand(1, uint64(i)))
		}
	})
}
