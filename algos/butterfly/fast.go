package butterfly

import (
	"fmt"
	"math/bits"

	mb "routecheck/models/butterfly"
)

// Engine is the fast router: the same greedy policy and node models as
// RunOnModel, stages swept from the last to the first so every step is
// simultaneous. It gives every packet the delivery step RunOnModel gives
// it (checked by the package's differential tests) when no two packets
// share (Key, Perm), as Packets guarantees; with such ties under
// PaperPriority the step model serves the one earlier in its queue and the
// Engine the one with the smaller ID (so did the engines before this one).
// An Engine keeps its buffers between runs; it is not safe for concurrent
// use.
//
// Layout (what makes it fast: a hop touches one small packet record at
// random and otherwise dense arrays swept in row order):
//   - under PaperPriority the packets are renumbered by priority rank
//     (sorted once by (Key, Perm, ID), radixSort), so a comparison in a queue's skew
//     heap compares two indices and reads no record; FIFO keeps the IDs;
//   - a packet's record is 16 bytes (the heap's or the FIFO list's two
//     links, and the two rows its route is made of: the row it holds at
//     stage n and its destination), so a hop needs no other table;
//   - a queue is (head, size), 8 bytes (FIFO: its tail in a second array);
//     a buffer is the packet and the link it leaves its node by, 4 bytes,
//     so draining it reads no record (strict buffers: see runBuffered);
//   - a bitmap per stage marks the rows with a packet in a queue or a
//     buffer, so a step visits those rows only, in increasing row order
//     (the order the FIFO queues of the next stage are filled in).
//
// Memory, kept between runs: per packet 16 bytes of record and 4 of
// latency by internal index (the returned Result adds 4), and under
// PaperPriority 4 for its ID and 32 for the radix sort's two buffers of
// 16-byte keys; per node 8 bytes per queue (FIFO: 12), in buffered mode 4
// per input buffer (two per node), and a bit: (n + r)·N·(8·Q + 4·Q·[FIFO]
// + 8·[buffered] + 1/8) + (20 + 36·[PaperPriority])·k bytes for k
// packets. (The engine before, refEngine in the tests: 32 per packet, 12
// per queue, 8 per buffer.)
type Engine struct {
	pk   []rec
	q    []queue
	last []int32 // FIFO: a queue's tail
	act  []uint64
	buf  []int32 // Buffered: a node's two input buffers (see runBuffered)
	orig []int32 // PaperPriority: the ID of the packet of rank i
	lat  []int32 // by internal index
	sk   []sortKey
	sk2  []sortKey
	lifo bool // the planted FaultLIFO (FIFO priority only): push prepends
}

// rec is a packet's record: its links in a queue (FIFO: a = next; heap: a
// = left, b = right) and its route: mid is its row at stage n (x_1…x_r,
// b_{r+1}…b_n), dst its destination; the row bit a link into stage s
// sets is mid's (s ≤ n) or dst's (s > n) bit at Mask(s).
type rec struct {
	a, b     int32
	mid, dst int32
}

type queue struct{ first, n int32 }

type sortKey struct {
	key      uint64
	perm, id int32
}

const none = -1

// maxPackets bounds k so that 2·k + 1 fits a buffer's int32 and a
// queue's size leaves sentBit free.
const maxPackets = 1 << 30

// sentBit, in a link queue's n (buffered model, strict buffers): the
// queue sent a packet in the step its node was last visited (see
// runBuffered).
const sentBit = 1 << 30

// meld merges two skew heaps (roots i, j; none for empty) top-down,
// without recursion: the merged right spine is built by appending and the
// children of every node on it are swapped. Indices are priority ranks.
func (e *Engine) meld(i, j int32) int32 {
	if i == none {
		return j
	}
	if j == none {
		return i
	}
	if j < i {
		i, j = j, i
	}
	root := i
	for {
		// i is the smaller root; merge its right subtree with j, then swap
		// i's children (the skew heap's rule).
		p := &e.pk[i]
		r := p.b
		if r == none {
			p.b = p.a
			p.a = j
			return root
		}
		if j < r {
			r, j = j, r
		}
		p.b = p.a
		p.a = r
		i = r
	}
}

