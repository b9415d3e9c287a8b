package aks

import (
	"fmt"
	"math"
	"math/bits"

	"routecheck/models/sortnet"
)

// LevelReport describes one level (tree depth) of bags at one time.
type LevelReport struct {
	Depth    int     // d: the bags' depth in the tree (root 0)
	Bags     int     // number of non-empty bags on the level
	MinLoad  int     // fewest items in a bag of the level (empty bags count)
	MaxLoad  int     // most items in a bag of the level
	Capacity float64 // b = N ν^t A^d (§4)
	CapFloor int64   // ⌊b⌋, exact, clamped to 2^62
	// Strangers[j−1] is the most j-strangers (items whose bag is at least j
	// steps off their native root-to-leaf path, §2) in one bag of the level,
	// j = 1..d; Bounds[j−1] = λ ε^(j−1) b is clause 4's bound. Both are nil
	// in the data-independent Result.Schedule.
	Strangers []int
	Bounds    []float64
}

// StageReport is the state after T stages (T = 0 is the initial state, all
// items in the root). Levels lists only the non-empty levels.
type StageReport struct {
	T      int
	Levels []LevelReport
}

// Violation is one failed clause of the §4 invariant.
type Violation struct {
	T, Depth, Clause int
	Msg              string
}

func (v Violation) String() string {
	return fmt.Sprintf("t=%d depth %d clause %d: %s", v.T, v.Depth, v.Clause, v.Msg)
}

// Violations checks the four clauses of the §4 invariant on r: (1) non-empty
// levels have the parity of T; (2) all bags of a level hold the same number
// of items; (3) loads are at most the capacity; (4) j-strangers are at most
// λε^(j−1) times the capacity (only where strangers were traced).
func (r StageReport) Violations() []Violation {
	var out []Violation
	for _, lv := range r.Levels {
		if (lv.Depth-r.T)%2 != 0 {
			out = append(out, Violation{r.T, lv.Depth, 1, "non-empty level has the wrong parity"})
		}
		if lv.MinLoad != lv.MaxLoad {
			out = append(out, Violation{r.T, lv.Depth, 2, fmt.Sprintf("loads differ: %d..%d", lv.MinLoad, lv.MaxLoad)})
		}
		if int64(lv.MaxLoad) > lv.CapFloor {
			out = append(out, Violation{r.T, lv.Depth, 3, fmt.Sprintf("load %d > capacity %.4g", lv.MaxLoad, lv.Capacity)})
		}
		for j, s := range lv.Strangers {
			if float64(s) > lv.Bounds[j] {
				out = append(out, Violation{r.T, lv.Depth, 4, fmt.Sprintf("%d-strangers %d > bound %.4g", j+1, s, lv.Bounds[j])})
			}
		}
	}
	return out
}

// Trace is what happened to one traced input.
type Trace struct {
	Reports   []StageReport // after t = 0..Stages stages
	Output    []int32       // the construction's output, by intended output position
	Sorted    bool          // Output[p] = p for all p (see Result.OutputIdentity)
	Misplaced int           // positions p with Output[p] ≠ p
}

// Result is a constructed network with its schedule data.
type Result struct {
	Net    sortnet.Network // standard comparator network on n wires, no empty stages
	N      int             // padded size: the least power of two ≥ max(n, 2)
	Stages int             // T: separation–rebagging stages (§4)
	// StageDepth[t] is the comparator depth of stage t in Net.
	StageDepth []int
	// FinalHeight is the height of the subtrees finished by sorters after the
	// last stage (sorters on 2^(FinalHeight+1) items); PaperFinalHeight is
	// §4's k, the smallest k with A^(k+1) > 1/λ, which bounds it when the
	// invariant holds.
	FinalHeight, PaperFinalHeight int
	FinalDepth                    int // depth of the finishing sorters in Net
	// OutputIdentity reports that the relabelling delivers output position
	// p on wire p. It holds whenever the bag-level construction sorts with
	// its intended output map (position lo+i of a finishing subtree is the
	// i-th register of its sorter). When it fails, the construction leaves
	// the sorted input unsorted under that map, and Net computes the
	// construction's output followed by a fixed non-identity permutation of
	// positions: Net may still sort some inputs, or all of them if the
	// construction misplaces items in a data-independent way. Net is the
	// verdict that counts.
	OutputIdentity bool
	Schedule       []StageReport // data-independent loads, t = 0..Stages
	Traces         []Trace       // one per traced input, in order
}

