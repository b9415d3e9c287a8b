package popslower

import (
	"fmt"
	"math/bits"

	"routecheck/models/pops"
)

// Reach holds the sets P(i, t) of the proof of Theorem 2.8: the packets
// processor i can have seen after t slots of a rigid algorithm, one bit set
// of n bits per processor.
type Reach struct {
	n     int
	words int
	sets  []uint64 // processor i's set at sets[i*words : (i+1)*words]
}

// NewReach is P(i, 0) = {p_i}.
func NewReach(n int) *Reach {
	w := (n + 63) / 64
	r := &Reach{n: n, words: w, sets: make([]uint64, n*w)}
	for i := range n {
		r.sets[i*w+i/64] |= 1 << (i % 64)
	}
	return r
}

// Has reports whether packet p is in P(i, t).
func (r *Reach) Has(i, p int) bool { return r.sets[i*r.words+p/64]>>(p%64)&1 == 1 }

// Size is |P(i, t)|.
func (r *Reach) Size(i int) int {
	s := 0
	for _, w := range r.sets[i*r.words : (i+1)*r.words] {
		s += bits.OnesCount64(w)
	}
	return s
}

// Slot advances the sets by one slot of a rigid algorithm whose
// communication in that slot is acts (only who sends on which couplers and
// who listens where matters): a listener i on coupler c(group(i), a) with
// exactly one sender j gets P(i) ∪ P(j); with none or several (a conflict)
// it learns nothing. It returns an error for an action the hardware cannot
// perform (a processor listening outside its group's couplers, a wrong
// number of actions).
func (r *Reach) Slot(sh pops.Shape, acts []pops.Action) error {
	if len(acts) != r.n || sh.N() != r.n {
		return fmt.Errorf("popslower: %d actions for n = %d", len(acts), r.n)
	}
	g := sh.G
	sender := make([]int, g*g) // coupler to·g+from → sender+1, or −1 for a conflict
	for j, a := range acts {
		if a.Send < 0 && a.Ack < 0 {
			continue
		}
		from := sh.Group(j)
		for _, to := range a.To {
			if to < 0 || int(to) >= g {
				return fmt.Errorf("popslower: processor %d sends to group %d of %d", j, to, g)
			}
			c := int(to)*g + from
			switch sender[c] {
			case 0:
				sender[c] = j + 1
			default:
				sender[c] = -1
			}
		}
	}
	old := append([]uint64(nil), r.sets...)
	for i, a := range acts {
		if a.Listen < 0 {
			continue
		}
		if int(a.Listen) >= g {
			return fmt.Errorf("popslower: processor %d listens to group %d of %d", i, a.Listen, g)
		}
		s := sender[sh.Group(i)*g+int(a.Listen)]
		if s <= 0 {
			continue
		}
		j := s - 1
		dst := r.sets[i*r.words : (i+1)*r.words]
		for k, w := range old[j*r.words : (j+1)*r.words] {
			dst[k] |= w
		}
	}
	return nil
}

// Unseen returns a pair (h, i) with packet p_h not in P(i, t), or ok =
// false when every processor has seen every packet. A rigid algorithm that
// stops now fails on every permutation with π(h) = i.
func (r *Reach) Unseen() (h, i int, ok bool) {
	for i := range r.n {
		for k, w := range r.sets[i*r.words : (i+1)*r.words] {
			full := ^uint64(0)
			if k == r.words-1 && r.n%64 != 0 {
				full = 1<<(r.n%64) - 1
			}
			if w != full {
				return k*64 + bits.TrailingZeros64(^w&full), i, true
			}
		}
	}
	return 0, 0, false
}

// CeilLog2 is ⌈log₂ n⌉ for n ≥ 1: Theorem 2.8's bound, since |P(i, t)| ≤ 2^t.
func CeilLog2(n int) int { return bits.Len(uint(n - 1)) }
