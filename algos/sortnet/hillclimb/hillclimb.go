// Package hillclimb searches for inputs a comparator network handles worst:
// a hill climb over permutations of 0..n−1 whose objective is the number of
// positions left out of place by the network (issue 3 §3: "a hill-climbing
// search for inputs that leave the most elements out of place").
//
// A move is a transposition of two input positions. Half of the proposals
// swap two uniformly random positions; the other half swap the positions
// holding the values v and v ± δ for a random v and δ uniform in 1..8 (a
// "near" transposition: it changes only the thresholds between v and v ± δ,
// so only those values change their paths through the network).
//
// The objective is the pair (Misplaced, Guide), compared lexicographically:
// Misplaced is the number of output positions p with output[p] ≠ p; Guide,
// the plateau guide, is the total displacement Σ|y[p] − p| of the state y
// after the first GuideDepth stages (by default the output itself, so it
// measures how far the misplaced items ended from home). A proposal is
// accepted when the pair does not decrease: sideways moves are allowed, so
// the walk crosses plateaus.
//
// What it is good for, measured (the Measure tests of this package): on
// networks that misplace items now and then — the AKS-family network with
// random-matching halvers — the climb piles failures up (n = 4096, d = 8:
// climbs of 1000 evaluations leave 8–10 items out of place where the worst
// of 1000 random permutations leaves 6). On a network that sorts, Misplaced
// is 0 everywhere and the default guide too, so the climb is a random walk
// by transpositions; and for a rare failure it is worse than independent
// random sampling with the same number of evaluations: of the 48 single
// deleted comparators of Batcher's odd-even network on 256 wires that 200
// random permutations never expose, climbs of 400 evaluations expose 1 and
// 400 random permutations 11, because successive inputs of a walk are
// correlated. Use it beside random sampling, never instead.
//
// Everything is deterministic given the *rand.Rand; nothing is logged.
package hillclimb

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"routecheck/models/sortnet"
)

// Options configures Climb. The zero value is usable: 1000 evaluations, one
// climb from a random permutation, the output's displacement as the guide.
type Options struct {
	// Evals is the number of network evaluations in all (the start of each
	// climb costs one); ≤ 0 means 1000.
	Evals int
	// Restarts splits Evals between Restarts + 1 independent climbs; the
	// result is the best over all of them.
	Restarts int
	// Start, when non-nil, is the first climb's starting permutation
	// (later climbs start from uniformly random permutations).
	Start []int32
	// GuideDepth is the number of leading stages after which the plateau
	// guide is measured: 0 (or any value ≥ Depth) means after the whole
	// network, a negative value means no guide (Guide is always 0).
	GuideDepth int
}

// Result is the best input found.
type Result struct {
	// Input is the best permutation found and Output the network's output
	// on it (Output[p] is the value left on wire p).
	Input, Output []int32
	// Misplaced counts the positions p with Output[p] ≠ p; Guide is the
	// plateau guide of Input (see the package comment).
	Misplaced int
	Guide     int64
	// StartMisplaced is the best objective among the climbs' starting
	// points (what random sampling of Restarts + 1 inputs found).
	StartMisplaced int
	// Evals is the number of network evaluations done; Accepted counts the
	// accepted proposals, Improved those that raised the pair strictly.
	Evals, Accepted, Improved int
}

// Climb runs the hill climb on nw. It panics if r is nil, or if Start is
// given and is not a permutation of 0..N−1. For N ≤ 1 it returns the trivial
// input without evaluating. Cost O(Evals · (Size + N)) time, O(N) memory
// beyond the network.
func Climb(nw sortnet.Network, r *rand.Rand, opt Options) Result {
	return climb(nw.N, nw.Depth(), func(y []int32, from, to int) {
		for _, st := range nw.Stages[from:to] {
			sortnet.ApplyStage(st, y)
		}
	}, func(w []uint64) { sortnet.Eval01(nw, w) }, r, opt)
}

// ClimbPacked is Climb on the packed form of a network (the same walk, the
// same result: only the engine differs).
func ClimbPacked(p *sortnet.Packed, r *rand.Rand, opt Options) Result {
	return climb(p.N, p.Depth(), p.ApplyStages, p.Eval01, r, opt)
}

