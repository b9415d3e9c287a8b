package sortnet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"routecheck/algos/aks"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// AKS-family networks at large n (issue 3 §3): random permutations, random
// 0-1 inputs by weight, structured inputs and the hill climb up to
// n = 2^16, for the exact and the random-matching (expander) halvers; and
// the §4 invariant traced through the expander-halver construction.

// aksLargeCase is one network size with the plan run on it.
type aksLargeCase struct {
	n    int
	plan SortnetLargePlan
}

// aksExactLargeCases: the exact-separator network (2^16: 92 million
// comparators, built in ≈ 3.5 s; one evaluation ≈ 0.15 s).
func aksExactLargeCases(b props.Budget) []aksLargeCase {
	switch b {
	case props.Small:
		return []aksLargeCase{{3000, SortnetLargePlan{Perms: 4, Every01: true, ClimbEvals: 150}}}
	case props.Default:
		return []aksLargeCase{
			{10000, SortnetLargePlan{Perms: 8, Every01: true, ClimbEvals: 300, Restarts: 1}},
			{1 << 16, SortnetLargePlan{Perms: 8, Weights01: 256, ClimbEvals: 40}},
		}
	}
	return []aksLargeCase{
		{10000, SortnetLargePlan{Perms: 32, Every01: true, ClimbEvals: 2000, Restarts: 3}},
		{(1 << 14) + 1, SortnetLargePlan{Perms: 32, Every01: true, ClimbEvals: 1000, Restarts: 3}},
		{50000, SortnetLargePlan{Perms: 16, Weights01: 1024, ClimbEvals: 200, Restarts: 1}},
		{1 << 16, SortnetLargePlan{Perms: 32, Every01: true, ClimbEvals: 300, Restarts: 1}},
	}
}

// aksExpanderLargeCases: the expander-halver networks, d matchings per
// halver (2^16: 39 million comparators for d = 8, built in ≈ 2 s; 78
// million for d = 16, ≈ 5 s).
func aksExpanderLargeCases(b props.Budget) []struct {
	d int
	aksLargeCase
} {
	type c = struct {
		d int
		aksLargeCase
	}
	small := SortnetLargePlan{Perms: 50, Weights01: 256, ClimbEvals: 100}
	switch b {
	case props.Small:
		return []c{{8, aksLargeCase{1 << 10, small}}, {8, aksLargeCase{1 << 12, small}}, {16, aksLargeCase{1 << 12, small}}}
	case props.Default:
		mid := SortnetLargePlan{Perms: 50, Weights01: 256, ClimbEvals: 100}
		big := SortnetLargePlan{Perms: 30, Weights01: 256, ClimbEvals: 40}
		return []c{{8, aksLargeCase{1 << 10, mid}}, {8, aksLargeCase{1 << 12, mid}}, {8, aksLargeCase{1 << 14, mid}}, {8, aksLargeCase{1 << 16, big}},
			{16, aksLargeCase{1 << 12, mid}}, {16, aksLargeCase{1 << 14, mid}}, {16, aksLargeCase{1 << 16, big}}}
	}
	mid := SortnetLargePlan{Perms: 200, Every01: true, ClimbEvals: 1000, Restarts: 1}
	big := SortnetLargePlan{Perms: 100, Weights01: 1024, ClimbEvals: 300}
	return []c{{8, aksLargeCase{1 << 10, mid}}, {8, aksLargeCase{1 << 12, mid}}, {8, aksLargeCase{1 << 14, mid}}, {8, aksLargeCase{1 << 16, big}},
		{16, aksLargeCase{1 << 12, mid}}, {16, aksLargeCase{1 << 14, mid}}, {16, aksLargeCase{1<<15 + 1, mid}}, {16, aksLargeCase{1 << 16, big}}}
}

// AKSLargeFailure is the first (smallest n, in the order checked) input an
// AKS-family network was found to leave unsorted at large n.
type AKSLargeFailure struct {
	N           int
	Halver      string
	D           int       `json:",omitempty"`
	NetworkSeed [2]uint64 `json:",omitempty"` // expander: matchings from PCG(NetworkSeed[0], NetworkSeed[1])
	// Input01 is a 0-1 input (character i = wire i) the network leaves
	// unsorted, and How where it came from.
	Input01 string
	How     string
	Replay  string
}

