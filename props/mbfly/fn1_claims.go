package mbfly

import (
	"fmt"
	"strings"

	amb "routecheck/algos/multibutterfly"
	asn "routecheck/algos/sortnet"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/models/sortnet"
	"routecheck/props"
)

// Footnote 1 of 004_8aa7b4c265a7324b.txt: "For uniformity we use splitters
// throughout the network. In practice, however, it would be more efficient
// to replace the last log m stages of the network by N/m Batcher
// networks." Built as: §3.2's algorithm on stages 0 … log N − log m of a
// design network (amb.RunToStage), then one Batcher odd-even merge sorting
// network (algos/sortnet) per set A_{log N − log m, j}, whose sorted
// outputs are the outputs jm … jm + m − 1.

func init() {
	registerFootnote1()
}

// fn1Tail is one way to build the tail: what a node of the cut stage keeps
// and how many Batcher wires it feeds.
type fn1Tail struct {
	rule amb.StopRule
	// wires per node: 1 (the literal reading) or L (one per batch slot)
	perNode func(L int) int
	// drop removes the Batcher network's last k stages (a planted fault)
	drop int
}

var (
	fn1Literal = fn1Tail{rule: amb.StopOnePerNode, perNode: func(int) int { return 1 }}
	fn1Slots   = fn1Tail{rule: amb.StopOnePerBatch, perNode: func(L int) int { return L }}
)

// fn1Run is one hybrid run: the splitter part, then the Batcher networks.
type fn1Run struct {
	stage amb.StageResult
	// depth of each Batcher network (comparator levels, one step each)
	depth, size int
	// nodeLine: the Batcher network's levels costed per node line (a
	// planted fault's cost, fn1CostNodeLine)
	nodeLine int
	// misplaced: the first output that got a wrong packet ("" if none)
	misplaced string
}

// fn1Route routes p on net (L batches) through the hybrid with the last
// logM stages replaced by Batcher networks built as tail says.
func fn1Route(net *mb.Network, L int, p []int32, logM int, tail fn1Tail) (fn1Run, error) {
	var r fn1Run
	s, err := mb.Init(net, L, p)
	if err != nil {
		return r, err
	}
	stop := net.LogN - logM
	res, fin, err := amb.RunToStage(s, stop, tail.rule, 0, false)
	if err != nil {
		return r, err
	}
	r.stage = res
	if !res.Complete {
		return r, nil
	}
	m, w := 1<<logM, tail.perNode(L)
	bat, err := asn.OddEvenMergeSort(m * w)
	if err != nil {
		return r, err
	}
	if tail.drop > 0 {
		bat.Stages = bat.Stages[:len(bat.Stages)-tail.drop]
	}
	r.depth, r.size = bat.Depth(), bat.Size()
	// per level, the most comparators between wires of different nodes
	// (node i holds wires i·w … i·w + w − 1) that touch one node; at least 1
	for _, st := range bat.Stages {
		per := make([]int, m)
		most := 1
		for _, c := range st {
			a, b := int(c.I)/w, int(c.J)/w
			if a != b {
				per[a]++
				per[b]++
				most = max(most, per[a], per[b])
			}
		}
		r.nodeLine += most
	}
	// wires of block j: node q = jm + i of stage stop feeds wires i·w …
	// i·w + w − 1 with its packets (in packet order), the rest empty (key N)
	for j := range net.N / m {
		keys := make([]int32, m*w)
		for i := range keys {
			keys[i] = int32(net.N)
		}
		fill := make([]int, m)
		for pk, v := range fin.Pos {
			st, q := net.StageOf(v)
			if st != stop || q/m != j {
				continue
			}
			i := q % m
			if fill[i] == w {
				return r, fmt.Errorf("node ⟨%d, %d⟩ holds more than %d packets", stop, q, w)
			}
			keys[i*w+fill[i]] = fin.Dest[pk]
			fill[i]++
		}
		sortnet.Apply(bat, keys)
		// the block's packets, in destination order, leave on wires 0 …:
		// output jm + i must receive destination jm + i when it has a packet
		want := make([]bool, m)
		for _, d := range p {
			if d != perm.None && int(d)/m == j {
				want[int(d)%m] = true
			}
		}
		out := 0
		for i := range m {
			if !want[i] {
				continue
			}
			if got := keys[out]; got != int32(j*m+i) {
				r.misplaced = fmt.Sprintf("block %d: wire %d carries destination %d, want %d", j, out, got, j*m+i)
				return r, nil
			}
			out++
		}
	}
	return r, nil
}

// fn1Shrink removes packets from p (one at a time, keeping the removal if
// the run still gets stuck) and returns the smaller partial permutation.
func fn1Shrink(net *mb.Network, L int, p []int32, logM int, tail fn1Tail) []int32 {
	q := append([]int32(nil), p...)
	for i := range q {
		if q[i] == perm.None {
			continue
		}
		keep := q[i]
		q[i] = perm.None
		if r, err := fn1Route(net, L, q, logM, tail); err != nil || r.stage.Complete {
			q[i] = keep
		}
	}
	return q
}

// fn1Cost is how the Batcher tail's steps are counted: fn1CostDepth (one
// step per level) is the claim's; the others are planted faults.
type fn1Cost int

const (
	fn1CostDepth     fn1Cost = iota
	fn1CostSize              // one step per comparator
	fn1CostIteration         // a level costed 2d steps, like a splitter iteration
	fn1CostNodeLine          // a level costed by the busiest cut-stage node's inter-node comparators (its w wires share one line)
)

