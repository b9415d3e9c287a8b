package sot

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"routecheck/models/perm"
)

// MaxN is the largest torus side NewState accepts (n² nodes, 16M at most).
const MaxN = 4096

// ErrAction is wrapped by every error Step returns for actions the hardware
// cannot perform.
var ErrAction = errors.New("sot: illegal action")

// Dir is an output link of a node.
type Dir uint8

// The two outputs: Right changes the column j, Down changes the row i.
const (
	Right Dir = iota
	Down
)

func (d Dir) String() string {
	if d == Right {
		return "right"
	}
	return "down"
}

// Flight is a packet on a link (equivalently: at the input of the node the
// link leads to, at the start of a step).
type Flight struct {
	ID   int32 // packet id (index into State.Rel); −1: the link is empty
	Born int32 // the step in which it was injected
	Defl int32 // deflections so far
}

// Empty is the content of an empty link.
var Empty = Flight{ID: -1}

// State is SOT(n) between two steps. Rel and Own are immutable and may be
// shared between states; everything else belongs to the state.
type State struct {
	N int
	// T is the number of steps done.
	T int
	// Rel is the h-relation: packet k goes from processor Rel[k].Src to
	// processor Rel[k].Dst.
	Rel []perm.Pair
	// Own lists, for every processor, the ids of the packets that start
	// there, in the order of Rel.
	Own [][]int32
	// InH[v] and InV[v] are the packets that arrived at node v over its
	// input from the left and from up in the previous step.
	InH, InV []Flight
	// Injected and Delivered are bitsets over packet ids.
	Injected, Delivered   []uint64
	NInjected, NDelivered int
}

// NewState is SOT(n) at step 0 with the h-relation rel, nothing injected.
// It returns an error for n outside [2, MaxN], a processor index outside
// [0, n), or more than MaxInt32 − 3 packets. rel is not copied (it must not
// be modified afterwards).
func NewState(n int, rel []perm.Pair) (State, error) {
	if n < 2 || n > MaxN {
		return State{}, fmt.Errorf("sot: n = %d, allowed 2 ≤ n ≤ %d", n, MaxN)
	}
	if len(rel) > math.MaxInt32-3 {
		return State{}, fmt.Errorf("sot: %d packets, at most %d allowed", len(rel), math.MaxInt32-3)
	}
	own := make([][]int32, n)
	for k, p := range rel {
		if p.Src < 0 || int(p.Src) >= n || p.Dst < 0 || int(p.Dst) >= n {
			return State{}, fmt.Errorf("sot: packet %d goes %d → %d, processors are 0…%d", k, p.Src, p.Dst, n-1)
		}
		own[p.Src] = append(own[p.Src], int32(k))
	}
	w := words(len(rel))
	s := State{N: n, Rel: rel, Own: own,
		InH: make([]Flight, n*n), InV: make([]Flight, n*n),
		Injected: make([]uint64, w), Delivered: make([]uint64, w)}
	for v := range s.InH {
		s.InH[v], s.InV[v] = Empty, Empty
	}
	return s, nil
}

func words(k int) int { return (k + 63) / 64 }

// K is the number of packets of the relation.
func (s *State) K() int { return len(s.Rel) }

// Done reports whether every packet has been delivered.
func (s *State) Done() bool { return s.NDelivered == len(s.Rel) }

// IsInjected reports whether packet id has been injected.
func (s *State) IsInjected(id int32) bool { return s.Injected[id>>6]>>(id&63)&1 == 1 }

// IsDelivered reports whether packet id has been delivered.
func (s *State) IsDelivered(id int32) bool { return s.Delivered[id>>6]>>(id&63)&1 == 1 }

// Node is the index of position (i, j).
func (s *State) Node(i, j int) int { return i*s.N + j }

// Pos is the position of node v.
func (s *State) Pos(v int) (i, j int) { return v / s.N, v % s.N }

