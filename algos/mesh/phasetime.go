package mesh

import "fmt"

// RouteKKTimes is RouteKK's phase times without simulating a step: it
// returns the same Steps and PhaseSteps as RouteKK(pl, Options{}) and the
// same error for a plan that moves a packet off its axis, but measures no
// queue (PhaseQueue and EndQueue nil, MaxQueue −1). Use it where only the
// times are read; TestRouteKKTimesEqualsRouteKK checks it against the line
// engine on every algorithm, with and without coloring.
//
// Why the times can be had without stepping: in a phase every packet moves
// along its row or its column only, and each link direction is used by one
// side (one direction of one line) only, so the sides route independently
// and the phase takes as many steps as its slowest side. A side is a linear
// array routed farthest-first from a static start, whose time is the
// corrected Lemma 4 of 003_8774480fe7c747cc.txt (mesh/lemma-4/corrected;
// oracles/mesh1d.Lemma4): the largest j − i − 1 + h(i, j) over positions
// i < j with h(i, j) > 0, h(i, j) the packets from positions ≤ i to
// positions ≥ j (0 without packets). Work: O(1) per packet and O(n²) per
// line, per phase (O(n³), at most one per packet when k ≥ 2n), against
// O(1) per hop plus O(n) per busy side and step for the line engine.
// Memory: 2n·n² int32 counters (256 KiB at n = 32), shared by the phases.
func RouteKKTimes(pl Plan) (KKResult, error) {
	return newPhaseTimer(pl.N).route(pl)
}

// route is RouteKKTimes on t.
func (t *phaseTimer) route(pl Plan) (KKResult, error) {
	res := KKResult{MaxQueue: -1}
	pos := pl.Src
	for ph, tg := range pl.Targets {
		steps, err := t.phase(pos, tg)
		if err != nil {
			return res, fmt.Errorf("phase %d: %w", ph+1, err)
		}
		res.PhaseSteps = append(res.PhaseSteps, steps)
		res.Steps += steps
		pos = tg
	}
	return res, nil
}

// phaseTimer computes a phase's steps from the corrected Lemma 4 (see
// RouteKKTimes). Lines are l = 0…n−1 (rows) and n…2n−1 (columns); the
// packets of a line from position a to b are counted in one n×n matrix,
// rightward (or downward) ones above its diagonal (a < b), the others below.
type phaseTimer struct {
	n   int
	cnt []int32 // cnt[(l·n+a)·n+b]: packets of line l from position a to b ≠ a
	acc []int32 // scratch of lineTime
	row []int32 // row[p], col[p]: PU p's row and column
	col []int32
	// lineTime is (*phaseTimer).line; a test swaps in planted mutants of
	// the formula to show that its differential test catches them.
	lineTime func(t *phaseTimer, l int) int
}

func newPhaseTimer(n int) *phaseTimer {
	t := &phaseTimer{n: n, cnt: make([]int32, 2*n*n*n), acc: make([]int32, n),
		row: make([]int32, n*n), col: make([]int32, n*n), lineTime: (*phaseTimer).line}
	for p := range n * n {
		t.row[p], t.col[p] = int32(p/n), int32(p%n)
	}
	return t
}

// phase is the steps of one phase (packet q from pos[q] to tg[q]); it
// leaves t empty (every counter at zero) for the next, also on an error.
func (t *phaseTimer) phase(pos, tg []int32) (int, error) {
	n := t.n
	for q := range pos {
		from, to := pos[q], tg[q]
		fr, fc, tr, tc := t.row[from], t.col[from], t.row[to], t.col[to]
		var i int
		switch {
		case fc == tc && fr == tr: // stays
			continue
		case fr == tr: // along row fr
			i = (int(fr)*n+int(fc))*n + int(tc)
		case fc == tc: // along column fc
			i = ((n+int(fc))*n+int(fr))*n + int(tr)
		default:
			clear(t.cnt)
			_, _, _, _, err := axisMove(n, from, to)
			return 0, err
		}
		t.cnt[i]++
	}
	steps := 0
	for l := range 2 * n {
		steps = max(steps, t.lineTime(t, l))
	}
	return steps, nil
}

// line is the farthest-first time of line l, the larger of its two
// directions' (the corrected Lemma 4 on each), and zeroes its counters.
// Rightward: the largest j − i − 1 + h over i < j with h > 0, h the
// packets from positions ≤ i to positions ≥ j. Leftward, the same on the
// mirrored line: the largest i − j − 1 + h over i > j with h > 0, h the
// packets from positions ≥ i to positions ≤ j.
func (t *phaseTimer) line(l int) int {
	n := t.n
	c := t.cnt[l*n*n : (l+1)*n*n]
	acc := t.acc
	best := 0
	for i := range n - 1 { // rightward
		r := c[i*n : (i+1)*n]
		for b := i + 1; b < n; b++ {
			acc[b] += r[b]
			r[b] = 0
		}
		h := 0
		for j := n - 1; j > i; j-- {
			h += int(acc[j])
			if h > 0 {
				best = max(best, j-i-1+h)
			}
		}
	}
	clear(acc)
	for i := n - 1; i > 0; i-- { // leftward
		r := c[i*n : (i+1)*n]
		for b := range i {
			acc[b] += r[b]
			r[b] = 0
		}
		h := 0
		for j := range i {
			h += int(acc[j])
			if h > 0 {
				best = max(best, i-j-1+h)
			}
		}
	}
	clear(acc)
	return best
}
