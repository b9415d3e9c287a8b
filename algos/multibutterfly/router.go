package multibutterfly

import (
	"math/rand/v2"

	mb "routecheck/models/multibutterfly"
)

// Priority is §3.2's batched priority routing as an mb.Router: the same
// rule as Run, decided node by node from the node's own View, so
// mb.RunRouter and the conformance suite (props/mbflytest) run it exactly
// as they run anyone's router. At step t (iteration t/2d + 1, colour
// t mod 2d) a node of the active parity takes its highest-priority packet p
// (lowest batch dest mod L, ties by the lower packet name) and sends it
// along its out edge of colour t mod 2d when that edge leads into the output
// set p's destination bit names and the head holds no packet of p's batch.
// Run is the fast engine; TestPriorityMatchesRun checks the two agree
// position by position.
//
// Fault plants one of the claims' faults (the zero value is the
// algorithm); the suite's own tests use it to show it catches them.
type Priority struct {
	Fault Fault

	net *mb.Network
	L   int
}

// Init records the network and the number of batches L.
func (r *Priority) Init(net *mb.Network, L int) { r.net, r.L = net, L }

// Route appends node v's move, if any, for step v.Step.
func (r *Priority) Route(v *mb.View, _ *rand.Rand, moves []mb.Move) []mb.Move {
	d2 := 2 * r.net.D
	t, c := v.Step/d2+1, int32(v.Step%d2)
	if v.Stage%2 != t%2 || len(v.Buffer) == 0 {
		return moves
	}
	var p mb.Header
	if r.Fault == FaultLowestPriority {
		p = pick(v.Buffer, r.L, func(k, bk int) bool { return k > bk })
	} else {
		p = pick(v.Buffer, r.L, func(k, bk int) bool { return k < bk })
	}
	k := Batch(p.Dest, r.L)
	for _, e := range v.Out {
		if e.Colour != c {
			continue
		}
		if r.Fault != FaultIgnoreBit && e.Lower != r.net.GoesLower(p.Dest, v.Stage) {
			continue
		}
		if r.Fault != FaultIgnoreBatch && headerHoldsBatch(e.Head, r.L, k) {
			continue
		}
		moves = append(moves, mb.Move{Packet: p.Packet, Edge: e.Edge})
	}
	return moves
}

// pick returns the header whose batch beats all others by better (ties:
// the lower packet name); buf is non-empty.
func pick(buf []mb.Header, L int, better func(k, bk int) bool) mb.Header {
	best, bk := buf[0], Batch(buf[0].Dest, L)
	for _, h := range buf[1:] {
		if k := Batch(h.Dest, L); better(k, bk) || k == bk && h.Packet < best.Packet {
			best, bk = h, k
		}
	}
	return best
}

func headerHoldsBatch(hs []mb.Header, L, k int) bool {
	for _, h := range hs {
		if Batch(h.Dest, L) == k {
			return true
		}
	}
	return false
}

// PriorityMaxSteps is the step cap Run uses by default, 2d ·
// DefaultMaxIterations(log N, L), as a termination bound for RunRouter and
// the conformance suite.
func PriorityMaxSteps(logN, d, L int) int {
	return 2 * d * DefaultMaxIterations(logN, L)
}

var _ mb.Router = (*Priority)(nil)
