package butterfly

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Router is a routing policy for the step model, the contract between the
// model and an algorithm (routecheck/algos/butterfly implements it for the
// paper's greedy priority router; props/bflytest checks any
// implementation). It lives here, beside Step, because it is defined by
// what the model lets a node see and do: a node (s, row) knows the shape
// and the clock, the packets in its own queues with their headers, the
// packets in its own input buffers, and — under StrictBuffers — whether the
// buffer at the far end of each of its outgoing links is occupied (the
// link's flow control); it decides which packet to forward on which link.
// It sees no other node's queue.
//
// Launch is called once for every packet before step 0, in the order the
// packets are given (by source, then ℓ, for §3's pipelined sequences): it
// returns the packet's r random transitions X ∈ [0, 2^r) (§3: "one of the
// 2^r nodes it can reach at stage r") and its header Key, which only the
// router reads. p carries ID, Src, Dst and Perm; X and Key are zero.
//
// Route is called in every step for every node holding at least one
// queued packet, stage by stage and row by row; it returns at most one
// Forward per queue (NodeQueue: at most one per node). The view is a copy:
// changing it changes nothing.
//
// All randomness comes from rng; a Router that draws only from rng and
// keeps no state between calls other than per-node state is reproducible
// from the seed. A Router value serves one run (one call of the driver's
// newRouter per instance). props/bflytest's locality property enforces the
// per-node rule: a fresh Router per node (a packet's Launch going to its
// input node's) must decide as one shared by every node does.
type Router interface {
	Launch(sh Shape, p Packet, rng *rand.Rand) (x int32, key uint64)
	Route(v View, rng *rand.Rand) []Forward
}

// View is what node (Stage, Row) knows at the start of a step.
type View struct {
	Shape
	Step  int // the global clock (the model is synchronous)
	Stage int
	Row   int32
	// Queues are the node's queues: one (NodeQueue) or one per outgoing
	// link (Buffered: 0 straight, 1 cross), in arrival order.
	Queues [][]Packet
	// Buffers are the packets in the node's input buffers (Buffered mode);
	// they join the queues during this step and cannot be sent in it.
	Buffers []Packet
	// Blocked[l] says that the buffer at the far end of link l holds a
	// packet at the start of the step; under StrictBuffers a send on l is
	// then illegal. Always false otherwise.
	Blocked [2]bool
}

// Forward sends a packet on a link: Link 0 (straight) or 1 (cross); Index
// is the packet's position in the node's queue (NodeQueue) or in the queue
// of Link (Buffered). The packet's path must take Link.
type Forward struct {
	Link  int
	Index int
}

// RouteStep asks r for the sends of every node of st, translates them into
// the model's actions and performs the step. A Forward the hardware cannot
// perform (a link other than 0 or 1, a packet whose path takes the other
// link, an index outside the queue, two packets from one node in NodeQueue
// mode or on one link, a send into an occupied buffer under StrictBuffers)
// returns an error wrapping ErrAction; st is not modified. It returns the
// actions it performed.
func RouteStep(st State, r Router, rng *rand.Rand) (State, Events, []Send, error) {
	a, err := Actions(st, r, rng)
	if err != nil {
		return State{}, Events{}, nil, err
	}
	next, ev, err := Step(st, a)
	return next, ev, a, err
}

// Actions asks r for the sends of every node of st (see RouteStep) and
// returns them as the model's actions, without stepping.
func Actions(st State, r Router, rng *rand.Rand) ([]Send, error) {
	N, Q := st.N(), st.Shape.Queues()
	var a []Send
	for node := range st.Stages() * N {
		s, row := node/N, int32(node%N)
		busy := false
		for q := range Q {
			busy = busy || len(st.Queues[node*Q+q]) > 0
		}
		if !busy {
			continue
		}
		v := View{Shape: st.Shape, Step: st.Step, Stage: s, Row: row, Queues: make([][]Packet, Q)}
		for q := range Q {
			v.Queues[q] = slices.Clone(st.Queues[node*Q+q])
		}
		if st.Mode == Buffered {
			for in := range 2 {
				if b := 2*node + in; st.Full[b] {
					v.Buffers = append(v.Buffers, st.Buf[b])
				}
			}
			if st.StrictBuffers && s+1 < st.Stages() {
				mask := st.Mask(s + 1)
				v.Blocked[0] = st.Full[2*((s+1)*N+int(row))]
				v.Blocked[1] = st.Full[2*((s+1)*N+int(row^mask))+1]
			}
		}
		for _, f := range r.Route(v, rng) {
			if f.Link != 0 && f.Link != 1 {
				return nil, fmt.Errorf("%w: node (%d, %d) sends on link %d, allowed 0 (straight) or 1 (cross)", ErrAction, s, row, f.Link)
			}
			q := node * Q
			if st.Mode == Buffered {
				q += f.Link
			}
			if f.Index < 0 || f.Index >= len(st.Queues[q]) {
				return nil, fmt.Errorf("%w: node (%d, %d) sends index %d of a queue of %d on link %d", ErrAction, s, row, f.Index, len(st.Queues[q]), f.Link)
			}
			if p := st.Queues[q][f.Index]; st.Link(p, s) != f.Link {
				return nil, fmt.Errorf("%w: node (%d, %d) sends packet %d on link %d, its path takes link %d", ErrAction, s, row, p.ID, f.Link, st.Link(p, s))
			}
			a = append(a, Send{Queue: int32(q), Index: int32(f.Index)})
		}
	}
	return a, nil
}