// Proc is the processor at node v, or −1 for a deflection node.
func (s *State) Proc(v int) int {
	i, j := v/s.N, v%s.N
	if i+j == s.N-1 {
		return i
	}
	return -1
}

// ProcNode is the node of processor x: position (x, n−1−x).
func (s *State) ProcNode(x int) int { return x*s.N + s.N - 1 - x }

// Next is the node that output d of node v leads to.
func (s *State) Next(v int, d Dir) int {
	n := s.N
	i, j := v/n, v%n
	if d == Right {
		return i*n + (j+1)%n
	}
	return ((i+1)%n)*n + j
}

// Offsets are the remaining moves from node v to the position of processor
// dst: dx along Down (rows), dy along Right (columns), both in [0, n).
func (s *State) Offsets(v int, dst int32) (dx, dy int) {
	n := s.N
	i, j := v/n, v%n
	x, y := int(dst), n-1-int(dst)
	return ((x-i)%n + n) % n, ((y-j)%n + n) % n
}

// Dist is the distance from node v to processor dst: dx + dy, except that at
// dst itself (a self-addressed packet being injected) it is n.
func (s *State) Dist(v int, dst int32) int {
	dx, dy := s.Offsets(v, dst)
	if dx+dy == 0 {
		return s.N
	}
	return dx + dy
}

// Good reports which outputs of node v take a packet for dst closer: Down
// when dx > 0, Right when dy > 0, both at dst itself (see Dist).
func (s *State) Good(v int, dst int32) (right, down bool) {
	dx, dy := s.Offsets(v, dst)
	if dx+dy == 0 {
		return true, true
	}
	return dy > 0, dx > 0
}

// Slot says what leaves on one output: nothing, the packet that arrived from
// the left, the one that arrived from up, or (processors only) an own packet
// injected now. The zero Slot is None.
type Slot int32

// The fixed slots; Inject(id) makes the others.
const (
	None     Slot = 0
	FromLeft Slot = 1
	FromUp   Slot = 2
)

// Inject is the slot that injects packet id (id ≥ 0).
func Inject(id int32) Slot {
	if id < 0 {
		panic(fmt.Sprintf("sot: Inject(%d): id must be ≥ 0", id))
	}
	return Slot(id) + 3
}

// Packet returns the id an injecting slot carries.
func (x Slot) Packet() (int32, bool) {
	if x >= 3 {
		return int32(x - 3), true
	}
	return -1, false
}

func (x Slot) String() string {
	switch x {
	case None:
		return "none"
	case FromLeft:
		return "from-left"
	case FromUp:
		return "from-up"
	}
	if id, ok := x.Packet(); ok {
		return fmt.Sprintf("inject(%d)", id)
	}
	return fmt.Sprintf("Slot(%d)", int32(x))
}

// Action is what one node sends on its two outputs in a step. The zero
// Action sends nothing.
type Action struct{ Right, Down Slot }

// Out returns the slot of output d.
func (a Action) Out(d Dir) Slot {
	if d == Right {
		return a.Right
	}
	return a.Down
}

// Delivery is a packet absorbed by its target processor.
type Delivery struct {
	ID   int32
	Proc int32
	// Latency is the number of hops since injection (n when undeflected).
	Latency int32
	Defl    int32
}

// Deflection is a packet sent on a link that does not take it closer.
type Deflection struct {
	ID   int32
	Node int32 // the node it left
	// By is the packet that left the node on the other output in the same
	// step (which may have taken the deflected packet's good link), or −1.
	By int32
}

// Events is what a step produced. StepInto reuses its slices.
type Events struct {
	Delivered []Delivery
	Deflected []Deflection
	Injected  []int32
	Moves     int // link traversals
}

// Reset empties the events, keeping capacity.
func (e *Events) Reset() {
	e.Delivered, e.Deflected, e.Injected, e.Moves = e.Delivered[:0], e.Deflected[:0], e.Injected[:0], 0
}

