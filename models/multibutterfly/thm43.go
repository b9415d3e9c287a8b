package multibutterfly

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/bipartite"
	"routecheck/models/expander"
)

// Thm43Network is the 3N-node network of Theorem 4.3's proof in
// 004_8aa7b4c265a7324b.txt, before its degree reduction: "a network that
// consists of 3 log n + 4d log 2d + 1 stages, each stage with n
// processors. The first log n + 2d log 2d + 1 stages are connected to each
// other by identical (α, β, n, d)-expanders. The next log n + 1 stages
// perform a Multi-Butterfly network, and the last log n + 2d log 2d + 1
// stages are connected only by direct edges." As in §4.1, a boundary stage
// belongs to both parts it joins, so with P = log n + 2d log 2d:
//   - stages 0 … P: P copies of one random d-regular bipartite multigraph
//     (König-coloured, colours 0 … d−1), Part 0;
//   - stages P … P + log n: a multi-butterfly whose splitters are identical
//     within each level (one NewSplitter per level, as the proof's use of
//     Theorem 4.2 needs "d identical isolated patterns"), Part 1;
//   - stages P + log n … 2P + log n: direct edges ⟨s, q⟩ → ⟨s+1, q⟩, Part 2.
//
// Node ⟨s, q⟩ has index s·n + q. N = n(P + 1) packets start one per node of
// stages 0 … P and go one per node to stages P + log n … 2P + log n.
type Thm43Network struct {
	N, LogN, D int
	// P = log n + 2d log 2d: the expander part's layers (and the direct
	// part's).
	P     int
	MB    *Network
	Edges []Edge
	Part  []int8
}

// Stages returns 2P + log n + 1 = 3 log n + 4d log 2d + 1.
func (t *Thm43Network) Stages() int { return 2*t.P + t.LogN + 1 }

// Nodes returns n times Stages().
func (t *Thm43Network) Nodes() int { return t.N * t.Stages() }

// FirstDirect returns P + log n, the first stage of the direct part.
func (t *Thm43Network) FirstDirect() int { return t.P + t.LogN }

// BuildThm43 builds the network for n (a power of two in [2, 2^10]) and
// d (a power of two in [2, 16], as §4.4 assumes).
func BuildThm43(n, d int, rng *rand.Rand) (*Thm43Network, error) {
	if n < 2 || n&(n-1) != 0 || n > 1<<10 {
		return nil, fmt.Errorf("multibutterfly: n = %d: must be a power of two in [2, 2^10]", n)
	}
	if d < 2 || d&(d-1) != 0 || d > 16 {
		return nil, fmt.Errorf("multibutterfly: d = %d: must be a power of two in [2, 16]", d)
	}
	k := bits.Len(uint(n)) - 1
	l2d := bits.Len(uint(2*d)) - 1
	t := &Thm43Network{N: n, LogN: k, D: d, P: k + 2*d*l2d}
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
	for s := range t.P {
		for i, e := range mg.Edges {
			t.Edges = append(t.Edges, Edge{From: int32(s*n) + e.U, To: int32((s+1)*n) + e.V, Stage: int32(s), Colour: col[i]})
			t.Part = append(t.Part, 0)
		}
	}
	sp := make([][]expander.Splitter, k)
	for s := range k {
		x := expander.NewSplitter(n>>s, d, rng)
		sp[s] = make([]expander.Splitter, 1<<s)
		for j := range sp[s] {
			sp[s][j] = x
		}
	}
	mbn, err := FromSplitters(n, d, sp)
	if err != nil {
		return nil, err
	}
	t.MB = mbn
	off := int32(t.P * n)
	for _, e := range mbn.Edges {
		t.Edges = append(t.Edges, Edge{From: e.From + off, To: e.To + off, Stage: e.Stage + int32(t.P), Colour: e.Colour, Lower: e.Lower})
		t.Part = append(t.Part, 1)
	}
	for s := t.FirstDirect(); s < t.Stages()-1; s++ {
		for q := range n {
			t.Edges = append(t.Edges, Edge{From: int32(s*n + q), To: int32((s+1)*n + q), Stage: int32(s)})
			t.Part = append(t.Part, 2)
		}
	}
	return t, nil
}