// noThresholds turns off the threshold batches (for the differential test).
var noThresholds bool

// plantMissUnsorted plants a bug in the threshold batches for the
// differential test to catch: every lane is taken as sorted.
var plantMissUnsorted bool

// batchRuns and batchMisses count the threshold batches run and those that
// met a proposal left unsorted (for the differential test; not
// synchronized: climbs run concurrently would race on them).
var batchRuns, batchMisses int

// countBatches turns the counting on.
var countBatches bool

// climb is Climb on the network of n wires and depth stages that apply
// runs (stages from..to−1 on y in place) and eval01 runs on 64 0-1 inputs
// at once (nil: no threshold batches).
//
// While the current input is sorted by the network and the guide is the
// output's displacement (or none), every proposal is accepted (its pair is
// ≥ (0, 0)), and only whether the network sorts it matters until one does
// not: climb then checks the proposals in threshold batches instead of
// running each (sortedBatch), and runs in full only the first it finds
// unsorted and those after it. The walk and the result are the same
// (TestClimbThresholdsSame).
func climb(n, depth int, apply func(y []int32, from, to int), eval01 func([]uint64), r *rand.Rand, opt Options) Result {
	if r == nil {
		panic("hillclimb: Climb needs a non-nil *rand.Rand")
	}
	if opt.Start != nil {
		if err := checkPerm(opt.Start, n); err != nil {
			panic("hillclimb: Start: " + err.Error())
		}
	}
	if n <= 1 {
		in := make([]int32, n)
		return Result{Input: in, Output: slices.Clone(in)}
	}
	evals := opt.Evals
	if evals <= 0 {
		evals = 1000
	}
	climbs := max(1, opt.Restarts+1)
	gd := opt.GuideDepth
	if gd == 0 || gd > depth {
		gd = depth
	}
	e := &evaluator{apply: apply, depth: depth, guideDepth: gd, y: make([]int32, n)}
	pos := make([]int32, n) // pos[v] = input position holding value v
	best := Result{Misplaced: -1}
	var tb *thresholdBatch
	if eval01 != nil && !noThresholds && (gd == depth || gd < 0) {
		tb = newThresholdBatch(n, eval01)
	}
	for c := range climbs {
		share := evals / climbs
		if c < evals%climbs {
			share++
		}
		if share == 0 {
			break
		}
		x := make([]int32, n)
		if c == 0 && opt.Start != nil {
			copy(x, opt.Start)
		} else {
			for i, v := range r.Perm(n) {
				x[i] = int32(v)
			}
		}
		for i, v := range x {
			pos[v] = int32(i)
		}
		curM, curG := e.eval(x)
		best.Evals++
		if curM > best.StartMisplaced {
			best.StartMisplaced = curM
		}
		bestHere := func() {
			if curM > best.Misplaced || (curM == best.Misplaced && curG > best.Guide) {
				best.Misplaced, best.Guide = curM, curG
				best.Input = slices.Clone(x)
			}
		}
		bestHere()
		q := moveQueue{r: r, n: n, left: share - 1}
		// step proposes the move mv in the climb's own way: a full run.
		step := func(mv move) {
			i, j := mv.resolve(pos)
			if i == j {
				best.Evals++ // a wasted proposal still counts as an evaluation's worth
				return
			}
			x[i], x[j] = x[j], x[i]
			m, g := e.eval(x)
			best.Evals++
			if m > curM || (m == curM && g >= curG) {
				if m > curM || g > curG {
					best.Improved++
				}
				best.Accepted++
				pos[x[i]], pos[x[j]] = int32(i), int32(j)
				curM, curG = m, g
				bestHere()
			} else {
				x[i], x[j] = x[j], x[i]
			}
		}
		for q.more() {
			if tb != nil && curM == 0 && curG == 0 {
				if far, ok := tb.run(&q, x, pos, &best, step); !ok {
					step(far) // too many thresholds for a batch: a full run
				}
				continue
			}
			step(q.next())
		}
	}
	best.Output = slices.Clone(best.Input)
	apply(best.Output, 0, depth)
	return best
}

