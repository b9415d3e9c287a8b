package pops

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"

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

// shuffleChunk is the number of draws ShuffleIntoPipelined hands over at
// a time, and of swaps after which shuffleSlot1 publishes its progress.
// A variable so that tests can put the source groups' boundaries inside
// chunks.
var shuffleChunk = 1 << 14

// shuffleSlot1 is ShuffleInto(c.dst, src) followed by slot 1 of a first
// step in which all n packets take part (laneStates, then slot1All on
// every lane): the same permutation, the same records, counts and lanes'
// counters, and src left after the shuffle's draws and the step's n. The
// lanes are set (resetLanes) and e.live is initPerm's.
//
// The calling goroutine shuffles as ShuffleInto does (the same draws and
// swaps, in order: pcgstate.Swaps), shuffleChunk swaps at a time, and
// after each chunk publishes how far down it has gone: the swap at i is
// Fisher–Yates's last to touch p[i], so p[front:] is final. Another
// goroutine resolves slot 1 for the source groups wholly at or above the
// front as they become final, from the top group down, a few at a time,
// each run of groups into the regions of the lane that owns it and with
// its draws from the state step 1 starts from, advanced past the packets
// of the groups below (pcgAdvance, as laneStates does). Between those it
// draws ahead the swaps' indices of every other chunk (helperDraws), for
// balance. After the swaps, the swapping goroutine takes the groups left
// from the bottom up (into the last lane's regions, once the other is
// done with them and while they have room).
//
// Where a chunk's draws and step 1's start is known in advance only if
// no draw before them was rejected (Lemire's method, for a bound not a
// power of two: probability below 2^−16 per shuffle of 2^24). So the
// swapping goroutine uses a chunk drawn ahead only if it was drawn from
// the state its own draws have reached (else it draws the chunk itself),
// and if the shuffle's draws end elsewhere than assumed, slot 1 is done
// again after the swaps from where they end. specSkew plants both cases
// for the tests.
func (e *Engine) shuffleSlot1(c *slotCtx, src *rand.PCG) {
	p := c.dst
	n, d, g := len(p), int(c.d), int(c.g)
	hi, lo := pcgState(src)
	sh, sl := pcgAdvance(hi, lo, uint64(n-1)+specSkew) // where step 1's draws start
	var front atomic.Int64                             // p[front:] is final
	front.Store(int64(n))
	chunks := (n - 1 + shuffleChunk - 1) / shuffleChunk
	prog := make(chan struct{}, chunks) // a token per chunk swapped
	// The other goroutine's draws of chunks (helperDraws), their buffers.
	const nbuf = 3
	ready := make(chan drawn, nbuf)
	free := make(chan []int32, nbuf)
	for range nbuf {
		free <- make([]int32, shuffleChunk)
	}
	half := make(chan struct{})
	done := make(chan struct{})
	unit := max(1, 4096/d) // groups resolved at a time
	// Slot 1's groups: the other goroutine has taken top…g−1 and resolved
	// fin…g−1; after the swaps this one takes 0…bot−1.
	var mu sync.Mutex
	top, fin, bot := g, g, 0
	go func() {
		defer close(done)
		for i := range p[:n/2] {
			p[i] = int32(i)
		}
		close(half)
		k := nextDrawn(0, chunks) // the next chunk to draw
		for {
			var b []int32
			if k < chunks {
				select {
				case b = <-free:
				default:
				}
			}
			if b == nil {
				if shuffleLook != nil {
					shuffleLook(k == chunks)
				}
				mu.Lock()
				f := int(front.Load())
				a, t := max((f+d-1)/d, bot), top
				var l *lane
				if a < t {
					// Groups a…t−1 are final: the highest few, in one lane.
					l = e.laneOf(t - 1)
					a = max(a, t-unit, l.a0)
					top = a
				}
				left := top > bot
				mu.Unlock()
				if shuffleTook != nil {
					shuffleTook(f, min(a, t), t)
				}
				if l != nil {
					h, w := pcgAdvance(sh, sl, uint64(a*d))
					l.ps = pcgstate.Load(rand.NewPCG(h, w))
					l.slot1Groups(e, c, nil, a, t)
					mu.Lock()
					fin = a
					mu.Unlock()
					continue
				}
				if k == chunks {
					if !left {
						return
					}
					<-prog // wait for the swaps
					continue
				}
				select {
				case b = <-free:
				case <-prog:
					continue
				}
			}
			// Chunk k's draws, from where they start if no draw above it
			// was rejected.
			i := n - 1 - k*shuffleChunk
			b = b[:min(shuffleChunk, i)]
			h, w := pcgAdvance(hi, lo, uint64(k*shuffleChunk)+specSkew)
			start := pcgstate.Load(rand.NewPCG(h, w))
			ready <- drawn{b, start, pcgstate.Draws(b, i, start)}
			k = nextDrawn(k+1, chunks)
		}
	}()
	for i := n / 2; i < n; i++ {
		p[i] = int32(i)
	}
	<-half
	st := pcgstate.Load(src)
	for k, top := 0, n-1; top > 0; k++ {
		lo := max(top-shuffleChunk, 0)
		if shuffleSwaps != nil {
			shuffleSwaps(int(front.Load()))
		}
		if helperDraws(k) {
			r := <-ready
			if r.start == st || specTrust {
				q := p[:top+1]
				for x, j := range r.js {
					i := top - x
					q[i], q[j] = q[j], q[i]
				}
				st = r.end
			} else { // a draw above was rejected: the chunk's draws start elsewhere
				st = pcgstate.Swaps(p, top, lo+1, st)
			}
			free <- r.js[:cap(r.js)]
		} else {
			st = pcgstate.Swaps(p, top, lo+1, st)
		}
		top = lo
		front.Store(int64(top + 1))
		prog <- struct{}{}
	}
	front.Store(0) // the swap at 1 was the last to touch p[0]
	close(prog)
	if shuffleSwapped != nil {
		shuffleSwapped()
	}
	// The groups left, from the bottom up, into the last lane's regions
	// once the other goroutine is done with them and while they have
	// room: a group puts at most R records into each slot-2 part's region
	// (one per intermediate group), and no count depends on which region
	// a record is in.
	last := &e.lanes[len(e.lanes)-1]
	R := int(e.span2) / g
	for {
		mu.Lock()
		a, b := bot, min(top, bot+unit)
		ok := a < b && fin <= last.a0 && last.room(R, R*(b-a))
		if ok {
			bot = b
		}
		mu.Unlock()
		if shuffleEndGame != nil {
			shuffleEndGame(a, b, ok)
		}
		if !ok {
			break
		}
		h, w := pcgAdvance(sh, sl, uint64(a*d))
		last.ps = pcgstate.Load(rand.NewPCG(h, w))
		last.slot1Groups(e, c, nil, a, b)
	}
	<-done
	if st != pcgstate.Load(rand.NewPCG(sh, sl)) && !specTrust {
		// A rejected draw: slot 1 again, from where the shuffle's draws end.
		e.resetLanes(int(c.nsub))
		st.Store(src)
		e.laneStates(src, n, d)
		e.each(c, opSlot1All)
		return
	}
	src.Seed(pcgAdvance(sh, sl, uint64(n)))
}

