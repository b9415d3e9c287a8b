package butterfly

import (
	"fmt"
	"math/bits"

	mb "routecheck/models/butterfly"
)

// refEngine is the Engine as it was before the packets were renumbered by
// rank and the records shrunk (commit d569ecd's fast.go, names prefixed):
// kept as the plain reference the new Engine is compared with at sizes the
// step model is too slow for (TestEngineMatchesRefEngine), and for the
// benchmark's before/after (BenchmarkRefEngineThroughput).
type refEngine struct {
	pk   []refRec
	q    []refQueue
	act  []uint64 // per stage, ⌈N/64⌉ words: row has a packet
	buf  []int32  // Buffered: the packet in the buffer, −1 if empty
	busy []int32  // Buffered: the step in which the buffer was drained
}

// refRec is a packet's record: its priority (key, perm, id break ties
// between equal (key, perm), which Packets never produces), its route and
// its links in a refQueue.
type refRec struct {
	key         uint64
	perm        int32
	src, dst, x int32
	a, b        int32 // FIFO: a = next; heap: a = left, b = right
}

type refQueue struct{ first, last, n int32 }

const refNone = -1

// before is the priority order of the step model's less, ties by id.
func (e *refEngine) before(i, j int32) bool {
	a, b := &e.pk[i], &e.pk[j]
	if a.key != b.key {
		return a.key < b.key
	}
	if a.perm != b.perm {
		return a.perm < b.perm
	}
	return i < j
}

// meld merges two skew heaps (roots i, j; refNone for empty) top-down,
// without recursion: the merged right spine is built by appending and the
// children of every node on it are swapped.
func (e *refEngine) meld(i, j int32) int32 {
	if i == refNone {
		return j
	}
	if j == refNone {
		return i
	}
	if e.before(j, i) {
		i, j = j, i
	}
	root := i
	for {
		// i is the smaller root; merge its right subtree with j, then swap
		// i's children (the skew heap's rule).
		r := e.pk[i].b
		if r == refNone {
			e.pk[i].b = e.pk[i].a
			e.pk[i].a = j
			return root
		}
		if e.before(j, r) {
			r, j = j, r
		}
		e.pk[i].b = e.pk[i].a
		e.pk[i].a = r
		i = r
	}
}

