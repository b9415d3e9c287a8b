package multibutterfly

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

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
	// One graph, coloured once, for all P stages: "identical" expanders.
	x, err := randomLayer(n, d, rng)
	if err != nil {
		return nil, err
	}
	layers := slices.Repeat([]expanderLayer{x}, t.P)
	sp := make([][]expander.Splitter, k)
	for s := range k {
		sp[s] = slices.Repeat([]expander.Splitter{expander.NewSplitter(n>>s, d, rng)}, 1<<s)
	}
	mbn, err := FromSplitters(n, d, sp)
	if err != nil {
		return nil, err
	}
	t.MB = mbn
	t.Edges, t.Part = threeParts(n, layers, mbn, t.P)
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
	buf, err := initBuffers(t.Nodes(), t.FirstDirect()*t.N, dest, np, "n(P + 1)", "the direct part")
	if err != nil {
		return Thm43State{}, err
	}
	return Thm43State{Net: t, Buf: buf, Dest: append([]int32(nil), dest...), Delivered: make([]bool, np)}, nil
}

// StepThm43Into swaps the buffers of the two ends of every listed edge
// (one active line per node, as StepComm) into dst, absorbing packets that
// reach their destinations. It does not modify s.
func StepThm43Into(dst *Thm43State, s Thm43State, exchanges []int32) error {
	dst.Net = s.Net
	dst.Buf = append(dst.Buf[:0], s.Buf...)
	dst.Dest = append(dst.Dest[:0], s.Dest...)
	dst.Delivered = append(dst.Delivered[:0], s.Delivered...)
	if err := exchange(dst.Buf, s.Buf, s.Net.Edges, exchanges); err != nil {
		return err
	}
	absorb(dst.Buf, dst.Dest, dst.Delivered, s.Net.Edges, exchanges)
	return nil
}

// Done reports whether every packet is delivered.
func (s Thm43State) Done() bool { return allDelivered(s.Delivered) }

// CheckThm43 validates conservation (every packet delivered or in exactly
// one buffer) and that every packet in the multi-butterfly or direct part
// is on the route to its destination column.
func CheckThm43(s Thm43State) error {
	t := s.Net
	return checkBuffers(s.Buf, s.Dest, s.Delivered, t.N, t.P, t.FirstDirect(), func(p int32, st, q int) error {
		return fmt.Errorf("multibutterfly: packet %d (column %d) misrouted to ⟨%d, %d⟩", p, int(s.Dest[p])%t.N, st, q)
	})
}
