package pops

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"routecheck/models/perm"
)

// MaxN is the largest network the model types can index (int32 packet ids).
const MaxN = math.MaxInt32

// Shape is a POPS(d, g) network: g groups of d processors.
type Shape struct{ D, G int }

// NewShape validates d and g: both at least 1 and d·g ≤ MaxN.
func NewShape(d, g int) (Shape, error) {
	if d < 1 {
		return Shape{}, fmt.Errorf("d = %d: d (processors per group) must be ≥ 1", d)
	}
	if g < 1 {
		return Shape{}, fmt.Errorf("g = %d: g (number of groups) must be ≥ 1", g)
	}
	if int64(d)*int64(g) > MaxN {
		return Shape{}, fmt.Errorf("d·g = %d: n must be ≤ %d", int64(d)*int64(g), MaxN)
	}
	return Shape{D: d, G: g}, nil
}

// N is the number of processors d·g.
func (s Shape) N() int { return s.D * s.G }

// Group is ⌊i/d⌋.
func (s Shape) Group(i int) int { return i / s.D }

func (s Shape) String() string { return fmt.Sprintf("POPS(%d,%d)", s.D, s.G) }

// Coupler c(To, From) carries messages from group From to group To.
type Coupler struct{ To, From int32 }

func (c Coupler) String() string { return fmt.Sprintf("c(%d,%d)", c.To, c.From) }

// ItemKind says why a processor stores a packet.
type ItemKind uint8

const (
	// Original is the packet at its source processor.
	Original ItemKind = iota + 1
	// Copy is a replica travelling towards its destination.
	Copy
	// Delivered is the packet stored at its destination.
	Delivered
)

func (k ItemKind) String() string {
	switch k {
	case Original:
		return "original"
	case Copy:
		return "copy"
	case Delivered:
		return "delivered"
	}
	return fmt.Sprintf("ItemKind(%d)", k)
}

// Item is one packet held in a processor's memory.
type Item struct {
	Packet int32
	Kind   ItemKind
}

// MsgKind distinguishes payload messages from header-only ones.
type MsgKind uint8

const (
	// NoMsg is the zero value: nothing sent.
	NoMsg MsgKind = iota
	// PacketMsg carries a packet (its id names source and destination).
	PacketMsg
	// AckMsg is a header-only message naming a packet.
	AckMsg
)

// Message is what travels over a coupler.
type Message struct {
	Kind   MsgKind
	Packet int32
}

// Keep says which received packet messages a listener stores.
type Keep uint8

const (
	// KeepAll stores every received packet as a Copy (relay duty), even one
	// addressed to this processor: a relay is not a delivery. Zero value.
	KeepAll Keep = iota
	// KeepOwn accepts a received packet as Delivered only if this processor
	// is its destination; other packets are read and discarded.
	KeepOwn
)

// Action is what one processor does in one slot. The zero value is not
// useful: use Idle() for a processor that neither sends nor listens.
type Action struct {
	// Send is the index in the processor's buffer of the packet to send, or -1.
	Send int32
	// Ack is the packet named by a header-only ack to send, or -1. Send and
	// Ack are exclusive: a processor sends at most one message per slot.
	Ack int32
	// To lists the destination groups b of couplers c(b, group(i)) the
	// message is sent to; it must be non-empty exactly when a message is sent.
	To []int32
	// Listen is the group a of the coupler c(group(i), a) listened to, or -1.
	Listen int32
	// Keep filters the packet messages the listener stores.
	Keep Keep
	// Drop lists buffer indices (into the buffer at the start of the slot)
	// discarded at the end of the slot, after sending.
	Drop []int32
}

// Idle is the action of a processor that neither sends nor listens.
func Idle() Action { return Action{Send: -1, Ack: -1, Listen: -1} }

// State is the whole network between two slots.
type State struct {
	Shape Shape
	// Dst[p] is the destination of packet p (which starts at processor p), or
	// perm.None when processor p starts without a packet.
	Dst []int32
	// Buf[i] is the memory of processor i.
	Buf [][]Item
	// Delivered[p] records that packet p has reached Dst[p].
	Delivered []bool
	// Lost[p] records that packet p had no copy left while undelivered.
	Lost []bool
	// Slot counts the slots stepped so far.
	Slot int
}

