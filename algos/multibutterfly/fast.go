package multibutterfly

import (
	"fmt"
	"math/bits"
	"slices"

	mb "routecheck/models/multibutterfly"
)

// Run routes the packets of s (whose capacity s.L is the number of
// batches L) with the priority algorithm until all are delivered or the cap
// is reached. It returns the result and the final state. An error is a
// model violation (the algorithm asked for an illegal step) or, with Check,
// a broken invariant; it names the iteration and step.
//
// Run is NewEngine(s.Net).Run(s, o): the fast engine below, which returns
// what the step-model loop (runStepModel) returns — the same Result, final
// state, observer states and errors — at a fraction of its cost.
func Run(s mb.State, o Options) (Result, mb.State, error) {
	return NewEngine(s.Net).Run(s, o)
}

// Engine runs §3.2's priority routing (Run) on one network, keeping the
// network's tables and its buffers from one run to the next: a claim that
// routes many permutations on one network builds it once.
//
// Its state is flat arrays of int32, not the model's State and StepInto: per
// colour c, the head of every node's out edge of colour c, with the
// edge's side packed into the top bit (colour-major, so a step reads it in
// node order); per node its packets as a linked list through the packets,
// the packet its rule picks and a bitmap of the batches it holds; and a
// bitmap of the nodes of stages 0 … log N − 1 holding a packet, so a step
// visits only those of the active parity. Within a step every decision reads
// only nodes of the active parity (tails) and the other parity (heads), and
// a head receives at most one packet (the colour classes are matchings), so
// deciding all moves first and applying them after is Run's step exactly.
//
// Without Options.Check nothing is validated against the model's physics;
// the one rule that could bite — a buffer over L, only with a planted fault
// or a hand-made start — is checked before a step is applied and reported
// with the model's own error. With Check every step's moves also go through
// mb.StepInto (which validates them), mb.CheckInvariants runs on the
// model's state, the engine's node counts are compared with it, and every
// node's list, batch mask and pick are recomputed from its packets and
// compared with what the engine decides from (checkNodes): a Check run is a
// differential run of the engine against the model.
//
// Where the network is not what the engine assumes (an edge that does not
// lead from stage s to stage s + 1, a colour used twice at one node, more
// than 64 batches, a state whose Count is not the tally of Pos), Run falls
// back to the step-model loop, so its answer never depends on the path.
// TestEngineMatchesStepModel compares both paths on many instances.
//
// An Engine is not safe for concurrent use.
type Engine struct {
	net   *mb.Network
	ok    bool // the network fits the engine (else every Run falls back)
	n     int  // N
	logN  int
	d2    int // colours
	words int // busy-bitmap words per stage
	inner int // N·log N: nodes with out edges
	// hop[c·inner + v]: the head of v's out edge of colour c, | lowerBit
	// if it leads into the lower output set; noHop if v has none.
	hop []uint32
	// eidx[c·inner + v]: that edge's index in net.Edges (built on first
	// need: Check runs and the over-capacity error).
	eidx []int32

	// Per run.
	L          int
	lowestRule bool // FaultLowestPriority
	batch      []uint8
	dest       []int32
	pos        []int32
	count      []int32
	next       []int32  // next packet at the same node, −1 ends the list
	first      []int32  // per node: first packet, −1 if empty
	top        []int32  // per node: the packet its rule picks, −1 if empty
	mask       []uint64 // per node: bit k set iff it holds a packet of batch k
	busy       []uint64 // stage s's nodes holding a packet: words [s·words, (s+1)·words)
	moves      []fmove
	mmoves     []mb.Move
	seen       []int32 // Check: one-packet-per-batch scratch, nodes·L, −1
	// Check: the engine's own positions and counts (without Check they
	// are the returned state's).
	ownPos, ownCount []int32
	// spare: Check: the model state StepInto writes into, kept between
	// runs (never one a run returned).
	spare mb.State
	// plant, set only by the engine tests (fast_test.go), is a bug the
	// differential test must tell from the step model.
	plant plant
}

