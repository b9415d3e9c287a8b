package mesh

import (
	"fmt"
	"math/rand/v2"
)

// View is what one PU knows when it decides a step of the grid model
// (003_8774480fe7c747cc.txt §1: a PU sees its own queue, and a packet
// carries its destination in its header): the mesh's side and whether it
// is a torus, the PU's own place (row-major: row PU/N, column PU%N), the
// step number (the model is synchronous, every PU keeps the same clock) and
// its queue. Queue aliases the state and must not be modified.
type View struct {
	N     int
	Torus bool
	PU    int
	Step  int
	Queue []Item
}

// Router is a routing policy for the grid step model: once per step, for
// every PU, Route chooses from that PU's View the packets it sends over its
// links (one per link; Still sends nothing). Randomness comes only from
// rng. A Router may keep memory between calls, but only per PU (keyed by
// View.PU): a PU knows nothing of another's queue. props/meshtest's
// locality property enforces this: a fresh Router per PU must make the
// same moves as one shared by every PU.
//
// The contract lives here, beside StepGrid, because it is the contract
// between the model and any algorithm: Decide turns a Router into the
// moves StepGrid takes, and StepGrid rejects with ErrAction whatever the
// hardware cannot do. Phase targets (Item.Target) are set by whoever builds
// the grid; a Router only moves packets.
type Router interface {
	Route(v View, rng *rand.Rand) Moves
}

// RouterFunc adapts a function to Router.
type RouterFunc func(v View, rng *rand.Rand) Moves

// Route calls f.
func (f RouterFunc) Route(v View, rng *rand.Rand) Moves { return f(v, rng) }

// Decide asks r for every PU's moves of the next step, in PU order, and
// writes them into moves (reused when it has the capacity). It returns
// whether any PU sends a packet.
func Decide(g Grid, r Router, rng *rand.Rand, moves []Moves) ([]Moves, bool) {
	moves = moves[:0]
	any := false
	for p, q := range g.Queues {
		m := r.Route(View{N: g.N, Torus: g.Torus, PU: p, Step: g.Step, Queue: q}, rng)
		moves = append(moves, m)
		any = any || m != Still
	}
	return moves, any
}

// CheckConservation reports, with an error that names the packet, whether
// next holds exactly the packets of prev (the same ids, each once, with the
// same header) — what StepGrid promises; the mesh model never drops or
// copies a packet — and has the same shape.
func CheckConservation(prev, next Grid) error {
	if next.N != prev.N || next.Torus != prev.Torus || len(next.Queues) != len(prev.Queues) {
		return fmt.Errorf("mesh: the grid changed shape (n %d → %d, torus %v → %v, %d → %d queues)", prev.N, next.N, prev.Torus, next.Torus, len(prev.Queues), len(next.Queues))
	}
	before := make(map[int32]Item, prev.Count())
	for _, q := range prev.Queues {
		for _, it := range q {
			before[it.ID] = it
		}
	}
	seen := make(map[int32]bool, len(before))
	for p, q := range next.Queues {
		for _, it := range q {
			was, ok := before[it.ID]
			// An if-chain, not a tagless switch, so that gremlins v0.6.0
			// mutates the conditions (go-gremlins/gremlins#298).
			if !ok {
				return fmt.Errorf("mesh: packet %d appeared at PU %d", it.ID, p)
			}
			if seen[it.ID] {
				return fmt.Errorf("mesh: packet %d is held twice (again at PU %d)", it.ID, p)
			}
			if was != it {
				return fmt.Errorf("mesh: packet %d's header changed from %+v to %+v", it.ID, was, it)
			}
			seen[it.ID] = true
		}
	}
	if len(seen) != len(before) {
		for p, q := range prev.Queues {
			for _, it := range q {
				if !seen[it.ID] {
					return fmt.Errorf("mesh: packet %d (at PU %d) was lost", it.ID, p)
				}
			}
		}
	}
	return nil
}