// aksLargeCheckExact is sortnet/aks/exact-halver/sorts-large's check, with
// the planted fault f applied to each network (nil: the real ones).
func aksLargeCheckExact(f *snFault) func(props.Env) props.Outcome {
	return aksLargeCheckExactSep(nil, f)
}

// aksLargeCheckExactSep is aksLargeCheckExact with the separator newSep(n)
// (nil: aks.Exact), for the planted fault of a separator that does not
// separate.
func aksLargeCheckExactSep(newSep func(n int) aks.Separator, f *snFault) func(props.Env) props.Outcome {
	exact := newSep == nil
	if exact {
		newSep = func(int) aks.Separator { return aks.Exact() }
	}
	return func(env props.Env) props.Outcome { return aksLargeCheckExactAt(newSep, exact, f, env) }
}

// aksLargeCheckExactAt runs the check on the networks newSep builds (exact:
// the real exact separators). Where the network run is the real exact one
// — the claim, or its deletion fault at a size where no deletion was found
// — the inputs' report is the one computed once per process for that
// network (aksExactLargeReport): the fault and the claim then judge the
// same runs, as the fault's evidence says ("ran unchanged").
func aksLargeCheckExactAt(newSep func(n int) aks.Separator, exact bool, f *snFault, env props.Env) props.Outcome {
	var ev []string
	for _, c := range aksExactLargeCases(env.Budget) {
		if exact && f != nil && f.dropExchanging && f.miss != nil && (f.At == nil || f.At(env, c.n)) && !aksExactNoShortcut {
			// The deletion fault on a network where its rule is known to
			// find nothing: the network runs unchanged, as the claim's.
			if sh, ok := aksExactNoDeletion.Load(c.n); ok {
				if v, ok := aksExactReports.Load(aksExactKey{env.Seed, c}); ok {
					if e := v.(*aksExactEntry); e.rep != nil {
						f.miss(c.n)
						aksExactShortcuts.Add(1)
						sh := sh.(aksExactShape)
						if rep := e.rep; rep.Witness != nil {
							return props.Outcome{Verdict: props.Violated, Evidence: rep.Summary(), Counterexample: AKSLargeFailure{N: c.n, Halver: "exact", Input01: sn01String(rep.Witness), How: rep.How,
								Replay: fmt.Sprintf("aks.Construct(%d, aks.SeiferasParams(), aks.Exact()); sortnet.Apply(res.Net, input)", c.n)}}
						}
						ev = append(ev, fmt.Sprintf("%s [%d stages, depth %d, %d comparators]", e.rep.Summary(), sh.stages, sh.depth, sh.size))
						continue
					}
				}
			}
		}
		res, err := aks.Construct(c.n, aks.SeiferasParams(), newSep(c.n))
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		nw := f.mutate(env, c.n, res.Net)
		same := exact && sameNetwork(nw, res.Net)
		// The inputs run on a packed copy that consumes nw's stages: drop
		// the construction's own reference to them first, so that the
		// network (92 million comparators at 2^16) is never held twice.
		stages, depth, size := res.Stages, nw.Depth(), nw.Size()
		res = nil
		var rep *SortnetLargeReport
		if same {
			rep = aksExactLargeReport(env, c, nw, aksExactShape{stages, depth, size})
		} else {
			rep, _ = sortnetLargeConsume(nw, env.Seed, uint64(c.n), c.plan)
		}
		if rep.Witness != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: rep.Summary(), Counterexample: AKSLargeFailure{N: c.n, Halver: "exact", Input01: sn01String(rep.Witness), How: rep.How,
				Replay: fmt.Sprintf("aks.Construct(%d, aks.SeiferasParams(), aks.Exact()); sortnet.Apply(res.Net, input)", c.n)}}

		}
		ev = append(ev, fmt.Sprintf("%s [%d stages, depth %d, %d comparators]", rep.Summary(), stages, depth, size))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

