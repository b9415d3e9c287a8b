package butterfly

import (
	"fmt"

	mb "routecheck/models/butterfly"
)

// Engine is the fast router: the same greedy policy and node models as
// RunOnModel, with a binary heap (PaperPriority) or a FIFO per queue,
// stages swept from the last to the first so every step is simultaneous.
// It gives every packet the delivery step RunOnModel gives it (checked by
// the package's differential test). An Engine keeps its buffers between
// runs; it is not safe for concurrent use.
type Engine struct {
	q    [][]mb.Packet // per queue: packets (heap or FIFO with head)
	head []int32
	buf  []mb.Packet // Buffered: the packet in the buffer
	full []bool
	busy []int32 // Buffered: the step in which the buffer was drained
}

// Run routes the packets (IDs 0…k−1) and returns their delivery steps. It
// fails if some packet is undelivered after maxSteps steps.
func (e *Engine) Run(o Options, ps []mb.Packet, maxSteps int) (Result, error) {
	sh := o.Shape
	if err := sh.Validate(); err != nil {
		return Result{}, err
	}
	N, S, Q := sh.N(), sh.Stages(), sh.Queues()
	nq := S * N * Q
	if cap(e.q) < nq {
		e.q = make([][]mb.Packet, nq)
		e.head = make([]int32, nq)
	}
	e.q, e.head = e.q[:nq], e.head[:nq]
	for i := range e.q {
		e.q[i], e.head[i] = e.q[i][:0], 0
	}
	if sh.Mode == mb.Buffered {
		nb := S * N * 2
		if cap(e.buf) < nb {
			e.buf, e.busy, e.full = make([]mb.Packet, nb), make([]int32, nb), make([]bool, nb)
		}
		e.buf, e.busy, e.full = e.buf[:nb], e.busy[:nb], e.full[:nb]
		clear(e.full)
		clear(e.busy)
	}
	heap := o.Priority == PaperPriority
	push := func(qi int, p mb.Packet) {
		q := append(e.q[qi], p)
		if heap { // sift up
			j := len(q) - 1
			for j > 0 {
				p := (j - 1) / 2
				if !less(q[j], q[p]) {
					break
				}
				q[j], q[p] = q[p], q[j]
				j = p
			}
		}
		e.q[qi] = q
	}
	peek := func(qi int) mb.Packet {
		if heap {
			return e.q[qi][0]
		}
		return e.q[qi][e.head[qi]]
	}
	pop := func(qi int) {
		q := e.q[qi]
		if !heap {
			e.head[qi]++
			if int(e.head[qi]) == len(q) {
				e.q[qi], e.head[qi] = q[:0], 0
			}
			return
		}
		last := len(q) - 1
		q[0] = q[last]
		q = q[:last]
		j := 0
		for {
			l := 2*j + 1
			if l >= len(q) {
				break
			}
			m := l
			if l+1 < len(q) && less(q[l+1], q[l]) {
				m = l + 1
			}
			if !less(q[m], q[j]) {
				break
			}
			q[j], q[m] = q[m], q[j]
			j = m
		}
		e.q[qi] = q
	}
	size := func(qi int) int { return len(e.q[qi]) - int(e.head[qi]) }
	qidx := func(s int, row int32, l int) int {
		i := s*N + int(row)
		if Q == 2 {
			return 2*i + l
		}
		return i
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
		qi := qidx(0, p.Src, sh.Link(p, 0))
		push(qi, p)
		res.MaxQueue = max(res.MaxQueue, size(qi))
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
			for row := int32(0); row < int32(N); row++ {
				for l := range Q {
					qi := qidx(s, row, l)
					if size(qi) == 0 {
						continue
					}
					p := peek(qi)
					k := p.ID
					to := sh.RowAt(p, s+1)
					if s+1 == S {
						pop(qi)
						perStage[s]--
						res.Latency[k] = t
						res.Steps = int(t)
						left--
						continue
					}
					if Q == 1 {
						pop(qi)
						perStage[s]--
						perStage[s+1]++
						nq := qidx(s+1, to, 0)
						push(nq, p)
						res.MaxQueue = max(res.MaxQueue, size(nq))
						if o.Fault == FaultNodeSendsTwo && size(qi) > 0 {
							// planted fault: a second packet in the same step
							p2 := peek(qi)
							pop(qi)
							perStage[s]--
							perStage[s+1]++
							push(qidx(s+1, sh.RowAt(p2, s+1), 0), p2)
						}
						continue
					}
					in := 0
					if to != row {
						in = 1
					}
					b := 2*((s+1)*N+int(to)) + in
					if o.Shape.StrictBuffers && o.Fault != FaultIgnoreStrict && e.busy[b] == t {
						continue
					}
					pop(qi)
					perStage[s]--
					perStage[s+1]++
					e.buf[b], e.full[b] = p, true
				}
				if Q == 2 && s > 0 {
					// Drain this node's buffers (straight, then cross) into
					// its link queues; arrivals of this step come later (the
					// stage below is swept after this one).
					for in := range 2 {
						b := 2*(s*N+int(row)) + in
						if !e.full[b] {
							continue
						}
						q := e.buf[b]
						e.full[b], e.busy[b] = false, t
						nq := qidx(s, row, sh.Link(q, s))
						push(nq, q)
						res.MaxQueue = max(res.MaxQueue, size(nq))
					}
				}
			}
		}
	}
	return res, nil
}
