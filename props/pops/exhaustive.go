package pops

import (
	"fmt"
	"math/big"
	"slices"
	"time"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props/popstest"
)

// Exhaustive small scope for the per-step claims of §III, by slot-1
// survivor classes.
//
// A step's input is a permutation π and, for every packet, its choice: an
// intermediate group in N_g, or "does not take part" (only where the step
// has Theorem 3.8's coin, d > g). There are n!·(g + [d > g])^n inputs —
// 264,539,520 for POPS(4,2) — too many to run one by one on the slot model.
// They fall into far fewer classes:
//
// Reduction. Call a packet a survivor when it takes part and no other packet
// of its group chose the same intermediate group (it survives slot 1). Two
// inputs with the same survivors, the same survivor choices and the same
// survivor destinations give the same step, slot by slot, up to the
// destinations of non-survivors, which no slot reads. Why: a non-survivor
// either sends nothing, or sends in slot 1 on a coupler c(r, a) that another
// packet of group a also uses, so the relay of group r listening to it
// receives nothing — exactly as if neither had sent; it keeps its original
// either way (the original is dropped only on an ack, and only a relay that
// received a copy acks). From slot 2 on only relays holding a copy,
// temporary-group processors holding a copy and the sources of survivors
// act. Slot 4's listening sources are the participants; a non-survivor
// listens to c(a, r) for its choice r, on which no relay acks, because no
// copy from group a reached group r. In slot 5 every processor listens, but
// accepts only its own packet, and only survivors' copies are sent. So the
// conflicts of slots 3–5, the losses, duplicates and buffers at the end of
// every slot — everything the per-step claims read — are those of the class
// representative: the same survivors with the same choices and
// destinations, every other packet present but not taking part, and the
// unused destinations given to the non-survivors in increasing order.
// TestSurvivorClassesMatchUnreduced checks this against the unreduced
// enumeration (every input run on the slot model) for POPS(2,2), POPS(3,2),
// POPS(d,1) with d ≤ 5, and sampled inputs of POPS(4,2) and POPS(8,1).
//
// Coverage is counted, not assumed: each class's size is (n − k)! (the
// non-survivors' destinations) times, for each group, the number of ways
// its non-survivors can choose without creating a survivor (not taking part,
// or sharing a group with another non-survivor, never a survivor's group);
// the sizes must add up to n!·(g + [d > g])^n for every shape.
//
// The same classes also cover every later step of every run for the claims
// that read only conflicts, losses and duplicates: the survivors of any
// step are packets with distinct destinations, at most one per (source
// group, intermediate group), which is a class enumerated here, and those
// claims do not depend on what else the state holds. The buffer counts of a
// later step also depend on the packets already delivered, so the memory
// claims are exhaustive for step 1 only (whole runs are left to rapid).

// stepClass is one survivor class: a representative input (Groups set, so
// RunPops runs one step) and the number of inputs it stands for.
type stepClass struct {
	in        PopsInstance
	survivors int
	size      *big.Int
}

// stepOutcome is what the per-step claims read from one class, kept small
// (a shape has up to 156,065 classes): the popstest per-slot properties the
// class's run broke (a bit each, in slotProps order), its peak memory under
// each popstest.Memory accounting, and a model violation.
type stepOutcome struct {
	broke    uint8
	peak     [3]int32
	modelErr string
}

// slotProps are the per-slot properties a stepOutcome records.
var slotProps = [...]string{"invariants", "conservation", "conflicts", "buffer"}

// report rebuilds the popstest report the per-step predicates read (no
// messages, no places: a failing class is rerun for those).
func (o stepOutcome) report() popstest.SlotReport {
	var r popstest.SlotReport
	for k, p := range slotProps {
		if o.broke>>k&1 == 1 {
			r.Failures = append(r.Failures, popstest.SlotFailure{Property: p})
		}
	}
	for m, h := range o.peak {
		r.Peaks[m].Held = int(h)
	}
	return r
}

