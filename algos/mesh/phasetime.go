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
// side with packets, per phase, against O(1) per hop plus O(n) per busy
// side and step for the line engine. Memory: 4n·n² int32 counters (512 KiB
// at n = 32), shared by the phases.
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
// RouteKKTimes). Sides are numbered as in lineEngine: s = 2l rightward (or
// downward for a column), 2l+1 the other way written as rightward on the
// mirrored positions, for lines l = 0…n−1 (rows) and n…2n−1 (columns).
type phaseTimer struct {
	n    int
	cnt  []int32 // cnt[(s·n+a)·n+b]: packets of side s from position a to b > a
	busy []bool  // busy[s]: side s holds a packet
	acc  []int32 // scratch: acc[b] = packets from positions ≤ a to b
	row  []int32 // row[p], col[p]: PU p's row and column
	col  []int32
	// sideTime is (*phaseTimer).side; a test swaps in planted mutants of
	// the formula to show that its differential test catches them.
	sideTime func(t *phaseTimer, s int) int
}

func newPhaseTimer(n int) *phaseTimer {
	t := &phaseTimer{n: n, cnt: make([]int32, 4*n*n*n), busy: make([]bool, 4*n), acc: make([]int32, n),
		row: make([]int32, n*n), col: make([]int32, n*n), sideTime: (*phaseTimer).side}
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
		var line, a, b int
		switch {
		case fr == tr: // along row fr
			line, a, b = int(fr), int(fc), int(tc)
		case fc == tc: // along column fc
			line, a, b = n+int(fc), int(fr), int(tr)
		default:
			clear(t.cnt)
			clear(t.busy)
			_, _, _, _, err := axisMove(n, from, to)
			return 0, err
		}
		s := 2 * line
		switch {
		case b > a:
		case b < a:
			s, a, b = s+1, n-1-a, n-1-b
		default:
			continue
		}
		t.cnt[(s*n+a)*n+b]++
		t.busy[s] = true
	}
	steps := 0
	for s, busy := range t.busy {
		if busy {
			steps = max(steps, t.sideTime(t, s))
			t.busy[s] = false
		}
	}
	return steps, nil
}

// side is the farthest-first time of side s (the corrected Lemma 4), and
// zeroes its counters.
func (t *phaseTimer) side(s int) int {
	n := t.n
	acc := t.acc
	best := 0
	for i := range n - 1 {
		c := t.cnt[(s*n+i)*n : (s*n+i+1)*n]
		for b := i + 1; b < n; b++ {
			acc[b] += c[b]
			c[b] = 0
		}
		h := 0 // h(i, j): packets from positions ≤ i to positions ≥ j
		for j := n - 1; j > i; j-- {
			h += int(acc[j])
			if h > 0 {
				best = max(best, j-i-1+h)
			}
		}
	}
	clear(acc)
	return best
}
