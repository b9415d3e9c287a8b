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
	}, r, opt)
}

// ClimbPacked is Climb on the packed form of a network (the same walk, the
// same result: only the engine differs).
func ClimbPacked(p *sortnet.Packed, r *rand.Rand, opt Options) Result {
	return climb(p.N, p.Depth(), p.ApplyStages, r, opt)
}

// climb is Climb on the network of n wires and depth stages that apply
// runs (stages from..to−1 on y in place).
func climb(n, depth int, apply func(y []int32, from, to int), r *rand.Rand, opt Options) Result {
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
		for range share - 1 {
			i, j := propose(r, x, pos)
			if i == j {
				best.Evals++ // a wasted proposal still counts as an evaluation's worth
				continue
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
	}
	best.Output = slices.Clone(best.Input)
	apply(best.Output, 0, depth)
	return best
}

// propose returns two input positions to swap: uniformly random ones, or
// the positions of the values v and v ± δ (δ ∈ 1..8).
func propose(r *rand.Rand, x, pos []int32) (int, int) {
	n := len(x)
	if r.IntN(2) == 0 {
		return r.IntN(n), r.IntN(n)
	}
	v := r.IntN(n)
	w := v + 1 + r.IntN(8)
	if r.IntN(2) == 0 {
		w = v - 1 - r.IntN(8)
	}
	w = min(max(w, 0), n-1)
	return int(pos[v]), int(pos[w])
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
