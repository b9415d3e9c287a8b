package multibutterfly

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"

	"routecheck/models/expander"
	"routecheck/models/perm"
)

// The classes of step errors: every error StepInto returns wraps exactly
// one, so a caller (a conformance suite, a claim) can tell a move the
// hardware cannot make from a buffer overfilled, with errors.Is.
var (
	// ErrIllegal: a move the hardware cannot perform (unknown packet or
	// edge, a packet not at the edge's tail or moved twice, two packets on
	// one edge, a node on two active lines, or — RunRouter — a node moving
	// a packet it does not hold or along an edge that does not leave it).
	ErrIllegal = errors.New("illegal move")
	// ErrCapacity: a node would hold more than L packets.
	ErrCapacity = errors.New("buffer over capacity")
)

// Edge is a directed edge from node From (stage Stage) to node To (stage
// Stage + 1), with its splitter colour (0…2d−1) and output side.
type Edge struct {
	From, To int32
	Stage    int32
	Colour   int32
	Lower    bool
}

// Network is a multi-butterfly. It is immutable once built and may be
// shared by any number of states.
type Network struct {
	N, LogN, D int
	// Splitters[s][j] joins A_{s,j} to A_{s+1,2j} and A_{s+1,2j+1}.
	Splitters [][]expander.Splitter
	Edges     []Edge
	// Out[v] lists the indices of the edges leaving node v.
	Out [][]int32
}

// Nodes returns the number of nodes, N·(log N + 1).
func (net *Network) Nodes() int { return net.N * (net.LogN + 1) }

// Node returns the index of ⟨s, k⟩.
func (net *Network) Node(s, k int) int32 { return int32(s*net.N + k) }

// StageOf returns (s, k) for node v.
func (net *Network) StageOf(v int32) (s, k int) { return int(v) / net.N, int(v) % net.N }

// Build returns a multi-butterfly with N inputs (a power of two ≥ 2) whose
// splitters are expander.NewSplitter(m, d) drawn from rng, stage by stage and
// set by set. d may be any degree ≥ 1 whose 2d·N·log N edges fit MaxEdges.
// It returns an error for bad parameters.
func Build(n, d int, rng *rand.Rand) (*Network, error) {
	logN, err := checkSize(n, d)
	if err != nil {
		return nil, err
	}
	sp := make([][]expander.Splitter, logN)
	for s := range logN {
		m := n >> s
		sp[s] = make([]expander.Splitter, 1<<s)
		for j := range sp[s] {
			sp[s][j] = expander.NewSplitter(m, d, rng)
		}
	}
	return FromSplitters(n, d, sp)
}

// FromSplitters assembles a network from given splitters (Splitters[s] must
// have 2^s splitters with M = N/2^s and D = d); it returns an error
// otherwise.
func FromSplitters(n, d int, sp [][]expander.Splitter) (*Network, error) {
	if n < 2 || n&(n-1) != 0 {
		return nil, fmt.Errorf("multibutterfly: N = %d: must be a power of two ≥ 2", n)
	}
	logN := bits.Len(uint(n)) - 1
	if len(sp) != logN {
		return nil, fmt.Errorf("multibutterfly: %d splitter stages, want log N = %d", len(sp), logN)
	}
	net := &Network{N: n, LogN: logN, D: d, Splitters: sp}
	net.Out = make([][]int32, net.Nodes())
	for s := range logN {
		m := n >> s
		if len(sp[s]) != 1<<s {
			return nil, fmt.Errorf("multibutterfly: stage %d has %d splitters, want %d", s, len(sp[s]), 1<<s)
		}
		for j, x := range sp[s] {
			if x.M != m || x.D != d || x.Upper.NA != m || x.Upper.NB != m/2 || x.Lower.NA != m || x.Lower.NB != m/2 {
				return nil, fmt.Errorf("multibutterfly: splitter (%d, %d) has M = %d, D = %d; want %d, %d", s, j, x.M, x.D, m, d)
			}
			for i, e := range x.Edges() {
				from := net.Node(s, j*m+int(e.In))
				off := j * m
				if e.Lower {
					off += m / 2
				}
				to := net.Node(s+1, off+int(e.Out))
				net.Out[from] = append(net.Out[from], int32(len(net.Edges)))
				net.Edges = append(net.Edges, Edge{From: from, To: to, Stage: int32(s), Colour: x.Colour[i], Lower: e.Lower})
			}
		}
	}
	return net, nil
}

// GoesLower reports whether a packet for destination dest leaves stage s
// for the lower output set: bit s of dest, counted from the most
// significant of LogN bits.
func (net *Network) GoesLower(dest int32, s int) bool {
	return dest>>(net.LogN-1-s)&1 == 1
}

