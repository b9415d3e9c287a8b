// Package popsobl holds oblivious routers for POPS(d, g) — algorithms in
// which the path of a packet depends only on its source and destination
// (000_de3be866f009217f.txt §II-B) — and an executor that runs any such path
// family on the slot model with a greedy, conflict-free schedule.
//
// A path from processor a to processor b is given as the processors it
// visits after a, ending with b; the hop from q to q' uses coupler
// c(group(q'), group(q)). They exist to be attacked by the construction of
// Theorem 2.5 (routecheck/oracles/popslower).
package popsobl

import (
	"fmt"

	"routecheck/models/pops"
)

// Family returns the path of the packet from a to b (a ≠ b): the processors
// visited after a, ending with b, consecutive entries distinct.
type Family func(a, b int32) []int32

// Direct is the one-hop family: a sends on c(group(b), group(a)) and b
// listens. It is the obvious oblivious router.
func Direct(sh pops.Shape) Family {
	return func(a, b int32) []int32 { return []int32{b} }
}

// TwoHop is a deterministic two-hop family in the spirit of Valiant's
// scheme without the randomness: the packet first goes to processor
// m = h·d + (b mod d) of the intermediate group h = (group(a) + group(b) + 1)
// mod g, then to b; when m coincides with a or b the path is direct.
func TwoHop(sh pops.Shape) Family {
	d, g := int32(sh.D), int32(sh.G)
	return func(a, b int32) []int32 {
		h := (a/d + b/d + 1) % g
		m := h*d + b%d
		if m == a || m == b {
			return []int32{b}
		}
		return []int32{m, b}
	}
}

// Result is the outcome of Execute.
type Result struct {
	Slots     int   // slots until every packet was delivered
	Delivered int   // packets delivered
	MaxQueue  int   // most packets held by one processor at a slot boundary
	Conflicts int   // coupler conflicts (the schedule makes none)
	Lost      []int // packets lost (none expected)
}

// Execute routes the permutation dst (dst[a] = destination of the packet at
// a) along fam on the slot model. Each slot it scans the undelivered packets
// in source order and moves a packet one hop when its current processor has
// not sent yet, its coupler is free and the next processor is not yet
// listening to another coupler; a moved packet is dropped by the sender in
// the same slot (store and forward), and accepted by the receiver as a copy,
// or as delivered when the receiver is the destination. Any queueing
// discipline needs at least the congestion of the paths in slots, so the
// greedy choice does not matter for the lower bound. maxSlots (> 0) cuts
// the run; it returns an error for a model violation or a malformed path.
func Execute(sh pops.Shape, dst []int32, fam Family, maxSlots int) (Result, error) {
	n := sh.N()
	st, err := pops.NewState(sh, dst)
	if err != nil {
		return Result{}, err
	}
	paths := make([][]int32, n)
	pos := make([]int32, n) // current processor of packet p
	hop := make([]int, n)   // index into paths[p] of the next processor
	for a, b := range dst {
		pos[a] = int32(a)
		if b < 0 || int(b) == a {
			continue
		}
		p := fam(int32(a), b)
		if len(p) == 0 || p[len(p)-1] != b {
			return Result{}, fmt.Errorf("popsobl: path from %d to %d is %v: must end at the destination", a, b, p)
		}
		prev := int32(a)
		for _, q := range p {
			if q < 0 || int(q) >= n || q == prev {
				return Result{}, fmt.Errorf("popsobl: path from %d to %d is %v: bad step to %d", a, b, p, q)
			}
			prev = q
		}
		paths[a] = p
	}
	var res Result
	remaining := 0
	for a, b := range dst {
		if b >= 0 && int(b) != a {
			remaining++
		} else if b >= 0 {
			res.Delivered++ // a packet already at its destination
		}
	}
	acts := make([]pops.Action, n)
	sending := make([]bool, n)
	listening := make([]bool, n)
	used := map[pops.Coupler]bool{}
	for remaining > 0 && res.Slots < maxSlots {
		for i := range acts {
			acts[i] = pops.Idle()
			sending[i], listening[i] = false, false
		}
		clear(used)
		var moved []int32
		for p := range n {
			if paths[p] == nil || hop[p] >= len(paths[p]) {
				continue
			}
			q, r := pos[p], paths[p][hop[p]]
			c := pops.Coupler{To: int32(sh.Group(int(r))), From: int32(sh.Group(int(q)))}
			if sending[q] || listening[r] || used[c] {
				continue
			}
			k := -1
			for j, it := range st.Buf[q] {
				if it.Packet == int32(p) && it.Kind != pops.Delivered {
					k = j
					break
				}
			}
			if k < 0 {
				return res, fmt.Errorf("popsobl: packet %d not held by processor %d", p, q)
			}
			sending[q], listening[r], used[c] = true, true, true
			acts[q] = pops.Action{Send: int32(k), Ack: -1, To: []int32{c.To}, Listen: acts[q].Listen, Keep: acts[q].Keep, Drop: []int32{int32(k)}}
			keep := pops.KeepAll
			if hop[p] == len(paths[p])-1 {
				keep = pops.KeepOwn
			}
			acts[r].Listen, acts[r].Keep = c.From, keep
			moved = append(moved, int32(p))
		}
		next, ev, err := pops.Step(st, acts)
		if err != nil {
			return res, fmt.Errorf("popsobl: slot %d: %w", res.Slots+1, err)
		}
		res.Slots++
		res.Conflicts += len(ev.Conflicts)
		for _, p := range ev.Lost {
			res.Lost = append(res.Lost, int(p))
		}
		for _, p := range moved {
			pos[p] = paths[p][hop[p]]
			hop[p]++
			if hop[p] == len(paths[p]) {
				remaining--
				res.Delivered++
			}
		}
		st = next
		for _, b := range st.Buf {
			res.MaxQueue = max(res.MaxQueue, len(b))
		}
	}
	return res, nil
}

// Hashed is Valiant's two-hop scheme with its random intermediate fixed by
// a seed: the packet from a to b goes first to processor m = h(seed, a, b)
// mod n, a hash of the seed and the pair, then to b (directly when m is a
// or b). For a fixed seed it is a deterministic oblivious family; with the
// seed drawn at random it is a randomized oblivious router (the path still
// depends only on a, b and the random bits), which is how Corollary 2.7's
// randomized side is run. The intermediate is uniform over the n processors
// up to the hash's bias.
func Hashed(sh pops.Shape, seed uint64) Family {
	n := uint64(sh.N())
	return func(a, b int32) []int32 {
		m := int32(splitmix(seed^splitmix(uint64(a)<<32|uint64(uint32(b)))) % n)
		if m == a || m == b {
			return []int32{b}
		}
		return []int32{m, b}
	}
}

// splitmix is SplitMix64's finalizer (Steele, Lea, Flood 2014).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
