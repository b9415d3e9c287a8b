package popsds

import (
	"fmt"

	"routecheck/algos/popsdet"
	asn "routecheck/algos/sortnet"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
)

// The rigid variant ("pops-ds-rigid", Options.Rigid; issue 12). The
// faithful completion (router.go: run information, waves, final rounds) is
// data-dependent at d > g: the run structure of a sorted sub-network decides
// who reports, who listens to which group and which parked packet goes out
// in which final round. The repair keeps [8]'s part as the seed describes it
// (the d/g sub-network sorts by Batcher's odd-even merge sort, unchanged)
// and replaces the completion with data movement whose pattern depends on
// (d, g) only:
//
//   - Global wires: wire W = j·g² + r of all n = d·g wires is wire r of
//     sub-network j, i.e. processor proc(j, r). The sub-network sorts are then
//     exactly the first L0(L0+1)/2 stages (L0 = 2 log g) of Batcher's
//     odd-even merge sort on n wires (every comparator of those stages lies
//     inside one block of g² wires; compileRigid checks it).
//   - Merge: the remaining stages of that network (the merges of the sorted
//     blocks, across sub-networks), each routed as its exchange permutation
//     by Theorem 2.1's schedule on the whole POPS(d, g) (popsdet.NewPlan:
//     a source → relay → target hop per round, 2 slots a round). Every round
//     the plan has is stepped, whether or not it carries a packet, so the
//     slots are fixed; the data decides only which packet each wire keeps.
//   - Delivery: after the merge wire W holds the packet of global rank W in
//     the key order (y mod g, y), which is the packet with destination
//     y(W) = (W mod d)·g + ⌊W/d⌋ (key h = ⌊W/d⌋ has exactly d packets, the
//     destinations h, g + h, 2g + h, … in order). So one fixed permutation,
//     proc(W) → y(W), again by Theorem 2.1's schedule, delivers everything.
//
// Slot count: (d/g)·SortSlots(g) + 2·(rounds of every merge plan) +
// 2·(rounds of the delivery plan), the same for every permutation
// (RigidSlots). It is a construction of ours, not [8]'s text; its cost
// against §IV's lump 21d/g + 3 log g + 7 is a claim
// (props/pops/rigid8r_claims.go), not an assumption.

// roundPlan is a Theorem 2.1 schedule on POPS(d, g) with the wires it moves.
type roundPlan struct {
	plan   popsdet.Plan
	comp   []sortnet.Comparator // global wires; nil for the delivery plan
	rounds int                  // rounds stepped: max Round + 1 over the plan
}

// wproc is the processor of global wire w.
func (rt *router) wproc(w int) int { return rt.proc(w/rt.m, w%rt.m) }

func newRoundPlan(sh pops.Shape, pi []int32, comp []sortnet.Comparator) (roundPlan, error) {
	pl, err := popsdet.NewPlan(sh, pi)
	if err != nil {
		return roundPlan{}, err
	}
	rounds := 0
	for _, r := range pl.Round {
		rounds = max(rounds, int(r)+1)
	}
	return roundPlan{plan: pl, comp: comp, rounds: rounds}, nil
}

// compileRigid builds the merge and delivery plans from the shape alone.
func (rt *router) compileRigid() error {
	full, err := asn.OddEvenMergeSort(rt.n)
	if err != nil {
		return err
	}
	l0 := 2 * lg(rt.g)
	skip := l0 * (l0 + 1) / 2
	if len(full.Stages) < skip {
		return fmt.Errorf("popsds rigid: odd-even merge sort on %d wires has %d stages, fewer than the %d of the sub-network sorts", rt.n, len(full.Stages), skip)
	}
	for s, stg := range full.Stages {
		if s < skip {
			for _, c := range stg {
				if int(c.I)/rt.m != int(c.J)/rt.m {
					return fmt.Errorf("popsds rigid: stage %d comparator (%d, %d) leaves its block of g² = %d wires", s, c.I, c.J, rt.m)
				}
			}
			continue
		}
		pi := perm.Identity(rt.n)
		for _, c := range stg {
			a, b := rt.wproc(int(c.I)), rt.wproc(int(c.J))
			pi[a], pi[b] = int32(b), int32(a)
		}
		rp, err := newRoundPlan(rt.sh, pi, stg)
		if err != nil {
			return err
		}
		rt.mergePlans = append(rt.mergePlans, rp)
	}
	pi := make([]int32, rt.n)
	for w := range rt.n {
		pi[rt.wproc(w)] = int32(rankDst(rt.sh, w))
	}
	rt.finalPlan, err = newRoundPlan(rt.sh, pi, nil)
	return err
}

// rankDst is the destination of the packet of global rank w in the key
// order (y mod g, y): (w mod d)·g + ⌊w/d⌋.
func rankDst(sh pops.Shape, w int) int { return (w%sh.D)*sh.G + w/sh.D }