func aksLargeCheckExpander(env props.Env) props.Outcome {
	var ev []string
	var first *AKSLargeFailure
	for _, c := range aksExpanderLargeCases(env.Budget) {
		res, err := aks.ExpanderNet(c.n, c.d, env.Seed)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		nw := res.Net
		res = nil // the packed copy consumes nw's stages: hold them once
		rep, p := sortnetLargeConsume(nw, env.Seed, uint64(c.n), c.plan)
		ev = append(ev, fmt.Sprintf("d = %d, %s", c.d, rep.Summary()))
		if rep.Witness != nil && first == nil {
			in := slices.Clone(rep.Witness)
			if p != nil {
				in32 := make([]int32, len(in))
				for i, x := range in {
					in32[i] = int32(x)
				}
				p.Apply(in32)
				for i, x := range in32 {
					in[i] = int(x)
				}
			} else {
				msn.Apply(nw, in)
			}
			if msn.Sorted(in) {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("d = %d, n = %d: the witness (%s) comes out sorted when replayed", c.d, c.n, rep.How)}
			}
			first = &AKSLargeFailure{N: c.n, Halver: "expander", D: c.d, NetworkSeed: [2]uint64{env.Seed, uint64(c.n)}, Input01: sn01String(rep.Witness), How: rep.How,
				Replay: fmt.Sprintf("res, _ := aks.ExpanderNet(%d, %d, %d); sortnet.Apply(res.Net, input)", c.n, c.d, env.Seed)}
		}
	}
	if first != nil {
		return props.Outcome{Verdict: props.Violated, Evidence: "first unsorted: d = " + fmt.Sprint(first.D) + ", n = " + fmt.Sprint(first.N) + " (" + first.How + "). " + strings.Join(ev, "; "), Counterexample: *first}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
}

// aksLargeDeleteFault is the large-n check's planted fault: one comparator
// deleted (snDropExchanging) at every size checked.
var aksLargeDeleteFault = snResumedDelete(snDeleteFault("at every size checked", nil))

// snResumedDelete is f with Mutate snDropExchangingResumed (f must be a
// deletion fault of snDeleteFault: same name, same mutants, less work).
func snResumedDelete(f snFault) snFault {
	f.Mutate, f.dropExchanging = snDropExchangingResumed, true
	return f
}

// packedFindsNoDeletion reports that snDropExchanging's rule finds no
// comparator to delete in the network p was packed from (snDropExchanging
// and snDropExchangingResumed would return it unchanged and false): the
// same 16 draws, each run once on p noting the last comparator to exchange
// (ApplyLastExchange) and, where the run sorted, resumed after that
// comparator with its exchange undone (ApplyFrom), as
// snDropExchangingResumed does on the plain network
// (TestPackedFindsNoDeletionSame).
func packedFindsNoDeletion(p *msn.Packed) bool {
	n := p.N
	if n < 2 || p.Size() == 0 {
		return true
	}
	y := make([]int32, n)
	for xs := range snFaultDraws(n) {
		copy(y, xs)
		k := p.ApplyLastExchange(y)
		if k < 0 || !msn.Sorted(y) {
			continue
		}
		c := p.Comparator(k)
		y[c.I], y[c.J] = y[c.J], y[c.I]
		p.ApplyFrom(y, k+1)
		if !msn.Sorted(y) {
			return false
		}
	}
	return true
}

// aksExactShape is what the exact-separator check reports of a network
// besides its inputs' report: construction stages, depth and size.
type aksExactShape struct{ stages, depth, size int }

// aksExactNoDeletion holds, per n, the shape of the real exact-separator
// network for n where packedFindsNoDeletion held on it: computed by the
// claim's run, which has the network packed, so that the deletion fault
// (which would rebuild the network — 3.5 s at n = 2^16 — to find nothing
// to delete and then judge the claim's own report) need not build it.
var aksExactNoDeletion sync.Map // n → aksExactShape

// aksExactNoShortcut turns the use of aksExactNoDeletion off (for the
// differential test).
var aksExactNoShortcut bool

// aksExactShortcuts counts the fault runs served that way (for the test).
var aksExactShortcuts atomic.Int64

// snDropExchangingResumed computes what snDropExchanging computes — the same
// draws, the same deleted comparator, the same result — with one run of nw
// per draw instead of two where the rule finds a comparator: nw without the
// comparator c that exchanged last on x runs exactly as nw up to c, and
// after c nw exchanged nothing, so the state where the mutant skips c is
// nw's output with c's exchange undone; the mutant's run resumes there, on
// the comparators after c only (on the AKS-family networks, a few finishing
// stages out of thousands). The mutant network is only built when it is
// returned.
func snDropExchangingResumed(nw msn.Network) (msn.Network, bool) {
	n := nw.N
	if n < 2 || len(nw.Stages) == 0 {
		return nw, false
	}
	y := make([]int32, n)
	for xs := range snFaultDraws(n) {
		copy(y, xs)
		ls, lk := snLastExchange(nw, y)
		if ls < 0 || !msn.Sorted(y) {
			continue
		}
		c := nw.Stages[ls][lk]
		y[c.I], y[c.J] = y[c.J], y[c.I]
		msn.ApplyStage(nw.Stages[ls][lk+1:], y)
		for _, st := range nw.Stages[ls+1:] {
			msn.ApplyStage(st, y)
		}
		if !msn.Sorted(y) {
			out := msn.Network{N: n, Stages: slices.Clone(nw.Stages)}
			out.Stages[ls] = slices.Delete(slices.Clone(nw.Stages[ls]), lk, lk+1)
			return out.Compact(), true
		}
	}
	return nw, false
}

