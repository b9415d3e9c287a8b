package sot

import (
	"fmt"
	"math/rand/v2"
)

// Packet is what a packet carries: its id (its index in the relation) and
// its target processor. It is all a node learns about a packet.
type Packet struct {
	ID  int32 // −1: no packet
	Dst int32
}

// NoPacket is an empty input.
var NoPacket = Packet{ID: -1, Dst: -1}

// View is what one node knows at the start of a step: the paper's model is
// synchronous (every node knows the step counter T) and local (a node sees
// the packets on its own two inputs; a processor also sees its own packets
// not yet sent). A deflection node has no memory at all; a processor may
// keep memory of its own (the semisort of Algorithm 2), which a Router
// holds per run.
type View struct {
	N, T int
	I, J int // the node's position
	// Proc is the processor at this node, or −1 for a deflection node.
	Proc int
	// Left and Up are the packets on the inputs from (i, j−1) and from
	// (i−1, j) (NoPacket when empty). Sending one of them is Action slot
	// FromLeft or FromUp.
	Left, Up Packet
	// Pending (processors only) are the processor's own packets not yet
	// injected, in the order of the relation. Sending one is Inject(ID).
	// The slice belongs to the caller for this call only.
	Pending []Packet
}

// Router is the policy every node of SOT(n) runs: from the node's local
// view (and the random bits it draws from rng, which may be nil for a
// deterministic router) to what leaves on its two outputs. Node is called
// once per node and step, in node order (index i·n + j) within a step and
// steps in order; a Router value serves one run (it may keep processor
// memory built from earlier views of the same processor, never state of
// other nodes — the model is local, and nothing but the Views the caller
// passes crosses between nodes; props/sottest's locality property enforces
// it: a fresh Router per node must give the same actions as one shared by
// every node).
//
// The model, not the router, enforces the physics: Step rejects an Action
// that keeps, duplicates or invents a packet. The interface lives here,
// beside the model, because it is the contract between the model and any
// algorithm: View is defined by the model's locality, Action by its
// outputs, and the algorithms (routecheck/algos/sot) and the conformance
// suite (routecheck/props/sottest) both depend on it.
type Router interface {
	Node(v View, rng *rand.Rand) Action
}

// View returns the local view of node v in s. pending is a buffer the
// processor's pending packets are written into (reused; may be nil).
// Cost O(1) at a deflection node, O(own packets) at a processor.
func (s *State) View(v int, pending []Packet) View {
	n := s.N
	i, j := v/n, v%n
	vw := View{N: n, T: s.T, I: i, J: j, Proc: s.Proc(v), Left: NoPacket, Up: NoPacket}
	if f := s.InH[v]; f.ID >= 0 {
		vw.Left = Packet{ID: f.ID, Dst: s.Rel[f.ID].Dst}
	}
	if f := s.InV[v]; f.ID >= 0 {
		vw.Up = Packet{ID: f.ID, Dst: s.Rel[f.ID].Dst}
	}
	if vw.Proc >= 0 {
		pending = pending[:0]
		for _, id := range s.Own[vw.Proc] {
			if !s.IsInjected(id) {
				pending = append(pending, Packet{ID: id, Dst: s.Rel[id].Dst})
			}
		}
		vw.Pending = pending
	}
	return vw
}

// Decide asks r for the action of every node of s, in node order, and
// writes them into a (len n², fully overwritten). It panics if a has the
// wrong length (a programmer error). The actions are not checked: Step does
// that.
func Decide(s *State, r Router, rng *rand.Rand, a []Action) {
	if len(a) != s.N*s.N {
		panic(fmt.Sprintf("sot: Decide: %d actions for SOT(%d)", len(a), s.N))
	}
	var buf []Packet
	for v := range a {
		vw := s.View(v, buf)
		a[v] = r.Node(vw, rng)
		if vw.Pending != nil {
			buf = vw.Pending[:0]
		}
	}
}