// move is a proposal as drawn: two input positions to swap (near false:
// uniformly random ones), or two values whose positions to swap (near: v
// and v ± δ, δ ∈ 1..8). What is drawn does not depend on the input.
type move struct {
	near bool
	a, b int
}

// drawMove draws a proposal from r.
func drawMove(r *rand.Rand, n int) move {
	if r.IntN(2) == 0 {
		return move{false, r.IntN(n), r.IntN(n)}
	}
	v := r.IntN(n)
	w := v + 1 + r.IntN(8)
	if r.IntN(2) == 0 {
		w = v - 1 - r.IntN(8)
	}
	w = min(max(w, 0), n-1)
	return move{true, v, w}
}

// resolve returns the input positions mv swaps (pos[v]: the position of
// value v).
func (mv move) resolve(pos []int32) (int, int) {
	if mv.near {
		return int(pos[mv.a]), int(pos[mv.b])
	}
	return mv.a, mv.b
}

// moveQueue hands out a climb's proposals in order: put back ones first,
// then fresh draws from r, left in all.
type moveQueue struct {
	r    *rand.Rand
	n    int
	left int
	back []move // put back, next first
}

func (q *moveQueue) more() bool { return q.left > 0 }

func (q *moveQueue) next() move {
	q.left--
	if k := len(q.back); k > 0 {
		mv := q.back[k-1]
		q.back = q.back[:k-1]
		return mv
	}
	return drawMove(q.r, q.n)
}

// putBack returns mvs (in order) to the front of the queue.
func (q *moveQueue) putBack(mvs []move) {
	for k := len(mvs) - 1; k >= 0; k-- {
		q.back = append(q.back, mvs[k])
	}
	q.left += len(mvs)
}

// thresholdBatch checks proposals on a sorted input 64 thresholds at a
// time. If the network sorts the permutation x, it sorts every threshold
// input [x ≥ t] (the 0-1 principle, and comparator networks commute with
// monotone maps); swapping the values v < w of x changes only the
// thresholds t = v+1..w, so the network sorts the swapped input — leaves
// its output the identity — iff it sorts those w − v threshold inputs.
// A batch takes successive proposals, each applied as accepted (on a sorted
// input every proposal is), while their thresholds fit in 64 lanes, runs
// all the lanes in one eval01 and accepts the proposals in order up to the
// first the network does not sort; that one and the rest are undone and
// handed back to the climb's full runs.
type thresholdBatch struct {
	n      int
	eval01 func([]uint64)
	x0     []int32  // the input at the start of the batch
	w      []uint64 // the lanes' 0-1 inputs
	le     []uint64 // le[u]: the lanes with threshold ≤ u
	moves  []move
	cands  []batchCand
	y      []int32
	touch  []int
}

type batchCand struct {
	k      int // index in moves
	i, j   int // positions swapped
	lo, hi int // thresholds lo+1..hi, lanes lane..lane+hi−lo−1
	lane   int
}

func newThresholdBatch(n int, eval01 func([]uint64)) *thresholdBatch {
	return &thresholdBatch{n: n, eval01: eval01, x0: make([]int32, n), w: make([]uint64, n), le: make([]uint64, n), y: make([]int32, n)}
}