// survivorsOf returns the packets of in that survive slot 1 of its step
// (Groups): they take part and no other packet of their group chose the
// same intermediate group. It defines the classes; the reduction test uses
// it to map every input to its class.
func survivorsOf(in PopsInstance) []bool {
	sh := in.Shape()
	cnt := map[[2]int32]int{}
	for p, r := range in.Groups {
		if r >= 0 && in.Perm[p] != perm.None {
			cnt[[2]int32{int32(sh.Group(p)), r}]++
		}
	}
	s := make([]bool, len(in.Groups))
	for p, r := range in.Groups {
		s[p] = r >= 0 && in.Perm[p] != perm.None && cnt[[2]int32{int32(sh.Group(p)), r}] == 1
	}
	return s
}

// classRep returns the representative of in's class (see the reduction).
func classRep(in PopsInstance) PopsInstance {
	surv := survivorsOf(in)
	n := len(in.Perm)
	rep := PopsInstance{D: in.D, G: in.G, Algorithm: in.Algorithm, Perm: make([]int32, n), Groups: make([]int32, n)}
	used := make([]bool, n)
	for p := range n {
		rep.Groups[p], rep.Perm[p] = -1, perm.None
		if surv[p] {
			rep.Groups[p], rep.Perm[p] = in.Groups[p], in.Perm[p]
			used[in.Perm[p]] = true
		}
	}
	next := 0
	for p := range n {
		if rep.Perm[p] != perm.None {
			continue
		}
		for used[next] {
			next++
		}
		rep.Perm[p], used[next] = int32(next), true
	}
	return rep
}

// freeChoices is the number of ways m non-survivors of one group can
// choose among f intermediate groups not used by a survivor, plus "does
// not take part" when coin is set, so that no group is chosen exactly once.
func freeChoices(m, f int, coin bool) *big.Int {
	// a[m'] = ways for m' packets that all take part, over the f groups:
	// each group gets 0 or ≥ 2 of them.
	a := make([]*big.Int, m+1)
	for i := range a {
		a[i] = big.NewInt(0)
	}
	a[0].SetInt64(1)
	for range f {
		b := make([]*big.Int, m+1)
		for i := range b {
			b[i] = new(big.Int).Set(a[i]) // this group unused
			for s := 2; s <= i; s++ {
				t := new(big.Int).Binomial(int64(i), int64(s))
				b[i].Add(b[i], t.Mul(t, a[i-s]))
			}
		}
		a = b
	}
	if !coin {
		return a[m]
	}
	total := big.NewInt(0)
	for j := 0; j <= m; j++ { // j of them take part
		t := new(big.Int).Binomial(int64(m), int64(j))
		total.Add(total, t.Mul(t, a[j]))
	}
	return total
}

