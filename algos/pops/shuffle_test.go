package pops

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/internal/pcgstate"
	"routecheck/models/perm"
)

// ShuffleInto gives perm.RandomInto's permutation and leaves the stream
// where it leaves it: sizes around the batch of 256 and a larger one, many
// seeds. Planted difference: a stream one draw ahead must give another
// permutation.
func TestShuffleIntoMatchesRandomInto(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 255, 256, 257, 1000, 1<<16 + 3} {
		for seed := range uint64(5) {
			want, got := make([]int32, n), make([]int32, n)
			ref := rand.NewPCG(seed, uint64(n))
			perm.RandomInto(want, rand.New(ref))
			src := rand.NewPCG(seed, uint64(n))
			ShuffleInto(got, src)
			if !slices.Equal(got, want) {
				t.Fatalf("n = %d, seed %d: ShuffleInto and perm.RandomInto differ", n, seed)
			}
			if src.Uint64() != ref.Uint64() {
				t.Fatalf("n = %d, seed %d: ShuffleInto leaves the stream elsewhere", n, seed)
			}
			if n < 255 { // small n: another stream may give the same permutation
				continue
			}
			ahead := rand.NewPCG(seed, uint64(n))
			ahead.Uint64() // the planted fault
			ShuffleInto(got, ahead)
			if slices.Equal(got, want) {
				t.Fatalf("n = %d, seed %d: a stream one draw ahead gives the same permutation", n, seed)
			}
		}
	}
}

// expFloat64 draws what rand.Rand.ExpFloat64 draws, draw by draw, and
// leaves the stream where it leaves it; 10^6 draws reach the ziggurat's
// rare branches (the wedges, about one draw in 80, and the tail beyond
// 7.697, about 450 times), and the test requires the tail to be reached.
func TestExpFloat64MatchesRand(t *testing.T) {
	src, ref := rand.NewPCG(3, 9), rand.New(rand.NewPCG(3, 9))
	ps := pcgstate.Load(src)
	tail := 0
	for i := range 1000000 {
		x, y := expFloat64(&ps), ref.ExpFloat64()
		if x != y {
			t.Fatalf("draw %d: %v, rand.ExpFloat64 %v", i, x, y)
		}
		if x > 7.69711747013104972 {
			tail++
		}
	}
	ps.Store(src)
	if src.Uint64() != ref.Uint64() {
		t.Fatal("expFloat64 leaves the stream elsewhere")
	}
	if tail == 0 {
		t.Fatal("no draw reached the ziggurat's tail: the test does not cover it")
	}
}

// TestShuffleIntoPipelined: the two-goroutine shuffle gives ShuffleInto's
// permutation and leaves the stream where it leaves it, on sizes below,
// at and above a few chunks. Planted difference: a stream one draw ahead
// must give another permutation.
func TestShuffleIntoPipelined(t *testing.T) {
	for _, n := range []int{5, 2*shuffleChunk - 1, 2 * shuffleChunk, 5*shuffleChunk + 17} {
		want, got := make([]int32, n), make([]int32, n)
		ref := rand.NewPCG(4, uint64(n))
		ShuffleInto(want, ref)
		src := rand.NewPCG(4, uint64(n))
		ShuffleIntoPipelined(got, src)
		if !slices.Equal(got, want) {
			t.Fatalf("n = %d: the pipelined shuffle differs", n)
		}
		if src.Uint64() != ref.Uint64() {
			t.Fatalf("n = %d: the pipelined shuffle leaves the stream elsewhere", n)
		}
		ahead := rand.NewPCG(4, uint64(n))
		ahead.Uint64() // the planted fault
		ShuffleIntoPipelined(got, ahead)
		if n > 5 && slices.Equal(got, want) {
			t.Fatalf("n = %d: a stream one draw ahead gives the same permutation", n)
		}
	}
}
