package pops

import (
	"math/rand/v2"

	"routecheck/internal/pcgstate"
)

// ShuffleInto is perm.RandomInto(p, rand.New(src)): the same uniformly
// random permutation of size len(p) (Fisher–Yates from the top, the same
// draws in the same order, the swaps done shuffleBatch at a time after
// their draws) and src left where that call leaves it, drawing from src
// directly with the generator's state in registers (internal/pcgstate)
// instead of through rand.Rand's interface. TestShuffleIntoMatchesRandomInto
// checks both. The runs of Table I and II (internal/popsexp) shuffle with it.
func ShuffleInto(p []int32, src *rand.PCG) {
	for i := range p {
		p[i] = int32(i)
	}
	ps := pcgstate.Load(src)
	var js [shuffleBatch]int32
	for hi := len(p) - 1; hi > 0; {
		lo := max(hi-shuffleBatch, 0)
		b := js[:hi-lo]
		for k := range b {
			b[k] = int32(ps.IntN(uint64(hi - k + 1)))
		}
		// Swap k is the loop's step i = hi − k; j ≤ i < len(p).
		q := p[:hi+1]
		for k, j := range b {
			i := hi - k
			q[i], q[j] = q[j], q[i]
		}
		hi = lo
	}
	ps.Store(src)
}

// shuffleBatch is the number of swaps ShuffleInto draws ahead
// (perm.RandomInto's batch; the output does not depend on it).
const shuffleBatch = 256