// stepClasses enumerates the survivor classes of POPS(d,g) for alg, by
// number of survivors, then survivor set and choices, then destinations
// (lexicographically), and checks that their sizes add up to every input.
func stepClasses(alg ap.Variant, d, g int) ([]stepClass, error) {
	n := d * g
	coin := ap.Participation(mpops.Shape{D: d, G: g}, ap.DefaultCEps, 1) < 1
	// Per group: every partial injection intermediate group → packet.
	type pick struct{ p, r int32 }
	perGroup := make([][][]pick, g)
	for a := range g {
		var rec func(r int, used []bool, cur []pick)
		rec = func(r int, used []bool, cur []pick) {
			if r == g {
				perGroup[a] = append(perGroup[a], slices.Clone(cur))
				return
			}
			rec(r+1, used, cur)
			for j := range d {
				if !used[j] {
					used[j] = true
					rec(r+1, used, append(cur, pick{int32(a*d + j), int32(r)}))
					used[j] = false
				}
			}
		}
		rec(0, make([]bool, d), nil)
	}
	// Combine the groups.
	var sets [][]pick
	var comb func(a int, cur []pick)
	comb = func(a int, cur []pick) {
		if a == g {
			s := slices.Clone(cur)
			slices.SortFunc(s, func(x, y pick) int { return int(x.p - y.p) })
			sets = append(sets, s)
			return
		}
		for _, c := range perGroup[a] {
			comb(a+1, append(cur, c...))
		}
	}
	comb(0, nil)
	slices.SortStableFunc(sets, func(x, y []pick) int { return len(x) - len(y) })

	var out []stepClass
	total := big.NewInt(0)
	fact := func(k int) *big.Int { return new(big.Int).MulRange(1, int64(max(k, 1))) }
	sym := g == 2 && d%g == 0
	for _, s := range sets {
		k := len(s)
		size := fact(n - k)
		for a := range g {
			inA := 0
			for _, pk := range s {
				if int(pk.p)/d == a {
					inA++
				}
			}
			size.Mul(size, freeChoices(d-inA, g-inA, coin))
		}
		// Every injective assignment of destinations to the k survivors.
		dsts := make([]int32, k)
		used := make([]bool, n)
		var assign func(i int)
		assign = func(i int) {
			if i == k {
				in := PopsInstance{D: d, G: g, Algorithm: alg.String(), Perm: make([]int32, n), Groups: make([]int32, n)}
				for p := range n {
					in.Perm[p], in.Groups[p] = perm.None, -1
				}
				for j, pk := range s {
					in.Perm[pk.p], in.Groups[pk.p] = dsts[j], pk.r
				}
				rep := classRep(in)
				sz := size
				if sym {
					switch c := cmpInstances(rep, classRep(swapGroups(in))); {
					case c > 0:
						return // its image stands for it
					case c < 0:
						sz = new(big.Int).Lsh(size, 1) // it and its image
					}
				}
				out = append(out, stepClass{in: rep, survivors: k, size: sz})
				total.Add(total, sz)
				return
			}
			for x := range n {
				if !used[x] {
					used[x], dsts[i] = true, int32(x)
					assign(i + 1)
					used[x] = false
				}
			}
		}
		if size.Sign() > 0 {
			assign(0)
		}
	}
	choices := int64(g)
	if coin {
		choices++
	}
	want := new(big.Int).Mul(fact(n), new(big.Int).Exp(big.NewInt(choices), big.NewInt(int64(n)), nil))
	if total.Cmp(want) != 0 {
		return nil, fmt.Errorf("POPS(%d,%d): survivor classes cover %v inputs, want n!·%d^n = %v", d, g, total, choices, want)
	}
	return out, nil
}

// swapGroups is the symmetry φ of POPS(d,2), d even, applied to the
// survivors of in: it exchanges groups 0 and 1 and, within each group, the
// residues 0 and 1 — processor x = G·d + 2q + s goes to (1−G)·d + 2q + (1−s)
// — and exchanges the intermediate groups 0 and 1 of the choices.
//
// Why the step is the same up to relabeling: the router only ever uses
// group(x), x mod g = s (listening couplers c(group(x), x mod g), temporary
// groups π(p) mod g) and, for split delivery, the sub-slot ⌊(x mod d)/g⌋ = q;
// relays are the processors with q = 0. With g | d, x mod g = s, so φ maps
// group(x) to σ(group(x)) and x mod g to σ(x mod g) for the swap σ, keeps q,
// and maps relays to relays; every coupler c(b, a) used maps to c(σb, σa),
// so conflicts per slot, losses, duplicates and per-processor buffers are
// permuted, and their counts and maxima are unchanged. It does not hold for
// d odd (POPS(3,2): x mod 2 is not the within-group residue), which is
// enumerated without it. TestGroupSwapSymmetry checks it on the slot model.
func swapGroups(in PopsInstance) PopsInstance {
	n, d := len(in.Perm), in.D
	phi := func(x int32) int32 {
		G, j := int(x)/d, int(x)%d
		return int32((1-G)*d + j - j%2 + (1 - j%2))
	}
	out := PopsInstance{D: in.D, G: in.G, Algorithm: in.Algorithm, Perm: make([]int32, n), Groups: make([]int32, n)}
	for p := range n {
		out.Perm[p], out.Groups[p] = perm.None, -1
	}
	for p := range n {
		if in.Perm[p] == perm.None {
			continue
		}
		q := phi(int32(p))
		out.Perm[q] = phi(in.Perm[p])
		if r := in.Groups[p]; r >= 0 {
			out.Groups[q] = 1 - r
		}
	}
	return out
}

func cmpInstances(a, b PopsInstance) int {
	if c := slices.Compare(a.Groups, b.Groups); c != 0 {
		return c
	}
	return slices.Compare(a.Perm, b.Perm)
}