type gcomp struct{ a, b int32 } // generalized comparator: min to register a, max to b

// Construct builds Seiferas's network for n wires with parameters p and
// separator sep, and runs each of inputs (permutations of 0..n−1) through
// the construction alongside, recording per-stage invariant reports.
//
// Bags are heap-indexed (root 1, children 2v and 2v+1) over the padded size
// N; a bag's registers are kept in bag order. Stage t, for each non-empty bag
// at depth d with m items and K = ⌊λ N ν^t A^d⌋ (K = 0 at the root): if m is
// odd the middle register is set aside for the parent; if the parent exists
// and 2K ≥ (even part of m), everything goes to the parent; otherwise sep is
// applied to the even part, its first K and last K registers go to the
// parent and the rest is split in halves between the children (§3). Errors:
// bad parameters, n < 0, inputs that are not permutations, and (never seen
// with valid parameters) a schedule that cannot be carried out.
//
// Time and memory are proportional to the network's size: with Exact,
// O(N log² N) comparators per stage; with an expander halver of d
// matchings, at most 7·d·N/2 per stage for the §5 parameters (n = 2^16,
// d = 8: 39 million comparators, about 3–6 s). Each traced input adds
// O(size + stages·N·log N) time.
func Construct(n int, p Params, sep Separator, inputs ...[]int32) (*Result, error) {
	res, _, err := construct(n, p, sep, Mutant{}, false, inputs)
	return res, err
}

// Mutant is a planted fault in the construction's schedule, for showing
// that a check of the construction can fail (mutation testing: the props
// claims on the §4 invariant). The zero Mutant is the real construction,
// the only one Construct builds.
type Mutant struct {
	// KickDelta is added to the kick-back count K = ⌊λb⌋ of every non-root
	// bag at every stage, the sum clamped to 0..m as K is (KickDelta = 1:
	// the schedule bug "kick count + 1"). The separator is asked for the
	// same K, as it would be by a schedule with that bug.
	KickDelta int
}

// ConstructMutant is Construct with the planted fault mu (Construct when mu
// is the zero Mutant). Errors are Construct's.
func ConstructMutant(n int, p Params, sep Separator, mu Mutant, inputs ...[]int32) (*Result, error) {
	res, _, err := construct(n, p, sep, mu, false, inputs)
	return res, err
}

// construct is Construct with the fault mu, also returning a Tracer for
// the network if traceable (then n must be a power of two ≥ 2).
func construct(n int, p Params, sep Separator, mu Mutant, traceable bool, inputs [][]int32) (*Result, *Tracer, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	if n < 0 {
		return nil, nil, fmt.Errorf("aks: n = %d, need n ≥ 0", n)
	}
	if n > 1<<30 {
		return nil, nil, fmt.Errorf("aks: n = %d, need n ≤ 2^30", n)
	}
	for k, in := range inputs {
		if err := checkPerm(in, n); err != nil {
			return nil, nil, fmt.Errorf("aks: input %d: %w", k, err)
		}
	}
	res := &Result{Net: sortnet.Network{N: n}, OutputIdentity: true}
	if n <= 1 {
		res.N = 1
		for _, in := range inputs {
			res.Traces = append(res.Traces, Trace{Output: append([]int32(nil), in...), Sorted: true})
		}
		if traceable {
			return nil, nil, fmt.Errorf("aks: a traceable construction needs n a power of two ≥ 2, got n = %d", n)
		}
		return res, nil, nil
	}
	L := bits.Len(uint(n - 1))
	N := 1 << L
	res.N = N
	sc := newSchedule(L, p)
	res.Stages = sc.T
	res.PaperFinalHeight = sc.finalK

	if traceable && n != N {
		return nil, nil, fmt.Errorf("aks: a traceable construction needs n a power of two ≥ 2, got n = %d", n)
	}
	b := &builder{n: n, N: N, L: L, sc: sc, p: p, res: res, kickDelta: int64(mu.KickDelta)}
	if traceable {
		b.tracer = &Tracer{b: builder{n: n, N: N, L: L, sc: sc, p: p}}
	}
	b.init(inputs)
	b.report(0)
	for t := 0; t < sc.T; t++ {
		depth, err := b.stage(t, sep)
		if err != nil {
			return nil, nil, err
		}
		res.StageDepth = append(res.StageDepth, depth)
		b.report(t + 1)
	}
	b.finish()
	return res, b.tracer, nil
}

