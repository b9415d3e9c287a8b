package butterfly

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Mode is the node model.
type Mode uint8

// The node models (see the package comment).
const (
	NodeQueue Mode = iota // §2: one queue per node, one packet forwarded per node per step
	Buffered              // §4.1: input buffers of size one, a queue per outgoing link
)

func (m Mode) String() string {
	switch m {
	case NodeQueue:
		return "node-queue"
	case Buffered:
		return "buffered"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// MaxLogN bounds n so rows fit int32 and the state fits memory.
const MaxLogN = 20

// Shape is a network: N = 2^LogN inputs, R extra stages (0 ≤ R ≤ LogN).
type Shape struct {
	LogN, R       int
	Mode          Mode
	StrictBuffers bool // Buffered only: a buffer must be empty at the start of a step to accept
}

// Validate reports a parameter outside the allowed ranges.
func (sh Shape) Validate() error {
	switch {
	case sh.LogN < 1 || sh.LogN > MaxLogN:
		return fmt.Errorf("butterfly: log N = %d, allowed 1 ≤ log N ≤ %d", sh.LogN, MaxLogN)
	case sh.R < 0 || sh.R > sh.LogN:
		return fmt.Errorf("butterfly: r = %d extra stages, allowed 0 ≤ r ≤ log N = %d (the extra stages repeat the first r)", sh.R, sh.LogN)
	case sh.Mode != NodeQueue && sh.Mode != Buffered:
		return fmt.Errorf("butterfly: mode %d, allowed node-queue or buffered", sh.Mode)
	case sh.StrictBuffers && sh.Mode != Buffered:
		return fmt.Errorf("butterfly: strict buffers need the buffered mode")
	}
	return nil
}

// N is the number of inputs 2^LogN.
func (sh Shape) N() int { return 1 << sh.LogN }

// Stages is the number of the last stage, n + r (the path length).
func (sh Shape) Stages() int { return sh.LogN + sh.R }

// Dim is the bit (1 = most significant) a link into stage s may flip,
// ((s−1) mod n) + 1, for 1 ≤ s ≤ n + r.
func (sh Shape) Dim(s int) int { return (s-1)%sh.LogN + 1 }

// Mask is the row bit of Dim(s).
func (sh Shape) Mask(s int) int32 { return 1 << (sh.LogN - sh.Dim(s)) }

// Queues per node: 1 (NodeQueue) or 2 (Buffered: 0 straight, 1 cross).
func (sh Shape) Queues() int {
	if sh.Mode == Buffered {
		return 2
	}
	return 1
}

// Packet is a packet: id (unique in a run), source input, destination
// output, X the r random bits x_1…x_r (x_1 the most significant of X),
// Perm its permutation ℓ ≥ 1 in a pipelined sequence, and Key an ordering
// key the router may use (the model ignores Perm and Key).
type Packet struct {
	ID       int32
	Src, Dst int32
	X        int32
	Perm     int32
	Key      uint64
}

// top is the mask of bits 1…k of an n-bit row.
func top(n, k int) int32 { return int32(((1 << k) - 1) << (n - k)) }

// RowAt is the row of p's node at stage s (0 ≤ s ≤ n + r): §3's path
// (0,(a_1…a_n)), (1,(x_1,a_2…a_n)), …, (r,(x_1…x_r,a_{r+1}…a_n)),
// (r+1,(x_1…x_r,b_{r+1},a_{r+2}…)), …, (n,(x_1…x_r,b_{r+1}…b_n)),
// (n+1,(b_1,x_2…x_r,b_{r+1}…b_n)), …, (n+r,(b_1…b_n)).
func (sh Shape) RowAt(p Packet, s int) int32 {
	n, r := sh.LogN, sh.R
	xr := p.X << (n - r)
	switch {
	case s <= r:
		return xr&top(n, s) | p.Src&^top(n, s)
	case s <= n:
		return xr&top(n, r) | p.Dst&top(n, s)&^top(n, r) | p.Src&^top(n, s)
	}
	j := s - n
	return p.Dst&top(n, j) | xr&top(n, r)&^top(n, j) | p.Dst&^top(n, r)
}

// Link is the outgoing link p takes from stage s: 0 straight, 1 cross.
func (sh Shape) Link(p Packet, s int) int {
	if sh.RowAt(p, s) == sh.RowAt(p, s+1) {
		return 0
	}
	return 1
}

// State is the network between steps.
type State struct {
	Shape
	// Queues[(s·N + row)·Queues() + q] for stages s < n + r.
	Queues [][]Packet
	// Buffered mode: Buf[(s·N + row)·2 + in] is the buffer of the incoming
	// link in (0 straight, 1 cross) of node (s, row), for 1 ≤ s < n + r;
	// Full says whether it holds a packet.
	Buf  []Packet
	Full []bool
	// Step counts steps; Delivered counts delivered packets.
	Step      int
	Delivered int
}

// New places the packets at their inputs: in the queue of node (0, src)
// (NodeQueue) or of its first link (Buffered), in the order given.
func New(sh Shape, packets []Packet) (State, error) {
	if err := sh.Validate(); err != nil {
		return State{}, err
	}
	N, S := sh.N(), sh.Stages()
	st := State{Shape: sh, Queues: make([][]Packet, S*N*sh.Queues())}
	if sh.Mode == Buffered {
		st.Buf = make([]Packet, S*N*2)
		st.Full = make([]bool, S*N*2)
	}
	ids := map[int32]bool{}
	for _, p := range packets {
		switch {
		case p.Src < 0 || int(p.Src) >= N || p.Dst < 0 || int(p.Dst) >= N:
			return State{}, fmt.Errorf("butterfly: packet %d goes %d → %d, allowed rows [0, %d)", p.ID, p.Src, p.Dst, N)
		case p.X < 0 || p.X >= 1<<sh.R:
			return State{}, fmt.Errorf("butterfly: packet %d has X = %d, allowed [0, 2^r = %d)", p.ID, p.X, 1<<sh.R)
		case ids[p.ID]:
			return State{}, fmt.Errorf("butterfly: packet id %d used twice", p.ID)
		}
		ids[p.ID] = true
		i := st.qi(0, p.Src, sh.Link(p, 0))
		st.Queues[i] = append(st.Queues[i], p)
	}
	return st, nil
}

// qi is the index of the queue of node (s, row) that a packet leaving by
// link l is in.
func (st State) qi(s int, row int32, l int) int {
	i := s*st.N() + int(row)
	if st.Mode == Buffered {
		return 2*i + l
	}
	return i
}

// Node returns the stage and row of a queue index, and its link (Buffered)
// or −1 (NodeQueue).
func (st State) Node(qi int) (s int, row int32, link int) {
	link = -1
	if st.Mode == Buffered {
		link = qi % 2
		qi /= 2
	}
	return qi / st.N(), int32(qi % st.N()), link
}

// Clone returns a deep copy.
func (st State) Clone() State {
	c := st
	c.Queues = make([][]Packet, len(st.Queues))
	for i, q := range st.Queues {
		c.Queues[i] = slices.Clone(q)
	}
	c.Buf, c.Full = slices.Clone(st.Buf), slices.Clone(st.Full)
	return c
}

// InFlight is the number of packets not yet delivered.
func (st State) InFlight() int {
	k := 0
	for _, q := range st.Queues {
		k += len(q)
	}
	for _, f := range st.Full {
		if f {
			k++
		}
	}
	return k
}

// Send moves the packet at Index of queue Queue (an index into
// State.Queues) over its next link.
type Send struct {
	Queue int32
	Index int32
}

// ErrAction is wrapped by every error Step returns for an action the
// hardware cannot perform.
var ErrAction = errors.New("butterfly: illegal action")

// Delivery is a packet reaching its output.
type Delivery struct {
	ID  int32
	Row int32 // the output it reached
}

// Events is what a step produced.
type Events struct {
	Moves     int        // link traversals
	Delivered []Delivery // in order of the sending queue
	MaxQueue  int        // the longest queue after the step
}

// Step performs one step: every send crosses its link at once. In
// NodeQueue mode the packet joins the queue of the node it reaches; in
// Buffered mode every buffered packet first moves to the queue of its
// outgoing link (in the order node, then incoming link straight before
// cross) and the sent packets land in the buffers. A packet reaching stage
// n + r is delivered. Queue appends follow the sending queue's index, so
// the result does not depend on the order of a. st is not modified.
func Step(st State, a []Send) (State, Events, error) {
	if err := st.legal(a); err != nil {
		return State{}, Events{}, err
	}
	N, S := st.N(), st.Stages()
	sends := slices.Clone(a)
	slices.SortFunc(sends, func(x, y Send) int { return cmp.Compare(x.Queue, y.Queue) })
	next := st.Clone()
	next.Step++
	var ev Events
	moving := make([]Packet, len(sends))
	for k, x := range sends {
		moving[k] = st.Queues[x.Queue][x.Index]
	}
	// Remove the sent packets (indices from the end of each queue).
	for k := len(sends) - 1; k >= 0; k-- {
		q := sends[k].Queue
		next.Queues[q] = slices.Delete(next.Queues[q], int(sends[k].Index), int(sends[k].Index)+1)
	}
	if st.Mode == Buffered {
		for b, full := range st.Full {
			if !full {
				continue
			}
			p := st.Buf[b]
			s, row := b/2/N, int32(b/2%N)
			i := next.qi(s, row, st.Link(p, s))
			next.Queues[i] = append(next.Queues[i], p)
			next.Full[b] = false
		}
	}
	for k, x := range sends {
		p := moving[k]
		s, row, _ := st.Node(int(x.Queue))
		to := st.RowAt(p, s+1)
		ev.Moves++
		if s+1 == S {
			ev.Delivered = append(ev.Delivered, Delivery{ID: p.ID, Row: to})
			next.Delivered++
			continue
		}
		if st.Mode == NodeQueue {
			i := next.qi(s+1, to, 0)
			next.Queues[i] = append(next.Queues[i], p)
			continue
		}
		in := 0
		if to != row {
			in = 1
		}
		b := 2*((s+1)*N+int(to)) + in
		if next.Full[b] {
			panic("butterfly: two packets in one buffer") // one link, one packet: impossible after legal()
		}
		next.Buf[b], next.Full[b] = p, true
	}
	for _, q := range next.Queues {
		ev.MaxQueue = max(ev.MaxQueue, len(q))
	}
	return next, ev, nil
}

// legal checks the actions: indices in range, at most one send per queue
// (one per node in NodeQueue mode, one per link in Buffered mode, where the
// packet must be in the queue of the link it takes), and under
// StrictBuffers no send into a buffer full at the start of the step.
func (st State) legal(a []Send) error {
	used := map[int32]bool{}
	N := st.N()
	for _, x := range a {
		if x.Queue < 0 || int(x.Queue) >= len(st.Queues) {
			return fmt.Errorf("%w: queue %d, allowed [0, %d)", ErrAction, x.Queue, len(st.Queues))
		}
		q := st.Queues[x.Queue]
		s, row, link := st.Node(int(x.Queue))
		if x.Index < 0 || int(x.Index) >= len(q) {
			return fmt.Errorf("%w: node (%d, %d) sends index %d of a queue of %d", ErrAction, s, row, x.Index, len(q))
		}
		if used[x.Queue] {
			if st.Mode == NodeQueue {
				return fmt.Errorf("%w: node (%d, %d) forwards two packets in one step", ErrAction, s, row)
			}
			return fmt.Errorf("%w: two packets on link %d of node (%d, %d) in one step", ErrAction, link, s, row)
		}
		used[x.Queue] = true
		p := q[x.Index]
		if st.Mode == Buffered {
			if l := st.Link(p, s); l != link {
				return fmt.Errorf("%w: packet %d in the queue of link %d of node (%d, %d) takes link %d", ErrAction, p.ID, link, s, row, l)
			}
			if st.StrictBuffers && s+1 < st.Stages() {
				to := st.RowAt(p, s+1)
				in := 0
				if to != row {
					in = 1
				}
				if st.Full[2*((s+1)*N+int(to))+in] {
					return fmt.Errorf("%w: link %d of node (%d, %d) sends into the occupied buffer of node (%d, %d)", ErrAction, link, s, row, s+1, to)
				}
			}
		}
	}
	return nil
}

// CheckInvariants verifies that every packet is where its path says (node
// row = RowAt at the node's stage; in Buffered mode in the queue of the link
// it takes next, and in the buffer of the link it came by), that no id
// appears twice, and that in-flight plus delivered packets number total.
func CheckInvariants(st State, total int) error {
	N := st.N()
	seen := map[int32]bool{}
	see := func(p Packet) error {
		if seen[p.ID] {
			return fmt.Errorf("butterfly: packet %d appears twice", p.ID)
		}
		seen[p.ID] = true
		return nil
	}
	for i, q := range st.Queues {
		s, row, link := st.Node(i)
		for _, p := range q {
			if err := see(p); err != nil {
				return err
			}
			if got := st.RowAt(p, s); got != row {
				return fmt.Errorf("butterfly: packet %d is at (%d, %d), its path is at row %d", p.ID, s, row, got)
			}
			if link >= 0 && st.Link(p, s) != link {
				return fmt.Errorf("butterfly: packet %d is in the queue of link %d of (%d, %d), its path takes the other", p.ID, link, s, row)
			}
		}
	}
	for b, full := range st.Full {
		if !full {
			continue
		}
		p := st.Buf[b]
		if err := see(p); err != nil {
			return err
		}
		s, row, in := b/2/N, int32(b/2%N), b%2
		if s == 0 || st.RowAt(p, s) != row || (st.RowAt(p, s-1) != row) != (in == 1) {
			return fmt.Errorf("butterfly: packet %d is in buffer %d of (%d, %d), off its path", p.ID, in, s, row)
		}
	}
	if len(seen)+st.Delivered != total {
		return fmt.Errorf("butterfly: %d in flight + %d delivered ≠ %d packets", len(seen), st.Delivered, total)
	}
	return nil
}
