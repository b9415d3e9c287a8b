package sortnet

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	asn "routecheck/algos/sortnet"
	"routecheck/algos/sortnet/hillclimb"
	msn "routecheck/models/sortnet"
)

// Large-n sorting checks (issue 3 §3): on one network, random permutations,
// one random 0-1 input of every weight (or of weights spread over 0..n),
// the structured inputs, and a hill climb for inputs that leave the most
// elements out of place (algos/sortnet/hillclimb). Unlike SortnetSorts it
// does not stop at the first failure: it counts, so that a network that
// fails (the AKS-family network with random-matching halvers) is measured,
// not only refuted.

// SortnetLargePlan says how much of each kind of input to run.
type SortnetLargePlan struct {
	Perms int // random permutations
	// Every01 runs one random 0-1 input of every weight 0..n (64 weights
	// per evaluation); otherwise Weights01 weights spread evenly over 0..n
	// get one input each (0: none).
	Every01    bool
	Weights01  int
	ClimbEvals int // hill-climb evaluations (0: no climb)
	Restarts   int // the climb's restarts
}

// SortnetLargeReport is what SortnetLarge found on one network.
type SortnetLargeReport struct {
	N             int
	Perms         int // random permutations run
	PermsUnsorted int // … left unsorted
	PermsWorst    int // most positions one of them left out of place
	PermsMisTotal int // total positions left out of place
	Structured    []string
	StructBad     []string // structured inputs left unsorted
	Weights01     int      // 0-1 inputs run (one per weight)
	Every01       bool     // every weight 0..n was run
	Unsorted01    int      // 0-1 inputs left unsorted
	BadWeights01  []int    `json:",omitempty"` // their weights (first 16)
	Climb         *hillclimb.Result
	Restarts      int // the climb's restarts
	// Witness is a 0-1 input (wire i = Input[i]) the network leaves
	// unsorted, from the first failure met (nil: none), and How says where
	// it came from.
	Witness []int  `json:"-"`
	How     string `json:",omitempty"`
}

// Sorted reports that no input of any kind was left unsorted.
func (r *SortnetLargeReport) Sorted() bool {
	return r.PermsUnsorted == 0 && len(r.StructBad) == 0 && r.Unsorted01 == 0 && (r.Climb == nil || r.Climb.Misplaced == 0)
}

// Summary is a one-line account of the report.
func (r *SortnetLargeReport) Summary() string {
	w := fmt.Sprintf("%d weights spread over 0..%d", r.Weights01, r.N)
	if r.Every01 {
		w = fmt.Sprintf("every weight 0..%d", r.N)
	}
	s := fmt.Sprintf("n = %d: %d/%d random permutations unsorted (worst %d, mean %.3g misplaced); %d/%d structured unsorted; %d/%d random 0-1 inputs (%s) unsorted",
		r.N, r.PermsUnsorted, r.Perms, r.PermsWorst, float64(r.PermsMisTotal)/float64(max(1, r.Perms)), len(r.StructBad), len(r.Structured), r.Unsorted01, r.Weights01, w)
	if len(r.StructBad) > 0 {
		s += " (structured: " + strings.Join(r.StructBad, ", ") + ")"
	}
	if c := r.Climb; c != nil {
		s += fmt.Sprintf("; hill climb (%d evaluations, %d climbs): most misplaced %d (best start %d)", c.Evals, r.Restarts+1, c.Misplaced, c.StartMisplaced)
	}
	return s
}

func misplacedCount(y []int32) int {
	m := 0
	for p, v := range y {
		if v != int32(p) {
			m++
		}
	}
	return m
}

// largeEngine evaluates one network for SortnetLarge: the plain engine
// (models/sortnet's Apply, Eval01, hillclimb.Climb) or the packed one
// (msn.Packed), which compute the same outputs (TestSortnetLargePackedSame).
type largeEngine struct {
	n          int
	apply      func([]int32)
	applyMany  func([][]int32) // apply on each (msn.Packed.ApplyMany)
	eval01     func([]uint64)
	eval01Many func([][]uint64) // eval01 on each (msn.Packed.Eval01Many)
	climb      func(*rand.Rand, hillclimb.Options) hillclimb.Result
}