type plant uint8

// The plants are flags: a test may set several.
const (
	plantNone       plant = 0
	plantStaleMask  plant = 1 << (iota - 1) // remove keeps the bit of the batch that left
	plantTieHigh                            // ties in a batch go to the higher packet index
	plantNoCapacity                         // no over-capacity check before a step
	plantStaleTop                           // remove keeps the node's old pick while packets are left
	plantNoRecheck                          // Check: no re-check after a step with moves
	plantSeenDirty                          // Check: onePerBatch leaves its scratch set
	plantNoReset                            // reset keeps the masks of the previous run
)

// fmove is a decided move: packet p from v to its head to.
type fmove struct{ p, v, to int32 }

const (
	lowerBit        = uint32(1) << 31
	noHop           = ^uint32(0)
	engineMaxBatchs = 64
)

// NewEngine prepares the engine's tables for net. It never fails: a network
// the engine cannot take is run by the step-model loop.
func NewEngine(net *mb.Network) *Engine {
	e := &Engine{net: net}
	e.ok = e.build()
	return e
}

// build fills hop and checks what the engine relies on: every edge leads
// from a node of stage Stage to a node of stage Stage + 1, and no colour
// is used twice at a tail or at a head (the colour classes are matchings).
func (e *Engine) build() bool {
	net := e.net
	if net == nil || net.N < 2 || net.N&(net.N-1) != 0 || 1<<net.LogN != net.N || net.D < 1 || net.N*(net.LogN+1) >= 1<<31 {
		return false
	}
	e.n, e.logN, e.d2 = net.N, net.LogN, 2*net.D
	e.words = (e.n + 63) / 64
	e.inner = e.n * e.logN
	e.hop = make([]uint32, e.d2*e.inner)
	for i := range e.hop {
		e.hop[i] = noHop
	}
	headSeen := make([]uint64, (e.d2*net.Nodes()+63)/64)
	for _, ed := range net.Edges {
		s, c := int(ed.Stage), int(ed.Colour)
		if s < 0 || s >= e.logN || c < 0 || c >= e.d2 ||
			int(ed.From)/e.n != s || ed.From < 0 || int(ed.To)/e.n != s+1 || ed.To < 0 {
			return false
		}
		i := c*e.inner + int(ed.From)
		if e.hop[i] != noHop {
			return false
		}
		h := c*net.Nodes() + int(ed.To)
		if headSeen[h/64]&(1<<(h%64)) != 0 {
			return false
		}
		headSeen[h/64] |= 1 << (h % 64)
		e.hop[i] = uint32(ed.To)
		if ed.Lower {
			e.hop[i] |= lowerBit
		}
	}
	return true
}

// edgeIndex returns the index in net.Edges of v's out edge of colour c.
func (e *Engine) edgeIndex(v int32, c int) int32 {
	if e.eidx == nil {
		e.eidx = make([]int32, len(e.hop))
		for i, ed := range e.net.Edges {
			e.eidx[int(ed.Colour)*e.inner+int(ed.From)] = int32(i)
		}
	}
	return e.eidx[c*e.inner+int(v)]
}

// fits reports whether s is a state the engine takes: its network, at most
// 64 batches, destinations in range, and Count the tally of Pos.
func (e *Engine) fits(s mb.State) bool {
	if !e.ok || s.Net != e.net || s.L < 1 || s.L > engineMaxBatchs ||
		len(s.Dest) != len(s.Pos) || len(s.Source) != len(s.Pos) || len(s.Count) != e.net.Nodes() || len(s.Pos) >= 1<<31 {
		return false
	}
	// first is the tally's scratch: reset refills it.
	e.first = fill(grow(e.first, len(s.Count)), 0)
	tally := e.first
	for p, v := range s.Pos {
		if v < 0 || int(v) >= len(tally) || s.Dest[p] < 0 || int(s.Dest[p]) >= e.n {
			return false
		}
		tally[v]++
	}
	return slices.Equal(tally, s.Count)
}