// run takes proposals from q into one batch, the input x (with pos) sorted
// by the network, and settles them into best as the full runs would (step
// runs the first one found unsorted). If the first proposal taken has more
// than 64 thresholds, it is returned with ok false, for a full run.
func (tb *thresholdBatch) run(q *moveQueue, x, pos []int32, best *Result, step func(move)) (far move, ok bool) {
	copy(tb.x0, x)
	tb.moves, tb.cands = tb.moves[:0], tb.cands[:0]
	lanes := 0
	for q.more() {
		mv := q.next()
		i, j := mv.resolve(pos)
		if i == j {
			tb.moves = append(tb.moves, mv)
			continue
		}
		lo, hi := min(x[i], x[j]), max(x[i], x[j])
		need := int(hi - lo)
		if lanes+need > 64 {
			if len(tb.moves) == 0 {
				return mv, false
			}
			q.putBack([]move{mv})
			break
		}
		x[i], x[j] = x[j], x[i]
		pos[x[i]], pos[x[j]] = int32(i), int32(j)
		tb.cands = append(tb.cands, batchCand{k: len(tb.moves), i: i, j: j, lo: int(lo), hi: int(hi), lane: lanes})
		tb.moves = append(tb.moves, mv)
		lanes += need
	}
	bad := tb.check(lanes)
	if countBatches {
		batchRuns++
		if bad != 0 {
			batchMisses++
		}
	}
	// Settle the proposals in order, up to the first candidate left unsorted.
	c := 0
	for k, mv := range tb.moves {
		if c < len(tb.cands) && tb.cands[c].k == k {
			cd := tb.cands[c]
			if bad>>cd.lane&(uint64(1)<<(cd.hi-cd.lo)-1) != 0 {
				// Undo this candidate and those after it (newest first),
				// then run it in full and hand the rest back.
				for u := len(tb.cands) - 1; u >= c; u-- {
					a := tb.cands[u]
					x[a.i], x[a.j] = x[a.j], x[a.i]
					pos[x[a.i]], pos[x[a.j]] = int32(a.i), int32(a.j)
				}
				q.putBack(tb.moves[k+1:])
				step(mv)
				return move{}, true
			}
			best.Accepted++ // (0, 0) ≥ (0, 0): accepted, not improved
			c++
		}
		best.Evals++
	}
	return move{}, true
}

// check runs the lanes' threshold inputs — candidate c's thresholds on the
// input after candidates 0..c — through the network and returns the mask
// of the lanes left unsorted.
func (tb *thresholdBatch) check(lanes int) uint64 {
	if lanes == 0 {
		return 0
	}
	le := tb.le
	clear(le)
	for _, cd := range tb.cands {
		for t := cd.lo + 1; t <= cd.hi; t++ {
			le[t] |= 1 << (cd.lane + t - cd.lo - 1)
		}
	}
	for u := 1; u < tb.n; u++ {
		le[u] |= le[u-1]
	}
	y, w := tb.y, tb.w
	copy(y, tb.x0)
	for p, v := range y {
		w[p] = le[v]
	}
	// Positions where the input after candidate c differs from x0 are
	// among those its swaps and the earlier ones touched: set c's lanes
	// there from that input.
	tb.touch = tb.touch[:0]
	for _, cd := range tb.cands {
		y[cd.i], y[cd.j] = y[cd.j], y[cd.i]
		tb.touch = append(tb.touch, cd.i, cd.j)
		mask := (uint64(1)<<(cd.hi-cd.lo) - 1) << cd.lane
		for _, p := range tb.touch {
			w[p] = w[p]&^mask | le[y[p]]&mask
		}
	}
	tb.eval01(w)
	if plantMissUnsorted {
		return 0
	}
	return sortnet.Unsorted01(w) & (^uint64(0) >> (64 - lanes))
}

type evaluator struct {
	apply      func(y []int32, from, to int)
	depth      int
	guideDepth int
	y          []int32
}

// eval runs the network on a copy of x and returns (misplaced, guide).
func (e *evaluator) eval(x []int32) (int, int64) {
	copy(e.y, x)
	var guide int64
	if e.guideDepth >= 0 {
		e.apply(e.y, 0, e.guideDepth)
		guide = displacement(e.y)
		e.apply(e.y, e.guideDepth, e.depth)
	} else {
		e.apply(e.y, 0, e.depth)
	}
	mis := 0
	for p, v := range e.y {
		if v != int32(p) {
			mis++
		}
	}
	return mis, guide
}

func displacement(y []int32) int64 {
	var s int64
	for p, v := range y {
		d := int64(v) - int64(p)
		if d < 0 {
			d = -d
		}
		s += d
	}
	return s
}

func checkPerm(xs []int32, n int) error {
	if len(xs) != n {
		return fmt.Errorf("length %d, the network has %d wires", len(xs), n)
	}
	seen := make([]bool, n)
	for _, x := range xs {
		if x < 0 || int(x) >= n || seen[x] {
			return fmt.Errorf("not a permutation of 0..%d", n-1)
		}
		seen[x] = true
	}
	return nil
}
