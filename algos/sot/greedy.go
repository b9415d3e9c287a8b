package sot

import (
	"fmt"
	"math/rand/v2"
	"strings"

	msot "routecheck/models/sot"
)

// Algorithm names a router.
type Algorithm string

// The routers (see the package comment for the readings).
const (
	GreedyA          Algorithm = "greedy-a"
	GreedyALiteral   Algorithm = "greedy-a-literal"
	GreedyB          Algorithm = "greedy-b"
	GreedyBEdgeFirst Algorithm = "greedy-b-edge-first"
	GreedyC          Algorithm = "greedy-c"
	Scheduled        Algorithm = "scheduled"
	ScheduledLiteral Algorithm = "scheduled-literal"
)

// Algorithms lists every router.
var Algorithms = []Algorithm{GreedyA, GreedyALiteral, GreedyB, GreedyBEdgeFirst, GreedyC, Scheduled, ScheduledLiteral}

// ParseAlgorithm returns the algorithm named s.
func ParseAlgorithm(s string) (Algorithm, error) {
	for _, a := range Algorithms {
		if string(a) == s {
			return a, nil
		}
	}
	names := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		names[i] = string(a)
	}
	return "", fmt.Errorf("algorithm %q: allowed: %s", s, strings.Join(names, ", "))
}

// Random reports whether the algorithm draws random numbers.
func (a Algorithm) Random() bool { return a == GreedyB || a == GreedyBEdgeFirst || a == GreedyC }

// proto is the protocol a router uses at nodes.
type proto uint8

const (
	protoA proto = iota
	protoB
	protoBEdge
	protoC
)

// Router decides every node's action from a state of one run.
type Router struct {
	alg  Algorithm
	rule rule
	rng  *rand.Rand
	n    int
	// cursor[x]: every own packet of P_x before index cursor[x] of Own[x]
	// is injected (greedy); lists[x][y], lcur[x][y]: the same per target
	// (Algorithm 2's semisorted lists).
	cursor []int
	lists  [][][]int32
	lcur   [][]int
	buf    []entry
	pbuf   []entry
}

// ruleOf is the node rule of alg.
func ruleOf(alg Algorithm) (rule, error) {
	switch alg {
	case GreedyA:
		return rule{proto: protoA}, nil
	case GreedyALiteral:
		return rule{proto: protoA, literal: true}, nil
	case GreedyB:
		return rule{proto: protoB, literal: true}, nil
	case GreedyBEdgeFirst:
		return rule{proto: protoBEdge, literal: true}, nil
	case GreedyC:
		return rule{proto: protoC, literal: true}, nil
	case Scheduled:
		return rule{proto: protoA, scheduled: true}, nil
	case ScheduledLiteral:
		return rule{proto: protoA, scheduled: true, literal: true}, nil
	}
	_, err := ParseAlgorithm(string(alg))
	if err == nil {
		err = fmt.Errorf("algorithm %s has no node rule", alg)
	}
	return rule{}, err
}

// entry is a packet in S.
type entry struct {
	slot msot.Slot
	dst  int32
}

// New returns a router for a run that starts from s (its relation is what
// Algorithm 2 semisorts). rng must be non-nil for the randomized protocols
// (b, c); the others ignore it. It returns an error for an unknown algorithm
// or a missing rng.
func New(alg Algorithm, s *msot.State, rng *rand.Rand) (*Router, error) {
	ru, err := ruleOf(alg)
	if err != nil {
		return nil, err
	}
	if alg.Random() && rng == nil {
		return nil, fmt.Errorf("algorithm %s is randomized: it needs a *rand.Rand", alg)
	}
	r := &Router{alg: alg, rule: ru, rng: rng, n: s.N, cursor: make([]int, s.N)}
	if ru.scheduled {
		// Processor P_x semisorts its packets by target into n lists
		// (sequential n-way radix sort, modelled by Semisort: stable, so
		// each list keeps the relation's order).
		r.lists = make([][][]int32, s.N)
		r.lcur = make([][]int, s.N)
		for x, ids := range s.Own {
			r.lists[x] = Semisort(s.N, ids, s.Rel).Lists()
			r.lcur[x] = make([]int, s.N)
		}
	}
	return r, nil
}

// Algorithm returns the router's algorithm.
func (r *Router) Algorithm() Algorithm { return r.alg }

