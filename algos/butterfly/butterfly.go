package butterfly

import (
	"fmt"
	"math"
	"math/rand/v2"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// Priority is the queue discipline.
type Priority uint8

// The disciplines.
const (
	PaperPriority Priority = iota // §3: smallest (⌈ℓ/log N⌉, R), then source, then ℓ
	FIFO                          // oldest first (queue order of the step model)
)

func (p Priority) String() string {
	if p == FIFO {
		return "fifo"
	}
	return "paper"
}

// DefaultC is the c of §3's priority range when Options.C is 0: Theorem 6
// and Lemma 9 take c ≥ 7.
const DefaultC = 7

// Options describe a router: the network and the discipline. C is the c of
// the range [0, c·log N·2^r] of the random part R of §3's priority (0:
// DefaultC).
type Options struct {
	Shape    mb.Shape
	Priority Priority
	C        float64
	// Fault plants a fault for the claims ledger's power checks (props);
	// the zero value NoFault is the router, and nothing else sets it.
	Fault Fault
}

// Fault is a planted fault: a deliberately wrong variant of the router,
// used only to show that the claims' checks can fail (props). NoFault, the
// zero value, is the real router.
type Fault uint8

// The planted faults.
const (
	NoFault Fault = iota
	// FaultIgnoreStrict forgets the strict-buffer rule: Decide sends into
	// a buffer full at the start of the step (the model rejects it), and
	// the Engine into a buffer drained in the same step (pipelining).
	FaultIgnoreStrict
	// FaultNodeSendsTwo (Engine, NodeQueue mode): a node whose queue holds
	// two or more packets forwards its two best in one step.
	FaultNodeSendsTwo
	// FaultLIFO (Engine, FIFO priority): every queue serves its newest
	// packet first (a stack; the packets that start in one queue are
	// served in decreasing ID), a work-conserving discipline other than
	// the FIFO it stands in for.
	FaultLIFO
)

// RangeR is the largest R, ⌊c·log N·2^r⌋.
func (o Options) RangeR() int64 {
	c := o.C
	if c == 0 {
		c = DefaultC
	}
	return int64(math.Floor(c * float64(o.Shape.LogN) * float64(int64(1)<<o.Shape.R)))
}

// Rename is the random renaming of §2: the permutation that maps σ(x) to
// σ(π(x)) for every x (the proof of Theorem 2: "σ^{-1}π_1σ maps σ(x_i) to
// σ(y_i)"); it has π's cycle structure.
func Rename(pi, sigma []int32) []int32 {
	out := make([]int32, len(pi))
	for x, y := range pi {
		out[sigma[x]] = sigma[y]
	}
	return out
}

// Block is the deterministic part ⌈ℓ/log N⌉ of §3's priority.
func Block(l, logN int) int { return (l + logN - 1) / logN }

// Packets returns the packets of the sequence perms (perms[ℓ−1] is
// permutation ℓ; each a full permutation of N), input by input, each
// input's packets in order ℓ = 1, 2, …; packet k has ID k. For every packet
// it draws X (r uniform bits) and then R (uniform in [0, RangeR()]) from
// rng, in that order. Key packs (⌈ℓ/log N⌉, R, source).
func Packets(o Options, perms [][]int32, rng *rand.Rand) ([]mb.Packet, error) {
	sh := o.Shape
	if err := sh.Validate(); err != nil {
		return nil, err
	}
	N := sh.N()
	if rr := o.RangeR(); rr >= 1<<32 || o.C < 0 {
		return nil, fmt.Errorf("butterfly: c = %g gives a priority range %d, allowed c ≥ 0 and c·log N·2^r < 2^32", o.C, rr)
	}
	if Block(len(perms), sh.LogN) >= 1<<8 {
		return nil, fmt.Errorf("butterfly: %d permutations, allowed ⌈t/log N⌉ < 256", len(perms))
	}
	for l, p := range perms {
		if len(p) != N {
			return nil, fmt.Errorf("butterfly: permutation %d has %d entries, the network %d inputs", l+1, len(p), N)
		}
		if err := perm.Validate(p, true); err != nil {
			return nil, fmt.Errorf("butterfly: permutation %d: %w", l+1, err)
		}
	}
	ps := make([]mb.Packet, 0, N*len(perms))
	for i := range N {
		for l, p := range perms {
			x := int32(0)
			if sh.R > 0 {
				x = int32(rng.IntN(1 << sh.R))
			}
			R := uint64(rng.Int64N(o.RangeR() + 1))
			b := uint64(Block(l+1, sh.LogN))
			ps = append(ps, mb.Packet{ID: int32(len(ps)), Src: int32(i), Dst: p[i], X: x, Perm: int32(l + 1),
				Key: b<<56 | R<<24 | uint64(i)})
		}
	}
	return ps, nil
}

// less is the priority order: smaller (Key, Perm) goes first.
func less(a, b mb.Packet) bool {
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	return a.Perm < b.Perm
}

// Decide is the greedy policy on a state: every non-empty queue sends its
// best packet (FIFO: its first), except, under strict buffers, into a
// buffer that is full at the start of the step. It is Greedy's Route asked
// node by node (mb.Actions): one home for the policy.
func Decide(st mb.State, pr Priority) []mb.Send {
	a, err := mb.Actions(st, Greedy{Options{Priority: pr}}, nil)
	if err != nil {
		panic("butterfly: the greedy router made an illegal move: " + err.Error())
	}
	return a
}

// Result is a routing run: Latency[k] is the step in which packet k was
// delivered (its latency, §4.2), Steps the last delivery, MaxQueue the
// longest queue seen.
type Result struct {
	Steps    int
	Latency  []int32
	MaxQueue int
}

// RunOnModel routes the packets (IDs 0…k−1) with the greedy policy on the
// step model — through the Router interface (Greedy, mb.RouteStep), as any
// router is run — checking the model's invariants after every step, for at
// most maxSteps steps.
func RunOnModel(o Options, packets []mb.Packet, maxSteps int) (Result, error) {
	for k, p := range packets {
		if int(p.ID) != k {
			return Result{}, fmt.Errorf("butterfly: packet %d has ID %d, want IDs 0…k−1 in order", k, p.ID)
		}
	}
	st, err := mb.New(o.Shape, packets)
	if err != nil {
		return Result{}, err
	}
	res := Result{Latency: make([]int32, len(packets))}
	for _, q := range st.Queues {
		res.MaxQueue = max(res.MaxQueue, len(q))
	}
	for st.InFlight() > 0 {
		if st.Step >= maxSteps {
			return res, fmt.Errorf("butterfly: %d packets undelivered after %d steps", st.InFlight(), maxSteps)
		}
		next, ev, _, err := mb.RouteStep(st, Greedy{o}, nil)
		if err != nil {
			return res, err
		}
		if err := mb.CheckInvariants(next, len(packets)); err != nil {
			return res, err
		}
		for _, d := range ev.Delivered {
			if d.Row != packets[d.ID].Dst {
				return res, fmt.Errorf("butterfly: packet %d delivered at output %d, destination %d", d.ID, d.Row, packets[d.ID].Dst)
			}
			res.Latency[d.ID] = int32(next.Step)
		}
		res.MaxQueue = max(res.MaxQueue, ev.MaxQueue)
		st = next
	}
	res.Steps = st.Step
	return res, nil
}

// Congestion returns C(v) for every node v = s·N + row (stages 0…n+r): the
// number of packets whose path crosses it.
func Congestion(sh mb.Shape, packets []mb.Packet) []int32 {
	N := sh.N()
	c := make([]int32, (sh.Stages()+1)*N)
	for _, p := range packets {
		for s := 0; s <= sh.Stages(); s++ {
			c[s*N+int(sh.RowAt(p, s))]++
		}
	}
	return c
}

// MaxCongestion is max_v C(v) (over all stages, inputs and outputs
// included, as in §2's C(π) = max_v C(π, v)).
func MaxCongestion(sh mb.Shape, packets []mb.Packet) int {
	m := 0
	for _, x := range Congestion(sh, packets) {
		m = max(m, int(x))
	}
	return m
}
