package butterfly

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// §2's greedy algorithm as the paper states it (001_afbf5d537b48cc65.txt
// §2): "Each packet is assigned upon entry a random priority uniformly
// chosen in a range 1, …, K (K = Θ(log N + p), where p is the maximum
// number of packets at any source or destination). Each input and switch
// forward a packet at each cycle, whenever a packet is queued at the node.
// Conflicts are resolved by forwarding the packet with highest priority,
// with ties broken according to the packet source. (Priorities are an
// artifact needed for proving upper bounds. In practice, random conflict
// resolution seems adequate.)"
//
// It differs from the routers of butterfly.go (Options, Greedy, Engine):
// there the priority is §3's two-part (⌈ℓ/log N⌉, R), R in a range of
// c·log N·2^r + 1 values that does not grow with p, and FIFO stands in for
// "random conflict resolution". Here:
//   - K = ⌈KFactor·(log N + p)⌉ (KFactor 0 means 1: the Θ's constant is
//     the paper's to hide; 1 is our choice and is a parameter);
//   - "highest priority" is read as the largest number (the priorities are
//     uniform, so the other reading has the same law);
//   - Sec2Rule says how conflicts are resolved: Sec2TieSource as printed
//     (highest priority, then the smaller source; equal sources — copies
//     of one input — by ℓ, which the text leaves open), Sec2TieRandom
//     (highest priority, ties uniformly at random at every conflict: the
//     brief's "random conflict resolution among equal priorities"), and
//     Sec2Random (the parenthetical: no priorities, the forwarded packet
//     uniformly random among those queued).
//
// Sec2Router runs it on the step model; Sec2Engine is the fast engine (§2
// node model only), which consumes the conflict-resolution stream exactly
// as the step model asks the router (node by node, stage by stage, row by
// row; a draw only where there is a choice), so both give every packet the
// same delivery step from the same seed (TestSec2EngineEqualsModel).

// Sec2Rule is §2's conflict resolution.
type Sec2Rule uint8

// The rules.
const (
	Sec2TieSource Sec2Rule = iota // highest priority, ties by smaller source, then ℓ (as printed)
	Sec2TieRandom                 // highest priority, ties uniformly at random
	Sec2Random                    // no priorities: a uniformly random queued packet
)

func (r Sec2Rule) String() string {
	switch r {
	case Sec2TieSource:
		return "sec2-tie-source"
	case Sec2TieRandom:
		return "sec2-tie-random"
	case Sec2Random:
		return "sec2-random"
	}
	return fmt.Sprintf("Sec2Rule(%d)", int(r))
}

// Sec2Rules lists the rules.
var Sec2Rules = []Sec2Rule{Sec2TieSource, Sec2TieRandom, Sec2Random}

// Sec2Fault is a planted fault of the fast engine (props' power checks);
// Sec2NoFault, the zero value, is the engine.
type Sec2Fault uint8

// The planted faults.
const (
	Sec2NoFault Sec2Fault = iota
	// Sec2FaultNoTieDraw: the engine serves the first of the tied best
	// packets (queue order) instead of drawing among them.
	Sec2FaultNoTieDraw
)

// Sec2Options describe §2's router: the network (the engine needs the §2
// node model, mb.NodeQueue), the factor of K and the rule.
type Sec2Options struct {
	Shape   mb.Shape
	KFactor float64 // K = ⌈KFactor·(log N + p)⌉; 0 means 1
	Rule    Sec2Rule
	Fault   Sec2Fault
}

// MaxSec2K bounds K (the priority is packed in 31 bits of the key).
const MaxSec2K = 1 << 30

// K is the priority range for p packets per source or destination:
// ⌈KFactor·(log N + p)⌉ (KFactor 0: 1).
func (o Sec2Options) K(p int) int {
	f := o.KFactor
	if f == 0 {
		f = 1
	}
	return int(math.Ceil(f * float64(o.Shape.LogN+p)))
}