// AKSInvariantFinding summarizes the §4 invariant traced through one
// expander-halver network.
type AKSInvariantFinding struct {
	N, D int
	// Searched random permutations were run through the network to find
	// failing inputs; Failing of them (at most the cap) are traced, with
	// Random further random permutations.
	Searched, Failing, Random int
	Reports                   int         // stage reports checked (schedule + traces × stages)
	ByClause                  map[int]int // violations per clause
	First                     string      // first violation (earliest traced input, stage)
	BoundBelow1               int         // clause-4 violations where the bound is < 1 (one stranger is too many)
	// Table counts the traced inputs by (invariant kept at every stage,
	// network output sorted): keys "kept/sorted", "kept/unsorted",
	// "broken/sorted", "broken/unsorted".
	Table map[string]int
	// KeptUnsorted is the first traced input that keeps the invariant but
	// is left unsorted (nil: none): what §4's argument rules out.
	KeptUnsorted []int32 `json:",omitempty"`
}

type aksInvKey struct {
	n, d, search, failing, random int
	seed                          uint64
	fault                         string
}

var aksInvCache sync.Map // aksInvKey → AKSInvariantFinding: the two invariant claims share one computation

// aksInvNoShortcut turns off AKSExpanderInvariants's reuse of the real
// finding for a fault that found nothing to mutate (for the differential
// test).
var aksInvNoShortcut bool

// aksInvShortcuts counts the findings reused that way (for the test).
var aksInvShortcuts atomic.Int64

// aksInvStates keeps, per real run of aksExpanderInvariantsTraced (its key,
// fault ""), the state of every permutation it drew (search, then random)
// entering the finishing sorters (after the last stage boundary): a fault
// whose network has the real network's stages up to there resumes its
// runs from these states instead of running the whole network.
var aksInvStates sync.Map // aksInvKey → *aksInvRealStates

type aksInvRealStates struct {
	depth  int       // network stages before the finishing sorters
	states [][]int32 // per drawn permutation, in draw order
}

// aksInvNoResume turns off the resuming from aksInvStates (for the test).
var aksInvNoResume bool

// aksInvResumed counts the fault runs that resumed (for the test).
var aksInvResumed atomic.Int64

// samePrefix reports whether m's first depth stages are nw's (the same
// slices: a mutant that left them alone).
func samePrefix(m, nw msn.Network, depth int) bool {
	if len(m.Stages) < depth || len(nw.Stages) < depth || m.N != nw.N {
		return false
	}
	for s := range depth {
		a, b := m.Stages[s], nw.Stages[s]
		if len(a) != len(b) || (len(a) > 0 && &a[0] != &b[0]) {
			return false
		}
	}
	return true
}

// aksInvRebuild turns off aksExpanderInvariantsTraced: the traced inputs
// are then followed by building the network a second time with them (for
// the differential test).
var aksInvRebuild bool