func actErr(s *State, v int, format string, args ...any) error {
	i, j := s.Pos(v)
	who := fmt.Sprintf("deflection node R(%d,%d)", i, j)
	if x := s.Proc(v); x >= 0 {
		who = fmt.Sprintf("processor P%d at (%d,%d)", x, i, j)
	}
	return fmt.Errorf("%w: %s: %s", ErrAction, who, fmt.Sprintf(format, args...))
}

// check validates the action of node v.
func (s *State) check(v int, a Action) error {
	hasL, hasU := s.InH[v].ID >= 0, s.InV[v].ID >= 0
	usedL, usedU, inj := 0, 0, 0
	var ids [2]int32
	for d, x := range [2]Slot{a.Right, a.Down} {
		switch x {
		case None:
		case FromLeft:
			if !hasL {
				return actErr(s, v, "sends %v the packet from the left, but none arrived", Dir(d))
			}
			usedL++
		case FromUp:
			if !hasU {
				return actErr(s, v, "sends %v the packet from up, but none arrived", Dir(d))
			}
			usedU++
		default:
			id, ok := x.Packet()
			if !ok {
				return actErr(s, v, "output %v: unknown slot %d", Dir(d), int32(x))
			}
			p := s.Proc(v)
			if p < 0 {
				return actErr(s, v, "a deflection node cannot inject (packet %d on output %v)", id, Dir(d))
			}
			if int(id) >= len(s.Rel) {
				return actErr(s, v, "injects packet %d, but there are %d packets", id, len(s.Rel))
			}
			if int(s.Rel[id].Src) != p {
				return actErr(s, v, "injects packet %d, which starts at P%d", id, s.Rel[id].Src)
			}
			if s.IsInjected(id) {
				return actErr(s, v, "injects packet %d, which was injected before", id)
			}
			ids[inj] = id
			inj++
		}
	}
	switch {
	case usedL > 1:
		return actErr(s, v, "duplicates the packet from the left on both outputs")
	case usedU > 1:
		return actErr(s, v, "duplicates the packet from up on both outputs")
	case inj == 2 && ids[0] == ids[1]:
		return actErr(s, v, "injects packet %d on both outputs", ids[0])
	}
	passing := 0
	if hasL {
		passing++
	}
	if hasU {
		passing++
	}
	if inj > 0 && inj+passing > 2 {
		return actErr(s, v, "injects %d packets while %d pass through (at most 2 − %d)", inj, passing, passing)
	}
	if hasL && usedL == 0 {
		return actErr(s, v, "keeps the packet from the left (hot potato: it must leave)")
	}
	if hasU && usedU == 0 {
		return actErr(s, v, "keeps the packet from up (hot potato: it must leave)")
	}
	return nil
}

// Step performs one step: every node sends what its action says, packets
// reaching their target processor are absorbed, the others wait at the next
// node's input. It returns the next state and the step's events, or an error
// wrapping ErrAction (and no state) when some action is impossible. s is
// never modified. a has one Action per node (index i·n + j). Cost O(n² + K/64).
func Step(s State, a []Action) (State, Events, error) {
	var next State
	var ev Events
	if err := StepInto(&next, &s, a, &ev); err != nil {
		return State{}, Events{}, err
	}
	return next, ev, nil
}