// maxStepN is the largest n the exhaustive part enumerates (routerRun.
// exhaustive's maxN): a classSet stores its representatives in arrays of
// this length.
const maxStepN = 8

// compactClass is a stepClass stored in 32 bytes: the representative's
// permutation and step-1 choices (n ≤ maxStepN), its number of survivors,
// and the number of inputs it stands for. The representatives do not
// depend on the algorithm or the planted fault (stepClasses uses alg only
// for the Algorithm field, and the coin depends on the shape only), so one
// classSet per shape serves every (algorithm, mutant).
type compactClass struct {
	perm, groups [maxStepN]int8
	survivors    uint8
	size         uint64
}

// classSet is the survivor classes of one shape, compact.
type classSet struct {
	d, g    int
	classes []compactClass
	inputs  *big.Int // the sum of the sizes: every input of the shape
}

// newClassSet enumerates the classes of POPS(d,g) (stepClasses) and stores
// them compactly.
func newClassSet(d, g int) (*classSet, error) {
	n := d * g
	if n > maxStepN {
		return nil, fmt.Errorf("POPS(%d,%d): the exhaustive part stores classes for n ≤ %d", d, g, maxStepN)
	}
	cl, err := stepClasses(ap.Faithful, d, g)
	if err != nil {
		return nil, err
	}
	cs := &classSet{d: d, g: g, classes: make([]compactClass, len(cl)), inputs: big.NewInt(0)}
	for i, c := range cl {
		if !c.size.IsUint64() {
			return nil, fmt.Errorf("POPS(%d,%d): class size %v does not fit 64 bits", d, g, c.size)
		}
		cc := compactClass{survivors: uint8(c.survivors), size: c.size.Uint64()}
		for p := range n {
			cc.perm[p], cc.groups[p] = int8(c.in.Perm[p]), int8(c.in.Groups[p])
		}
		cs.classes[i] = cc
		cs.inputs.Add(cs.inputs, c.size)
	}
	return cs, nil
}

// instance returns class i as the input RunPops runs: its representative
// for algorithm alg with planted fault mut.
func (cs *classSet) instance(i int, alg ap.Variant, mut ap.Mutant) PopsInstance {
	n := cs.d * cs.g
	c := &cs.classes[i]
	in := PopsInstance{D: cs.d, G: cs.g, Algorithm: alg.String(), Mutant: mut, Perm: make([]int32, n), Groups: make([]int32, n)}
	for p := range n {
		in.Perm[p], in.Groups[p] = int32(c.perm[p]), int32(c.groups[p])
	}
	return in
}

// stepShape is the exhaustive result of one shape for one (algorithm,
// mutant): its classes, what each does, and how many inputs they cover.
type stepShape struct {
	d, g     int
	alg      ap.Variant
	mut      ap.Mutant
	set      *classSet
	outcomes []stepOutcome
	inputs   *big.Int
}

// class returns class i's representative as run (Algorithm and Mutant set).
func (sh *stepShape) class(i int) PopsInstance { return sh.set.instance(i, sh.alg, sh.mut) }

// stepKeepFor is how long a shape (and a class set) stays cached after its
// last use: long enough for the claims that share it, which `routecheck
// claims` schedules side by side (equal memory estimates, mem.go), to find
// it. Compact, all the ledger's shapes take ≈ 50 MB.
const stepKeepFor = 90 * time.Second

var (
	// classSets holds the classes per shape {d, g}; stepShapes per
	// {alg, mutant, d, g}. Each is computed once while any claim uses it
	// (per key: different keys compute concurrently).
	classSets  = keptMap[[2]int, classSet]{keepFor: stepKeepFor}
	stepShapeM = keptMap[[4]int, stepShape]{keepFor: stepKeepFor}
)