func checkPerm(xs []int32, n int) error {
	if len(xs) != n {
		return fmt.Errorf("length %d, want %d", len(xs), n)
	}
	seen := make([]bool, n)
	for _, x := range xs {
		if x < 0 || int(x) >= n || seen[x] {
			return fmt.Errorf("not a permutation of 0..%d", n-1)
		}
		seen[x] = true
	}
	return nil
}

type builder struct {
	n, N, L int
	sc      *schedule
	p       Params
	res     *Result
	bags    [][]int32 // heap-indexed register lists, len N (index 0 unused)
	phys    []int32   // register → wire, −1 for a register holding a virtual +∞
	vrank   []int32   // register → rank of its virtual item (when phys = −1)
	vals    [][]int32 // per trace: register → value (virtual items ranked n..N−1)
	layers  [][]gcomp // scratch: the current stage's layers
	tracer  *Tracer   // non-nil: record what Tracer.Reports needs at each report
	// kickDelta is Mutant.KickDelta: 0 in the real construction.
	kickDelta int64
}

func (b *builder) init(inputs [][]int32) {
	b.bags = make([][]int32, b.N)
	root := make([]int32, b.N)
	b.phys = make([]int32, b.N)
	b.vrank = make([]int32, b.N)
	for s := range b.N {
		root[s] = int32(s)
		if s < b.n {
			b.phys[s] = int32(s)
		} else {
			b.phys[s] = -1
			b.vrank[s] = int32(s)
		}
	}
	b.bags[1] = root
	for _, in := range inputs {
		v := make([]int32, b.N)
		copy(v, in)
		for s := b.n; s < b.N; s++ {
			v[s] = int32(s)
		}
		b.vals = append(b.vals, v)
		b.res.Traces = append(b.res.Traces, Trace{})
	}
}

func depthOf(v int) int { return bits.Len(uint(v)) - 1 }

// growLayers makes b.layers[l] usable, reusing earlier stages' buffers.
func (b *builder) growLayers(l int) {
	for len(b.layers) <= l {
		if len(b.layers) < cap(b.layers) {
			b.layers = b.layers[:len(b.layers)+1]
			b.layers[len(b.layers)-1] = b.layers[len(b.layers)-1][:0]
		} else {
			b.layers = append(b.layers, nil)
		}
	}
}