func plainEngine(nw msn.Network) largeEngine {
	return largeEngine{nw.N, func(xs []int32) { msn.Apply(nw, xs) },
		func(xss [][]int32) {
			for _, xs := range xss {
				msn.Apply(nw, xs)
			}
		},
		func(w []uint64) { msn.Eval01(nw, w) },
		func(ws [][]uint64) {
			for _, w := range ws {
				msn.Eval01(nw, w)
			}
		},
		func(r *rand.Rand, o hillclimb.Options) hillclimb.Result { return hillclimb.Climb(nw, r, o) }}
}

func packedEngine(p *msn.Packed) largeEngine {
	return largeEngine{p.N, p.Apply, p.ApplyMany, p.Eval01, p.Eval01Many, func(r *rand.Rand, o hillclimb.Options) hillclimb.Result { return hillclimb.ClimbPacked(p, r, o) }}
}

// SortnetLarge runs plan on nw (which must have N ≥ 2), drawing every
// random choice from PCG(seed, stream). Cost O((Perms + 7 + ClimbEvals) ·
// Size + ⌈weights/64⌉ · Size). Networks on at most 2^16 wires are run
// packed (a copy of half nw's size; SortnetLargePacked avoids it).
func SortnetLarge(nw msn.Network, seed, stream uint64, plan SortnetLargePlan) *SortnetLargeReport {
	if p, err := msn.Pack(nw, false); err == nil {
		return sortnetLarge(packedEngine(p), seed, stream, plan)
	}
	return sortnetLarge(plainEngine(nw), seed, stream, plan)
}

// sortnetLargeConsume is SortnetLarge on nw, packed by consuming its stages
// where it fits (msn.Pack): the caller must not use nw afterwards, and
// should hold no other reference to its stages, so that the network is
// never in memory twice. The packed network is returned for further runs
// (nil where nw was run plain, and then nw is intact).
func sortnetLargeConsume(nw msn.Network, seed, stream uint64, plan SortnetLargePlan) (*SortnetLargeReport, *msn.Packed) {
	p, err := msn.Pack(nw, true)
	if err != nil {
		return sortnetLarge(plainEngine(nw), seed, stream, plan), nil
	}
	return SortnetLargePacked(p, seed, stream, plan), p
}

// SortnetLargePacked is SortnetLarge on a packed network.
func SortnetLargePacked(p *msn.Packed, seed, stream uint64, plan SortnetLargePlan) *SortnetLargeReport {
	return sortnetLarge(packedEngine(p), seed, stream, plan)
}