// NewState places packet p at processor p for every p with dst[p] ≠ None.
// dst must be a partial permutation of N_n.
func NewState(s Shape, dst []int32) (State, error) {
	if len(dst) != s.N() {
		return State{}, fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", len(dst), s.N())
	}
	if err := perm.Validate(dst, false); err != nil {
		return State{}, err
	}
	st := State{
		Shape:     s,
		Dst:       slices.Clone(dst),
		Buf:       make([][]Item, s.N()),
		Delivered: make([]bool, s.N()),
		Lost:      make([]bool, s.N()),
	}
	for p, d := range dst {
		if d != perm.None {
			st.Buf[p] = []Item{{Packet: int32(p), Kind: Original}}
		}
	}
	return st, nil
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := s
	c.Dst = slices.Clone(s.Dst)
	c.Delivered = slices.Clone(s.Delivered)
	c.Lost = slices.Clone(s.Lost)
	// One backing array for every buffer (one allocation, not n), each
	// buffer capped at its length plus one, so that appending to one never
	// writes into another (a buffer that grows past its slack moves).
	total := 0
	for _, b := range s.Buf {
		total += len(b) + 1
	}
	items := make([]Item, total)
	c.Buf = make([][]Item, len(s.Buf))
	k := 0
	for i, b := range s.Buf {
		if b != nil {
			c.Buf[i] = items[k : k+len(b) : k+len(b)+1]
			copy(c.Buf[i], b)
			k += len(b) + 1
		}
	}
	return c
}

// Equal reports whether two states are identical.
func (s State) Equal(t State) bool {
	if s.Shape != t.Shape || s.Slot != t.Slot || !slices.Equal(s.Dst, t.Dst) ||
		!slices.Equal(s.Delivered, t.Delivered) || !slices.Equal(s.Lost, t.Lost) || len(s.Buf) != len(t.Buf) {
		return false
	}
	for i := range s.Buf {
		if !slices.Equal(s.Buf[i], t.Buf[i]) {
			return false
		}
	}
	return true
}

// Reception is one message received by one processor.
type Reception struct {
	Proc    int32
	Coupler Coupler
	Msg     Message
}

// Events is what a slot produced.
type Events struct {
	// Received lists, by processor, every message a listener got.
	Received []Reception
	// Conflicts lists every coupler with two or more senders, sorted.
	Conflicts []Coupler
	// Delivered lists packets that reached their destination for the first time.
	Delivered []int32
	// Duplicated lists packets that reached their destination again.
	Duplicated []int32
	// Lost lists packets left with no copy anywhere while undelivered.
	Lost []int32
}

// ErrActions is wrapped by every error Step returns for actions the hardware
// cannot perform.
var ErrActions = errors.New("pops: illegal action")

func actionErr(i int, format string, args ...any) error {
	return fmt.Errorf("%w: processor %d: %s", ErrActions, i, fmt.Sprintf(format, args...))
}

type send struct {
	c    int64 // coupler key To*g+From
	proc int32
}

// Step performs one slot. It returns the next state and the slot's events, or
// an error (wrapping ErrActions) when an action is impossible; s is never
// modified. Cost O(n + m log m) for m coupler transmissions.
func Step(s State, a []Action) (State, Events, error) {
	if len(a) != s.Shape.N() {
		return State{}, Events{}, fmt.Errorf("%w: %d actions for %d processors", ErrActions, len(a), s.Shape.N())
	}
	var sc scratch
	next := State{}
	ev, err := step(&next, s, a, &sc, false)
	if err != nil {
		return State{}, Events{}, err
	}
	return next, ev, nil
}

// scratch is the working memory of one slot: the transmissions, the
// held-packet marks and the events' slices. Step starts from an empty one;
// a Stepper reuses its own.
type scratch struct {
	sends  []send
	sorted []send
	start  []int32
	held   []bool
	ev     Events
}

// countingSortLimit is how many couplers per transmission (plus a floor)
// the counting sort may scan; above it Step sorts by comparison. A
// variable so that tests can force either path.
var countingSortLimit = 4

// countingSort reports whether m transmissions on POPS(·,g) are sorted by
// counting (g² buckets).
func countingSort(m, g int) bool {
	return int64(g)*int64(g) <= int64(countingSortLimit)*int64(m)+256
}