// stage runs stage t: separators, lowering, rebagging. It returns the
// stage's comparator depth in the lowered network.
func (b *builder) stage(t int, sep Separator) (int, error) {
	next := make([][]int32, b.N)
	b.layers = b.layers[:0]
	idx := make([]int32, 0, b.N)
	for v := 1; v < b.N; v++ {
		list := b.bags[v]
		m := len(list)
		if m == 0 {
			continue
		}
		d := depthOf(v)
		K := 0
		if v > 1 {
			K = int(min(max(b.sc.kick[t][d]+b.kickDelta, 0), int64(m)))
		} else if m%2 == 1 {
			return 0, fmt.Errorf("aks: stage %d: odd load %d at the root", t, m)
		}
		idx = idx[:0]
		mid := int32(-1)
		for i, s := range list {
			if m%2 == 1 && i == m/2 {
				mid = s
				continue
			}
			idx = append(idx, s)
		}
		ev := len(idx)
		if v > 1 && 2*K >= ev {
			next[v/2] = append(next[v/2], list...)
			continue
		}
		if ev >= 2 {
			for l, st := range sep.Separate(ev, K) {
				b.growLayers(l)
				lay := b.layers[l]
				for _, c := range st {
					lay = append(lay, gcomp{idx[c.I], idx[c.J]})
				}
				b.layers[l] = lay
			}
		}
		if v > 1 {
			up := next[v/2]
			up = append(up, idx[:K]...)
			if mid >= 0 {
				up = append(up, mid)
			}
			up = append(up, idx[ev-K:]...)
			next[v/2] = up
		}
		rest := idx[K : ev-K]
		if len(rest) > 0 {
			if 2*v >= b.N {
				return 0, fmt.Errorf("aks: stage %d: leaf bag %d must pass %d items down", t, v, len(rest))
			}
			h := len(rest) / 2
			next[2*v] = append(next[2*v], rest[:h]...)
			next[2*v+1] = append(next[2*v+1], rest[h:]...)
		}
	}
	depth := 0
	for _, layer := range b.layers {
		if b.apply(layer) {
			depth++
		}
	}
	b.bags = next
	return depth, nil
}

// apply runs one layer of generalized comparators on the traced values and
// lowers it into Net (Knuth's relabelling). It reports whether a physical
// stage was emitted.
func (b *builder) apply(layer []gcomp) bool {
	for _, vals := range b.vals {
		for _, c := range layer {
			if vals[c.a] > vals[c.b] {
				vals[c.a], vals[c.b] = vals[c.b], vals[c.a]
			}
		}
	}
	if b.n == b.N && !plainPaths {
		return b.applyAllPhysical(layer)
	}
	// The layer's registers are pairwise distinct, so which comparators
	// join two physical wires is known before any moves: the stage is
	// allocated at its exact size (no growing, no spare capacity kept in
	// the network — at n = 2^16 it holds 92 million comparators).
	k := 0
	for _, c := range layer {
		if b.phys[c.a] >= 0 && b.phys[c.b] >= 0 {
			k++
		}
	}
	st := make(sortnet.Stage, 0, k)
	for _, c := range layer {
		pa, pb := b.phys[c.a], b.phys[c.b]
		switch {
		case pa >= 0 && pb >= 0:
			if pa < pb {
				st = append(st, sortnet.Comparator{I: pa, J: pb})
			} else {
				st = append(st, sortnet.Comparator{I: pb, J: pa})
				b.phys[c.a], b.phys[c.b] = pb, pa
			}
		case pa >= 0: // b holds +∞: nothing moves
		case pb >= 0: // a holds +∞, b real: the real item moves to a
			b.phys[c.a], b.phys[c.b] = pb, -1
			b.vrank[c.b] = b.vrank[c.a]
		default:
			if b.vrank[c.a] > b.vrank[c.b] {
				b.vrank[c.a], b.vrank[c.b] = b.vrank[c.b], b.vrank[c.a]
			}
		}
	}
	if len(st) == 0 {
		return false
	}
	b.res.Net.Stages = append(b.res.Net.Stages, st)
	return true
}

// plainPaths turns off the faster paths of the construction
// (applyAllPhysical, the expander's shufflePCG), for the differential tests.
var plainPaths bool

// applyAllPhysical is apply's lowering where n = N: every register holds
// a physical wire (phys is a permutation of 0..N−1, and stays one), so
// every comparator of the layer is emitted — the case pa, pb ≥ 0 of apply,
// without testing for it (TestApplyAllPhysicalSame).
func (b *builder) applyAllPhysical(layer []gcomp) bool {
	if len(layer) == 0 {
		return false
	}
	st := make(sortnet.Stage, len(layer))
	phys := b.phys
	for k, c := range layer {
		pa, pb := phys[c.a], phys[c.b]
		if pa < pb {
			st[k] = sortnet.Comparator{I: pa, J: pb}
		} else {
			st[k] = sortnet.Comparator{I: pb, J: pa}
			phys[c.a], phys[c.b] = pb, pa
		}
	}
	b.res.Net.Stages = append(b.res.Net.Stages, st)
	return true
}