// radixSort sorts a by (key, perm as a signed number, id) and returns the
// sorted slice and the other buffer (tmp, the same length, is scratch):
// an LSD radix sort by bytes, perm's four then key's eight, stable, so
// equal (key, perm) keep a's order, which is by id. Digits equal in every
// element are skipped (one counting pass finds them), so Packets' keys
// (block, R, source) take about five passes.
func radixSort(a, tmp []sortKey) (sorted, other []sortKey) {
	var count [12][256]int
	for i := range a {
		x := &a[i]
		pm := uint32(x.perm) ^ 1<<31
		for d := range 4 {
			count[d][byte(pm>>(8*d))]++
		}
		for d := range 8 {
			count[4+d][byte(x.key>>(8*d))]++
		}
	}
	for d := range 12 {
		c := &count[d]
		if len(a) == 0 || c[firstNonZero(c)] == len(a) {
			continue
		}
		sum := 0
		for b, v := range c {
			c[b] = sum
			sum += v
		}
		for i := range a {
			x := a[i]
			var b byte
			if d < 4 {
				b = byte((uint32(x.perm) ^ 1<<31) >> (8 * d))
			} else {
				b = byte(x.key >> (8 * (d - 4)))
			}
			tmp[c[b]] = x
			c[b]++
		}
		a, tmp = tmp, a
	}
	return a, tmp
}

// firstNonZero is the first bucket of c with a count.
func firstNonZero(c *[256]int) int {
	for b, v := range c {
		if v != 0 {
			return b
		}
	}
	return 0
}

// Run routes the packets (IDs 0…k−1) and returns their delivery steps. It
// fails if some packet is undelivered after maxSteps steps.
func (e *Engine) Run(o Options, ps []mb.Packet, maxSteps int) (Result, error) {
	sh := o.Shape
	if err := sh.Validate(); err != nil {
		return Result{}, err
	}
	if len(ps) >= maxPackets {
		return Result{}, fmt.Errorf("butterfly: %d packets, allowed fewer than 2^30", len(ps))
	}
	N, S, Q := sh.N(), sh.Stages(), sh.Queues()
	n, r := sh.LogN, sh.R
	for k, p := range ps {
		if int(p.ID) != k {
			return Result{}, fmt.Errorf("butterfly: packet %d has ID %d, want IDs 0…k−1 in order", k, p.ID)
		}
		if p.Src < 0 || int(p.Src) >= N || p.Dst < 0 || int(p.Dst) >= N || p.X < 0 || p.X >= 1<<r {
			return Result{}, fmt.Errorf("butterfly: packet %d (%d → %d, X %d) out of range", k, p.Src, p.Dst, p.X)
		}
	}
	heap := o.Priority == PaperPriority
	e.lifo = !heap && o.Fault == FaultLIFO
	K := len(ps)
	words := (N + 63) / 64
	e.q = grow(e.q, S*N*Q)
	for i := range e.q {
		e.q[i] = queue{none, 0}
	}
	if !heap {
		e.last = grow(e.last, S*N*Q)
	}
	e.act = grow(e.act, S*words)
	clear(e.act)
	if sh.Mode == mb.Buffered {
		e.buf = grow(e.buf, S*N*2)
		for i := range e.buf {
			e.buf[i] = none
		}
	}
	e.pk = grow(e.pk, K)
	e.lat = grow(e.lat, K)

	// Internal index i: the packet's priority rank (heap) or its ID (FIFO).
	var orig []int32
	if heap {
		e.sk = grow(e.sk, K)
		for k, p := range ps {
			e.sk[k] = sortKey{p.Key, p.Perm, int32(k)}
		}
		e.sk, e.sk2 = radixSort(e.sk, grow(e.sk2, K))
		e.orig = grow(e.orig, K)
		orig = e.orig
		for i := range orig {
			orig[i] = e.sk[i].id
		}
	}
	topR := int32(((1 << r) - 1) << (n - r))
	clear(e.lat)
	res := Result{Latency: make([]int32, K)}
	m1 := sh.Mask(1)
	for i := range K {
		k := i
		if heap {
			k = int(orig[i])
		}
		p := &ps[k]
		e.pk[i] = rec{a: none, b: none, mid: p.X<<(n-r)&topR | p.Dst&^topR, dst: p.Dst}
	}
	// Stage 0: every packet joins the queue of its input (Buffered: of its
	// first link). Heap: in decreasing rank, each prepended, so a queue is
	// a chain through a in increasing rank (a valid skew heap); FIFO: in ID
	// order, each appended.
	for j := range K {
		i := int32(j)
		if heap {
			i = int32(K - 1 - j)
		}
		p := &e.pk[i]
		row := ps[i].Src
		if heap {
			row = ps[orig[i]].Src
		}
		qi := int(row)
		if Q == 2 && (row^p.mid)&m1 != 0 {
			qi = 2*qi + 1
		} else if Q == 2 {
			qi = 2 * qi
		}
		q := &e.q[qi]
		switch {
		case heap, e.lifo:
			p.a = q.first
			q.first = i
		case q.n == 0:
			q.first = i
			e.last[qi] = i
		default:
			e.pk[e.last[qi]].a = i
			e.last[qi] = i
		}
		q.n++
		res.MaxQueue = max(res.MaxQueue, int(q.n))
		e.act[int(row)>>6] |= 1 << (uint(row) & 63)
	}

	var err error
	if Q == 1 {
		err = e.runNode(o, K, maxSteps, heap, &res)
	} else {
		err = e.runBuffered(o, K, maxSteps, heap, &res)
	}
	// Latencies back to IDs (an undelivered packet has 0, as before).
	if heap {
		for i, k := range orig {
			res.Latency[k] = e.lat[i]
		}
	} else {
		copy(res.Latency, e.lat)
	}
	return res, err
}

