package multibutterfly

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/expander"
)

// CommNetwork is the 3N-node topology of §4.1 (N = n(log n + 1) packets):
// stages 0…3k (k = log n) of n nodes, node ⟨s, q⟩ at index s·n + q.
//   - stages s < k: stage s joined to s + 1 by a random d-regular bipartite
//     multigraph (expander.RandomRegular, the (α, β, n, d)-expander),
//     properly coloured with d colours (König);
//   - stages k … 2k: an (n, d)-multi-butterfly (the splitters of Build,
//     stage offset k), 2d colours per splitter;
//   - stages 2k … 3k: direct edges ⟨s, q⟩ → ⟨s+1, q⟩, colour 0.
//
// The paper's "1 ≤ q ≤ n" and "A_{i+1,2j−1}, A_{i+1,2j}" are read with
// 0-based q and the sets of §3.1.
type CommNetwork struct {
	N, LogN, D int
	// MB is the middle part as an n-input multi-butterfly (its node
	// ⟨s, q⟩ is CommNetwork node ⟨k + s, q⟩).
	MB    *Network
	Edges []Edge
	// Part[i] is 0 (expander), 1 (multi-butterfly) or 2 (direct) for edge i.
	Part []int8
}

// Stages returns 3 log n + 1.
func (c *CommNetwork) Stages() int { return 3*c.LogN + 1 }

// Nodes returns n(3 log n + 1).
func (c *CommNetwork) Nodes() int { return c.N * c.Stages() }

// BuildComm returns a §4.1 network with n nodes per stage (a power of two in
// [2, 2^16]) and degree parameter d ≥ 1 whose (3d + 1)·n·log n edges fit
// MaxEdges.
func BuildComm(n, d int, rng *rand.Rand) (*CommNetwork, error) {
	if n < 2 || n&(n-1) != 0 || n > 1<<16 {
		return nil, fmt.Errorf("multibutterfly: n = %d: must be a power of two in [2, 2^16]", n)
	}
	k := bits.Len(uint(n)) - 1
	if err := checkEdges(fmt.Sprintf("n = %d", n), d, commEdges(n, k)); err != nil {
		return nil, err
	}
	c := &CommNetwork{N: n, LogN: k, D: d}
	layers := make([]expanderLayer, k)
	for s := range layers {
		var err error
		if layers[s], err = randomLayer(n, d, rng); err != nil {
			return nil, err
		}
	}
	mbn, err := Build(n, d, rng)
	if err != nil {
		return nil, err
	}
	c.MB = mbn
	c.Edges, c.Part = threeParts(n, layers, mbn, k)
	return c, nil
}

// expanderLayer is one stage of an expander part: a d-regular bipartite
// multigraph on n + n vertices and its proper d-edge-colouring
// (expander.EdgeColouring, König).
type expanderLayer struct {
	g   expander.Graph
	col [][]int32
}

// randomLayer draws expander.RandomRegular(n, d, rng) and colours it.
func randomLayer(n, d int, rng *rand.Rand) (expanderLayer, error) {
	g := expander.RandomRegular(n, d, rng)
	col, err := expander.EdgeColouring(g)
	return expanderLayer{g, col}, err
}

