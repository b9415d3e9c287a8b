package pcgstate

import (
	"math/bits"
	"math/rand/v2"
)

// Shuffle is rand.New(src).Shuffle on x — the Fisher–Yates loop from the
// top (for i = n−1 … 1, swap x[i] and x[IntN(i+1)]) with rand.Rand's draws
// in the same order, and src left where that call leaves it — but drawn
// shuffleBatch at a time before the swaps they select, so that the swaps'
// cache misses overlap instead of waiting on the generator, with the
// generator's state in registers. TestShuffleMatchesRand checks both.
// Used by the POPS runs (algos/pops.ShuffleInto, Lemma 3.3's instances)
// and the mesh k-k runs (props/mesh).
func Shuffle[T any](x []T, src *rand.PCG) {
	ps := Swaps(x, len(x)-1, 1, Load(src))
	ps.Store(src)
}

// Swaps does the swaps i = top, top−1, …, bottom (bottom ≥ 1) of
// Shuffle's loop on x — x[i] and x[IntN(i+1)], drawn from ps in that
// order, shuffleBatch at a time — and returns the state after the draws.
// Shuffle is Swaps(x, len(x)−1, 1, Load(src)), and so is a run of Swaps
// over consecutive ranges from the top, each from the state the one
// before leaves (algos/pops's shuffleSlot1 publishes its progress between
// them). Requires top < len(x).
func Swaps[T any](x []T, top, bottom int, ps State) State {
	var js [shuffleBatch]int32
	for hi := top; hi >= bottom; {
		lo := max(hi-shuffleBatch, bottom-1)
		b := js[:hi-lo]
		ps = Draws(b, hi, ps)
		// Swap k is the loop's step i = hi − k; j ≤ i < len(x).
		q := x[:hi+1]
		for k, j := range b {
			i := hi - k
			q[i], q[j] = q[j], q[i]
		}
		hi = lo
	}
	return ps
}

// Draws fills js with the indices of the swaps top, top−1, …,
// top−len(js)+1 of Shuffle's loop (js[k] = IntN(top−k+1)), drawn from ps
// in that order, and returns the state after them. Requires
// len(js) ≤ top < 2^31.
func Draws(js []int32, top int, ps State) State {
	for k := range js {
		// ps.IntN(n), with its first draw inline (UintN).
		n := uint64(top - k + 1)
		var u uint64
		ps, u = ps.Next()
		j, frac := bits.Mul64(u, n)
		if n&(n-1) == 0 && !maskAsMul {
			j = u & (n - 1)
		} else if frac < n {
			ps, j = ps.Reject(n, frac, j)
		}
		js[k] = int32(j)
	}
	return ps
}

// maskAsMul is a planted fault for the tests: Shuffle draws IntN(n) for
// n a power of two as for other n (the top bits of the draw instead of
// the low ones). False.
var maskAsMul bool

// shuffleBatch is the number of swaps Shuffle draws ahead (the output does
// not depend on it).
const shuffleBatch = 256