// report records the state after t stages.
func (b *builder) report(t int) {
	if b.tracer != nil {
		b.tracer.record(b)
	}
	b.res.Schedule = append(b.res.Schedule, b.levels(t, nil))
	for k, vals := range b.vals {
		tr := &b.res.Traces[k]
		tr.Reports = append(tr.Reports, b.levels(t, vals))
	}
}

func (b *builder) levels(t int, vals []int32) StageReport {
	rep := StageReport{T: t}
	lam, eps := b.p.Lambda.Float(), b.p.Eps.Float()
	for d := range b.L {
		lv := LevelReport{Depth: d, MinLoad: math.MaxInt, Capacity: b.sc.capF[t][d], CapFloor: b.sc.capFloor[t][d]}
		if vals != nil {
			lv.Strangers = make([]int, d)
			lv.Bounds = make([]float64, d)
			for j := range d {
				lv.Bounds[j] = lam * math.Pow(eps, float64(j)) * lv.Capacity
			}
		}
		cnt := make([]int, d+1)
		for v := 1 << d; v < 2<<d; v++ {
			list := b.bags[v]
			lv.MinLoad = min(lv.MinLoad, len(list))
			lv.MaxLoad = max(lv.MaxLoad, len(list))
			if len(list) > 0 {
				lv.Bags++
			}
			if vals == nil || len(list) == 0 {
				continue
			}
			clear(cnt)
			i := v - 1<<d
			for _, s := range list {
				native := int(vals[s]) >> (b.L - d) // native bag index at depth d
				j := 0
				for i>>j != native>>j {
					j++
				}
				cnt[j]++
			}
			// cnt[j] = items exactly j-strange; j-strangers = Σ_{i ≥ j} cnt[i].
			acc := 0
			for j := d; j >= 1; j-- {
				acc += cnt[j]
				lv.Strangers[j-1] = max(lv.Strangers[j-1], acc)
			}
		}
		if lv.MaxLoad > 0 {
			rep.Levels = append(rep.Levels, lv)
		}
	}
	return rep
}

// finish sorts every subtree rooted at the shallowest non-empty level and
// fixes the output positions.
func (b *builder) finish() {
	dmin := 0
	for d := range b.L {
		empty := true
		for v := 1 << d; v < 2<<d; v++ {
			if len(b.bags[v]) > 0 {
				empty = false
				break
			}
		}
		if !empty {
			dmin = d
			break
		}
	}
	b.res.FinalHeight = b.L - 1 - dmin
	sigma := make([]int32, b.N) // output position → register
	b.layers = b.layers[:0]
	size := b.N >> dmin
	for u := 1 << dmin; u < 2<<dmin; u++ {
		var regs []int32
		for d := dmin; d < b.L; d++ {
			first := u << (d - dmin)
			for v := first; v < first+1<<(d-dmin); v++ {
				regs = append(regs, b.bags[v]...)
			}
		}
		if len(regs) != size {
			// Clause 2 guarantees this never happens; keep the network valid
			// and let the output check report failure.
			b.res.OutputIdentity = false
		}
		for l, st := range BatcherSort(len(regs)) {
			b.growLayers(l)
			for _, c := range st {
				b.layers[l] = append(b.layers[l], gcomp{regs[c.I], regs[c.J]})
			}
		}
		lo := (u - 1<<dmin) * size
		for i, s := range regs {
			if lo+i < b.N {
				sigma[lo+i] = s
			}
		}
	}
	for _, layer := range b.layers {
		if b.apply(layer) {
			b.res.FinalDepth++
		}
	}
	for q := range b.n {
		if b.phys[sigma[q]] != int32(q) {
			b.res.OutputIdentity = false
		}
	}
	for k, vals := range b.vals {
		tr := &b.res.Traces[k]
		tr.Output = make([]int32, b.n)
		for q := range b.n {
			tr.Output[q] = vals[sigma[q]]
			if tr.Output[q] != int32(q) {
				tr.Misplaced++
			}
		}
		tr.Sorted = tr.Misplaced == 0
	}
}