// countingSort sorts sends (appended in increasing processor order) by
// coupler, stably, into sc.sorted, and returns it with start: coupler c's
// transmissions are sorted[start[c]:start[c+1]].
func (sc *scratch) countingSort(sends []send, g int) ([]send, []int32) {
	sc.sends = sends
	cs := g * g
	if cap(sc.start) < cs+1 {
		sc.start = make([]int32, cs+1)
	}
	start := sc.start[:cs+1]
	clear(start)
	for _, x := range sends {
		start[x.c+1]++
	}
	for c := range cs {
		start[c+1] += start[c]
	}
	if cap(sc.sorted) < len(sends) {
		sc.sorted = make([]send, len(sends))
	}
	sorted := sc.sorted[:len(sends)]
	// start[c] is the next free place of coupler c while placing; after
	// placing, start[c] has moved to coupler c+1's beginning, so shift back.
	for _, x := range sends {
		sorted[start[x.c]] = x
		start[x.c]++
	}
	copy(start[1:], start[:cs])
	start[0] = 0
	return sorted, start
}

// step is the one home of the slot's physics, for Step and Stepper: it
// checks the actions, then writes s's successor into next and returns the
// events. With reuse unset next is a fresh copy of s (s.Clone) and the
// events' slices are fresh; with reuse set next's and sc's slices are
// overwritten in place (they must not alias s). len(a) = n is checked by
// the callers.
func step(next *State, s State, a []Action, sc *scratch, reuse bool) (Events, error) {
	n, g := s.Shape.N(), s.Shape.G
	sends := sc.sends[:0]
	for i := range a {
		act := &a[i]
		if err := checkAction(s, i, act); err != nil {
			return Events{}, err
		}
		if act.Send >= 0 || act.Ack >= 0 {
			from := int64(s.Shape.Group(i))
			for _, b := range act.To {
				sends = append(sends, send{c: int64(b)*int64(g) + from, proc: int32(i)})
			}
		}
	}
	// Sort the transmissions by (coupler, sender). When the g² couplers
	// are not many more than the transmissions, by counting (start[c] is
	// where coupler c's run begins; stable, and the sends were appended in
	// increasing processor order, with no coupler twice per processor);
	// else by comparison. Both give the same order.
	var start []int32
	if countingSort(len(sends), g) {
		sends, start = sc.countingSort(sends, g)
	} else {
		slices.SortFunc(sends, func(x, y send) int {
			if x.c != y.c {
				if x.c < y.c {
					return -1
				}
				return 1
			}
			return int(x.proc - y.proc)
		})
		sc.sends = sends
	}
	ev := Events{Received: sc.ev.Received[:0], Conflicts: sc.ev.Conflicts[:0], Delivered: sc.ev.Delivered[:0], Duplicated: sc.ev.Duplicated[:0], Lost: sc.ev.Lost[:0]}
	for k := 0; k < len(sends); {
		j := k
		for j < len(sends) && sends[j].c == sends[k].c {
			j++
		}
		if j-k > 1 {
			ev.Conflicts = append(ev.Conflicts, Coupler{To: int32(sends[k].c / int64(g)), From: int32(sends[k].c % int64(g))})
		}
		k = j
	}

	if reuse {
		s.copyInto(next)
	} else {
		*next = s.Clone()
	}
	next.Slot++
	// Drops apply to the buffer as it was at the start of the slot.
	for i := range a {
		if len(a[i].Drop) == 0 {
			continue
		}
		drop := a[i].Drop
		kept := next.Buf[i][:0]
		for k, it := range s.Buf[i] {
			if !slices.Contains(drop, int32(k)) {
				kept = append(kept, it)
			}
		}
		next.Buf[i] = kept
	}
	// Receptions.
	for i := range a {
		act := &a[i]
		if act.Listen < 0 {
			continue
		}
		key := int64(s.Shape.Group(i))*int64(g) + int64(act.Listen)
		var k int
		if start != nil {
			k = int(start[key])
			if start[key+1]-start[key] != 1 {
				continue // silent coupler, or a conflict
			}
		} else {
			var found bool
			k, found = slices.BinarySearchFunc(sends, key, func(x send, key int64) int {
				switch {
				case x.c < key:
					return -1
				case x.c > key:
					return 1
				}
				return 0
			})
			if !found || (k+1 < len(sends) && sends[k+1].c == key) {
				continue // silent coupler, or a conflict
			}
		}
		src := &a[sends[k].proc]
		msg := Message{Kind: AckMsg, Packet: src.Ack}
		if src.Send >= 0 {
			msg = Message{Kind: PacketMsg, Packet: s.Buf[sends[k].proc][src.Send].Packet}
		}
		ev.Received = append(ev.Received, Reception{Proc: int32(i), Coupler: Coupler{To: int32(s.Shape.Group(i)), From: act.Listen}, Msg: msg})
		if msg.Kind != PacketMsg {
			continue
		}
		p := msg.Packet
		switch {
		case act.Keep == KeepOwn && s.Dst[p] == int32(i):
			next.Buf[i] = append(next.Buf[i], Item{Packet: p, Kind: Delivered})
			if next.Delivered[p] {
				ev.Duplicated = append(ev.Duplicated, p)
			} else {
				next.Delivered[p] = true
				ev.Delivered = append(ev.Delivered, p)
			}
		case act.Keep == KeepAll:
			next.Buf[i] = append(next.Buf[i], Item{Packet: p, Kind: Copy})
		}
	}
	// Conservation: a packet is lost when no original or copy remains while
	// it is still undelivered.
	if cap(sc.held) < n {
		sc.held = make([]bool, n)
	}
	held := sc.held[:n]
	clear(held)
	for _, b := range next.Buf {
		for _, it := range b {
			if it.Kind != Delivered {
				held[it.Packet] = true
			}
		}
	}
	for p, d := range s.Dst {
		if d != perm.None && !next.Delivered[p] && !next.Lost[p] && !held[p] {
			next.Lost[p] = true
			ev.Lost = append(ev.Lost, int32(p))
		}
	}
	if reuse {
		sc.ev = ev
	}
	return ev, nil
}