// Run routes the packets (IDs 0…k−1) and returns their delivery steps. It
// fails if some packet is undelivered after maxSteps steps.
func (e *refEngine) Run(o Options, ps []mb.Packet, maxSteps int) (Result, error) {
	sh := o.Shape
	if err := sh.Validate(); err != nil {
		return Result{}, err
	}
	N, S, Q := sh.N(), sh.Stages(), sh.Queues()
	words := (N + 63) / 64
	nq := S * N * Q
	e.q = refGrow(e.q, nq)
	for i := range e.q {
		e.q[i] = refQueue{refNone, refNone, 0}
	}
	e.act = refGrow(e.act, S*words)
	clear(e.act)
	if sh.Mode == mb.Buffered {
		nb := S * N * 2
		e.buf, e.busy = refGrow(e.buf, nb), refGrow(e.busy, nb)
		for i := range e.buf {
			e.buf[i] = refNone
		}
		clear(e.busy)
	}
	e.pk = refGrow(e.pk, len(ps))
	heap := o.Priority == PaperPriority

	push := func(qi int, k int32) int {
		q := &e.q[qi]
		p := &e.pk[k]
		if heap {
			p.a, p.b = refNone, refNone
			q.first = e.meld(q.first, k)
		} else {
			p.a = refNone
			if q.n == 0 {
				q.first = k
			} else {
				e.pk[q.last].a = k
			}
			q.last = k
		}
		q.n++
		return int(q.n)
	}
	pop := func(qi int) int32 {
		q := &e.q[qi]
		k := q.first
		if heap {
			q.first = e.meld(e.pk[k].a, e.pk[k].b)
		} else {
			q.first = e.pk[k].a
		}
		q.n--
		return k
	}
	qidx := func(s int, row int32, l int) int {
		i := s*N + int(row)
		if Q == 2 {
			return 2*i + l
		}
		return i
	}
	mark := func(s int, row int32) { e.act[s*words+int(row)>>6] |= 1 << (uint(row) & 63) }
	pkt := func(k int32) mb.Packet {
		p := &e.pk[k]
		return mb.Packet{Src: p.src, Dst: p.dst, X: p.x}
	}

	res := Result{Latency: make([]int32, len(ps))}
	perStage := make([]int, S+1) // packets at each stage (queues and buffers)
	for k, p := range ps {
		if int(p.ID) != k {
			return Result{}, fmt.Errorf("butterfly: packet %d has ID %d, want IDs 0…k−1 in order", k, p.ID)
		}
		if p.Src < 0 || int(p.Src) >= N || p.Dst < 0 || int(p.Dst) >= N || p.X < 0 || p.X >= 1<<sh.R {
			return Result{}, fmt.Errorf("butterfly: packet %d (%d → %d, X %d) out of range", k, p.Src, p.Dst, p.X)
		}
		e.pk[k] = refRec{key: p.Key, perm: p.Perm, src: p.Src, dst: p.Dst, x: p.X}
		res.MaxQueue = max(res.MaxQueue, push(qidx(0, p.Src, sh.Link(p, 0)), int32(k)))
		mark(0, p.Src)
	}
	perStage[0] = len(ps)
	left := len(ps)
	for t := int32(1); left > 0; t++ {
		if int(t) > maxSteps {
			return res, fmt.Errorf("butterfly: %d packets undelivered after %d steps", left, maxSteps)
		}
		for s := S - 1; s >= 0; s-- {
			if perStage[s] == 0 {
				continue
			}
			act := e.act[s*words : (s+1)*words]
			for wi, w := range act {
				for w != 0 {
					row := int32(wi<<6 + bits.TrailingZeros64(w))
					w &= w - 1
					busy := false // row still holds a packet after this step
					for l := range Q {
						qi := qidx(s, row, l)
						if e.q[qi].n == 0 {
							continue
						}
						k := e.q[qi].first
						to := sh.RowAt(pkt(k), s+1)
						if s+1 == S {
							pop(qi)
							perStage[s]--
							res.Latency[k] = t
							res.Steps = int(t)
							left--
							busy = busy || e.q[qi].n > 0
							continue
						}
						if Q == 1 {
							pop(qi)
							perStage[s]--
							perStage[s+1]++
							nq := qidx(s+1, to, 0)
							res.MaxQueue = max(res.MaxQueue, push(nq, k))
							mark(s+1, to)
							if o.Fault == FaultNodeSendsTwo && e.q[qi].n > 0 {
								// planted fault: a second packet in the same step
								k2 := pop(qi)
								perStage[s]--
								perStage[s+1]++
								to2 := sh.RowAt(pkt(k2), s+1)
								push(qidx(s+1, to2, 0), k2)
								mark(s+1, to2)
							}
							busy = busy || e.q[qi].n > 0
							continue
						}
						in := 0
						if to != row {
							in = 1
						}
						b := 2*((s+1)*N+int(to)) + in
						if o.Shape.StrictBuffers && o.Fault != FaultIgnoreStrict && e.busy[b] == t {
							busy = true
							continue
						}
						pop(qi)
						perStage[s]--
						perStage[s+1]++
						e.buf[b] = k
						mark(s+1, to)
						busy = busy || e.q[qi].n > 0
					}
					if Q == 2 && s > 0 {
						// Drain this node's buffers (straight, then cross) into
						// its link queues; arrivals of this step come later (the
						// stage below is swept after this one).
						for in := range 2 {
							b := 2*(s*N+int(row)) + in
							k := e.buf[b]
							if k == refNone {
								continue
							}
							e.buf[b], e.busy[b] = refNone, t
							nq := qidx(s, row, sh.Link(pkt(k), s))
							res.MaxQueue = max(res.MaxQueue, push(nq, k))
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
	return res, nil
}

// grow returns s resized to n, reusing its array when it is large enough.
func refGrow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