// fn1Check routes the design networks' permutations through the hybrid for
// every m = 2 … N/2 and judges each run: it must reach the cut stage
// (not stuck), the Batcher networks must deliver every packet, and, with
// faster, the hybrid's steps (2d per splitter iteration plus the Batcher
// networks' steps counted as cost says) must be fewer than the full
// multi-butterfly's on the same permutation.
func fn1Check(tail fn1Tail, faster bool, cost fn1Cost) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns, nets := mbflySizes(env.Budget)
		D := mbflyDesign
		runs := 0
		worst := 0.0 // largest hybrid/full step ratio
		var ev []string
		for _, n := range ns {
			logN := ceilLog2(n)
			for x, err := range mbflyDesignNets(env.Seed, n, nets) {
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				r, net, eng := x.r, x.net, x.eng
				for i, p := range mbflyPerms(n, env.Budget.Pick(4, 12, 40), env.Seed, 0xf1+uint64(r)) {
					full := 0
					if faster {
						s, err := mb.Init(net, D.L, p)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d network %d permutation %d: %v", n, r, i, err)}
						}
						res, _, err := eng.Run(s, amb.Options{})
						if err != nil || !res.Complete {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("N=%d network %d permutation %d: the full network did not deliver (%v)", n, r, i, err)}
						}
						full = res.Steps
					}
					for logM := 1; logM < logN; logM++ {
						h, err := fn1Route(net, D.L, p, logM, tail)
						runs++
						cex := map[string]any{"N": n, "d": D.D, "L": D.L, "network": r, "network_seed": []uint64{env.Seed, 0xb0f1, 0xd5, uint64(n), uint64(D.D), uint64(r)}, "log_m": logM, "perm": p}
						if err != nil {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d permutation %d, m = %d: %v", n, r, i, 1<<logM, err), Counterexample: cex}
						}
						if !h.stage.Complete {
							q := fn1Shrink(net, D.L, p, logM, tail)
							cex["perm"], cex["shrunk_from"] = q, p
							kept := 0
							for _, d := range q {
								if d != perm.None {
									kept++
								}
							}
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d permutation %d, m = %d (cut at stage %d): %d packets never reach the cut stage (stuck after %d iterations); shrunk (still stuck) to %d packets %v", n, r, i, 1<<logM, logN-logM, h.stage.Waiting, h.stage.Iterations, kept, q), Counterexample: cex}
						}
						if h.misplaced != "" {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d permutation %d, m = %d: %s", n, r, i, 1<<logM, h.misplaced), Counterexample: cex}
						}
						if faster {
							tailSteps := h.depth
							switch cost {
							case fn1CostSize:
								tailSteps = h.size
							case fn1CostIteration:
								tailSteps = 2 * D.D * h.depth
							case fn1CostNodeLine:
								tailSteps = h.nodeLine
							}
							hyb := h.stage.Steps + tailSteps
							ratio := float64(hyb) / float64(full)
							worst = max(worst, ratio)
							if hyb >= full {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d network %d permutation %d, m = %d: hybrid %d steps (%d splitter + %d Batcher) ≥ the full network's %d", n, r, i, 1<<logM, hyb, h.stage.Steps, tailSteps, full), Counterexample: cex}
							}
						}
					}
				}
			}
			ev = append(ev, fmt.Sprintf("N=%d", n))
		}
		msg := fmt.Sprintf("%d hybrid runs (%s; m = 2 … N/2; %s), every one reached the cut stage and the Batcher networks delivered every packet", runs, strings.Join(ev, ", "), tail.rule)
		if faster {
			msg += fmt.Sprintf("; largest hybrid/full step ratio %.3f", worst)
			return props.Outcome{Verdict: props.Holds, Evidence: msg, Slack: props.SlackOf(worst, 1)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: msg}
	}
}

func registerFootnote1() {
	src := mbflySrc + " footnote 1 (\"it would be more efficient to replace the last log m stages of the network by N/m Batcher networks\")"
	scope := "design networks (verified (N, 32, 1/32, 7)-multi-butterflies, L = 4), N ∈ {16, 32, 64}, 1 / 4 / 16 networks each; the structured permutations and 4 / 12 / 40 random ones; every m = 2 … N/2; Batcher's odd-even merge sort (algos/sortnet)"
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/fn-1/batcher-tail-wires",
		Source: src,
		Scope:  scope,
		Check:  fn1Check(fn1Literal, false, fn1CostDepth),
	}))
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/fn-1/batcher-tail-slots",
		Source: src + " (repaired: see mbfly/fn-1/batcher-tail-wires)",
		Scope:  scope,
		Check:  fn1Check(fn1Slots, false, fn1CostDepth),
		Faults: []props.Fault{
			{Name: "the Batcher networks without their last level (fixed before running)", Check: fn1Check(fn1Tail{rule: amb.StopOnePerBatch, perNode: fn1Slots.perNode, drop: 1}, false, fn1CostDepth)},
			{Name: "one packet per cut-stage node (the literal tail)", Check: fn1Check(fn1Literal, false, fn1CostDepth)},
		},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/fn-1/batcher-tail-faster",
		Source: src,
		Scope:  scope + "; the hybrid of mbfly/fn-1/batcher-tail-slots (the literal one gets stuck)",
		Check:  fn1Check(fn1Slots, true, fn1CostDepth),
		Faults: []props.Fault{
			{Name: "Batcher networks counted one comparator per step (size, not depth; fixed before running)", Check: fn1Check(fn1Slots, true, fn1CostSize)},
			{Name: "each Batcher level costed 2d steps, like a splitter iteration ([2026-11-24] review; fixed before running)", Check: fn1Check(fn1Slots, true, fn1CostIteration)},
			{Name: "the L·m-wire Batcher hardware costed per node line: a level takes as many steps as the most comparators between different nodes' wires at one cut-stage node ([2026-11-24] review; fixed before running)", Check: fn1Check(fn1Slots, true, fn1CostNodeLine)},
		},
	}))
}