// aksExpanderInvariantsTraced is AKSExpanderInvariants for n a power of two
// ≤ msn.PackedMaxN (key holds its arguments; key.fault is fault's name),
// with the same finding (TestAKSInvariantsTracedSame): the network is
// built once, traceable (aks.ConstructTraceable), and the chosen inputs
// are traced by running the packed real network up to each stage boundary
// instead of building it again with them. The planted fault is called
// twice, as there (the second time on the same network instead of the
// rebuilt one, which is equal: the construction is deterministic).
func aksExpanderInvariantsTraced(key aksInvKey, fault *aksNetFault) (AKSInvariantFinding, error) {
	n, d, search, failing, random, seed := key.n, key.d, key.search, key.failing, key.random, key.seed
	f := AKSInvariantFinding{N: n, D: d, Searched: search, ByClause: map[int]int{}, Table: map[string]int{}}
	res, tracer, err := aks.ConstructTraceable(n, aks.SeiferasParams(), aks.ExpanderSeparator(n, d, seed))
	if err != nil {
		return f, err
	}
	// faultNet is the network the search and the sortedness run on.
	faultNet, mutated := res.Net, false
	if fault != nil {
		nw, ok := fault.Mutate(res)
		if !ok && fault.missed != nil {
			fault.missed(n)
		}
		faultNet, mutated = nw, !sameNetwork(nw, res.Net)
		if !ok && !mutated && !aksInvNoShortcut {
			key.fault = ""
			if g, ok := aksInvCache.Load(key); ok {
				fault.mutate(res) // as AKSExpanderInvariants: for what it records
				aksInvShortcuts.Add(1)
				return g.(AKSInvariantFinding), nil
			}
			key.fault = fault.Name
		}
		// AKSExpanderInvariants calls the fault a second time, on the
		// rebuilt network: so does this, on the same network (what the
		// fault records, e.g. snFault.tracked's misses, is in the evidence).
		faultNet = fault.mutate(res)
	}
	// A fault run resumes from the real run's states where the mutant kept
	// the real stages before the finishing sorters.
	boundary := tracer.Depth(tracer.Boundaries() - 1)
	var resume *aksInvRealStates
	if fault != nil && !aksInvNoResume {
		realKey := key
		realKey.fault = ""
		if v, ok := aksInvStates.Load(realKey); ok && v.(*aksInvRealStates).depth == boundary && samePrefix(faultNet, res.Net, boundary) {
			resume = v.(*aksInvRealStates)
			aksInvResumed.Add(1)
		}
	}
	var keep *aksInvRealStates
	if fault == nil {
		keep = &aksInvRealStates{depth: boundary}
	}
	// The mutant may share stages with the real network: pack it as a
	// copy first, then the real one by consuming its stages.
	var pf *msn.Packed
	if mutated {
		if pf, err = msn.Pack(faultNet, false); err != nil {
			return f, err
		}
	}
	faultNet = msn.Network{}
	schedule := res.Schedule
	pr, err := msn.Pack(res.Net, true)
	if err != nil {
		return f, err
	}
	res = nil
	if !mutated {
		pf = pr
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)^0x1a5))
	perm := func() []int32 { return snPerm(r, n) }
	// runMany runs the fault's network on the permutations drawn i0,
	// i0+1, …, xss, in ys (one a permutation, msn.ApplyManyLanes at a time:
	// ApplyManyStages gives ApplyStages's outputs): from the real states
	// before the finishing sorters where resuming, else from the start
	// (keeping those states, in draw order, for the real run).
	runMany := func(i0 int, xss, ys [][]int32) {
		for l := range ys {
			if resume != nil {
				copy(ys[l], resume.states[i0+l])
			} else {
				copy(ys[l], xss[l])
			}
		}
		switch {
		case resume != nil:
			pf.ApplyManyStages(ys, boundary, pf.Depth())
		case keep != nil:
			pf.ApplyManyStages(ys, 0, boundary)
			for _, y := range ys {
				keep.states = append(keep.states, slices.Clone(y))
			}
			pf.ApplyManyStages(ys, boundary, pf.Depth())
		default:
			pf.ApplyMany(ys)
		}
	}
	ys := make([][]int32, min(msn.ApplyManyLanes, max(search, random)))
	for l := range ys {
		ys[l] = make([]int32, n)
	}
	// The permutations are drawn in order, msn.ApplyManyLanes at a time
	// (nothing else draws from r), and judged in order.
	var ins [][]int32
	for i0 := 0; i0 < search; i0 += len(ys) {
		xss := make([][]int32, min(len(ys), search-i0))
		for l := range xss {
			xss[l] = perm()
		}
		runMany(i0, xss, ys[:len(xss)])
		for l, xs := range xss {
			if !msn.Sorted(ys[l]) && len(ins) < failing {
				ins = append(ins, xs)
			}
		}
	}
	f.Failing = len(ins)
	for range random {
		ins = append(ins, perm())
	}
	// The traced inputs' outputs: a failing one is left unsorted (the
	// search ran it on this network: its run would give the same output),
	// the random ones run now, in draw order.
	sortedOut := make([]bool, len(ins))
	for k0 := f.Failing; k0 < len(ins); k0 += len(ys) {
		g := ins[k0:min(len(ins), k0+len(ys))]
		runMany(search+k0-f.Failing, g, ys[:len(g)])
		for l := range g {
			sortedOut[k0+l] = msn.Sorted(ys[l])
		}
	}
	f.Random = len(ins) - f.Failing
	f.tallySchedule(schedule)
	for k, in := range ins {
		reports, err := tracer.Reports(pr.ApplyStages, in)
		if err != nil {
			return f, err
		}
		kept := f.tallyTrace(k, reports)
		sorted := sortedOut[k]
		cell := map[bool]string{true: "kept", false: "broken"}[kept] + "/" + map[bool]string{true: "sorted", false: "unsorted"}[sorted]
		f.Table[cell]++
		if kept && !sorted && f.KeptUnsorted == nil {
			f.KeptUnsorted = in
		}
	}
	if keep != nil && len(keep.states) == search+random {
		aksInvStates.Store(key, keep)
	}
	aksInvCache.Store(key, f)
	return f, nil
}