// pop removes the head of queue qi (non-empty) and returns it, its links
// reset.
func (e *Engine) pop(qi int, heap bool) int32 {
	q := &e.q[qi]
	k := q.first
	p := &e.pk[k]
	if heap {
		a, b := p.a, p.b
		p.a, p.b = none, none
		q.first = e.meld(a, b)
	} else {
		q.first = p.a
		p.a = none
	}
	q.n--
	return k
}

// push adds packet k (links reset) to queue qi and returns its new size
// (sentBit is kept and not counted).
func (e *Engine) push(qi int, k int32, heap bool) int32 {
	q := &e.q[qi]
	switch {
	case heap:
		q.first = e.meld(q.first, k)
	case e.lifo:
		e.pk[k].a = q.first
		q.first = k
	case q.n&^sentBit == 0:
		q.first = k
		e.last[qi] = k
	default:
		e.pk[e.last[qi]].a = k
		e.last[qi] = k
	}
	q.n++
	return q.n &^ sentBit
}

// runNode is Run's step loop in the §2 node model (one queue per node).
func (e *Engine) runNode(o Options, K, maxSteps int, heap bool, res *Result) error {
	sh := o.Shape
	N, S, n := sh.N(), sh.Stages(), sh.LogN
	words := (N + 63) / 64
	perStage := make([]int, S+1) // packets at each stage
	perStage[0] = K
	left := K
	for t := int32(1); left > 0; t++ {
		if int(t) > maxSteps {
			return fmt.Errorf("butterfly: %d packets undelivered after %d steps", left, maxSteps)
		}
		for s := S - 1; s >= 0; s-- {
			if perStage[s] == 0 {
				continue
			}
			act := e.act[s*words : (s+1)*words]
			base := s * N
			if s+1 == S {
				for wi, w := range act {
					for w != 0 {
						row := wi<<6 + bits.TrailingZeros64(w)
						w &= w - 1
						qi := base + row
						k := e.pop(qi, heap)
						perStage[s]--
						e.lat[k] = t
						left--
						if e.q[qi].n == 0 {
							act[wi] &^= 1 << (uint(row) & 63)
						}
					}
				}
				res.Steps = int(t)
				continue
			}
			m, useMid := sh.Mask(s+1), s+1 <= n
			next := (s + 1) * N
			nact := e.act[(s+1)*words : (s+2)*words]
			for wi, w := range act {
				for w != 0 {
					row := wi<<6 + bits.TrailingZeros64(w)
					w &= w - 1
					qi := base + row
					k := e.pop(qi, heap)
					p := &e.pk[k]
					tgt := p.dst
					if useMid {
						tgt = p.mid
					}
					to := int32(row)&^m | tgt&m
					perStage[s]--
					perStage[s+1]++
					res.MaxQueue = max(res.MaxQueue, int(e.push(next+int(to), k, heap)))
					nact[to>>6] |= 1 << (uint(to) & 63)
					if o.Fault == FaultNodeSendsTwo && e.q[qi].n > 0 {
						// planted fault: a second packet in the same step
						k2 := e.pop(qi, heap)
						p2 := &e.pk[k2]
						tgt2 := p2.dst
						if useMid {
							tgt2 = p2.mid
						}
						to2 := int32(row)&^m | tgt2&m
						perStage[s]--
						perStage[s+1]++
						e.push(next+int(to2), k2, heap)
						nact[to2>>6] |= 1 << (uint(to2) & 63)
					}
					if e.q[qi].n == 0 {
						act[wi] &^= 1 << (uint(row) & 63)
					}
				}
			}
		}
	}
	return nil
}

