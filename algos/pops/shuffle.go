package pops

import (
	"math/rand/v2"

	"routecheck/internal/pcgstate"
)

// ShuffleInto is perm.RandomInto(p, rand.New(src)): the same uniformly
// random permutation of size len(p) (Fisher–Yates from the top, the same
// draws in the same order; internal/pcgstate.Shuffle) and src left where
// that call leaves it, drawing from src directly with the generator's
// state in registers instead of through rand.Rand's interface.
// TestShuffleIntoMatchesRandomInto checks both. The runs of Table I and II
// (internal/popsexp) shuffle with it.
func ShuffleInto(p []int32, src *rand.PCG) {
	for i := range p {
		p[i] = int32(i)
	}
	pcgstate.Shuffle(p, src)
}

// ShuffleIntoPipelined is ShuffleInto on two goroutines — the same
// permutation and src left in the same place — for a lone run: one draws
// the swap indices, shuffleChunk at a time, while the other does the swaps
// of the chunk before. The swaps, whose cache misses are most of the cost,
// stay in their order on one goroutine, so the output is the same; only
// the draws move (TestShuffleIntoPipelined).
func ShuffleIntoPipelined(p []int32, src *rand.PCG) {
	if len(p) < 2*shuffleChunk {
		ShuffleInto(p, src)
		return
	}
	ps := pcgstate.Load(src)
	var bufs [3][]int32
	for i := range bufs {
		bufs[i] = make([]int32, shuffleChunk)
	}
	full := make(chan []int32, len(bufs)-1)
	free := make(chan []int32, len(bufs))
	for _, b := range bufs {
		free <- b
	}
	go func() {
		st := ps // in registers while drawing
		// The draws of swaps i = n−1 … 1 in order, chunk by chunk.
		for hi := len(p) - 1; hi > 0; {
			lo := max(hi-shuffleChunk, 0)
			b := (<-free)[:hi-lo]
			for k := range b {
				b[k] = int32(st.IntN(uint64(hi - k + 1)))
			}
			full <- b
			hi = lo
		}
		ps = st
		close(full)
	}()
	for i := range p {
		p[i] = int32(i)
	}
	hi := len(p) - 1
	for b := range full {
		q := p[:hi+1]
		for k, j := range b {
			i := hi - k
			q[i], q[j] = q[j], q[i]
		}
		hi -= len(b)
		free <- b[:cap(b)]
	}
	ps.Store(src)
}

// shuffleChunk is the number of draws ShuffleIntoPipelined hands over at a
// time.
const shuffleChunk = 1 << 14