// AKSExpanderInvariants builds the expander-halver network (d matchings,
// PCG(seed, n), as aks.ExpanderNet), runs `search` random permutations
// (PCG(seed, n ^ 0x1a5)) through it and keeps up to `failing` it leaves
// unsorted, then rebuilds it with those and `random` fresh random
// permutations traced through every stage, and records the §4 violations
// (StageReport.Violations: clauses 1–3 on loads, 4 on strangers against
// λε^(j−1)·capacity) and, per traced input, whether the invariant was kept
// and whether the network sorts it. Results are memoized per arguments.
//
// A planted fault f (nil: none) mutates the lowered network, in the search
// and in the sortedness of the traced inputs; the traced invariant is the
// construction's and does not change.
func AKSExpanderInvariants(n, d, search, failing, random int, seed uint64, fault *aksNetFault) (AKSInvariantFinding, error) {
	key := aksInvKey{n, d, search, failing, random, seed, ""}
	if fault != nil {
		key.fault = fault.Name
	}
	if f, ok := aksInvCache.Load(key); ok {
		return f.(AKSInvariantFinding), nil
	}
	if n >= 2 && n&(n-1) == 0 && n <= msn.PackedMaxN && !aksInvRebuild {
		return aksExpanderInvariantsTraced(key, fault)
	}
	f := AKSInvariantFinding{N: n, D: d, Searched: search, ByClause: map[int]int{}, Table: map[string]int{}}
	plain, err := aks.ExpanderNet(n, d, seed)
	if err != nil {
		return f, err
	}
	var plainNet msn.Network
	if fault == nil {
		plainNet = plain.Net
	} else {
		nw, ok := fault.Mutate(plain)
		if !ok && fault.missed != nil {
			fault.missed(n)
		}
		plainNet = nw
		if !ok && sameNetwork(nw, plain.Net) && !aksInvNoShortcut {
			// The fault found nothing to mutate: the search, the traces
			// and the sortedness run on the real network, so the finding
			// is the real one. The full run would call the fault again on
			// the rebuilt network, the same network (the construction is
			// deterministic): it is called on this one instead, for what
			// it records (the sizes it could not mutate).
			key.fault = ""
			if g, ok := aksInvCache.Load(key); ok {
				fault.mutate(plain)
				aksInvShortcuts.Add(1)
				return g.(AKSInvariantFinding), nil
			}
			key.fault = fault.Name
		}
	}
	// Only the first network's size and depth are needed beyond the
	// search, which runs on a packed copy that consumes its stages: let the
	// collector have them before the traced network is built (at n = 2^16,
	// d = 16 each has 78 million comparators, 624 MB; the two together
	// peaked at 1.28 GB live).
	plainSize, plainDepth := plain.Net.Size(), plain.Net.Depth()
	plain = nil
	apply := func(y []int32) { msn.Apply(plainNet, y) }
	if p, err := msn.Pack(plainNet, true); err == nil {
		apply, plainNet = p.Apply, msn.Network{}
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)^0x1a5))
	perm := func() []int32 { return snPerm(r, n) }
	var ins [][]int32
	for range search {
		xs := perm()
		y := slices.Clone(xs)
		apply(y)
		if !msn.Sorted(y) && len(ins) < failing {
			ins = append(ins, xs)
		}
	}
	f.Failing = len(ins)
	for range random {
		ins = append(ins, perm())
	}
	f.Random = len(ins) - f.Failing
	apply = nil
	sep := aks.ExpanderSeparator(n, d, seed) // the matchings of aks.ExpanderNet(n, d, seed)
	res, err := aks.Construct(n, aks.SeiferasParams(), sep, ins...)
	if err != nil {
		return f, err
	}
	if res.Net.Size() != plainSize || res.Net.Depth() != plainDepth {
		return f, fmt.Errorf("aks: rebuilding the network with traces gave a different network (size %d vs %d)", res.Net.Size(), plainSize)
	}
	f.tallySchedule(res.Schedule)
	net := fault.mutate(res)
	for k, tr := range res.Traces {
		kept := f.tallyTrace(k, tr.Reports)
		y := slices.Clone(ins[k])
		msn.Apply(net, y)
		sorted := msn.Sorted(y)
		cell := map[bool]string{true: "kept", false: "broken"}[kept] + "/" + map[bool]string{true: "sorted", false: "unsorted"}[sorted]
		f.Table[cell]++
		if kept && !sorted && f.KeptUnsorted == nil {
			f.KeptUnsorted = ins[k]
		}
	}
	aksInvCache.Store(key, f)
	return f, nil
}