// runBuffered is Run's step loop in the §4.1 buffered model: a node sends
// the head of each link queue into the next stage's input buffer (strict:
// only into a buffer empty at the start of the step), then drains its own
// buffers (straight, then cross) into its link queues.
//
// Strict buffers without a per-buffer clock: input buffer in of node
// (s+1, to) is fed by one link queue only, queue in of node (s, to XOR
// Mask(s+1)), and a full buffer is drained in every step (its row is
// marked when it is filled). So the buffer is full at the start of step t
// exactly when that queue sent in step t − 1. The queue records this in
// sentBit: set when it sends, cleared at the next visit of its node
// (before that visit's send). A node is visited in every step in which it
// holds a packet, and a queue is refilled only during a visit of its
// node, so a set bit seen at a visit with packets waiting was set in the
// step before.
// A buffer then holds 2·packet + the link the packet leaves its node by,
// or none.
func (e *Engine) runBuffered(o Options, K, maxSteps int, heap bool, res *Result) error {
	sh := o.Shape
	N, S, n := sh.N(), sh.Stages(), sh.LogN
	words := (N + 63) / 64
	strict := sh.StrictBuffers && o.Fault != FaultIgnoreStrict
	perStage := make([]int, S+1) // packets at each stage (queues and buffers)
	perStage[0] = K
	left := K
	for t := int32(1); left > 0; t++ {
		if int(t) > maxSteps {
			return fmt.Errorf("butterfly: %d packets undelivered after %d steps", left, maxSteps)
		}
		for s := S - 1; s >= 0; s-- {
			if perStage[s] == 0 {
				continue
			}
			act := e.act[s*words : (s+1)*words]
			base := 2 * s * N
			lastStage := s+1 == S
			var m, m2 int32
			var useMid2 bool
			var nact []uint64
			if !lastStage {
				m, m2, useMid2 = sh.Mask(s+1), sh.Mask(s+2), s+2 <= n
				nact = e.act[(s+1)*words : (s+2)*words]
			}
			next := 2 * (s + 1) * N
			for wi, w := range act {
				for w != 0 {
					row := wi<<6 + bits.TrailingZeros64(w)
					w &= w - 1
					busy := false // row still holds a packet after this step
					for l := range 2 {
						qi := base + 2*row + l
						q := &e.q[qi]
						sent := q.n&sentBit != 0
						q.n &^= sentBit
						if q.n == 0 {
							continue
						}
						if lastStage {
							k := e.pop(qi, heap)
							perStage[s]--
							e.lat[k] = t
							res.Steps = int(t)
							left--
							busy = busy || e.q[qi].n > 0
							continue
						}
						to := int32(row)
						if l == 1 {
							to ^= m
						}
						if sent {
							// strict: the buffer it feeds took a packet in the
							// last step, so it is full at this step's start
							busy = true
							continue
						}
						k := e.pop(qi, heap)
						p := &e.pk[k]
						tgt := p.dst
						if useMid2 {
							tgt = p.mid
						}
						l2 := int32(0)
						if (to^tgt)&m2 != 0 {
							l2 = 1
						}
						e.buf[next+2*int(to)+l] = 2*k + l2
						perStage[s]--
						perStage[s+1]++
						nact[to>>6] |= 1 << (uint(to) & 63)
						busy = busy || q.n > 0
						if strict {
							q.n |= sentBit
						}
					}
					if s > 0 {
						// Drain this node's buffers (straight, then cross) into
						// its link queues; arrivals of this step come later (the
						// stage below is swept after this one).
						for in := range 2 {
							b := &e.buf[base+2*row+in]
							if *b == none {
								continue
							}
							k, l := *b>>1, int(*b&1)
							*b = none
							res.MaxQueue = max(res.MaxQueue, int(e.push(base+2*row+l, k, heap)))
							busy = true
						}
					}
					if !busy {
						act[wi] &^= 1 << (uint(row) & 63)
					}
				}
			}
		}
	}
	return nil
}

// grow returns s resized to n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