// StepInto is Step writing the next state into dst (reusing its buffers) and
// the events into ev (reset first). dst must not be s (it panics). On error
// dst and ev are left unchanged.
func StepInto(dst *State, s *State, a []Action, ev *Events) error {
	if dst == s {
		panic("sot: StepInto: dst and s are the same state")
	}
	n := s.N
	if len(a) != n*n {
		return fmt.Errorf("%w: %d actions for %d nodes", ErrAction, len(a), n*n)
	}
	for v := range a {
		if a[v] == (Action{}) && s.InH[v].ID < 0 && s.InV[v].ID < 0 {
			continue
		}
		if err := s.check(v, a[v]); err != nil {
			return err
		}
	}
	ev.Reset()
	dst.N, dst.T, dst.Rel, dst.Own = n, s.T+1, s.Rel, s.Own
	dst.InH = resize(dst.InH, n*n)
	dst.InV = resize(dst.InV, n*n)
	for v := range dst.InH {
		dst.InH[v], dst.InV[v] = Empty, Empty
	}
	dst.Injected = append(dst.Injected[:0], s.Injected...)
	dst.Delivered = append(dst.Delivered[:0], s.Delivered...)
	dst.NInjected, dst.NDelivered = s.NInjected, s.NDelivered
	for v, act := range a {
		if act == (Action{}) {
			continue
		}
		var out [2]Flight
		for d, x := range [2]Slot{act.Right, act.Down} {
			switch x {
			case None:
				out[d] = Empty
			case FromLeft:
				out[d] = s.InH[v]
			case FromUp:
				out[d] = s.InV[v]
			default:
				id, _ := x.Packet()
				out[d] = Flight{ID: id, Born: int32(s.T)}
				dst.Injected[id>>6] |= 1 << (id & 63)
				dst.NInjected++
				ev.Injected = append(ev.Injected, id)
			}
		}
		for d := range 2 {
			f := out[d]
			if f.ID < 0 {
				continue
			}
			pk := s.Rel[f.ID]
			gr, gd := s.Good(v, pk.Dst)
			if (Dir(d) == Right && !gr) || (Dir(d) == Down && !gd) {
				f.Defl++
				ev.Deflected = append(ev.Deflected, Deflection{ID: f.ID, Node: int32(v), By: out[1-d].ID})
			}
			ev.Moves++
			w := s.Next(v, Dir(d))
			if s.Proc(w) == int(pk.Dst) {
				dst.Delivered[f.ID>>6] |= 1 << (f.ID & 63)
				dst.NDelivered++
				ev.Delivered = append(ev.Delivered, Delivery{ID: f.ID, Proc: pk.Dst, Latency: int32(s.T) + 1 - f.Born, Defl: f.Defl})
				continue
			}
			if Dir(d) == Right {
				dst.InH[w] = f
			} else {
				dst.InV[w] = f
			}
		}
	}
	return nil
}

func resize(b []Flight, m int) []Flight {
	if cap(b) < m {
		return make([]Flight, m)
	}
	return b[:m]
}

// Clone returns a deep copy (Rel and Own, being immutable, are shared).
func (s State) Clone() State {
	c := s
	c.InH, c.InV = slices.Clone(s.InH), slices.Clone(s.InV)
	c.Injected, c.Delivered = slices.Clone(s.Injected), slices.Clone(s.Delivered)
	return c
}

// Equal reports whether two states are the same (Rel compared by content).
func (s State) Equal(t State) bool {
	return s.N == t.N && s.T == t.T && s.NInjected == t.NInjected && s.NDelivered == t.NDelivered &&
		slices.Equal(s.Rel, t.Rel) && slices.Equal(s.InH, t.InH) && slices.Equal(s.InV, t.InV) &&
		slices.Equal(s.Injected, t.Injected) && slices.Equal(s.Delivered, t.Delivered)
}

// InFlight returns the number of packets on links.
func (s *State) InFlight() int {
	k := 0
	for v := range s.InH {
		if s.InH[v].ID >= 0 {
			k++
		}
		if s.InV[v].ID >= 0 {
			k++
		}
	}
	return k
}