// drawn is a chunk of swaps' indices drawn ahead, from start to end.
type drawn struct {
	js         []int32
	start, end pcgstate.State
}

// helperDraws reports whether shuffleSlot1's other goroutine draws the
// indices of chunk k (counted from the top) ahead of the swaps: every
// other chunk. At 2^24 (thread CPU clocks, d = g = 4096) its slot 1 takes
// 0.13 s and the swaps with all their draws 0.19 s; half the draws moved
// give 0.155 against 0.145 s (two in three: 0.16 / 0.15; none: the swaps
// end last).
func helperDraws(k int) bool { return k%2 == 1 }

// nextDrawn is the first chunk from k on that helperDraws, or chunks.
func nextDrawn(k, chunks int) int {
	for k < chunks && !helperDraws(k) {
		k++
	}
	return k
}

// room reports whether each of the lane's slot-2 regions has room for k
// more records (layout gives the lane R·(a1 − a0) + 1 in each).
func (l *lane) room(R, k int) bool {
	for q, f := range l.fill2 {
		if int(l.start2[q])+R*(l.a1-l.a0)+1-int(f) < k {
			return false
		}
	}
	return true
}

// laneOf is the lane whose slot 1 has source group a.
func (e *Engine) laneOf(a int) *lane {
	for i := range e.lanes {
		if l := &e.lanes[i]; a < l.a1 {
			return l
		}
	}
	panic("pops: source group out of range")
}

// specSkew and specTrust are planted faults for the tests: shuffleSlot1
// expects the draws of the chunks it draws ahead and of step 1 specSkew
// draws later than they start without rejections, as rejected draws would
// make them, and with specTrust uses what it drew or resolved from there
// anyway. Zero and false.
var (
	specSkew  uint64
	specTrust bool
)

// shuffleSwaps, shuffleSwapped, shuffleLook, shuffleTook and
// shuffleEndGame are test hooks: nil, and then shuffleSlot1 is as
// described; the tests (TestShuffleSlot1Interleavings) set them to force
// the interleavings of its two goroutines that matter, by blocking one
// goroutine in a hook until the other has reached another (a sync.Cond; no
// sleeps, no timing). Each costs a nil check per chunk or per look at the
// front, none per swap or per packet. The swapping goroutine calls
// shuffleSwaps before each chunk's swaps, with the front published so far
// (p[front:] final), shuffleSwapped after the last swap (front 0
// published), before the end-game, and shuffleEndGame after each of the
// end-game's looks, with the groups a…b−1 it looked at and whether it
// takes them. The other goroutine calls shuffleLook before each look at the
// front for groups to take (drawn: it has drawn all its chunks, so
// blocking it there cannot hold the swaps up, which wait for those draws)
// and shuffleTook after it, with the front it read and the groups a…t−1 it
// took (a = t: none), before resolving them.
var (
	shuffleSwaps   func(front int)
	shuffleSwapped func()
	shuffleEndGame func(a, b int, ok bool)
	shuffleLook    func(drawn bool)
	shuffleTook    func(front, a, t int)
)
