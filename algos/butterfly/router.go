package butterfly

import (
	"fmt"
	"math"
	"math/rand/v2"

	mb "routecheck/models/butterfly"
)

// Greedy is the paper's greedy router as a models/butterfly Router, so it
// runs through the same door as anyone's (props/bflytest): Launch draws a
// packet's X (r uniform bits, when r > 0) and then R (uniform in
// [0, ⌊c·log N·2^r⌋]) from rng, exactly as Packets does, and sets
// Key = (⌈ℓ/log N⌉, R, source); Route sends every queue's best packet
// (PaperPriority: smallest (Key, ℓ); FIFO: the oldest) unless, under
// strict buffers, the buffer at the far end of its link is occupied. It
// reads nothing but the node's view, works in both node models, and keeps
// no state. Shape in Options is ignored (the network comes with each
// call); Priority, C and Fault are used.
type Greedy struct{ Options }

// NewGreedy returns the greedy router of o, or an error if c is negative.
func NewGreedy(o Options) (Greedy, error) {
	if o.C < 0 || math.IsNaN(o.C) {
		return Greedy{}, fmt.Errorf("butterfly: c = %g, allowed c ≥ 0", o.C)
	}
	return Greedy{o}, nil
}

// Launch implements mb.Router.
func (g Greedy) Launch(sh mb.Shape, p mb.Packet, rng *rand.Rand) (int32, uint64) {
	x := int32(0)
	if sh.R > 0 {
		x = int32(rng.IntN(1 << sh.R))
	}
	o := g.Options
	o.Shape = sh
	rr := o.RangeR()
	if rr >= 1<<32 {
		panic(fmt.Sprintf("butterfly: c = %g gives a priority range %d ≥ 2^32", o.C, rr))
	}
	R := uint64(rng.Int64N(rr + 1))
	b := uint64(Block(int(p.Perm), sh.LogN))
	if b >= 1<<8 {
		panic(fmt.Sprintf("butterfly: permutation ℓ = %d, allowed ⌈ℓ/log N⌉ < 256", p.Perm))
	}
	return x, b<<56 | R<<24 | uint64(p.Src)
}

// Route implements mb.Router.
func (g Greedy) Route(v mb.View, _ *rand.Rand) []mb.Forward {
	var out []mb.Forward
	for qi, q := range v.Queues {
		if len(q) == 0 {
			continue
		}
		k := 0
		if g.Priority == PaperPriority {
			for j := range q {
				if less(q[j], q[k]) {
					k = j
				}
			}
		}
		l := qi
		if v.Mode == mb.NodeQueue {
			l = v.Link(q[k], v.Stage)
		}
		if v.Blocked[l] && g.Fault != FaultIgnoreStrict {
			continue
		}
		out = append(out, mb.Forward{Link: l, Index: k})
	}
	return out
}
