package popstwohop

import (
	"fmt"
	"slices"
	"sync"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Schedule is a deterministic two-hops algorithm on a fixed shape: Out(i, t)
// is the group processor i shoots its A-buffer packet at in odd slot t
// (slots are numbered from 1), In(i, t) the group it listens to in slot t,
// or −1 for a processor that does not listen. Both depend on i and t only.
type Schedule struct {
	Name  string
	Shape pops.Shape
	Out   func(i, t int) int
	In    func(i, t int) int
}

// Shift is the schedule c_out(i, t) = c_in(i, t) = (i + t) mod g.
//
// For d = g the d processors of a group shoot at d distinct groups in every
// odd slot (no odd-slot conflict) and the listeners of a group hear all g of
// its couplers. For d a multiple of g every coupler has d/g > 1 shooters, so
// nothing ever leaves the A-buffers; for d > g the listeners also duplicate,
// and two relays holding the same packet collide with each other.
func Shift(sh pops.Shape) Schedule {
	g := sh.G
	f := func(i, t int) int { return (i + t) % g }
	return Schedule{Name: "shift", Shape: sh, Out: f, In: f}
}

// Hashed is a derandomized Valiant scheme: processor i shoots at the fixed
// pseudo-random group h(i, t) mod g (h a splitmix64 hash of i and t, the
// same on every run), and the listeners are spread evenly (Spread's In).
func Hashed(sh pops.Shape) Schedule {
	g := uint64(sh.G)
	return Schedule{Name: "hashed", Shape: sh,
		Out: func(i, t int) int { return int(mix(uint64(i)<<32|uint64(uint32(t))) % g) },
		In:  spreadIn(sh),
	}
}

// Spread shoots like Shift, c_out(i, t) = (i + t) mod g, but spreads the
// listeners evenly: when d ≥ g exactly g processors of each group listen in
// every slot, one per coupler, processor r of the group (counted from a
// rotating offset ⌊(t−1)/2⌋·g mod d) to group (r + t) mod g, the others
// idle; when d < g every processor listens, to (ℓ + ⌊(t−1)/2⌋·d + t) mod g
// for its index ℓ in the group, so the d couplers a group hears rotate.
func Spread(sh pops.Shape) Schedule {
	g := sh.G
	return Schedule{Name: "spread", Shape: sh, Out: func(i, t int) int { return (i + t) % g }, In: spreadIn(sh)}
}

func spreadIn(sh pops.Shape) func(i, t int) int {
	d, g := sh.D, sh.G
	return func(i, t int) int {
		l, k := i%d, (t-1)/2
		if d < g {
			return (l + k*d + t) % g
		}
		r := ((l-k*g)%d + d) % d
		if r >= g {
			return -1
		}
		return (r + t) % g
	}
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Result is what Run observed.
type Result struct {
	// Slots is the number of slots run.
	Slots int
	// Routed[p] says packet p reached a processor of its destination group
	// (property 6); RoutedAt[p] is the slot it first did (0 when it started
	// there). Packets absent from a partial permutation are never routed.
	Routed   []bool
	RoutedAt []int
	// Conflicts[t−1] is the number of couplers with two or more senders in slot t.
	Conflicts []int
	// Relayed[t−1] lists the packets placed into a B-buffer in slot t (odd
	// slots only; a packet heard by two listeners appears twice), in
	// increasing order of the receiving processor.
	Relayed [][]int32
	// Final is the model state after the last slot.
	Final pops.State
}

// Run executes schedule s on the slot model for the given number of slots,
// routing the (partial) permutation dst: dst[p] is the destination of the
// packet starting at processor p. The mapping of properties 1–6 onto the
// model is described in the package documentation. pops.CheckInvariants runs
// after every slot. Run returns an error for a bad dst, an action the model
// rejects (e.g. Out or In outside the group range), or a broken invariant.
// Cost O(slots · (n + m log m)) for m transmissions per slot. The slots are
// stepped by a pops.Stepper (Step's physics with reused memory) taken from
// a pool, so that short runs on large shapes reuse the states of earlier
// runs; Final is a copy (State.Clone) that the Stepper no longer touches.
// Run is safe for concurrent use.
func Run(s Schedule, dst []int32, slots int) (Result, error) {
	stepper := stepperPool.Get().(*pops.Stepper)
	defer stepperPool.Put(stepper)
	res, err := run(s, dst, slots, stepper.Step)
	if err == nil {
		res.Final = res.Final.Clone() // the pooled Stepper will overwrite its states
	}
	return res, err
}

// stepperPool holds Steppers between runs; each Run has one to itself.
var stepperPool = sync.Pool{New: func() any { return new(pops.Stepper) }}

// stepFunc is pops.Step or a pops.Stepper's Step.
type stepFunc func(pops.State, []pops.Action) (pops.State, pops.Events, error)

// run is Run with the step function as a parameter, so that the tests can
// compare it with pops.Step and plant a misuse of the Stepper. With a
// Stepper, the results are valid until its next call (events) and the call
// after (state): run reads the events within their slot and keeps only the
// latest state across a step; res.Final is valid until the Stepper's next
// call (Run clones it). The actions' To and Drop slices point into buffers
// reused from slot to slot: a step only reads them during the call.
func run(s Schedule, dst []int32, slots int, step stepFunc) (Result, error) {
	sh := s.Shape
	n, d := sh.N(), sh.D
	st, err := pops.NewState(sh, dst)
	if err != nil {
		return Result{}, err
	}
	res := Result{Routed: make([]bool, n), RoutedAt: make([]int, n)}
	live := make([]bool, n) // A-buffer of processor i still holds p_i
	for p, q := range dst {
		if q == perm.None {
			continue
		}
		if int(q)/d == p/d {
			res.Routed[p] = true
		} else {
			live[p] = true
		}
	}
	bPkt := make([]int32, n) // B-buffer content, or −1
	for i := range bPkt {
		bPkt[i] = -1
	}
	acts := make([]pops.Action, n)
	toBuf := make([]int32, n)     // processor i's To is toBuf[i : i+1]
	dropBuf := make([]int32, 2*n) // its Drop is within dropBuf[2i : 2i+2]
	for t := 1; t <= slots; t++ {
		odd := t%2 == 1
		for i := range acts {
			a := pops.Idle()
			a.Listen = int32(s.In(i, t))
			a.Keep = pops.KeepAll
			drop, nd := dropBuf[2*i:2*i+2:2*i+2], 0
			orig := itemIndex(st.Buf[i], int32(i), pops.Original)
			if orig >= 0 && res.Routed[i] && res.RoutedAt[i] > 0 {
				drop[nd] = int32(orig) // property 6: gone from the A-buffer
				nd++
			}
			switch {
			case odd && live[i]:
				toBuf[i] = int32(s.Out(i, t))
				a.Send, a.To = int32(orig), toBuf[i:i+1:i+1]
			case !odd && bPkt[i] >= 0:
				k := itemIndex(st.Buf[i], bPkt[i], pops.Copy)
				if k < 0 {
					return res, fmt.Errorf("popstwohop: slot %d: processor %d lost its B-buffer packet %d", t, i, bPkt[i])
				}
				toBuf[i] = int32(int(dst[bPkt[i]]) / d)
				a.Send, a.To = int32(k), toBuf[i:i+1:i+1]
				drop[nd] = int32(k)
				nd++
				bPkt[i] = -1
			}
			if nd > 0 {
				a.Drop = drop[:nd]
			}
			acts[i] = a
		}
		next, ev, err := step(st, acts)
		if err != nil {
			return res, fmt.Errorf("popstwohop: %s, slot %d: %w", s.Name, t, err)
		}
		var relayed []int32
		if len(ev.Lost) > 0 {
			return res, fmt.Errorf("popstwohop: slot %d: packets %v lost", t, ev.Lost)
		}
		for _, r := range ev.Received {
			if r.Msg.Kind != pops.PacketMsg {
				continue
			}
			p, k := r.Msg.Packet, int(r.Proc)
			switch {
			case int(dst[p])/d == k/d:
				if !res.Routed[p] {
					res.Routed[p], res.RoutedAt[p] = true, t
					live[p] = false
				}
			case odd:
				if bPkt[k] >= 0 {
					return res, fmt.Errorf("popstwohop: slot %d: processor %d receives into a full B-buffer", t, k)
				}
				bPkt[k] = p
				relayed = append(relayed, p)
			default:
				return res, fmt.Errorf("popstwohop: slot %d: processor %d got packet %d outside its destination group in an even slot", t, k, p)
			}
		}
		res.Conflicts = append(res.Conflicts, len(ev.Conflicts))
		res.Relayed = append(res.Relayed, relayed)
		if err := pops.CheckInvariants(next); err != nil {
			return res, fmt.Errorf("popstwohop: slot %d: %w", t, err)
		}
		st = next
		res.Slots = t
	}
	res.Final = st
	return res, nil
}

// itemIndex is the index in buf of the first item of packet p of kind k, or −1.
func itemIndex(buf []pops.Item, p int32, k pops.ItemKind) int {
	return slices.IndexFunc(buf, func(it pops.Item) bool { return it.Packet == p && it.Kind == k })
}