// copyInto makes *t a copy of s reusing t's memory (t must not alias s).
func (s State) copyInto(t *State) {
	t.Shape, t.Slot = s.Shape, s.Slot
	t.Dst = append(t.Dst[:0], s.Dst...)
	t.Delivered = append(t.Delivered[:0], s.Delivered...)
	t.Lost = append(t.Lost[:0], s.Lost...)
	if cap(t.Buf) < len(s.Buf) {
		t.Buf = make([][]Item, len(s.Buf))
	}
	t.Buf = t.Buf[:len(s.Buf)]
	for i, b := range s.Buf {
		t.Buf[i] = append(t.Buf[i][:0], b...)
	}
}

// Stepper performs slots as Step does — the same physics (one function),
// the same next state and events — but reuses its memory from call to
// call, for runs of many small slots where allocation dominates (the
// exhaustive per-step claims of props/pops). What it returns is only
// valid for a while: the events until the next call, and the state until
// the second next call (it keeps two states and writes the one s does not
// use), so a caller that steps s → s' → s” may read s and s' together but
// must copy (State.Clone) what it keeps longer. s is never modified. The
// zero value is ready to use; a Stepper is not safe for concurrent use.
type Stepper struct {
	states [2]State
	next   int
	sc     scratch
}

// Step is Step(s, a) with the Stepper's memory.
func (st *Stepper) Step(s State, a []Action) (State, Events, error) {
	if len(a) != s.Shape.N() {
		return State{}, Events{}, fmt.Errorf("%w: %d actions for %d processors", ErrActions, len(a), s.Shape.N())
	}
	t := &st.states[st.next]
	if len(s.Buf) > 0 && len(t.Buf) > 0 && &s.Buf[0] == &t.Buf[0] {
		st.next ^= 1 // s is the state this slot would overwrite: use the other
		t = &st.states[st.next]
	}
	ev, err := step(t, s, a, &st.sc, true)
	if err != nil {
		return State{}, Events{}, err
	}
	st.next ^= 1
	return *t, ev, nil
}