func (o Sec2Options) validate() error {
	if err := o.Shape.Validate(); err != nil {
		return err
	}
	if o.KFactor < 0 || math.IsNaN(o.KFactor) || math.IsInf(o.KFactor, 0) {
		return fmt.Errorf("butterfly: K factor %g, allowed a finite factor ≥ 0 (0 means 1)", o.KFactor)
	}
	if o.Rule > Sec2Random {
		return fmt.Errorf("butterfly: §2 rule %d, allowed sec2-tie-source, sec2-tie-random or sec2-random", o.Rule)
	}
	return nil
}

// sec2Key packs a priority π ∈ [1, K] and a source so that a smaller key
// goes first: (K − π, source).
func sec2Key(k, prio int, src int32) uint64 { return uint64(k-prio)<<32 | uint64(uint32(src)) }

// Sec2Prio unpacks the priority π ∈ [1, K] of a key made for range K.
func Sec2Prio(k int, key uint64) int { return k - int(key>>32) }

// Sec2Packets returns the packets of the sequence perms (perms[ℓ−1] is
// permutation ℓ), input by input, each input's packets in order ℓ; packet
// k has ID k. p = len(perms) (the packets per source and per destination)
// and K = o.K(p). For every packet it draws X (r uniform bits, when r > 0)
// and then its priority π uniform in [1, K], from rng in that order (what
// Sec2Router's Launch draws). Key packs (K − π, source). Under Sec2Random
// the priorities are drawn all the same (and ignored), so the packets'
// routes do not depend on the rule.
func Sec2Packets(o Sec2Options, perms [][]int32, rng *rand.Rand) ([]mb.Packet, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	N := o.Shape.N()
	K := o.K(len(perms))
	if K < 1 || K > MaxSec2K {
		return nil, fmt.Errorf("butterfly: K = %d, allowed 1 ≤ K ≤ %d", K, MaxSec2K)
	}
	for l, p := range perms {
		if len(p) != N {
			return nil, fmt.Errorf("butterfly: permutation %d has %d entries, the network %d inputs", l+1, len(p), N)
		}
		if err := perm.Validate(p, true); err != nil {
			return nil, fmt.Errorf("butterfly: permutation %d: %w", l+1, err)
		}
	}
	r := Sec2Router{Sec2Options: o, P: len(perms)}
	ps := make([]mb.Packet, 0, N*len(perms))
	for i := range N {
		for l, p := range perms {
			q := mb.Packet{ID: int32(len(ps)), Src: int32(i), Dst: p[i], Perm: int32(l + 1)}
			q.X, q.Key = r.Launch(o.Shape, q, rng)
			ps = append(ps, q)
		}
	}
	return ps, nil
}

// Sec2Router is §2's greedy router as a models/butterfly Router. P is the
// number of packets per source or destination (K = Sec2Options.K(P)).
// Launch draws X (when r > 0) and then π uniform in [1, K]; Route forwards
// from every queue the packet chosen by Rule (see sec2Pick), drawing from
// rng only when the rule has a choice to make (Sec2TieRandom: two or more
// packets share the highest priority; Sec2Random: two or more packets are
// queued). Under strict buffers it does not send into a blocked link.
// Shape in Sec2Options is ignored by Route (the network comes with the
// view).
type Sec2Router struct {
	Sec2Options
	P int
}

// Launch implements mb.Router.
func (r Sec2Router) Launch(sh mb.Shape, p mb.Packet, rng *rand.Rand) (int32, uint64) {
	x := int32(0)
	if sh.R > 0 {
		x = int32(rng.IntN(1 << sh.R))
	}
	o := r.Sec2Options
	o.Shape = sh
	K := o.K(r.P)
	if K < 1 || K > MaxSec2K {
		panic(fmt.Sprintf("butterfly: K = %d outside [1, %d]", K, MaxSec2K))
	}
	return x, sec2Key(K, 1+rng.IntN(K), p.Src)
}