// exhaustiveShape runs every survivor class of POPS(d,g) on the slot model
// (one step each); the result is cached per (alg, mut, d, g), so the
// per-step claims share it, and the classes per (d, g), so every algorithm
// and planted fault share them. The cache holds a result strongly until
// stepKeepFor after its last use, then weakly (the collector frees it
// unless a claim still holds it).
func exhaustiveShape(alg ap.Variant, mut ap.Mutant, d, g int) (*stepShape, error) {
	return stepShapeM.get([4]int{int(alg), int(mut), d, g}, func() (*stepShape, error) {
		set, err := classSets.get([2]int{d, g}, func() (*classSet, error) { return newClassSet(d, g) })
		if err != nil {
			return nil, err
		}
		sh := &stepShape{d: d, g: g, alg: alg, mut: mut, set: set, outcomes: make([]stepOutcome, len(set.classes)), inputs: set.inputs}
		run := newClassRunner(set, alg, mut)
		for i := range set.classes {
			sh.outcomes[i] = run.outcome(i)
		}
		return sh, nil
	})
}

// stepShapes lists the shapes d ≥ g with dg ≤ maxN and keep(d, g), in
// order of n, then g.
func stepShapes(maxN int, keep func(d, g int) bool) [][2]int {
	var out [][2]int
	for n := 1; n <= maxN; n++ {
		for g := 1; g*g <= n; g++ {
			if n%g == 0 && keep(n/g, g) {
				out = append(out, [2]int{n / g, g})
			}
		}
	}
	return out
}

func outcomeOf(r PopsRunReport) stepOutcome {
	o := stepOutcome{modelErr: modelBad(r)}
	for k, p := range slotProps {
		if _, ok := r.Slots.Broke(p); ok {
			o.broke |= 1 << k
		}
	}
	for m, pk := range r.Slots.Peaks {
		o.peak[m] = int32(pk.Held)
	}
	return o
}

// classRunner runs the classes of one set for one (algorithm, mutant): what
// RunPops does for a class (an instance with Groups: one step with the
// class's choices, popstest's per-slot checks after every slot), with the
// memory of the runs reused — the slot model stepped by one mpops.Stepper
// (the same physics as mpops.Step, without a fresh state per slot) and the
// decider's buffers kept. TestClassSetsMatchPlain checks it against
// outcomeOf(RunPops(class)).
type classRunner struct {
	set         *classSet
	alg         ap.Variant
	mut         ap.Mutant
	perStep     int
	step        mpops.Stepper
	part, gs    []int32
	dst, groups []int32
}

func newClassRunner(set *classSet, alg ap.Variant, mut ap.Mutant) *classRunner {
	n := set.d * set.g
	return &classRunner{set: set, alg: alg, mut: mut, perStep: alg.SlotsPerStep(mpops.Shape{D: set.d, G: set.g}),
		dst: make([]int32, n), groups: make([]int32, n)}
}

// outcome is outcomeOf(RunPops(class i)).
func (r *classRunner) outcome(i int) stepOutcome {
	sh := mpops.Shape{D: r.set.d, G: r.set.g}
	c := &r.set.classes[i]
	for p := range r.dst {
		r.dst[p], r.groups[p] = int32(c.perm[p]), int32(c.groups[p])
	}
	var rep PopsRunReport
	rep.PerStep = r.perStep
	for _, x := range r.dst {
		if x != perm.None {
			rep.Packets++
		}
	}
	chk := popstest.NewSlotCheck(popstest.Options{ConflictFree: func(slot int) bool { return (slot-1)%rep.PerStep >= 2 }})
	obs := func(_, _ int, _ []mpops.Action, _, after mpops.State, ev mpops.Events) { chk.Observe(after, ev) }
	o := ap.Options{Variant: r.alg, Mutant: r.mut, MaxSteps: 1, Step: r.step.Step}
	var err error
	rep.Result, err = ap.RunOnModelWith(sh, r.dst, func(_, _ int, _ float64) ([]int32, []int32) {
		// Pending packets are the packets in increasing order.
		part, gs := r.part[:0], r.gs[:0]
		k := 0
		for p, x := range r.dst {
			if x == perm.None {
				continue
			}
			if r.groups[p] >= 0 {
				part, gs = append(part, int32(k)), append(gs, r.groups[p])
			}
			k++
		}
		r.part, r.gs = part, gs
		return part, gs
	}, o, obs)
	rep.ModelErr = err
	rep.Slots = chk.Report()
	if f, ok := rep.Slots.Broke("invariants"); ok {
		rep.InvariantAt = rep.At(f.Slot) + ": " + f.Message
	}
	return outcomeOf(rep)
}