// tallySchedule counts the data-independent stage reports' violations.
func (f *AKSInvariantFinding) tallySchedule(schedule []aks.StageReport) {
	for _, rep := range schedule {
		f.Reports++
		for _, v := range rep.Violations() {
			f.ByClause[v.Clause]++
			if f.First == "" {
				f.First = "schedule: " + v.String()
			}
		}
	}
}

// tallyTrace counts the violations in traced input k's stage reports (and
// those where a bound below 1 makes a single stranger too many); it
// reports whether the input kept every invariant.
func (f *AKSInvariantFinding) tallyTrace(k int, reports []aks.StageReport) (kept bool) {
	kept = true
	for _, rep := range reports {
		f.Reports++
		for _, v := range rep.Violations() {
			kept = false
			f.ByClause[v.Clause]++
			if f.First == "" {
				what := "random"
				if k < f.Failing {
					what = "failing"
				}
				f.First = fmt.Sprintf("traced input %d (%s): %s", k, what, v.String())
			}
		}
		for _, lv := range rep.Levels {
			for j, st := range lv.Strangers {
				if float64(st) > lv.Bounds[j] && lv.Bounds[j] < 1 {
					f.BoundBelow1++
				}
			}
		}
	}
	return kept
}

func (f AKSInvariantFinding) String() string {
	tab := fmt.Sprintf("traced %d failing (of %d random permutations searched) + %d random: kept/sorted %d, kept/unsorted %d, broken/sorted %d, broken/unsorted %d",
		f.Failing, f.Searched, f.Random, f.Table["kept/sorted"], f.Table["kept/unsorted"], f.Table["broken/sorted"], f.Table["broken/unsorted"])
	if len(f.ByClause) == 0 {
		return fmt.Sprintf("n = %d, d = %d: %d stage reports, clauses 1–4 hold; %s", f.N, f.D, f.Reports, tab)
	}
	return fmt.Sprintf("n = %d, d = %d: %d stage reports, violations by clause %v (%d of the clause-4 ones where the bound λε^(j−1)b is < 1, i.e. a single stranger is too many); first: %s; %s",
		f.N, f.D, f.Reports, f.ByClause, f.BoundBelow1, f.First, tab)
}

// aksExpanderInvariantCases are (n, d, searched, failing cap, random).
func aksExpanderInvariantCases(b props.Budget) [][5]int {
	switch b {
	case props.Small:
		return [][5]int{{1 << 10, 8, 50, 4, 4}, {1 << 12, 8, 100, 4, 4}, {1 << 12, 16, 100, 4, 4}}
	case props.Default:
		return [][5]int{{1 << 10, 8, 100, 4, 4}, {1 << 12, 8, 200, 6, 6}, {1 << 14, 8, 50, 4, 2}, {1 << 12, 16, 200, 6, 6}, {1 << 14, 16, 100, 4, 2}, {1 << 16, 16, 20, 3, 1}}
	}
	return [][5]int{{1 << 10, 8, 400, 8, 8}, {1 << 12, 8, 400, 8, 8}, {1 << 14, 8, 100, 8, 4}, {1 << 16, 8, 20, 4, 2}, {1 << 12, 16, 400, 8, 8}, {1 << 14, 16, 400, 8, 4}, {1 << 16, 16, 40, 4, 2}}
}

