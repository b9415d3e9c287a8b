package mesh

import "math/bits"

// lineEngine runs one phase like fastPhase — every row and column a pair of
// one-directional lines routed farthest-first, stepped in lockstep with
// shared queue counters per PU — with flat arrays and, per PU and side, a
// bit set of the destinations it holds packets for, so that the farthest
// one is found with one leading-zero count per word instead of a scan down
// the counters. It returns what fastPhase returns (TestLineEngineEqualsFastPhase;
// TestKKFastEqualsModel ties both to the step model). Memory: 4n sides × n
// PUs × (n counters + ⌈n/64⌉ words) ≈ 16·n³ bytes (512 KiB at n = 32); work
// O(1) per move plus O(n) per side with packets per step.
//
// Sides are numbered s = 2l (rightward, or downward for a column) and
// 2l+1 (the other way) for lines l = 0…n−1 (rows) and n…2n−1 (columns); a
// side is written as rightward routing on positions 0…n−1, position x of
// side s being PU off[s] + x·dir[s].
type lineEngine struct {
	n, words int
	cnt      []int32  // cnt[(s·n+d)·n+x]: packets at position x of side s for position d > x (a packet's two counters, at x and x+1, are neighbours)
	mask     []uint64 // mask[(s·n+x)·words+w]: bit d%64 of word d/64 set iff cnt > 0
	top      []int32  // top[s·n+x]: the largest such d, or −1
	pend     []int32  // packets not yet delivered, per side
	off, dir []int
	queue    []int32 // packets per PU
	// over: PUs whose queue passed qmax when a packet arrived in this step.
	// A queue that ends a step above qmax passed it at its last arrival
	// (later in the step it only sends), so these are the only PUs that can
	// raise the phase's largest queue; qmax is that maximum so far.
	over []int32
	qmax int32
	// row[p], col[p]: PU p's row and column (no division per packet)
	row, col []int32
}

func newLineEngine(n int) *lineEngine {
	sides := 4 * n
	e := &lineEngine{n: n, words: (n + 63) / 64}
	e.cnt = make([]int32, sides*n*n)
	e.mask = make([]uint64, sides*n*e.words)
	e.top = make([]int32, sides*n)
	for i := range e.top {
		e.top[i] = -1
	}
	e.pend = make([]int32, sides)
	e.off, e.dir = make([]int, sides), make([]int, sides)
	for l := range 2 * n {
		b0, st := l*n, 1 // row l: PU l·n + x
		if l >= n {
			b0, st = l-n, n // column l−n: PU x·n + (l−n)
		}
		e.off[2*l], e.dir[2*l] = b0, st
		e.off[2*l+1], e.dir[2*l+1] = b0+(n-1)*st, -st
	}
	e.queue = make([]int32, n*n)
	e.row, e.col = make([]int32, n*n), make([]int32, n*n)
	for p := range n * n {
		e.row[p], e.col[p] = int32(p/n), int32(p%n)
	}
	return e
}

// add puts a packet at position x of side s for position d > x.
func (e *lineEngine) add(s, x, d int) {
	n := e.n
	px := s*n + x
	c := &e.cnt[(s*n+d)*n+x]
	if *c == 0 {
		e.mask[px*e.words+d>>6] |= 1 << (d & 63)
	}
	*c++
	e.top[px] = max(e.top[px], int32(d))
	e.pend[s]++
}

// highest is the largest d set in position px's bit set, or −1.
func (e *lineEngine) highest(px int) int32 {
	ws := e.mask[px*e.words : (px+1)*e.words]
	for w := len(ws) - 1; w >= 0; w-- {
		if ws[w] != 0 {
			return int32(w*64 + 63 - bits.LeadingZeros64(ws[w]))
		}
	}
	return -1
}

// step moves the farthest packet of every position of side s one link
// on, updating the queues, and returns the packets delivered. Positions are
// taken from the far end back, so a packet that arrives at x+1 in this step
// is not sent on from there before the next.
func (e *lineEngine) step(s int) (delivered int32) {
	n := e.n
	base := s * n
	off, dir := e.off[s], e.dir[s]
	top := e.top[base : base+n]
	for x := n - 2; x >= 0; x-- { // position n−1 holds nothing: every d > x
		d := int(top[x])
		if d < 0 {
			continue
		}
		px := base + x
		ci := (base+d)*n + x
		c := &e.cnt[ci]
		*c--
		if *c == 0 {
			e.mask[px*e.words+d>>6] &^= 1 << (d & 63)
			top[x] = e.highest(px)
		}
		from := off + x*dir
		e.queue[from]--
		to := from + dir
		e.queue[to]++
		if e.queue[to] > e.qmax {
			e.over = append(e.over, int32(to))
		}
		if d == x+1 {
			delivered++
			continue
		}
		py := px + 1
		c = &e.cnt[ci+1]
		if *c == 0 {
			e.mask[py*e.words+d>>6] |= 1 << (d & 63)
		}
		*c++
		top[x+1] = max(top[x+1], int32(d))
	}
	e.pend[s] -= delivered
	return delivered
}

// fastPhaseLines is fastPhase on a new lineEngine.
func fastPhaseLines(n int, pos, tg []int32) (steps, phaseQ, endQ int, err error) {
	return newLineEngine(n).phase(pos, tg)
}

// phase runs one phase (fastPhase) on e, which every phase leaves empty
// (each packet delivered: counters, bit sets and pending counts at zero),
// so that the phases of a plan share one engine.
func (e *lineEngine) phase(pos, tg []int32) (steps, phaseQ, endQ int, err error) {
	n := e.n
	clear(e.queue)
	e.qmax = 0
	for q := range pos {
		from, to := pos[q], tg[q]
		e.queue[from]++
		// axisMove's line, from and to positions, from the tables
		fr, fc, tr, tc := int(e.row[from]), int(e.col[from]), int(e.row[to]), int(e.col[to])
		var line, a, b int
		switch {
		case fr == tr:
			line, a, b = fr, fc, tc
		case fc == tc:
			line, a, b = n+fc, fr, tr
		default:
			_, _, _, _, err := axisMove(n, from, to)
			e.reset()
			return 0, 0, 0, err
		}
		switch {
		case b > a:
			e.add(2*line, a, b)
		case b < a:
			e.add(2*line+1, n-1-a, n-1-b)
		}
	}
	for _, x := range e.queue {
		e.qmax = max(e.qmax, x)
	}
	pending := int32(0)
	for _, p := range e.pend {
		pending += p
	}
	for pending > 0 {
		steps++
		e.over = e.over[:0]
		for s, p := range e.pend {
			if p > 0 {
				pending -= e.step(s)
			}
		}
		q := e.qmax
		for _, p := range e.over {
			q = max(q, e.queue[p])
		}
		e.qmax = q
	}
	phaseQ = int(e.qmax)
	for _, x := range e.queue {
		endQ = max(endQ, int(x))
	}
	return steps, phaseQ, endQ, nil
}

// reset empties e after a phase that stopped before it began.
func (e *lineEngine) reset() {
	clear(e.cnt)
	clear(e.mask)
	for i := range e.top {
		e.top[i] = -1
	}
	clear(e.pend)
}
