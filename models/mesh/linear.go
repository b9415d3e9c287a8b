package mesh

import (
	"errors"
	"fmt"
	"slices"
)

// Packet is a packet in a queue: an id (unique within a run) and its
// destination PU.
type Packet struct{ ID, Dst int32 }

// Linear is the state of a linear array between steps.
type Linear struct {
	// Queues[i] holds the packets at PU i that have not reached their
	// destination.
	Queues [][]Packet
	// Step counts the steps taken.
	Step int
}

// NewLinear places the packets: src[p] is the PU packet p starts at and
// dst[p] its destination. A packet already at its destination is delivered
// at once (it never enters a queue).
func NewLinear(n int, src, dst []int32) (Linear, error) {
	if n < 1 {
		return Linear{}, fmt.Errorf("mesh: n = %d, allowed n ≥ 1", n)
	}
	if len(src) != len(dst) {
		return Linear{}, fmt.Errorf("mesh: %d sources for %d destinations", len(src), len(dst))
	}
	s := Linear{Queues: make([][]Packet, n)}
	for p := range src {
		if src[p] < 0 || int(src[p]) >= n || dst[p] < 0 || int(dst[p]) >= n {
			return Linear{}, fmt.Errorf("mesh: packet %d goes %d → %d, allowed PUs are [0, %d)", p, src[p], dst[p], n)
		}
		if src[p] != dst[p] {
			s.Queues[src[p]] = append(s.Queues[src[p]], Packet{ID: int32(p), Dst: dst[p]})
		}
	}
	return s, nil
}

// Clone returns a deep copy.
func (s Linear) Clone() Linear {
	c := Linear{Step: s.Step, Queues: make([][]Packet, len(s.Queues))}
	for i, q := range s.Queues {
		c.Queues[i] = slices.Clone(q)
	}
	return c
}

// Pending is the number of packets not yet delivered.
func (s Linear) Pending() int {
	k := 0
	for _, q := range s.Queues {
		k += len(q)
	}
	return k
}

// Send is what one PU does in a step: the queue index of the packet sent to
// the right neighbour and of the one sent to the left, or −1.
type Send struct{ Right, Left int32 }

// Idle is a PU that sends nothing.
var Idle = Send{Right: -1, Left: -1}

// ErrAction is wrapped by every error StepLinear returns for a step the
// hardware cannot perform.
var ErrAction = errors.New("mesh: illegal action")

// StepEvents is what a step produced.
type StepEvents struct {
	Moves     int     // packets that crossed a link
	Delivered []int32 // packets that reached their destination, by id
	MaxQueue  int     // the largest queue after the step
}

// StepLinear performs one step: every PU sends the chosen packets over its
// links (one per link and direction), arriving packets join the receiver's
// queue at the end (in the order: from the left neighbour, then from the
// right), and a packet arriving at its destination is delivered. s is not
// modified. Errors: a wrong number of actions, an index out of range, the
// same packet sent both ways, or a send off the end of the array.
func StepLinear(s Linear, a []Send) (Linear, StepEvents, error) {
	n := len(s.Queues)
	if len(a) != n {
		return Linear{}, StepEvents{}, fmt.Errorf("%w: %d actions for %d PUs", ErrAction, len(a), n)
	}
	for i, x := range a {
		q := int32(len(s.Queues[i]))
		// An if-chain rather than a tagless switch only so that gremlins
		// v0.6.0 mutates these conditions (it never mutates a switch case's
		// condition: go-gremlins/gremlins#298); the checks and their order
		// are the same.
		if x.Right < -1 || x.Right >= q || x.Left < -1 || x.Left >= q {
			return Linear{}, StepEvents{}, fmt.Errorf("%w: PU %d sends indices (%d, %d) of a queue of %d", ErrAction, i, x.Right, x.Left, q)
		}
		if x.Right >= 0 && x.Right == x.Left {
			return Linear{}, StepEvents{}, fmt.Errorf("%w: PU %d sends packet %d both ways", ErrAction, i, x.Right)
		}
		if x.Right >= 0 && i == n-1 {
			return Linear{}, StepEvents{}, fmt.Errorf("%w: PU %d is the rightmost and sends right", ErrAction, i)
		}
		if x.Left >= 0 && i == 0 {
			return Linear{}, StepEvents{}, fmt.Errorf("%w: PU 0 sends left", ErrAction)
		}
	}
	next := Linear{Step: s.Step + 1, Queues: make([][]Packet, n)}
	var ev StepEvents
	for i, q := range s.Queues {
		kept := make([]Packet, 0, len(q)+2)
		for k, p := range q {
			if int32(k) != a[i].Right && int32(k) != a[i].Left {
				kept = append(kept, p)
			}
		}
		next.Queues[i] = kept
	}
	arrive := func(i int, p Packet) {
		ev.Moves++
		if p.Dst == int32(i) {
			ev.Delivered = append(ev.Delivered, p.ID)
			return
		}
		next.Queues[i] = append(next.Queues[i], p)
	}
	for i := range n {
		if i > 0 && a[i-1].Right >= 0 {
			arrive(i, s.Queues[i-1][a[i-1].Right])
		}
		if i+1 < n && a[i+1].Left >= 0 {
			arrive(i, s.Queues[i+1][a[i+1].Left])
		}
	}
	for _, q := range next.Queues {
		ev.MaxQueue = max(ev.MaxQueue, len(q))
	}
	return next, ev, nil
}