func sortnetLarge(nw largeEngine, seed, stream uint64, plan SortnetLargePlan) *SortnetLargeReport {
	n := nw.n
	pcg := rand.NewPCG(seed, stream)
	r := rand.New(pcg) // the 0-1 draws go to pcg directly (asn.IntNPCG): the same stream
	rep := &SortnetLargeReport{N: n}
	// The permutations are drawn in order, msn.ApplyManyLanes at a time
	// (nothing else draws from r in between), run in one pass
	// (applyMany), and judged in order.
	xss, outs := make([][]int32, 0, msn.ApplyManyLanes), make([][]int32, 0, msn.ApplyManyLanes)
	for p0 := 0; p0 < plan.Perms; p0 += msn.ApplyManyLanes {
		xss, outs = xss[:0], outs[:0]
		for range min(msn.ApplyManyLanes, plan.Perms-p0) {
			xs := snPerm(r, n)
			xss, outs = append(xss, xs), append(outs, slices.Clone(xs))
		}
		nw.applyMany(outs)
		for l, out := range outs {
			rep.judgePerm(p0+l, xss[l], out, seed, stream)
		}
	}
	st := asn.StructuredInputs(n)
	names := slices.Sorted(maps.Keys(st))
	outs = outs[:0]
	for _, name := range names {
		outs = append(outs, slices.Clone(st[name]))
	}
	nw.applyMany(outs) // the 7 structured inputs: one pass
	for k, name := range names {
		rep.judgeStructured(name, st[name], outs[k])
	}
	var weights []int
	if plan.Every01 || plan.Weights01 > n {
		rep.Every01 = true
		for w := 0; w <= n; w++ {
			weights = append(weights, w)
		}
	} else if plan.Weights01 > 0 {
		for k := range plan.Weights01 {
			weights = append(weights, k*n/max(1, plan.Weights01-1))
		}
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	// The words of up to four batches of 64 inputs are drawn in turn (the
	// draws are those of one batch at a time) and run in one pass
	// (Eval01Many); their outputs are then read batch by batch, in order.
	const group = 4
	ws := make([][]uint64, group)
	ins := make([][]uint64, group)
	for l := range ws {
		ws[l], ins[l] = make([]uint64, n), make([]uint64, n)
	}
	for k0 := 0; k0 < len(weights); k0 += 64 * group {
		var batch [][]uint64
		for k := k0; k < min(len(weights), k0+64*group); k += 64 {
			w := ws[len(batch)]
			lanes := min(64, len(weights)-k)
			clear(w)
			for lane := range lanes { // a random set of `weight` wires: partial Fisher–Yates
				bit := uint64(1) << lane
				for i := range weights[k+lane] {
					j := i + asn.IntNPCG(pcg, n-i) // = r.IntN(n−i)
					a := idx[j]
					idx[i], idx[j] = a, idx[i]
					w[a] |= bit
				}
			}
			copy(ins[len(batch)], w)
			batch = append(batch, w)
		}
		nw.eval01Many(batch)
		for bi, w := range batch {
			k := k0 + 64*bi
			lanes := min(64, len(weights)-k)
			in := ins[bi]
			rep.Weights01 += lanes
			bad := msn.Unsorted01(w) & (^uint64(0) >> (64 - lanes))
			rep.Unsorted01 += bits.OnesCount64(bad)
			for b := bad; b != 0; b &= b - 1 {
				lane := bits.TrailingZeros64(b)
				if len(rep.BadWeights01) < 16 {
					rep.BadWeights01 = append(rep.BadWeights01, weights[k+lane])
				}
				if rep.Witness == nil {
					z := make([]int, n)
					for i := range n {
						z[i] = int(in[i] >> lane & 1)
					}
					rep.noteWitness(z, fmt.Sprintf("random 0-1 input of weight %d", weights[k+lane]))
				}
			}
		}
	}
	if plan.ClimbEvals > 0 {
		c := nw.climb(r, hillclimb.Options{Evals: plan.ClimbEvals, Restarts: plan.Restarts})
		rep.Climb, rep.Restarts = &c, plan.Restarts
		if c.Misplaced > 0 {
			rep.noteWitness(asn.WitnessOf(c.Input, c.Output), fmt.Sprintf("threshold of the hill climb's best input (%d misplaced)", c.Misplaced))
		}
	}
	return rep
}

// noteWitness makes z (found as how says) the witness, unless one was
// found before.
func (r *SortnetLargeReport) noteWitness(z []int, how string) {
	if r.Witness == nil {
		r.Witness, r.How = z, how
	}
}

// judgePerm counts random permutation p of PCG(seed, stream), xs, which
// the network left as out.
func (r *SortnetLargeReport) judgePerm(p int, xs, out []int32, seed, stream uint64) {
	r.Perms++
	if m := misplacedCount(out); m > 0 {
		r.PermsUnsorted++
		r.PermsMisTotal += m
		r.PermsWorst = max(r.PermsWorst, m)
		if r.Witness == nil {
			r.noteWitness(asn.WitnessOf(xs, out), fmt.Sprintf("threshold of random permutation %d of PCG(%d, %d)", p, seed, stream))
		}
	}
}

// judgeStructured counts the structured input name, xs, which the network
// left as out.
func (r *SortnetLargeReport) judgeStructured(name string, xs, out []int32) {
	r.Structured = append(r.Structured, name)
	if z := asn.WitnessOf(xs, out); z != nil {
		r.StructBad = append(r.StructBad, name)
		r.noteWitness(z, "threshold of the structured input "+name)
	}
}

// sn01String writes a 0-1 input compactly, wire 0 first.
func sn01String(z []int) string {
	var b strings.Builder
	for _, x := range z {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}
