package sot

import (
	"math/rand/v2"

	msot "routecheck/models/sot"
)

// local is an algorithm as a msot.Router: the node rule applied to one
// node's View. Its processors keep no memory: Algorithm 2's semisorted
// lists are read off View.Pending (the processor's own unsent packets in
// the relation's order, filtered by target, is what the stable semisort
// would give), so one local value serves any number of runs.
type local struct {
	alg  Algorithm
	rule rule
	S    []entry
	pend []entry
}

// Local returns alg as a router of the model's interface (models/sot.Router),
// deciding each node from its local view alone, for the conformance suite
// (props/sottest) and anyone who steps the model with msot.Decide. It makes
// the same decisions, and draws the same random numbers in the same order,
// as the fast engine New + Run given the same generator (tested). rng may
// be nil for the deterministic algorithms; a randomized one panics on a nil
// rng when it must draw. It returns an error for an unknown algorithm.
func Local(alg Algorithm) (msot.Router, error) {
	ru, err := ruleOf(alg)
	if err != nil {
		return nil, err
	}
	return &local{alg: alg, rule: ru}, nil
}

// Node implements msot.Router.
func (l *local) Node(v msot.View, rng *rand.Rand) msot.Action {
	S := l.S[:0]
	if v.Left.ID >= 0 {
		S = append(S, entry{msot.FromLeft, v.Left.Dst})
	}
	if v.Up.ID >= 0 {
		S = append(S, entry{msot.FromUp, v.Up.Dst})
	}
	a, S := l.rule.decide(v.N, v.I, v.J, S, func(max int) []entry {
		p := l.pend[:0]
		want := int32(-1)
		if l.rule.scheduled {
			want = int32((v.Proc + v.T) % v.N)
		}
		for _, pk := range v.Pending {
			if len(p) == max {
				break
			}
			if want < 0 || pk.Dst == want {
				p = append(p, entry{msot.Inject(pk.ID), pk.Dst})
			}
		}
		l.pend = p
		return p
	}, rng)
	l.S = S
	return a
}

// String names the algorithm.
func (l *local) String() string { return string(l.alg) }
