package multibutterfly

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/bipartite"
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
	for s := range k {
		g := expander.RandomRegular(n, d, rng)
		mg := bipartite.Multigraph{L: n, R: n}
		for a, l := range g.Adj {
			for _, b := range l {
				mg.Edges = append(mg.Edges, bipartite.Edge{U: int32(a), V: b})
			}
		}
		col, err := bipartite.Colour(mg)
		if err != nil {
			return nil, err
		}
		for i, e := range mg.Edges {
			c.Edges = append(c.Edges, Edge{From: int32(s*n) + e.U, To: int32((s+1)*n) + e.V, Stage: int32(s), Colour: col[i]})
			c.Part = append(c.Part, 0)
		}
	}
	mbn, err := Build(n, d, rng)
	if err != nil {
		return nil, err
	}
	c.MB = mbn
	off := int32(k * n)
	for _, e := range mbn.Edges {
		c.Edges = append(c.Edges, Edge{From: e.From + off, To: e.To + off, Stage: e.Stage + int32(k), Colour: e.Colour, Lower: e.Lower})
		c.Part = append(c.Part, 1)
	}
	for s := 2 * k; s < 3*k; s++ {
		for q := range n {
			c.Edges = append(c.Edges, Edge{From: int32(s*n + q), To: int32((s+1)*n + q), Stage: int32(s)})
			c.Part = append(c.Part, 2)
		}
	}
	return c, nil
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
	if len(dest) != np {
		return CommState{}, fmt.Errorf("multibutterfly: %d destinations, want n(log n + 1) = %d", len(dest), np)
	}
	lo := int32(2 * net.LogN * net.N)
	seen := make(map[int32]bool, np)
	for i, d := range dest {
		if d < lo || int(d) >= net.Nodes() || seen[d] {
			return CommState{}, fmt.Errorf("multibutterfly: destination %d of packet %d is repeated or not in stages 2 log n … 3 log n", d, i)
		}
		seen[d] = true
	}
	s := CommState{Net: net, Buf: make([]int32, net.Nodes()), Dest: append([]int32(nil), dest...), Delivered: make([]bool, np)}
	for v := range s.Buf {
		s.Buf[v] = -1
	}
	for i := range dest {
		s.Buf[i] = int32(i)
	}
	return s, nil
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
	busy := make(map[int32]bool, 2*len(exchanges))
	for _, ei := range exchanges {
		if ei < 0 || int(ei) >= len(s.Net.Edges) {
			return CommState{}, fmt.Errorf("multibutterfly: edge %d out of range", ei)
		}
		e := s.Net.Edges[ei]
		if busy[e.From] || busy[e.To] {
			return CommState{}, fmt.Errorf("multibutterfly: edge %d: node with two active lines in one step", ei)
		}
		busy[e.From], busy[e.To] = true, true
		n.Buf[e.From], n.Buf[e.To] = s.Buf[e.To], s.Buf[e.From]
	}
	for _, ei := range exchanges {
		e := s.Net.Edges[ei]
		for _, v := range []int32{e.From, e.To} {
			if p := n.Buf[v]; p >= 0 && n.Dest[p] == v {
				n.Buf[v], n.Delivered[p] = -1, true
			}
		}
	}
	return n, nil
}

// CommDone reports whether every packet is delivered.
func (s CommState) CommDone() bool {
	for _, d := range s.Delivered {
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
	seen := append([]bool(nil), s.Delivered...)
	k, n := s.Net.LogN, s.Net.N
	for v, p := range s.Buf {
		if p == -1 {
			continue
		}
		if p < 0 || int(p) >= len(seen) || seen[p] {
			return fmt.Errorf("multibutterfly: node %d holds packet %d (unknown or duplicated)", v, p)
		}
		seen[p] = true
		st, q := v/n, v%n
		col := int(s.Dest[p]) % n
		if st >= k && st <= 2*k && q>>(2*k-st) != col>>(2*k-st) || st > 2*k && q != col {
			return fmt.Errorf("multibutterfly: packet %d (destination ⟨%d, %d⟩) misrouted to ⟨%d, %d⟩", p, int(s.Dest[p])/n, col, st, q)
		}
	}
	for p, ok := range seen {
		if !ok {
			return fmt.Errorf("multibutterfly: packet %d lost", p)
		}
	}
	return nil
}