// CheckInvariants verifies a state from scratch: shapes; Own lists the
// packets of each source in order; every packet is exactly one of pending
// (not injected), on exactly one link, or delivered (conservation); counts
// match the bitsets; no packet waits at its own target processor; and every
// packet on a link satisfies the hop invariants of the torus: injected at
// step τ < T, it is on the anti-diagonal i + j ≡ n − 1 + (T − τ) (mod n)
// and at distance n·(1 + deflections) − (T − τ) from its target.
func CheckInvariants(s State) error {
	n := s.N
	if n < 2 || n > MaxN {
		return fmt.Errorf("sot: n = %d out of range", n)
	}
	K := len(s.Rel)
	if len(s.InH) != n*n || len(s.InV) != n*n || len(s.Own) != n ||
		len(s.Injected) != words(K) || len(s.Delivered) != words(K) {
		return fmt.Errorf("sot: state shapes do not match n = %d, %d packets", n, K)
	}
	seen := 0
	for x, ids := range s.Own {
		for k, id := range ids {
			if id < 0 || int(id) >= K || int(s.Rel[id].Src) != x || (k > 0 && ids[k-1] >= id) {
				return fmt.Errorf("sot: Own[%d][%d] = %d is not the next packet of P%d", x, k, id, x)
			}
		}
		seen += len(ids)
	}
	if seen != K {
		return fmt.Errorf("sot: Own lists %d packets, the relation has %d", seen, K)
	}
	if tail := K % 64; tail != 0 && len(s.Injected) > 0 {
		if s.Injected[len(s.Injected)-1]>>tail != 0 || s.Delivered[len(s.Delivered)-1]>>tail != 0 {
			return fmt.Errorf("sot: bits set beyond packet %d", K-1)
		}
	}
	ni, nd := 0, 0
	for w := range s.Injected {
		if s.Delivered[w]&^s.Injected[w] != 0 {
			return fmt.Errorf("sot: a packet in word %d is delivered but never injected", w)
		}
		ni += bits.OnesCount64(s.Injected[w])
		nd += bits.OnesCount64(s.Delivered[w])
	}
	if ni != s.NInjected || nd != s.NDelivered {
		return fmt.Errorf("sot: counts say %d injected, %d delivered; bitsets say %d, %d", s.NInjected, s.NDelivered, ni, nd)
	}
	onLink := make([]uint64, words(K))
	flights := 0
	for v := range s.InH {
		i, j := v/n, v%n
		for _, f := range [2]Flight{s.InH[v], s.InV[v]} {
			if f.ID == -1 {
				continue
			}
			if f.ID < 0 || int(f.ID) >= K {
				return fmt.Errorf("sot: node (%d,%d) holds packet id %d of %d", i, j, f.ID, K)
			}
			if onLink[f.ID>>6]>>(f.ID&63)&1 == 1 {
				return fmt.Errorf("sot: packet %d is on two links (duplicated)", f.ID)
			}
			onLink[f.ID>>6] |= 1 << (f.ID & 63)
			flights++
			if !s.IsInjected(f.ID) || s.IsDelivered(f.ID) {
				return fmt.Errorf("sot: packet %d is on a link but injected=%v delivered=%v", f.ID, s.IsInjected(f.ID), s.IsDelivered(f.ID))
			}
			dstP := s.Rel[f.ID].Dst
			if s.Proc(v) == int(dstP) {
				return fmt.Errorf("sot: packet %d waits at its target P%d instead of being absorbed", f.ID, dstP)
			}
			hops := s.T - int(f.Born)
			if f.Born < 0 || hops < 1 || f.Defl < 0 {
				return fmt.Errorf("sot: packet %d at step %d: born %d, deflections %d", f.ID, s.T, f.Born, f.Defl)
			}
			if ((i+j-(n-1)-hops)%n+n)%n != 0 {
				return fmt.Errorf("sot: packet %d at (%d,%d) after %d hops is off its anti-diagonal", f.ID, i, j, hops)
			}
			if d, want := s.Dist(v, dstP), n*(1+int(f.Defl))-hops; d != want {
				return fmt.Errorf("sot: packet %d at (%d,%d): distance %d, but n·(1+%d deflections) − %d hops = %d", f.ID, i, j, d, f.Defl, hops, want)
			}
		}
	}
	if flights != ni-nd {
		return fmt.Errorf("sot: %d packets on links, but %d injected − %d delivered = %d (lost)", flights, ni, nd, ni-nd)
	}
	return nil
}