// threeParts lays out the edges of a network of n nodes per stage in
// three parts, as §4.1 and Theorem 4.3 build them, and labels each edge
// with its part: P = len(layers) expander stages, layers[s] joining stage
// s to s + 1 (Part 0, edges in adjacency order with their colours); mbn
// joining stages P … P + log n (Part 1, mbn's edges in order, shifted by P
// stages); and direct edges ⟨s, q⟩ → ⟨s+1, q⟩ of colour 0 for the next
// `direct` stages, s = P + log n, … (Part 2).
func threeParts(n int, layers []expanderLayer, mbn *Network, direct int) ([]Edge, []int8) {
	var edges []Edge
	var part []int8
	for s, l := range layers {
		for a, adj := range l.g.Adj {
			for i, b := range adj {
				edges = append(edges, Edge{From: int32(s*n + a), To: int32((s+1)*n) + b, Stage: int32(s), Colour: l.col[a][i]})
				part = append(part, 0)
			}
		}
	}
	p := len(layers)
	off := int32(p * n)
	for _, e := range mbn.Edges {
		edges = append(edges, Edge{From: e.From + off, To: e.To + off, Stage: e.Stage + int32(p), Colour: e.Colour, Lower: e.Lower})
		part = append(part, 1)
	}
	for s := p + mbn.LogN; s < p+mbn.LogN+direct; s++ {
		for q := range n {
			edges = append(edges, Edge{From: int32(s*n + q), To: int32((s+1)*n + q), Stage: int32(s)})
			part = append(part, 2)
		}
	}
	return edges, part
}

// CommState is the contents of a §4.1 network: Buf[v] is the packet in
// node v's one buffer (−1: empty); packet p has destination node Dest[p]
// (a node of stages 2k … 3k).
//
// A packet that arrives at its destination node is absorbed by it: it
// leaves the node's routing buffer and is marked Delivered (our reading;
// §4 says each node "can be the destination of a packet" but not whether a
// delivered packet keeps occupying the buffer. If it did, a packet for
// ⟨s+1, q⟩ of a higher-priority batch would block every packet for
// ⟨s', q⟩, s' > s + 1, behind it for ever, since the batches of §4.2 give
// the nearer rows priority and exchanges only happen toward lower
// priority).
type CommState struct {
	Net       *CommNetwork
	Buf       []int32
	Dest      []int32
	Delivered []bool
}

// InitComm places packet i at node i (stages 0 … k hold n(k+1) nodes) with
// destination node dest[i]; dest must be a bijection onto the nodes of
// stages 2k … 3k.
func InitComm(net *CommNetwork, dest []int32) (CommState, error) {
	np := net.N * (net.LogN + 1)
	buf, err := initBuffers(net.Nodes(), 2*net.LogN*net.N, dest, np, "n(log n + 1)", "stages 2 log n … 3 log n")
	if err != nil {
		return CommState{}, err
	}
	return CommState{Net: net, Buf: buf, Dest: append([]int32(nil), dest...), Delivered: make([]bool, np)}, nil
}

// initBuffers checks that dest names np destinations, distinct nodes of
// [lo, nodes) (npName is np's formula and where names that range in the
// errors), and returns the buffers of nodes nodes with packet i at node i
// and the rest empty (−1).
func initBuffers(nodes, lo int, dest []int32, np int, npName, where string) ([]int32, error) {
	if len(dest) != np {
		return nil, fmt.Errorf("multibutterfly: %d destinations, want %s = %d", len(dest), npName, np)
	}
	seen := make(map[int32]bool, np)
	for i, d := range dest {
		if d < int32(lo) || int(d) >= nodes || seen[d] {
			return nil, fmt.Errorf("multibutterfly: destination %d of packet %d is repeated or not in %s", d, i, where)
		}
		seen[d] = true
	}
	buf := make([]int32, nodes)
	for v := range buf {
		buf[v] = -1
	}
	for i := range dest {
		buf[i] = int32(i)
	}
	return buf, nil
}

// Clone returns a deep copy (the network is shared).
func (s CommState) Clone() CommState {
	c := s
	c.Buf = append([]int32(nil), s.Buf...)
	c.Dest = append([]int32(nil), s.Dest...)
	c.Delivered = append([]bool(nil), s.Delivered...)
	return c
}

