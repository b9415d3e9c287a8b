// Package mesh holds the routing algorithms of 003_8774480fe7c747cc.txt on
// the models of models/mesh:
//   - the farthest-first strategy on a linear array (§2), on the step model
//     (RunLinear) and as a counting engine (Fast1D);
//   - ALLOCATE (§3) as written (Allocate) and with the list-based
//     linear-work organization (AllocateLinear, identical results), §2's
//     regular extraction and power-of-two split, and ALLOCATE' (§5,
//     AllocatePrime);
//   - k-k routing: RAND_4_PHASE_ROUTE, RAND_3_PHASE_ROUTE and
//     DET_3_PHASE_ROUTE, with or without coloring, as phase plans (NewPlan)
//     run on the grid step model or a counting engine (RouteKK), and on the
//     torus (step model only, shorter-way farthest-first: Options.Torus).
package mesh

import (
	"fmt"

	"routecheck/models/mesh"
)

// FarthestFirst is the §2 strategy: on each link the packet that still has
// to travel farthest goes first. PU i sends right the packet with the
// largest destination > i and left the one with the smallest destination
// < i; ties go to the packet earliest in the queue.
func FarthestFirst(s mesh.Linear, acts []mesh.Send) []mesh.Send {
	acts = acts[:0]
	for i, q := range s.Queues {
		a := mesh.Idle
		var bestR, bestL int32 = int32(i), int32(i)
		for k, p := range q {
			if p.Dst > bestR {
				bestR, a.Right = p.Dst, int32(k)
			}
			if p.Dst < bestL {
				bestL, a.Left = p.Dst, int32(k)
			}
		}
		acts = append(acts, a)
	}
	return acts
}

// Result is the outcome of a one-dimensional routing.
type Result struct {
	Steps      int // steps until every packet is delivered
	StepsRight int // the last step in which a rightward packet moved (T_r)
	StepsLeft  int // the same for leftward packets (T_l)
	MaxQueue   int // the largest queue at any step boundary, initial included
	Moves      int // link traversals
}

// RunLinear routes s to completion with FarthestFirst on the step model.
// maxSteps (> 0) bounds the run; it returns an error for a model violation
// or when the bound is reached.
func RunLinear(s mesh.Linear, maxSteps int) (Result, error) {
	var r Result
	for _, q := range s.Queues {
		r.MaxQueue = max(r.MaxQueue, len(q))
	}
	var acts []mesh.Send
	for s.Pending() > 0 {
		if r.Steps >= maxSteps {
			return r, fmt.Errorf("mesh: %d packets still pending after %d steps", s.Pending(), maxSteps)
		}
		acts = FarthestFirst(s, acts)
		right, left := false, false
		for _, a := range acts {
			right = right || a.Right >= 0
			left = left || a.Left >= 0
		}
		next, ev, err := mesh.StepLinear(s, acts)
		if err != nil {
			return r, err
		}
		r.Steps++
		if right {
			r.StepsRight = r.Steps
		}
		if left {
			r.StepsLeft = r.Steps
		}
		r.Moves += ev.Moves
		r.MaxQueue = max(r.MaxQueue, ev.MaxQueue)
		s = next
	}
	return r, nil
}

// Fast1D routes the same problem as RunLinear (packet p from src[p] to
// dst[p] on n PUs) with a counting engine: per PU and direction it keeps how
// many packets head for each destination and sends the farthest. It returns
// the same Result as RunLinear (ties between equal destinations do not
// change counts, steps or queues). Memory O(n²); work O(n) per step plus
// O(1) per move, amortized.
func Fast1D(n int, src, dst []int32) (Result, error) {
	if n < 1 || len(src) != len(dst) {
		return Result{}, fmt.Errorf("mesh: n = %d with %d sources and %d destinations", n, len(src), len(dst))
	}
	right := newSide(n)
	left := newSide(n)
	queue := make([]int, n)
	for p := range src {
		s, d := int(src[p]), int(dst[p])
		if s < 0 || s >= n || d < 0 || d >= n {
			return Result{}, fmt.Errorf("mesh: packet %d goes %d → %d, allowed PUs are [0, %d)", p, s, d, n)
		}
		switch {
		case d > s:
			right.add(s, d)
		case d < s:
			left.add(n-1-s, n-1-d) // mirrored: leftward becomes rightward
		default:
			continue
		}
		queue[s]++
	}
	var r Result
	for _, q := range queue {
		r.MaxQueue = max(r.MaxQueue, q)
	}
	sendR := make([]int, n)
	sendL := make([]int, n)
	for right.pending+left.pending > 0 {
		r.Steps++
		mr := right.step(sendR)
		ml := left.step(sendL)
		if mr > 0 {
			r.StepsRight = r.Steps
		}
		if ml > 0 {
			r.StepsLeft = r.Steps
		}
		r.Moves += mr + ml
		// Queue sizes: a sender loses one packet per direction, a receiver
		// gains what is not delivered on arrival.
		for i := range n {
			if d := sendR[i]; d >= 0 {
				queue[i]--
				if d != i+1 {
					queue[i+1]++
				}
			}
			if d := sendL[n-1-i]; d >= 0 { // mirrored PU n−1−i is real PU i
				queue[i]--
				if n-1-d != i-1 {
					queue[i-1]++
				}
			}
		}
		for _, q := range queue {
			r.MaxQueue = max(r.MaxQueue, q)
		}
	}
	return r, nil
}

// side is one direction of Fast1D, always written as rightward routing.
type side struct {
	n       int
	cnt     []int32 // cnt[i*n+d]: packets at PU i for destination d > i
	top     []int   // the largest d with cnt > 0 at PU i, or −1
	pending int
}

func newSide(n int) *side {
	s := &side{n: n, cnt: make([]int32, n*n), top: make([]int, n)}
	for i := range s.top {
		s.top[i] = -1
	}
	return s
}

func (s *side) add(i, d int) {
	s.cnt[i*s.n+d]++
	s.top[i] = max(s.top[i], d)
	s.pending++
}

// step moves the farthest packet of every PU one link right; send[i] is
// the destination it sent (−1 for none). It returns the number of moves.
func (s *side) step(send []int) int {
	n, moves := s.n, 0
	for i := range n {
		send[i] = s.top[i]
	}
	for i := n - 1; i >= 0; i-- {
		d := send[i]
		if d < 0 {
			continue
		}
		moves++
		c := s.cnt[i*n : (i+1)*n]
		c[d]--
		for s.top[i] >= 0 && c[s.top[i]] == 0 {
			s.top[i]--
		}
		if s.top[i] <= i {
			s.top[i] = -1
		}
		if d == i+1 {
			s.pending--
			continue
		}
		s.cnt[(i+1)*n+d]++
		s.top[i+1] = max(s.top[i+1], d)
	}
	return moves
}