// Run is the package-level Run on e's network, reusing e's buffers. The
// returned state's slices are the run's own (never reused by a later run).
func (e *Engine) Run(s mb.State, o Options) (Result, mb.State, error) {
	if !e.fits(s) {
		return runStepModel(s, o)
	}
	maxIt := o.MaxIterations
	if maxIt <= 0 {
		maxIt = DefaultMaxIterations(e.logN, s.L)
	}
	// cur is what Run returns and the observer sees. Without Check it is
	// the engine's own state; with Check it is the model's, stepped by
	// mb.StepInto beside the engine.
	cur := s.Clone()
	e.reset(cur, o)
	if o.Check {
		e.ownPos = append(e.ownPos[:0], cur.Pos...)
		e.ownCount = append(e.ownCount[:0], cur.Count...)
		e.pos, e.count = e.ownPos, e.ownCount
	} else {
		e.pos, e.count = cur.Pos, cur.Count
	}
	e.load()
	var next mb.State
	if o.Check {
		next = e.spare
		defer func() { e.spare = next }()
	}
	var res Result
	out := int32(e.inner) // node ⟨log N, 0⟩
	for p, v := range e.pos {
		if v == out+e.dest[p] {
			res.Delivered++
		}
	}
	if o.AfterIteration != nil {
		o.AfterIteration(0, &cur)
	}
	if res.Delivered == len(e.pos) {
		res.Complete = true
		return res, cur, nil
	}
	ignoreBit, ignoreBatch := o.Fault == FaultIgnoreBit, o.Fault == FaultIgnoreBatch
	L := int32(s.L)
	checked := false // Check: has the current model state been checked?
	for t := 1; t <= maxIt; t++ {
		parity := t % 2
		for c := range e.d2 {
			// Decide: every busy node of the active parity offers its
			// picked packet to its out edge of colour c.
			moves := e.moves[:0]
			over := false
			hop := e.hop[c*e.inner : (c+1)*e.inner]
			for st := parity; st < e.logN; st += 2 {
				sh := uint(e.logN - 1 - st)
				base := st * e.n
				for wi, w := range e.busy[st*e.words : (st+1)*e.words] {
					for w != 0 {
						v := int32(base + wi*64 + bits.TrailingZeros64(w))
						w &= w - 1
						h := hop[v]
						if h == noHop {
							continue
						}
						p := e.top[v]
						if !ignoreBit && h>>31 != uint32(e.dest[p]>>sh)&1 {
							continue
						}
						to := int32(h &^ lowerBit)
						if !ignoreBatch && e.mask[to]>>e.batch[p]&1 != 0 {
							continue
						}
						over = over || e.count[to] >= L
						moves = append(moves, fmove{p, v, to})
					}
				}
			}
			e.moves = moves
			if o.Check {
				if len(moves) > 0 {
					mm := e.mmoves[:0]
					for _, m := range moves {
						mm = append(mm, mb.Move{Packet: m.p, Edge: e.edgeIndex(m.v, c)})
					}
					// Run's order: the class's edges by index.
					if byEdge := func(a, b mb.Move) int { return int(a.Edge - b.Edge) }; !slices.IsSortedFunc(mm, byEdge) {
						slices.SortFunc(mm, byEdge)
					}
					e.mmoves = mm
					ev, err := mb.StepInto(&next, cur, mm)
					if err != nil {
						return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
					}
					cur, next = next, cur
					res.Moves += ev.Moves
					res.Delivered += len(ev.Delivered)
					e.apply(moves, &res, false)
				}
				// An empty step leaves the state as it was: checking it
				// again would give the answer it gave last time.
				if (len(moves) > 0 && e.plant&plantNoRecheck == 0) || !checked {
					if err := mb.CheckInvariants(cur); err != nil {
						return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
					}
					if err := e.onePerBatch(cur); err != nil {
						return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
					}
					if err := e.checkNodes(); err != nil {
						return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
					}
					checked = true
				}
				continue
			}
			if over && e.plant&plantNoCapacity == 0 {
				return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, e.overCapacity(moves, c))
			}
			res.Moves += len(moves)
			e.apply(moves, &res, true)
		}
		if o.AfterIteration != nil {
			o.AfterIteration(t, &cur)
			// The observer must not write to the state, but if it does
			// the next step's check must see it.
			checked = false
		}
		if res.Delivered == len(e.pos) {
			res.Iterations, res.Steps, res.Complete = t, t*e.d2, true
			return res, cur, nil
		}
	}
	res.Iterations, res.Steps = maxIt, maxIt*e.d2
	return res, cur, nil
}