// Thm43State is the network's contents, as CommState: Buf[v] the packet in
// node v's one buffer (−1 empty), Dest[p] packet p's destination node; a
// packet arriving at its destination is absorbed (Delivered).
type Thm43State struct {
	Net       *Thm43Network
	Buf, Dest []int32
	Delivered []bool
}

// InitThm43 places packet i at node i (stages 0 … P) with destination
// dest[i], a bijection onto the nodes of stages FirstDirect() … the last.
func InitThm43(t *Thm43Network, dest []int32) (Thm43State, error) {
	np := t.N * (t.P + 1)
	if len(dest) != np {
		return Thm43State{}, fmt.Errorf("multibutterfly: %d destinations, want n(P + 1) = %d", len(dest), np)
	}
	lo := int32(t.FirstDirect() * t.N)
	seen := make(map[int32]bool, np)
	for i, d := range dest {
		if d < lo || int(d) >= t.Nodes() || seen[d] {
			return Thm43State{}, fmt.Errorf("multibutterfly: destination %d of packet %d is repeated or not in the direct part", d, i)
		}
		seen[d] = true
	}
	s := Thm43State{Net: t, Buf: make([]int32, t.Nodes()), Dest: append([]int32(nil), dest...), Delivered: make([]bool, np)}
	for v := range s.Buf {
		s.Buf[v] = -1
	}
	for i := range dest {
		s.Buf[i] = int32(i)
	}
	return s, nil
}

// StepThm43Into swaps the buffers of the two ends of every listed edge
// (one active line per node, as StepComm) into dst, absorbing packets that
// reach their destinations. It does not modify s.
func StepThm43Into(dst *Thm43State, s Thm43State, exchanges []int32) error {
	dst.Net = s.Net
	dst.Buf = append(dst.Buf[:0], s.Buf...)
	dst.Dest = append(dst.Dest[:0], s.Dest...)
	dst.Delivered = append(dst.Delivered[:0], s.Delivered...)
	busy := make(map[int32]bool, 2*len(exchanges))
	for _, ei := range exchanges {
		if ei < 0 || int(ei) >= len(s.Net.Edges) {
			return fmt.Errorf("multibutterfly: edge %d out of range", ei)
		}
		e := s.Net.Edges[ei]
		if busy[e.From] || busy[e.To] {
			return fmt.Errorf("multibutterfly: edge %d: node with two active lines in one step", ei)
		}
		busy[e.From], busy[e.To] = true, true
		dst.Buf[e.From], dst.Buf[e.To] = s.Buf[e.To], s.Buf[e.From]
	}
	for _, ei := range exchanges {
		e := s.Net.Edges[ei]
		for _, v := range []int32{e.From, e.To} {
			if p := dst.Buf[v]; p >= 0 && dst.Dest[p] == v {
				dst.Buf[v], dst.Delivered[p] = -1, true
			}
		}
	}
	return nil
}

// Done reports whether every packet is delivered.
func (s Thm43State) Done() bool {
	for _, d := range s.Delivered {
		if !d {
			return false
		}
	}
	return true
}

// CheckThm43 validates conservation (every packet delivered or in exactly
// one buffer) and that every packet in the multi-butterfly or direct part
// is on the route to its destination column.
func CheckThm43(s Thm43State) error {
	t := s.Net
	seen := append([]bool(nil), s.Delivered...)
	for v, p := range s.Buf {
		if p == -1 {
			continue
		}
		if p < 0 || int(p) >= len(seen) || seen[p] {
			return fmt.Errorf("multibutterfly: node %d holds packet %d (unknown or duplicated)", v, p)
		}
		seen[p] = true
		st, q := v/t.N, v%t.N
		col := int(s.Dest[p]) % t.N
		if st >= t.P && st <= t.FirstDirect() {
			sh := t.FirstDirect() - st
			if q>>sh != col>>sh {
				return fmt.Errorf("multibutterfly: packet %d (column %d) misrouted to ⟨%d, %d⟩", p, col, st, q)
			}
		} else if st > t.FirstDirect() && q != col {
			return fmt.Errorf("multibutterfly: packet %d (column %d) misrouted to ⟨%d, %d⟩", p, col, st, q)
		}
	}
	for p, ok := range seen {
		if !ok {
			return fmt.Errorf("multibutterfly: packet %d lost", p)
		}
	}
	return nil
}