// pending returns up to max not-yet-injected packets P_x may send now, in
// first-in-first-out order: its next own packets (greedy) or its next
// packets for P_(x+t) mod n (Algorithm 2). It does not change what a later
// call for the same state returns.
func (r *Router) pending(s *msot.State, x, max int, out []int32) []int32 {
	var list []int32
	var cur *int
	if r.rule.scheduled {
		y := (x + s.T) % r.n
		list, cur = r.lists[x][y], &r.lcur[x][y]
	} else {
		list, cur = s.Own[x], &r.cursor[x]
	}
	for *cur < len(list) && s.IsInjected(list[*cur]) {
		*cur++
	}
	for k := *cur; k < len(list) && len(out) < max; k++ {
		if !s.IsInjected(list[k]) {
			out = append(out, list[k])
		}
	}
	return out
}

// Actions writes the action of every node for state s into a (len n², fully
// overwritten). It panics if a has the wrong length (a programmer error).
func (r *Router) Actions(s *msot.State, a []msot.Action) {
	n := r.n
	if len(a) != n*n || s.N != n {
		panic(fmt.Sprintf("sot router: %d actions for SOT(%d), router built for SOT(%d)", len(a), s.N, n))
	}
	var inj [2]int32
	for v := range a {
		S := r.buf[:0]
		if f := s.InH[v]; f.ID >= 0 {
			S = append(S, entry{msot.FromLeft, s.Rel[f.ID].Dst})
		}
		if f := s.InV[v]; f.ID >= 0 {
			S = append(S, entry{msot.FromUp, s.Rel[f.ID].Dst})
		}
		i, j := v/n, v%n
		a[v], r.buf = r.rule.decide(n, i, j, S, func(max int) []entry {
			r.pbuf = r.pbuf[:0]
			for _, id := range r.pending(s, i, max, inj[:0]) {
				r.pbuf = append(r.pbuf, entry{msot.Inject(id), s.Rel[id].Dst})
			}
			return r.pbuf
		}, r.rng)
	}
}

// rule is one of the seven algorithms as a node rule: the protocol and the
// processor rule. The fast engine (Router) and the local router (Local)
// both decide through it, so the algorithm has one home.
type rule struct {
	proto proto
	// literal: processors add 2 − |S| packets (Algorithm 1 as printed);
	// otherwise (GreedyA, Scheduled) at most one, onto a free Right output.
	literal   bool
	scheduled bool
}

// decide is Algorithm 1 at node (i, j) of SOT(n): S holds the packets that
// arrived (from the left first, then from up); pend(max) returns up to max
// own packets the processor may send now, first in first out (it is called
// only at processors). It returns the action and S (for buffer reuse).
func (ru rule) decide(n, i, j int, S []entry, pend func(max int) []entry, rng *rand.Rand) (msot.Action, []entry) {
	var a msot.Action
	isProc := i+j == n-1
	if isProc && ru.literal && len(S) < 2 {
		// Algorithm 1: "if |S| < 2 and n_ij has packets to route then
		// add 2 − |S| packets to S".
		S = append(S, pend(2-len(S))...)
	}
	if len(S) > 0 {
		first, right := ru.protocol(n, i, j, S, rng)
		other := 1 - first
		if right {
			a.Right = S[first].slot
			if len(S) == 2 {
				a.Down = S[other].slot
			}
		} else {
			a.Down = S[first].slot
			if len(S) == 2 {
				a.Right = S[other].slot
			}
		}
	}
	if isProc && !ru.literal && a.Right == msot.None {
		// Greedy-a as its text states it: a processor sends its own
		// packets only along the X-axis (right), when that link is free.
		if p := pend(1); len(p) == 1 {
			a.Right = p[0].slot
		}
	}
	return a, S
}

// protocol is protocol(i, j, S, x): the index of the packet that chooses
// first and whether it goes right.
func (ru rule) protocol(n, i, j int, S []entry, rng *rand.Rand) (int, bool) {
	switch ru.proto {
	case protoA:
		for k, p := range S {
			if p.slot == msot.FromUp {
				return k, false
			}
		}
		for k, p := range S {
			if n-1-int(p.dst) == j {
				return k, false
			}
		}
		return 0, true
	case protoB, protoBEdge:
		k := -1
		if ru.proto == protoBEdge {
			var edge [2]int
			e := 0
			for k2, p := range S {
				if int(p.dst) == i || n-1-int(p.dst) == j {
					edge[e] = k2
					e++
				}
			}
			if e > 0 {
				k = edge[rng.IntN(e)]
			}
		}
		if k < 0 {
			k = rng.IntN(len(S))
		}
		h, m := int(S[k].dst), n-1-int(S[k].dst)
		switch {
		case h == i:
			return k, true
		case m == j:
			return k, false
		}
		return k, rng.IntN(2) == 1
	default: // protoC
		k := rng.IntN(len(S))
		h, m := int(S[k].dst), n-1-int(S[k].dst)
		return k, ((h-i)%n+n)%n < ((m-j)%n+n)%n
	}
}