// StepComm applies exchanges (edge indices) to s and returns the next
// state: over each listed edge the two end nodes swap their buffers
// (§4.1: "the nodes adjacent to it can either exchange the content of one
// of their buffers or keep their buffers unchanged"). It returns an error
// for an unknown edge or a node on two active edges (one active line per
// node). It does not modify s.
func StepComm(s CommState, exchanges []int32) (CommState, error) {
	n := s.Clone()
	if err := exchange(n.Buf, s.Buf, s.Net.Edges, exchanges); err != nil {
		return CommState{}, err
	}
	absorb(n.Buf, n.Dest, n.Delivered, s.Net.Edges, exchanges)
	return n, nil
}

// exchange writes into buf, a copy of old, the swap of the buffers of the
// two end nodes of every listed edge. It returns an error for an unknown
// edge or a node on two listed edges (one active line per node), leaving
// buf partly swapped.
func exchange(buf, old []int32, edges []Edge, exchanges []int32) error {
	busy := make(map[int32]bool, 2*len(exchanges))
	for _, ei := range exchanges {
		if ei < 0 || int(ei) >= len(edges) {
			return fmt.Errorf("multibutterfly: edge %d out of range", ei)
		}
		e := edges[ei]
		if busy[e.From] || busy[e.To] {
			return fmt.Errorf("multibutterfly: edge %d: node with two active lines in one step", ei)
		}
		busy[e.From], busy[e.To] = true, true
		buf[e.From], buf[e.To] = old[e.To], old[e.From]
	}
	return nil
}

// absorb empties the buffer of each end node of a listed edge that holds a
// packet for that very node and marks the packet delivered (the absorbing
// reading of CommState).
func absorb(buf, dest []int32, delivered []bool, edges []Edge, exchanges []int32) {
	for _, ei := range exchanges {
		e := edges[ei]
		for _, v := range []int32{e.From, e.To} {
			if p := buf[v]; p >= 0 && dest[p] == v {
				buf[v], delivered[p] = -1, true
			}
		}
	}
}

// CommDone reports whether every packet is delivered.
func (s CommState) CommDone() bool { return allDelivered(s.Delivered) }

func allDelivered(delivered []bool) bool {
	for _, d := range delivered {
		if !d {
			return false
		}
	}
	return true
}

// CheckComm validates conservation: every packet is delivered or in
// exactly one buffer, never both; and every packet in the multi-butterfly
// or direct part is on the route to its destination column.
func CheckComm(s CommState) error {
	k, n := s.Net.LogN, s.Net.N
	return checkBuffers(s.Buf, s.Dest, s.Delivered, n, k, 2*k, func(p int32, st, q int) error {
		return fmt.Errorf("multibutterfly: packet %d (destination ⟨%d, %d⟩) misrouted to ⟨%d, %d⟩", p, int(s.Dest[p])/n, int(s.Dest[p])%n, st, q)
	})
}

// checkBuffers validates conservation — every packet delivered or in
// exactly one buffer, never both — and routing on a network of n nodes per
// stage whose multi-butterfly part spans stages mid … last (last − mid =
// log n) with the direct part after it: a packet at ⟨st, q⟩, mid ≤ st ≤
// last, shares the first st − mid bits of q with its destination column
// (q >> (last − st) equal), and beyond last q is its column. A misrouted
// packet p at ⟨st, q⟩ returns misrouted(p, st, q).
func checkBuffers(buf, dest []int32, delivered []bool, n, mid, last int, misrouted func(p int32, st, q int) error) error {
	seen := append([]bool(nil), delivered...)
	for v, p := range buf {
		if p == -1 {
			continue
		}
		if p < 0 || int(p) >= len(seen) || seen[p] {
			return fmt.Errorf("multibutterfly: node %d holds packet %d (unknown or duplicated)", v, p)
		}
		seen[p] = true
		st, q := v/n, v%n
		col := int(dest[p]) % n
		if st >= mid && st <= last && q>>(last-st) != col>>(last-st) || st > last && q != col {
			return misrouted(p, st, q)
		}
	}
	for p, ok := range seen {
		if !ok {
			return fmt.Errorf("multibutterfly: packet %d lost", p)
		}
	}
	return nil
}