// RigidSlots is the rigid variant's slot count on POPS(sh), the same for
// every permutation; the second value is the completion's part (merge and
// delivery slots, everything after the sorts).
func RigidSlots(sh pops.Shape) (total, completion int, err error) {
	rt, err := newRouter(sh, perm.Identity(sh.N()), Options{Rigid: true})
	if err != nil {
		return 0, 0, err
	}
	for _, rp := range rt.mergePlans {
		completion += 2 * rp.rounds
	}
	completion += 2 * rt.finalPlan.rounds
	return rt.k*SortSlots(rt.g) + completion, completion, nil
}

// routeRounds moves copies of the packets held by srcs (global processors)
// along rp, round by round (source → relay, relay → target; 2 slots a
// round, every round stepped), and returns the packet each target received.
// With deliver set, sources drop their packets and targets keep only their
// own (the last hop).
func (rt *router) routeRounds(rp roundPlan, srcs []int, deliver bool) (map[int]int32, error) {
	out := map[int]int32{}
	pl := rp.plan
	for rho := range rp.rounds {
		rt.begin()
		type mv struct {
			pk                  int32
			from, relay, target int
		}
		var mvs []mv
		for _, p := range srcs {
			if int(pl.Round[p]) != rho {
				continue
			}
			pk := rt.cur[p]
			relay := int(pl.Relay[p])
			if rt.mut == MergeDataRelay && rt.phase == PhaseMerge && pk >= 0 && rt.st.Dst[pk]%2 == 1 {
				relay = p
			}
			if pk < 0 || !rt.send(p, pk, []int32{int32(rt.sh.Group(relay))}, deliver) {
				continue
			}
			if deliver {
				rt.cur[p] = -1
			}
			rt.listen(relay, rt.sh.Group(p), pops.KeepAll)
			mvs = append(mvs, mv{pk: pk, from: p, relay: relay, target: int(pl.Dst[p])})
		}
		if _, err := rt.step(); err != nil {
			return nil, err
		}
		for _, x := range mvs {
			if msg, ok := rt.got(x.relay); ok && msg.Kind == pops.PacketMsg && msg.Packet == x.pk {
				rt.transit[x.relay] = x.pk
			}
		}
		rt.begin()
		keep := pops.KeepAll
		if deliver {
			keep = pops.KeepOwn
		}
		for _, x := range mvs {
			if rt.transit[x.relay] != x.pk {
				rt.res.Misheard++
				continue
			}
			if rt.send(x.relay, x.pk, []int32{int32(rt.sh.Group(x.target))}, true) {
				rt.listen(x.target, rt.sh.Group(x.relay), keep)
			}
		}
		if _, err := rt.step(); err != nil {
			return nil, err
		}
		for _, x := range mvs {
			if rt.transit[x.relay] == x.pk {
				rt.transit[x.relay] = -1
			}
			if msg, ok := rt.got(x.target); ok && msg.Kind == pops.PacketMsg && msg.Packet == x.pk {
				out[x.target] = x.pk
				if !deliver {
					// Held (as park) until the compare-exchange after
					// the last round, so later rounds do not drop it.
					rt.park[x.target] = x.pk
				}
			}
		}
	}
	return out, nil
}

// routeRigid runs the rigid variant on a router newRouter set up.
func (rt *router) routeRigid() (Result, error) {
	for j := range rt.k {
		if err := rt.sort(j); err != nil {
			return rt.res, err
		}
	}
	rt.phase = PhaseMerge
	for s, rp := range rt.mergePlans {
		var srcs []int
		for _, c := range rp.comp {
			srcs = append(srcs, rt.wproc(int(c.I)), rt.wproc(int(c.J)))
		}
		before := rt.res.Slots
		recv, err := rt.routeRounds(rp, srcs, false)
		if err != nil {
			return rt.res, err
		}
		rt.res.MergeSlots += rt.res.Slots - before
		for _, c := range rp.comp {
			pi, pj := rt.wproc(int(c.I)), rt.wproc(int(c.J))
			lo, hi, ok := rt.heard(recv, pi, pj)
			if !ok {
				continue
			}
			if rt.mut == MergeKeepOwn && s == len(rt.mergePlans)-1 {
				lo, hi = rt.cur[pi], rt.cur[pj]
			}
			rt.cur[pi], rt.cur[pj] = lo, hi
		}
		for _, p := range srcs {
			rt.park[p] = -1
		}
	}
	rt.phase = PhaseFinal
	srcs := make([]int, rt.n)
	for w := range rt.n {
		srcs[w] = rt.wproc(w)
	}
	before := rt.res.Slots
	if _, err := rt.routeRounds(rt.finalPlan, srcs, true); err != nil {
		return rt.res, err
	}
	rt.res.FinalSlots += rt.res.Slots - before
	rt.tally()
	return rt.res, nil
}