// Route implements mb.Router.
func (r Sec2Router) Route(v mb.View, rng *rand.Rand) []mb.Forward {
	var out []mb.Forward
	for qi, q := range v.Queues {
		if len(q) == 0 {
			continue
		}
		k := sec2Pick(r.Rule, len(q), func(i int) mb.Packet { return q[i] }, rng, false)
		l := qi
		if v.Mode == mb.NodeQueue {
			l = v.Link(q[k], v.Stage)
		}
		if v.Blocked[l] {
			continue
		}
		out = append(out, mb.Forward{Link: l, Index: k})
	}
	return out
}

// sec2Pick returns the index, in a queue of n packets (at(i) the i-th in
// queue order), of the packet the rule forwards. Sec2TieSource: the
// smallest (Key, Perm) — highest π, then smaller source, then ℓ.
// Sec2TieRandom: among the packets of highest π, the j-th in queue order
// with j = rng.IntN(count) (no draw when count is 1). Sec2Random: j =
// rng.IntN(n) (no draw when n is 1). noDraw plants Sec2FaultNoTieDraw.
func sec2Pick(rule Sec2Rule, n int, at func(int) mb.Packet, rng *rand.Rand, noDraw bool) int {
	switch rule {
	case Sec2Random:
		if n == 1 {
			return 0
		}
		return rng.IntN(n)
	case Sec2TieRandom:
		best, count := uint64(math.MaxUint64), 0
		for i := range n {
			switch pr := at(i).Key >> 32; {
			case pr < best:
				best, count = pr, 1
			case pr == best:
				count++
			}
		}
		j := 0
		if count > 1 && !noDraw {
			j = rng.IntN(count)
		}
		for i := range n {
			if at(i).Key>>32 == best {
				if j == 0 {
					return i
				}
				j--
			}
		}
		panic("butterfly: sec2Pick lost the tied packets")
	}
	k := 0
	for i := 1; i < n; i++ {
		if a, b := at(i), at(k); a.Key < b.Key || a.Key == b.Key && a.Perm < b.Perm {
			k = i
		}
	}
	return k
}

// Sec2Engine is the fast engine of §2's router in the §2 node model: per
// node a queue of packet indices in the step model's order, and a bitmap
// per stage of the non-empty queues; every step two passes: choose, in
// node order (stage, then row), from the queues as they were at the start
// of the step, drawing from the stream exactly where Sec2Router's Route
// would; then move, stages from the last and rows in increasing order, so
// that every removal keeps its queue's order and lands before the
// arrivals, which are appended in the sending rows' order — mb.Step's
// result. It keeps its buffers between runs and is not safe for
// concurrent use.
//
// Memory: 24 bytes per node queue header and 4 per node for the picks,
// 4 bytes per queued packet, a bit per node, and the packets themselves.
type Sec2Engine struct {
	q    [][]int32
	pick []int32
	act  []uint64 // per stage, ⌈N/64⌉ words: the row's queue is not empty
}