func aksExpanderInvariantRun(env props.Env) ([]AKSInvariantFinding, error) {
	var out []AKSInvariantFinding
	for _, c := range aksExpanderInvariantCases(env.Budget) {
		f, err := AKSExpanderInvariants(c[0], c[1], c[2], c[3], c[4], env.Seed, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func init() {
	props.Register(ledger.Text(props.Claim{
		ID:     "sortnet/aks/exact-halver/sorts-large",
		Check:  aksLargeCheckExact(nil),
		Faults: []props.Fault{snFaultCheck(aksLargeDeleteFault, aksLargeCheckExact), {Name: aksSkipRootName, Check: aksLargeCheckExactSep(aksSkipRoot, nil)}},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "sortnet/aks/expander-halver/sorts-large",
		Check: aksLargeCheckExpander,
	}))
	props.Register(ledger.Text(props.Claim{
		ID: "sortnet/aks/expander-halver/invariants",
		Check: func(env props.Env) props.Outcome {
			fs, err := aksExpanderInvariantRun(env)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			var ev []string
			var first *AKSInvariantFinding
			for k, f := range fs {
				if len(f.ByClause) > 0 && first == nil {
					first = &fs[k]
				}
				ev = append(ev, f.String())
			}
			if first != nil {
				cex := map[string]any{"n": first.N, "d": first.D, "first": first.First, "by_clause": first.ByClause,
					"network": fmt.Sprintf("aks.ExpanderNet(%d, %d, %d)", first.N, first.D, env.Seed),
					"inputs":  fmt.Sprintf("props/sortnet.AKSExpanderInvariants(%d, %d, …, %d): failing random permutations of PCG(%d, %d ^ 0x1a5) first, then fresh ones", first.N, first.D, env.Seed, env.Seed, first.N)}
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("first violated at n = %d, d = %d. %s", first.N, first.D, strings.Join(ev, "; ")), Counterexample: cex}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
		},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:         "sortnet/aks/expander-halver/invariant-implies-sorted",
		RecordedAt: map[props.Budget]props.Verdict{props.Small: props.Inconclusive},
		Check:      aksInvariantImpliesSortedCheck(nil),
		Faults: []props.Fault{
			snFaultCheck(aksFinisherDeleteFault, func(f *snFault) func(props.Env) props.Outcome {
				return aksInvariantImpliesSortedCheck(aksNetFaultOf(f))
			}),
			aksFinalMergeFault.fault(aksInvariantImpliesSortedCheck),
		},
	}))
}

// aksFinisherDeleteFault is invariant-implies-sorted's planted fault: one
// comparator deleted from the lowered network (snDropExchanging). The
// construction's bag-level trace, and so the invariant, is unchanged.
var aksFinisherDeleteFault = snResumedDelete(snDeleteFault("from every network", nil))

// aksInvariantImpliesSortedCheck is invariant-implies-sorted's check on the
// expander-halver networks with the planted fault (nil: none). It stops at
// the first network with a traced input that keeps the invariant and is
// left unsorted.
func aksInvariantImpliesSortedCheck(fault *aksNetFault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		kept, failingTraced := 0, 0
		for _, c := range aksExpanderInvariantCases(env.Budget) {
			f, err := AKSExpanderInvariants(c[0], c[1], c[2], c[3], c[4], env.Seed, fault)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if f.KeptUnsorted != nil {
				cex := map[string]any{"n": f.N, "d": f.D, "input": f.KeptUnsorted, "network": fmt.Sprintf("aks.ExpanderNet(%d, %d, %d)", f.N, f.D, env.Seed)}
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, d = %d: a traced input keeps the §4 invariant at every stage but the network leaves it unsorted. %s", f.N, f.D, f.String()), Counterexample: cex}
			}
			kept += f.Table["kept/sorted"]
			failingTraced += f.Failing
			ev = append(ev, fmt.Sprintf("n = %d, d = %d: kept/sorted %d, broken/unsorted %d, broken/sorted %d", f.N, f.D, f.Table["kept/sorted"], f.Table["broken/unsorted"], f.Table["broken/sorted"]))
		}
		if failingTraced == 0 || kept == 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("vacuous: %d failing inputs traced, %d inputs kept the invariant. %s", failingTraced, kept, strings.Join(ev, "; "))}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("no traced input keeps the invariant and ends unsorted (%d failing inputs traced, %d inputs kept the invariant and were sorted): %s", failingTraced, kept, strings.Join(ev, "; "))}
	}
}
