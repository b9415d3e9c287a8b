package mesh

import (
	"fmt"
	"slices"
)

// Dir is a link direction out of a PU.
type Dir uint8

// The four directions; row index grows Up, column index grows Right
// (position (i, j) is row i, column j, counted from the lower-left corner).
const (
	Right Dir = iota
	Left
	Up
	Down
)

func (d Dir) String() string { return [...]string{"right", "left", "up", "down"}[d] }

// Item is a packet in a PU's queue: its id, its final destination (row,
// column), and the PU (row-major index) the current phase is taking it to.
type Item struct {
	ID       int32
	Row, Col int32
	Target   int32
}

// Grid is the state of an n×n mesh (Torus adds wrap-around links) between
// steps. Queues are indexed row-major: PU (i, j) is Queues[i·n+j].
type Grid struct {
	N      int
	Torus  bool
	Queues [][]Item
	Step   int
}

// NewGrid is an n×n mesh with empty queues.
func NewGrid(n int, torus bool) (Grid, error) {
	if n < 1 {
		return Grid{}, fmt.Errorf("mesh: n = %d, allowed n ≥ 1", n)
	}
	return Grid{N: n, Torus: torus, Queues: make([][]Item, n*n)}, nil
}

// Clone returns a deep copy.
func (g Grid) Clone() Grid {
	c := g
	c.Queues = make([][]Item, len(g.Queues))
	for i, q := range g.Queues {
		c.Queues[i] = slices.Clone(q)
	}
	return c
}

// Neighbour is the PU across link d from PU p, or −1 at a mesh border.
func (g Grid) Neighbour(p int, d Dir) int {
	n := g.N
	i, j := p/n, p%n
	switch d {
	case Right:
		j++
	case Left:
		j--
	case Up:
		i++
	case Down:
		i--
	}
	if i < 0 || i >= n || j < 0 || j >= n {
		if !g.Torus {
			return -1
		}
		i, j = (i+n)%n, (j+n)%n
	}
	return i*n + j
}

// Moves is what one PU does in a step: for every direction the queue index
// of the packet sent over that link, or −1.
type Moves [4]int32

// Still is a PU that sends nothing.
var Still = Moves{-1, -1, -1, -1}

// GridEvents is what a step produced.
type GridEvents struct {
	Moved    int // link traversals
	MaxQueue int // the largest queue after the step
}

// StepGrid performs one store-and-forward step: every PU sends at most one
// packet over each of its links; arrivals join the receiver's queue (in the
// order of the sender's index, then direction). g is not modified. Errors:
// a wrong number of moves, an index out of range, one packet sent twice, a
// send over a missing (border) link.
func StepGrid(g Grid, m []Moves) (Grid, GridEvents, error) {
	if len(m) != len(g.Queues) {
		return Grid{}, GridEvents{}, fmt.Errorf("%w: %d moves for %d PUs", ErrAction, len(m), len(g.Queues))
	}
	for p, mv := range m {
		q := int32(len(g.Queues[p]))
		for d, k := range mv {
			if k == -1 {
				continue
			}
			if k < 0 || k >= q {
				return Grid{}, GridEvents{}, fmt.Errorf("%w: PU %d sends index %d %v of a queue of %d", ErrAction, p, k, Dir(d), q)
			}
			if g.Neighbour(p, Dir(d)) < 0 {
				return Grid{}, GridEvents{}, fmt.Errorf("%w: PU %d has no %v link", ErrAction, p, Dir(d))
			}
			for d2 := d + 1; d2 < 4; d2++ {
				if mv[d2] == k {
					return Grid{}, GridEvents{}, fmt.Errorf("%w: PU %d sends packet %d both %v and %v", ErrAction, p, k, Dir(d), Dir(d2))
				}
			}
		}
	}
	next := Grid{N: g.N, Torus: g.Torus, Step: g.Step + 1, Queues: make([][]Item, len(g.Queues))}
	for p, q := range g.Queues {
		kept := make([]Item, 0, len(q)+4)
		for k, it := range q {
			if !slices.Contains(m[p][:], int32(k)) {
				kept = append(kept, it)
			}
		}
		next.Queues[p] = kept
	}
	var ev GridEvents
	for p, mv := range m {
		for d, k := range mv {
			if k >= 0 {
				r := g.Neighbour(p, Dir(d))
				next.Queues[r] = append(next.Queues[r], g.Queues[p][k])
				ev.Moved++
			}
		}
	}
	for _, q := range next.Queues {
		ev.MaxQueue = max(ev.MaxQueue, len(q))
	}
	return next, ev, nil
}

// Count is the number of packets in the mesh (conserved by StepGrid).
func (g Grid) Count() int {
	k := 0
	for _, q := range g.Queues {
		k += len(q)
	}
	return k
}