// OnRoute reports whether node v = ⟨s, k⟩ lies on the route to dest: the
// first s bits of k and dest agree (⌊k/2^{n−s}⌋ = ⌊dest/2^{n−s}⌋).
func (net *Network) OnRoute(v, dest int32) bool {
	s, k := net.StageOf(v)
	sh := net.LogN - s
	return k>>sh == int(dest)>>sh
}

// State is the network's contents: packet p (0…P−1) has destination
// Dest[p] and stands at node Pos[p]; Count[v] is the number of packets at v.
// Packet names are their sources: Source[p] is p's input.
type State struct {
	Net    *Network
	L      int
	Source []int32
	Dest   []int32
	Pos    []int32
	Count  []int32
}

// Init places one packet per input with P[i] ≠ perm.None: the packet from
// input i starts at ⟨0, i⟩. P must be a (partial) permutation of N and L ≥ 1.
func Init(net *Network, L int, p []int32) (State, error) {
	if len(p) != net.N {
		return State{}, fmt.Errorf("multibutterfly: permutation of length %d, want N = %d", len(p), net.N)
	}
	if err := perm.Validate(p, false); err != nil {
		return State{}, err
	}
	if L < 1 {
		return State{}, fmt.Errorf("multibutterfly: L = %d: buffer capacity must be ≥ 1", L)
	}
	s := State{Net: net, L: L, Count: make([]int32, net.Nodes())}
	for i, d := range p {
		if d == perm.None {
			continue
		}
		s.Source = append(s.Source, int32(i))
		s.Dest = append(s.Dest, d)
		s.Pos = append(s.Pos, net.Node(0, i))
		s.Count[i]++
	}
	return s, nil
}

// Clone returns a deep copy (the network is shared).
func (s State) Clone() State {
	c := s
	c.Source = append([]int32(nil), s.Source...)
	c.Dest = append([]int32(nil), s.Dest...)
	c.Pos = append([]int32(nil), s.Pos...)
	c.Count = append([]int32(nil), s.Count...)
	return c
}

// Delivered reports whether packet p stands at its output ⟨log N, Dest[p]⟩.
func (s State) Delivered(p int) bool {
	return s.Pos[p] == s.Net.Node(s.Net.LogN, int(s.Dest[p]))
}

// Done reports whether every packet is delivered.
func (s State) Done() bool {
	for p := range s.Pos {
		if !s.Delivered(p) {
			return false
		}
	}
	return true
}

// Move sends packet Packet along edge Edge.
type Move struct {
	Packet, Edge int32
}

// Events is what a step did.
type Events struct {
	Moves int
	// Delivered lists the packets that reached their outputs in this step.
	Delivered []int32
}

// Step returns the next state; see StepInto.
func Step(s State, a []Move) (State, Events, error) {
	var dst State
	ev, err := StepInto(&dst, s, a)
	return dst, ev, err
}

// StepInto applies the moves a to s and writes the next state into dst
// (reusing its slices), without modifying s. It returns an error, and
// leaves dst unspecified, when a move is illegal: unknown packet or edge, a
// packet not at the edge's tail, a packet moved twice, two packets on one
// edge, a node with two active lines, or a buffer over L.
func StepInto(dst *State, s State, a []Move) (Events, error) {
	dst.Net, dst.L = s.Net, s.L
	dst.Source = append(dst.Source[:0], s.Source...)
	dst.Dest = append(dst.Dest[:0], s.Dest...)
	dst.Pos = append(dst.Pos[:0], s.Pos...)
	dst.Count = append(dst.Count[:0], s.Count...)
	var ev Events
	// The per-step sets (nodes on an active line and the move that
	// activated them, edges used, packets moved) are epoch-stamped arrays
	// from a pool rather than maps: the same checks in the same order, so
	// the same errors (TestStepIntoMatchesMaps holds it to the map version).
	sc := stepPool.Get().(*stepScratch)
	defer stepPool.Put(sc)
	ep := sc.reset(s.Net.Nodes(), len(s.Net.Edges), len(s.Pos))
	for i, m := range a {
		if m.Packet < 0 || int(m.Packet) >= len(s.Pos) || m.Edge < 0 || int(m.Edge) >= len(s.Net.Edges) {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d or edge %d out of range", ErrIllegal, i, m.Packet, m.Edge)
		}
		e := s.Net.Edges[m.Edge]
		if s.Pos[m.Packet] != e.From {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d is at node %d, not at the tail %d of edge %d", ErrIllegal, i, m.Packet, s.Pos[m.Packet], e.From, m.Edge)
		}
		if sc.packet[m.Packet] == ep {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d moved twice in one step", ErrIllegal, i, m.Packet)
		}
		if sc.edge[m.Edge] == ep {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: two packets on edge %d in one step", ErrIllegal, i, m.Edge)
		}
		for _, v := range [2]int32{e.From, e.To} {
			if sc.node[v] == ep {
				return ev, fmt.Errorf("multibutterfly: %w: moves %d and %d: node %d has two active lines in one step", ErrIllegal, sc.nodeMove[v], i, v)
			}
			sc.node[v], sc.nodeMove[v] = ep, i
		}
		sc.packet[m.Packet], sc.edge[m.Edge] = ep, ep
		dst.Pos[m.Packet] = e.To
		dst.Count[e.From]--
		dst.Count[e.To]++
		ev.Moves++
	}
	for _, m := range a {
		to := s.Net.Edges[m.Edge].To
		if int(dst.Count[to]) > s.L {
			return ev, fmt.Errorf("multibutterfly: %w: node %d holds %d packets, over the capacity L = %d", ErrCapacity, to, dst.Count[to], s.L)
		}
		if dst.Delivered(int(m.Packet)) {
			ev.Delivered = append(ev.Delivered, m.Packet)
		}
	}
	return ev, nil
}