// reset sizes the per-run buffers for s.
func (e *Engine) reset(s mb.State, o Options) {
	nodes := e.net.Nodes()
	P := len(s.Pos)
	e.L = s.L
	e.lowestRule = o.Fault == FaultLowestPriority
	e.dest = append(e.dest[:0], s.Dest...)
	e.batch = grow(e.batch, P)
	for p, q := range s.Dest {
		e.batch[p] = uint8(Batch(q, s.L))
	}
	e.next = grow(e.next, P)
	e.first = fill(grow(e.first, nodes), -1)
	e.top = fill(grow(e.top, nodes), -1)
	if e.plant&plantNoReset == 0 || len(e.mask) != nodes {
		e.mask = fill(grow(e.mask, nodes), 0)
	}
	e.busy = fill(grow(e.busy, e.logN*e.words), 0)
	if cap(e.moves) < e.n {
		e.moves = make([]fmove, 0, e.n)
	}
}

// load builds the lists, picks, masks and the busy bitmap from e.pos.
func (e *Engine) load() {
	for p := len(e.pos) - 1; p >= 0; p-- {
		e.add(e.pos[p], int32(p))
	}
	for v := range int32(e.inner) {
		if e.count[v] > 0 {
			e.setBusy(v)
		}
	}
}

// better reports whether packet q beats packet p under the run's rule:
// the lower batch (FaultLowestPriority: the higher), ties by the lower
// packet index.
func (e *Engine) better(q, p int32) bool {
	bq, bp := e.batch[q], e.batch[p]
	if bq != bp {
		return bq < bp != e.lowestRule
	}
	return q < p != (e.plant&plantTieHigh != 0)
}

// add puts packet p on v's list (not its position or count).
func (e *Engine) add(v, p int32) {
	e.next[p] = e.first[v]
	e.first[v] = p
	e.mask[v] |= 1 << e.batch[p]
	if t := e.top[v]; t < 0 || e.better(p, t) {
		e.top[v] = p
	}
}

// remove takes packet p off v's list and recomputes v's pick and mask from
// the packets left (at most L − 1 of them, or none).
func (e *Engine) remove(v, p int32) {
	var mask uint64
	top, prev := int32(-1), int32(-1)
	for q := e.first[v]; q >= 0; q = e.next[q] {
		if q == p {
			if prev < 0 {
				e.first[v] = e.next[q]
			} else {
				e.next[prev] = e.next[q]
			}
			continue
		}
		mask |= 1 << e.batch[q]
		if top < 0 || e.better(q, top) {
			top = q
		}
		prev = q
	}
	if e.plant&plantStaleMask != 0 {
		mask |= e.mask[v]
	}
	if e.plant&plantStaleTop != 0 && top >= 0 {
		top = e.top[v]
	}
	e.top[v], e.mask[v] = top, mask
}

func (e *Engine) busyBit(v int32) (word int, bit uint64) {
	st, k := int(v)/e.n, int(v)%e.n
	return st*e.words + k/64, 1 << (k % 64)
}

func (e *Engine) setBusy(v int32) {
	w, b := e.busyBit(v)
	e.busy[w] |= b
}