func checkAction(s State, i int, act *Action) error {
	g := int32(s.Shape.G)
	if act.Send >= 0 && act.Ack >= 0 {
		return actionErr(i, "sends a packet and an ack in one slot")
	}
	if act.Send < -1 || int(act.Send) >= len(s.Buf[i]) {
		return actionErr(i, "Send = %d, buffer holds %d packets", act.Send, len(s.Buf[i]))
	}
	if act.Ack < -1 || int(act.Ack) >= len(s.Dst) {
		return actionErr(i, "Ack = %d, packet ids are in [0, %d)", act.Ack, len(s.Dst))
	}
	sending := act.Send >= 0 || act.Ack >= 0
	if sending != (len(act.To) > 0) {
		return actionErr(i, "message and destination couplers must be given together (To has %d groups)", len(act.To))
	}
	for k, b := range act.To {
		if b < 0 || b >= g {
			return actionErr(i, "To group %d, allowed range [0, %d)", b, g)
		}
		if slices.Contains(act.To[:k], b) {
			return actionErr(i, "To group %d listed twice", b)
		}
	}
	if act.Listen < -1 || act.Listen >= g {
		return actionErr(i, "Listen = %d, allowed range [-1, %d)", act.Listen, g)
	}
	if act.Keep > KeepOwn {
		return actionErr(i, "Keep = %d unknown", act.Keep)
	}
	for k, d := range act.Drop {
		if d < 0 || int(d) >= len(s.Buf[i]) {
			return actionErr(i, "Drop index %d, buffer holds %d packets", d, len(s.Buf[i]))
		}
		if slices.Contains(act.Drop[:k], d) {
			return actionErr(i, "Drop index %d listed twice", d)
		}
	}
	return nil
}

// CheckInvariants validates a state: every item names a real packet,
// originals sit at their source, delivered items at their destination, every
// packet is delivered, lost, or still held somewhere, and the Delivered/Lost
// flags agree with the buffers. A packet accepted twice at its destination
// is physically possible (Step reports it in Events.Duplicated and stores
// both); whether an algorithm may do that is a claim, not a model invariant.
func CheckInvariants(s State) error {
	n := s.Shape.N()
	if len(s.Dst) != n || len(s.Buf) != n || len(s.Delivered) != n || len(s.Lost) != n {
		return fmt.Errorf("pops: state arrays do not have length n = %d", n)
	}
	// Small networks (the exhaustive claims run millions of slots of n ≤ 8)
	// count on the stack.
	var heldArr [64]bool
	var itemsArr [64]int32
	held, deliveredItems := heldArr[:0], itemsArr[:0]
	if n <= len(heldArr) {
		held, deliveredItems = heldArr[:n], itemsArr[:n]
	} else {
		held, deliveredItems = make([]bool, n), make([]int32, n)
	}
	for i, b := range s.Buf {
		for _, it := range b {
			p := it.Packet
			if p < 0 || int(p) >= n || s.Dst[p] == perm.None {
				return fmt.Errorf("pops: processor %d holds packet %d, which does not exist", i, p)
			}
			switch it.Kind {
			case Original:
				if int(p) != i {
					return fmt.Errorf("pops: processor %d holds the original of packet %d", i, p)
				}
				held[p] = true
			case Copy:
				held[p] = true
			case Delivered:
				if s.Dst[p] != int32(i) {
					return fmt.Errorf("pops: processor %d holds packet %d as delivered, its destination is %d", i, p, s.Dst[p])
				}
				deliveredItems[p]++
			default:
				return fmt.Errorf("pops: processor %d holds an item of unknown kind %d", i, it.Kind)
			}
		}
	}
	for p, d := range s.Dst {
		if d == perm.None {
			if s.Delivered[p] || s.Lost[p] {
				return fmt.Errorf("pops: absent packet %d is flagged delivered or lost", p)
			}
			continue
		}
		if deliveredItems[p] > 0 && !s.Delivered[p] {
			return fmt.Errorf("pops: packet %d is stored at its destination but not flagged delivered", p)
		}
		if s.Lost[p] && (s.Delivered[p] || held[p]) {
			return fmt.Errorf("pops: packet %d is flagged lost but is delivered or held", p)
		}
		if !s.Delivered[p] && !s.Lost[p] && !held[p] {
			return fmt.Errorf("pops: packet %d vanished without a loss event", p)
		}
	}
	return nil
}

// Occupancy counts, for processor i, the originals, copies and delivered
// packets it stores.
func (s State) Occupancy(i int) (originals, copies, delivered int) {
	for _, it := range s.Buf[i] {
		switch it.Kind {
		case Original:
			originals++
		case Copy:
			copies++
		case Delivered:
			delivered++
		}
	}
	return
}