// Run routes the packets (IDs 0…k−1) with conflict resolutions drawn from
// rng and returns their delivery steps; it fails if some packet is
// undelivered after maxSteps steps, or if the shape is not the §2 node
// model.
func (e *Sec2Engine) Run(o Sec2Options, ps []mb.Packet, rng *rand.Rand, maxSteps int) (Result, error) {
	if err := o.validate(); err != nil {
		return Result{}, err
	}
	sh := o.Shape
	if sh.Mode != mb.NodeQueue {
		return Result{}, fmt.Errorf("butterfly: the §2 engine runs the §2 node model (node-queue), not %s", sh.Mode)
	}
	N, S := sh.N(), sh.Stages()
	if cap(e.q) < S*N {
		e.q = make([][]int32, S*N)
	}
	e.q = e.q[:S*N]
	for i := range e.q {
		e.q[i] = e.q[i][:0]
	}
	e.pick = grow(e.pick, S*N)
	words := (N + 63) / 64
	e.act = grow(e.act, S*words)
	clear(e.act)
	mark := func(s, row int) { e.act[s*words+row>>6] |= 1 << (uint(row) & 63) }
	perStage := make([]int, S)
	res := Result{Latency: make([]int32, len(ps))}
	for k, p := range ps {
		if int(p.ID) != k {
			return Result{}, fmt.Errorf("butterfly: packet %d has ID %d, want IDs 0…k−1 in order", k, p.ID)
		}
		if p.Src < 0 || int(p.Src) >= N || p.Dst < 0 || int(p.Dst) >= N || p.X < 0 || p.X >= 1<<sh.R {
			return Result{}, fmt.Errorf("butterfly: packet %d (%d → %d, X %d) out of range", k, p.Src, p.Dst, p.X)
		}
		e.q[p.Src] = append(e.q[p.Src], int32(k))
		mark(0, int(p.Src))
	}
	for _, q := range e.q[:N] {
		res.MaxQueue = max(res.MaxQueue, len(q))
	}
	perStage[0] = len(ps)
	left := len(ps)
	noDraw := o.Fault == Sec2FaultNoTieDraw
	for t := int32(1); left > 0; t++ {
		if int(t) > maxSteps {
			return res, fmt.Errorf("butterfly: %d packets undelivered after %d steps", left, maxSteps)
		}
		// Pass 1: choose, in node order, from the queues at the start.
		for s := range S {
			if perStage[s] == 0 {
				continue
			}
			for wi, w := range e.act[s*words : (s+1)*words] {
				for ; w != 0; w &= w - 1 {
					node := s*N + wi<<6 + bits.TrailingZeros64(w)
					e.pick[node] = int32(sec2PickIdx(o.Rule, e.q[node], ps, rng, noDraw))
				}
			}
		}
		// Pass 2: move, stages from the last (so stage s's arrivals land
		// after stage s+1's packet left, as mb.Step removes before it
		// appends), rows in increasing order (mb.Step's append order).
		for s := S - 1; s >= 0; s-- {
			if perStage[s] == 0 {
				continue
			}
			act := e.act[s*words : (s+1)*words]
			for wi, w := range act {
				for ; w != 0; w &= w - 1 {
					row := wi<<6 + bits.TrailingZeros64(w)
					node := s*N + row
					q := e.q[node]
					j := e.pick[node]
					k := q[j]
					e.q[node] = slices.Delete(q, int(j), int(j)+1)
					if len(e.q[node]) == 0 {
						act[wi] &^= 1 << (uint(row) & 63)
					}
					perStage[s]--
					if s+1 == S {
						res.Latency[k] = t
						res.Steps = int(t)
						left--
						continue
					}
					to := int(sh.RowAt(ps[k], s+1))
					nq := &e.q[(s+1)*N+to]
					*nq = append(*nq, k)
					mark(s+1, to)
					perStage[s+1]++
					res.MaxQueue = max(res.MaxQueue, len(*nq))
				}
			}
		}
	}
	return res, nil
}

// sec2PickIdx is sec2Pick on a queue of packet indices into ps, written
// out for the engine (a second implementation of the rule: the
// differential test compares them through the whole run).
func sec2PickIdx(rule Sec2Rule, q []int32, ps []mb.Packet, rng *rand.Rand, noDraw bool) int {
	n := len(q)
	if n == 1 {
		return 0
	}
	switch rule {
	case Sec2Random:
		return rng.IntN(n)
	case Sec2TieRandom:
		best, count := ps[q[0]].Key>>32, 1
		for _, k := range q[1:] {
			if pr := ps[k].Key >> 32; pr < best {
				best, count = pr, 1
			} else if pr == best {
				count++
			}
		}
		j := 0
		if count > 1 && !noDraw {
			j = rng.IntN(count)
		}
		for i, k := range q {
			if ps[k].Key>>32 == best {
				if j == 0 {
					return i
				}
				j--
			}
		}
		panic("butterfly: sec2PickIdx lost the tied packets")
	}
	b := 0
	bk, bp := ps[q[0]].Key, ps[q[0]].Perm
	for i, k := range q[1:] {
		if key, pm := ps[k].Key, ps[k].Perm; key < bk || key == bk && pm < bp {
			b, bk, bp = i+1, key, pm
		}
	}
	return b
}