// apply makes the decided moves: lists, picks, masks, positions, counts,
// busy bits and MaxBuffer; with deliveries it also counts the packets that
// reached their outputs (without, the model's events count them).
func (e *Engine) apply(moves []fmove, res *Result, deliveries bool) {
	out := int32(e.inner)
	for _, m := range moves {
		e.remove(m.v, m.p)
		e.count[m.v]--
		if e.count[m.v] == 0 {
			w, b := e.busyBit(m.v)
			e.busy[w] &^= b
		}
		e.add(m.to, m.p)
		e.pos[m.p] = m.to
		e.count[m.to]++
		if m.to < out {
			e.setBusy(m.to)
		} else if deliveries && m.to == out+e.dest[m.p] {
			res.Delivered++
		}
		if int(e.count[m.to]) > res.MaxBuffer {
			res.MaxBuffer = int(e.count[m.to])
		}
	}
}

// overCapacity is the error mb.StepInto returns for these moves: the first
// move, in edge order, whose head would hold more than L packets.
func (e *Engine) overCapacity(moves []fmove, c int) error {
	first, at := int32(-1), -1
	for i, m := range moves {
		if int(e.count[m.to]) >= e.L {
			if ei := e.edgeIndex(m.v, c); first < 0 || ei < first {
				first, at = ei, i
			}
		}
	}
	to := moves[at].to
	return fmt.Errorf("multibutterfly: %w: node %d holds %d packets, over the capacity L = %d", mb.ErrCapacity, to, e.count[to]+1, e.L)
}

// onePerBatch is the package's onePerBatch with the engine's node counts as
// the algorithm's view, without a map: the same checks, the same errors.
func (e *Engine) onePerBatch(s mb.State) error {
	if len(e.seen) != len(s.Count)*e.L {
		e.seen = fill(make([]int32, len(s.Count)*e.L), -1)
	}
	var err error
	n := int32(e.n)
	for p, v := range s.Pos {
		if v < n {
			continue // inputs start with one packet each
		}
		k := int32(Batch(s.Dest[p], e.L))
		i := int(v)*e.L + int(k)
		if q := e.seen[i]; q >= 0 {
			err = fmt.Errorf("node %d holds packets %d and %d of batch %d", v, q, p, k)
			break
		}
		e.seen[i] = int32(p)
	}
	for _, v := range s.Pos {
		if v >= n && e.plant&plantSeenDirty == 0 {
			fill(e.seen[int(v)*e.L:int(v+1)*e.L], -1)
		}
	}
	if err != nil {
		return err
	}
	for v, c := range s.Count {
		if c != e.count[v] {
			return fmt.Errorf("algorithm's view of node %d (%d packets) differs from the model (%d)", v, e.count[v], c)
		}
	}
	return nil
}

// checkNodes checks, in Check runs, what the engine decides from: per node
// its list holds exactly count packets, each of them placed at that node,
// its mask is the OR of their batches, and top is the best of them under
// the run's rule (−1 iff the list is empty). O(nodes + P).
func (e *Engine) checkNodes() error {
	for v := range int32(len(e.first)) {
		var n int32
		var mask uint64
		top := int32(-1)
		for q := e.first[v]; q >= 0; q = e.next[q] {
			if e.pos[q] != v || n > e.count[v] {
				return fmt.Errorf("engine: node %d's list holds packet %d (at node %d) or more than its %d packets", v, q, e.pos[q], e.count[v])
			}
			n++
			mask |= 1 << e.batch[q]
			if top < 0 || e.better(q, top) {
				top = q
			}
		}
		switch {
		case n != e.count[v]:
			return fmt.Errorf("engine: node %d's list holds %d packets, its count %d", v, n, e.count[v])
		case mask != e.mask[v]:
			return fmt.Errorf("engine: node %d's batch mask %#x, its packets' %#x", v, e.mask[v], mask)
		case top != e.top[v]:
			return fmt.Errorf("engine: node %d picks packet %d, its rule packet %d", v, e.top[v], top)
		}
	}
	return nil
}

// grow returns b with length n, reusing its array when it is large enough.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

func fill[T any](b []T, x T) []T {
	for i := range b {
		b[i] = x
	}
	return b
}
