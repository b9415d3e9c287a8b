package pcgstate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/internal/benchutil"
)

// TestShuffleMatchesRand: Shuffle gives rand.Rand.Shuffle's order on the
// same stream (sizes around the batch of 256 and beyond, several seeds)
// and leaves the stream where rand.Rand.Shuffle leaves it (the next draw
// agrees). Planted difference: the draws for a power of two made as for
// other sizes (maskAsMul) must make the orders differ.
func TestShuffleMatchesRand(t *testing.T) {
	if d := shuffleDiff(); d != "" {
		t.Fatal(d)
	}
	defer func() { maskAsMul = false }()
	maskAsMul = true // the planted fault
	if shuffleDiff() == "" {
		t.Fatal("planted fault (a power of two drawn as other sizes) not caught")
	}
}

// shuffleDiff compares Shuffle with rand.Rand.Shuffle; "" when they agree.
func shuffleDiff() string {
	for _, n := range []int{0, 1, 2, 3, 255, 256, 257, 513, 5000} {
		for seed := range uint64(4) {
			want := make([]int, n)
			for i := range want {
				want[i] = i * 7
			}
			got := slices.Clone(want)
			ref := rand.NewPCG(seed, 99)
			rand.New(ref).Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
			src := rand.NewPCG(seed, 99)
			Shuffle(got, src)
			if !slices.Equal(got, want) {
				return fmt.Sprintf("n = %d, seed %d: Shuffle and rand.Rand.Shuffle differ", n, seed)
			}
			if a, b := src.Uint64(), ref.Uint64(); a != b {
				return fmt.Sprintf("n = %d, seed %d: Shuffle leaves the stream elsewhere", n, seed)
			}
		}
	}
	return ""
}

// TestSwapsInRanges: Swaps over consecutive ranges from the top, each from
// the state the one before leaves, is Shuffle: ranges of 1, 100 and 300
// swaps (inside and across the batch of 256). Planted difference: a range
// that starts one swap low (skipping one) must give another order.
func TestSwapsInRanges(t *testing.T) {
	const n = 2000
	for _, r := range []int{1, 100, 300} {
		for _, skip := range []int{0, 1} {
			want, got := make([]int32, n), make([]int32, n)
			for i := range want {
				want[i], got[i] = int32(i), int32(i)
			}
			Shuffle(want, rand.NewPCG(7, uint64(r)))
			src := rand.NewPCG(7, uint64(r))
			ps := Load(src)
			for top := n - 1; top > 0; {
				lo := max(top-r, 0)
				ps = Swaps(got, top, lo+1, ps)
				top = lo - skip // skip: the planted fault
			}
			ps.Store(src)
			if same := slices.Equal(got, want); same != (skip == 0) {
				t.Fatalf("ranges of %d, skip %d: equal to Shuffle = %v", r, skip, same)
			}
		}
	}
}

// BenchmarkShuffle2to24 is Shuffle on 2^24 int32 (Table II's largest
// permutation): go test ./internal/pcgstate -run '^$' -bench Shuffle -benchtime 5x
func BenchmarkShuffle2to24(b *testing.B) {
	x := make([]int32, 1<<24)
	for i := range x {
		x[i] = int32(i)
	}
	seed := uint64(0)
	c0 := benchutil.CPUSeconds()
	for b.Loop() {
		Shuffle(x, rand.NewPCG(seed, 1))
		seed++
	}
	b.ReportMetric((benchutil.CPUSeconds()-c0)/float64(seed), "cpu-s/op")
}
