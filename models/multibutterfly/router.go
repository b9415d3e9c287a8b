package multibutterfly

import (
	"fmt"
	"math/rand/v2"
)

// Router is a routing policy for the multi-butterfly step model: the
// contract between the model (this package) and an algorithm (algos/
// multibutterfly's §3.2 batched priority routing implements it as
// Priority; routecheck/props/mbflytest checks anyone's). It lives here, not
// in algos, because it says what the model lets a node know and do, which
// is the model's business; the algorithms only fill it in.
//
// The network (its topology, splitters and colours) is static and public:
// Init hands it over once, with the buffer capacity L. Everything that
// changes is local: at every step RunRouter calls Route once for every node
// that holds a packet and has out edges (stages 0 … log N − 1), with a View
// of that node alone — its buffer (the headers of the packets it holds),
// its 2d out edges with the buffer of each edge's head (what a handshake
// over the line tells the sender: §3.2's "if u stores no packet of B(k)"),
// and the clock. Route appends the node's moves — which packet goes on
// which out edge — to moves and returns it. rng is the run's only source of
// randomness; a deterministic router ignores it.
//
// The model decides what is legal (Step's physics: one packet per edge, one
// active line per node, a buffer holds at most L, packets only go forward),
// and RunRouter rejects a node moving a packet it does not hold or along an
// edge that is not its own. A router may keep state between calls (a node's
// memory), but only what a node could know: what it saw in its own views
// (props/mbflytest's locality property enforces it: a fresh Router per
// node, each Init'ed alike, must make the same moves as one shared by every
// node).
type Router interface {
	Init(net *Network, L int)
	Route(v *View, rng *rand.Rand, moves []Move) []Move
}

// Header is what a packet's header tells the node that holds it (or the
// node at the other end of a line): its name, its source and its
// destination.
type Header struct {
	Packet, Source, Dest int32
}

// Port is one of a node's out edges as the node sees it.
type Port struct {
	Edge   int32 // the index in Network.Edges, what a Move names
	Colour int32 // the splitter colour, 0 … 2d−1
	Lower  bool  // the edge leads into the lower output set
	To     int32 // the head node
	// Head lists the packets the head holds at the start of the step.
	Head []Header
}

// View is what node Node = ⟨Stage, Row⟩ knows at step Step (0, 1, …; the
// model is synchronous, so the clock is common knowledge). Its slices are
// valid only during the Route call: a router must copy what it keeps.
type View struct {
	Step       int
	Node       int32
	Stage, Row int
	Buffer     []Header
	Out        []Port
}

// RouterOptions control RunRouter.
type RouterOptions struct {
	// MaxSteps caps the run; it must be ≥ 0 (0 runs no step).
	MaxSteps int
	// AfterStep, if set, sees the state after step t (t = 1, 2, …) and the
	// step's events; a non-nil error stops the run and is returned
	// (wrapped in a *StepError). It must not modify or retain the state.
	AfterStep func(t int, s *State, ev Events) error
}

// RouterResult summarizes a RunRouter run.
type RouterResult struct {
	// Steps is the number of steps taken: when Complete, the step after
	// which the last packet stood at its output.
	Steps     int
	Complete  bool
	Moves     int
	Delivered int
	// MaxBuffer is the most packets any node of stage ≥ 1 held after any
	// step (inputs start with one packet each).
	MaxBuffer int
}

// StepError is an error at step Step (0-based: the step that was being
// taken) of a RunRouter run: a move the model rejected (wrapping ErrIllegal
// or ErrCapacity) or the error of AfterStep.
type StepError struct {
	Step int
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// RunRouter runs r on s from its start (step 0) until every packet is
// delivered or o.MaxSteps steps have passed, calling r.Init(s.Net, s.L)
// first. Every step goes through StepInto, so every move is validated by
// the model; RunRouter also rejects, with ErrIllegal, a move of a packet
// the moving node does not hold or along an edge that does not leave it.
// It returns the result and the last state (the state before the failing
// step on an error). A panic in r is not recovered.
func RunRouter(s State, r Router, rng *rand.Rand, o RouterOptions) (RouterResult, State, error) {
	net := s.Net
	r.Init(net, s.L)
	cur, next := s.Clone(), State{}
	var res RouterResult
	for p := range cur.Pos {
		if cur.Delivered(p) {
			res.Delivered++
		}
	}
	nodes := net.Nodes()
	start := make([]int32, nodes+1) // headers of node v: hdr[start[v]:start[v+1]]
	fill := make([]int32, nodes)
	hdr := make([]Header, len(cur.Pos))
	var view View
	var moves []Move
	for t := 0; res.Delivered < len(cur.Pos); t++ {
		if t >= o.MaxSteps {
			res.Steps = t
			return res, cur, nil
		}
		// Bucket the headers by node (a counting sort over Count).
		start[0] = 0
		for v := range nodes {
			start[v+1] = start[v] + cur.Count[v]
		}
		copy(fill, start[:nodes])
		for p, v := range cur.Pos {
			hdr[fill[v]] = Header{Packet: int32(p), Source: cur.Source[p], Dest: cur.Dest[p]}
			fill[v]++
		}
		moves = moves[:0]
		for v := range int32(net.N * net.LogN) { // stages with out edges
			if cur.Count[v] == 0 {
				continue
			}
			view.Step, view.Node = t, v
			view.Stage, view.Row = net.StageOf(v)
			view.Buffer = hdr[start[v]:start[v+1]]
			view.Out = view.Out[:0]
			for _, ei := range net.Out[v] {
				e := net.Edges[ei]
				view.Out = append(view.Out, Port{Edge: ei, Colour: e.Colour, Lower: e.Lower, To: e.To, Head: hdr[start[e.To]:start[e.To+1]]})
			}
			n0 := len(moves)
			moves = r.Route(&view, rng, moves)
			for _, m := range moves[n0:] {
				if m.Packet < 0 || int(m.Packet) >= len(cur.Pos) || cur.Pos[m.Packet] != v {
					return res, cur, &StepError{t, fmt.Errorf("multibutterfly: %w: node %d moved packet %d, which it does not hold", ErrIllegal, v, m.Packet)}
				}
				if m.Edge < 0 || int(m.Edge) >= len(net.Edges) || net.Edges[m.Edge].From != v {
					return res, cur, &StepError{t, fmt.Errorf("multibutterfly: %w: node %d moved packet %d along edge %d, which does not leave it", ErrIllegal, v, m.Packet, m.Edge)}
				}
			}
		}
		ev, err := StepInto(&next, cur, moves)
		if err != nil {
			return res, cur, &StepError{t, err}
		}
		cur, next = next, cur
		res.Steps = t + 1
		res.Moves += ev.Moves
		res.Delivered += len(ev.Delivered)
		for _, m := range moves {
			if to := net.Edges[m.Edge].To; int(cur.Count[to]) > res.MaxBuffer {
				res.MaxBuffer = int(cur.Count[to])
			}
		}
		if o.AfterStep != nil {
			if err := o.AfterStep(t+1, &cur, ev); err != nil {
				return res, cur, &StepError{t, err}
			}
		}
	}
	res.Complete = true
	return res, cur, nil
}