// stepScratch is StepInto's working memory: entry x of node, edge or packet
// equals the current epoch when node x is on an active line (activated by
// move nodeMove[x]), edge x carries a packet, or packet x has moved, in the
// step being applied. Bumping the epoch empties all three at once.
type stepScratch struct {
	epoch              uint32
	node, edge, packet []uint32
	nodeMove           []int
}

var stepPool = sync.Pool{New: func() any { return new(stepScratch) }}

// reset starts a step on a network of nodes nodes and edges edges with
// packets packets and returns the step's epoch (never 0, which every fresh
// entry holds).
func (sc *stepScratch) reset(nodes, edges, packets int) uint32 {
	sc.epoch++
	if sc.epoch == 0 { // wrapped: stale stamps could equal a new epoch
		clear(sc.node)
		clear(sc.edge)
		clear(sc.packet)
		sc.epoch = 1
	}
	if len(sc.node) < nodes {
		sc.node, sc.nodeMove = make([]uint32, nodes), make([]int, nodes)
	}
	if len(sc.edge) < edges {
		sc.edge = make([]uint32, edges)
	}
	if len(sc.packet) < packets {
		sc.packet = make([]uint32, packets)
	}
	return sc.epoch
}

var tallyPool = sync.Pool{New: func() any { return new([]int32) }}

// CheckInvariants validates a state independently of how it was reached:
// Count is the tally of Pos (conservation: every packet is somewhere, once),
// every buffer holds at most L packets, and every packet is on the route to
// its destination (no misrouting; at stage log N this means delivered to
// the right output).
func CheckInvariants(s State) error {
	if len(s.Dest) != len(s.Pos) || len(s.Source) != len(s.Pos) || len(s.Count) != s.Net.Nodes() {
		return fmt.Errorf("multibutterfly: shape: %d sources, %d destinations, %d positions, %d counts", len(s.Source), len(s.Dest), len(s.Pos), len(s.Count))
	}
	// The tally is pooled scratch (cleared here): CheckInvariants runs
	// after every step of a checked run, and a fresh slice per call cost
	// more than the checks (TestCheckInvariantsMatchesPlain).
	tp := tallyPool.Get().(*[]int32)
	defer tallyPool.Put(tp)
	if cap(*tp) < len(s.Count) {
		*tp = make([]int32, len(s.Count))
	}
	tally := (*tp)[:len(s.Count)]
	clear(tally)
	for p, v := range s.Pos {
		if v < 0 || int(v) >= len(tally) {
			return fmt.Errorf("multibutterfly: packet %d at node %d out of range", p, v)
		}
		tally[v]++
		if !s.Net.OnRoute(v, s.Dest[p]) {
			st, k := s.Net.StageOf(v)
			return fmt.Errorf("multibutterfly: packet %d (destination %d) misrouted to ⟨%d, %d⟩", p, s.Dest[p], st, k)
		}
	}
	for v, c := range tally {
		if c != s.Count[v] {
			return fmt.Errorf("multibutterfly: node %d: count %d, but %d packets stand there", v, s.Count[v], c)
		}
		if int(c) > s.L {
			return fmt.Errorf("multibutterfly: node %d holds %d packets, over L = %d", v, c, s.L)
		}
	}
	return nil
}
