package mesh

import (
	"fmt"
	"math/bits"
)

// AllocatePrime is ALLOCATE' (003_8774480fe7c747cc.txt §5) for one n'×n'
// submesh of an n×n mesh (np = n', n' divides n, g = n/n'): dst lists the
// destinations of the submesh's packets (k·n'² of them in a k-k routing),
// and Pos[p] of the result is the index j, 0 ≤ j < g, of the submesh of its
// row-bundle that packet p is allocated to. The steps are ALLOCATE's with
// the row-bundles (rows R·n' … R·n'+n'−1) as rows, the column-bundles as
// columns and g in the role of n: Step 1 buckets on the destination
// row-bundle, Step 2 sorts each bucket on the destination column-bundle
// (stable, so packets of one column-bundle keep their input order), Step 3
// extracts g·⌊B/g⌋ packets from buckets with B ≥ g (the paper's ⌊B·n'/n⌋ =
// ⌊B/g⌋), and Steps 5–8 are unchanged with g positions. So it is exactly
// Allocate(g, (⌊row/n'⌋, ⌊col/n'⌋), nil), and Lemmas 5 and 6 carry over
// with g for n (exact balance k·n'²/g per submesh when g is a power of two
// and g divides k·n'²). Time O(k·n'²·log(k·n'²)) as Allocate.
func AllocatePrime(n, np int, dst []Dest) (Allocation, error) {
	if np < 1 || n < 1 || n%np != 0 {
		return Allocation{}, fmt.Errorf("mesh: n' = %d with n = %d: need 1 ≤ n' and n' dividing n", np, n)
	}
	local := make([]Dest, len(dst))
	for p, d := range dst {
		if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
			return Allocation{}, fmt.Errorf("mesh: packet %d has destination (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
		}
		local[p] = Dest{Row: d.Row / int32(np), Col: d.Col / int32(np)}
	}
	return Allocate(n/np, local, nil)
}

// Phase indices of a plan made by NewPlanPrime: the three main phases of
// DET_3_PHASE_ROUTE, each preceded by a local rearrangement of three
// one-axis phases, and a final local rearrangement (phases 12–14).
const (
	PrimePhase1 = 3  // rows (white) / columns (black) to the allocated submesh
	PrimePhase2 = 7  // columns to the destination row-bundle
	PrimePhase3 = 11 // rows to the destination column-bundle
	PrimePhases = 15
)

// NewPlanPrime builds DET_3_PHASE_ROUTE with ALLOCATE' (§5) for the k-k
// distribution dst (as NewPlan: dst[p] lists PU p's k destinations,
// row-major; packet q = p·k + r) on an n×n mesh with submeshes of side
// np = n' (n' | n). Without coloring every packet is white; with it (k
// even) each PU colours its packets as for Det3 and the black packets run
// the same algorithm transposed (column-bundles for row-bundles, phases
// along columns for rows), overlaid. For each colour class, with c = ⌈(the
// class's packets in the submesh)/n'²⌉ (k or k/2 when balanced):
//
//	L1 (phases 0–2): every submesh computes ALLOCATE' and sorts its
//	    packets on the allocated submesh j, dealt "column-major" at packet
//	    granularity (rank t → local row t mod n', local column ⌊t/n'⌋/c),
//	    so that every row of the submesh holds its share of each j;
//	P1 (phase 3): along rows to submesh j of the row-bundle; the packets
//	    arriving in one row at one submesh, ordered by source column, go to
//	    its local columns in equal blocks (i-th of a → ⌊i·n'/a⌋);
//	L2 (4–6): sort on the destination row-bundle, dealt row-major
//	    (t → local column t mod n', local row ⌊t/n'⌋/c);
//	P2 (7): along columns to the destination row-bundle, spread over the
//	    local rows the same way;
//	L3 (8–10): sort on the destination column-bundle, dealt column-major;
//	P3 (11): along rows to the destination column-bundle;
//	L4 (12–14): to the destinations inside the submesh.
//
// This replaces the paper's dynamic "first PU storing less than Q packets"
// rule by the even offline spreading above. Every local rearrangement is a
// simple algorithm, not the O(k·n')-step sorter of [5] the paper cites:
// rows, then columns, then rows within the submesh (columns, rows, columns
// for black), with the intermediate columns chosen by a König edge
// colouring (Kempe-chain recolouring) of the bipartite multigraph "source
// local row → target local row", Δ colours spread over the n' columns, so
// no PU holds more than ⌈Δ/n'⌉ packets of the class at a phase end (Δ =
// the largest number of packets of the class leaving or entering one local
// row). Each of its phases takes at most about c·n'/2 + n' steps.
// ALLOCATE' itself is computed, not simulated.
func NewPlanPrime(n, np int, dst [][]Dest, o Options) (Plan, error) {
	if np < 1 || n < 1 || n%np != 0 {
		return Plan{}, fmt.Errorf("mesh: n' = %d with n = %d: need 1 ≤ n' and n' dividing n", np, n)
	}
	if len(dst) != n*n || len(dst[0]) == 0 {
		return Plan{}, fmt.Errorf("mesh: n = %d with %d PUs' destinations: need n² non-empty lists", n, len(dst))
	}
	k := len(dst[0])
	for p, ds := range dst {
		if len(ds) != k {
			return Plan{}, fmt.Errorf("mesh: PU %d sends %d packets, PU 0 sends %d: k must be the same everywhere", p, len(ds), k)
		}
		for _, d := range ds {
			if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
				return Plan{}, fmt.Errorf("mesh: PU %d sends to (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
			}
		}
	}
	if o.Coloring && k%2 != 0 {
		return Plan{}, fmt.Errorf("mesh: k = %d: coloring needs k even", k)
	}
	K := n * n * k
	pl := Plan{N: n, Src: make([]int32, K), Targets: make([][]int32, PrimePhases)}
	for ph := range pl.Targets {
		pl.Targets[ph] = make([]int32, K)
	}
	black := make([]bool, K)
	var scratch []int32 // colourDet's counters (colour's with dense arrays: TestColourDetEqualsColour)
	if o.Coloring {
		scratch = make([]int32, 2*n*n)
	}
	for p := range dst {
		for r := range k {
			pl.Src[p*k+r] = int32(p)
		}
		if o.Coloring {
			colourDet(dst[p], black[p*k:(p+1)*k], n, scratch)
		}
	}
	tr := func(pu int32) int32 { return (pu%int32(n))*int32(n) + pu/int32(n) }
	for _, isBlack := range []bool{false, true} {
		var ids []int32
		var src []int32
		var ds []Dest
		for q := range K {
			if black[q] != isBlack {
				continue
			}
			d := dst[q/k][q%k]
			s := pl.Src[q]
			if isBlack { // run the transposed problem
				d = Dest{Row: d.Col, Col: d.Row}
				s = tr(s)
			}
			ids, src, ds = append(ids, int32(q)), append(src, s), append(ds, d)
		}
		if len(ids) == 0 {
			continue
		}
		tg, err := primeClassM(n, np, src, ds, o.Allocator, o.PrimeSpread)
		if err != nil {
			return Plan{}, err
		}
		for ph := range tg {
			for i, q := range ids {
				t := tg[ph][i]
				if isBlack {
					t = tr(t)
				}
				pl.Targets[ph][q] = t
			}
		}
	}
	return pl, nil
}

// primeClass computes the 15 phase targets (row-major PUs) of one colour
// class: packets i at src[i] with destinations ds[i].
func primeClass(n, np int, src []int32, ds []Dest, allocator func(n int, self int32, dst []Dest) (Allocation, error)) ([][]int32, error) {
	return primeClassM(n, np, src, ds, allocator, nil)
}

// primeClassM is primeClass with Phase 2's spreading replaced by spreadP2
// unless nil (Options.PrimeSpread, a planted fault).
func primeClassM(n, np int, src []int32, ds []Dest, allocator func(n int, self int32, dst []Dest) (Allocation, error), spreadP2 func(t, a, np int) int) ([][]int32, error) {
	P := len(src)
	g := n / np
	tg := make([][]int32, PrimePhases)
	pos := append([]int32(nil), src...)
	sub := func(pu int32) int { r, col := int(pu)/n, int(pu)%n; return (r/np)*g + col/np }
	at := func(r, col int) int32 { return int32(r*n + col) }
	// members lists the packets per submesh in increasing packet order.
	members := func() [][]int {
		m := make([][]int, g*g)
		for i, pu := range pos {
			m[sub(pu)] = append(m[sub(pu)], i)
		}
		return m
	}
	// deal lays the packets of each submesh out sorted (stably) on key:
	// rank t → (t mod n', ⌊t/n'⌋/cap) as (row, col) when colMajor, else
	// transposed; cap = ⌈members/n'²⌉. It returns the target PUs.
	deal := func(key func(i int) int, nkeys int, colMajor bool) []int32 {
		out := make([]int32, P)
		for s, mem := range members() {
			R, C := s/g, s%g
			capPU := (len(mem) + np*np - 1) / (np * np)
			byKey := make([][]int, nkeys)
			for _, i := range mem {
				byKey[key(i)] = append(byKey[key(i)], i)
			}
			t := 0
			for _, list := range byKey {
				for _, i := range list {
					x, y := t%np, t/np/capPU
					if !colMajor {
						x, y = y, x
					}
					out[i] = at(R*np+x, C*np+y)
					t++
				}
			}
		}
		return out
	}
	ph := 0
	local := func(target []int32) error {
		a, b, err := localRoute(n, np, pos, target)
		if err != nil {
			return err
		}
		for _, t := range [][]int32{a, b, target} {
			tg[ph] = append([]int32(nil), t...)
			ph++
		}
		copy(pos, target)
		return nil
	}
	// spread moves every packet along rows (alongRows) or columns to the
	// submesh block(i) of its line (spreadTargets; within it by line, nil:
	// evenly).
	spread := func(block func(i int) int, alongRows bool, line func(t, a, np int) int) error {
		out, err := spreadTargetsM(n, np, pos, block, alongRows, line)
		if err != nil {
			return err
		}
		tg[ph] = out
		ph++
		copy(pos, out)
		return nil
	}
	// L1 and P1.
	alloc := make([]int, P)
	for s, mem := range members() {
		d := make([]Dest, len(mem))
		for t, i := range mem {
			d[t] = ds[i]
		}
		var a Allocation
		var err error
		if allocator != nil {
			for t := range d {
				d[t] = Dest{Row: d[t].Row / int32(np), Col: d[t].Col / int32(np)}
			}
			a, err = allocator(g, int32(s%g), d)
		} else {
			a, err = AllocatePrime(n, np, d)
		}
		if err != nil {
			return nil, err
		}
		for t, i := range mem {
			alloc[i] = int(a.Pos[t])
		}
	}
	if err := local(deal(func(i int) int { return alloc[i] }, g, true)); err != nil {
		return nil, err
	}
	if err := spread(func(i int) int { return alloc[i] }, true, nil); err != nil {
		return nil, err
	}
	// L2 and P2.
	rb := func(i int) int { return int(ds[i].Row) / np }
	cb := func(i int) int { return int(ds[i].Col) / np }
	if err := local(deal(rb, g, false)); err != nil {
		return nil, err
	}
	if err := spread(rb, false, spreadP2); err != nil {
		return nil, err
	}
	// L3 and P3.
	if err := local(deal(cb, g, true)); err != nil {
		return nil, err
	}
	if err := spread(cb, true, nil); err != nil {
		return nil, err
	}
	// L4.
	final := make([]int32, P)
	for i, d := range ds {
		final[i] = at(int(d.Row), int(d.Col))
	}
	if err := local(final); err != nil {
		return nil, err
	}
	return tg, nil
}

// spreadTargets moves every packet i at pos[i] along its row (alongRows)
// or column to submesh block(i) ∈ [0, g) of that line (g = n/np), and
// spreads the packets arriving at one submesh of one line over its np
// PUs in equal blocks in order of origin (the position on the line, ties
// in packet order): the t-th of a goes to position block·np + ⌊t·np/a⌋.
// One stable counting sort on (line, block, origin) orders them
// (TestSpreadTargetsEqualsMap: the same targets as grouping with a map).
// A block outside [0, g) is an error.
func spreadTargets(n, np int, pos []int32, block func(i int) int, alongRows bool) ([]int32, error) {
	return spreadTargetsM(n, np, pos, block, alongRows, nil)
}

// spreadTargetsM is spreadTargets with the local position of the t-th of a
// arrivals given by local(t, a, np) instead of ⌊t·np/a⌋ when local is
// not nil (Options.PrimeSpread, a planted fault).
func spreadTargetsM(n, np int, pos []int32, block func(i int) int, alongRows bool, local func(t, a, np int) int) ([]int32, error) {
	g := n / np
	P := len(pos)
	keys := make([]int32, P) // ((line·g + block)·n + origin)
	cnt := make([]int32, g*n*n+1)
	for i, pu := range pos {
		line, origin := int(pu)/n, int(pu)%n
		if !alongRows {
			line, origin = origin, line
		}
		b := block(i)
		if b < 0 || b >= g {
			return nil, fmt.Errorf("mesh: packet %d allocated to submesh %d of its line, allowed [0, %d)", i, b, g)
		}
		k := ((line*g+b)*n + origin)
		keys[i] = int32(k)
		cnt[k+1]++
	}
	for k := 1; k < len(cnt); k++ {
		cnt[k] += cnt[k-1]
	}
	order := make([]int32, P)
	for i, k := range keys {
		order[cnt[k]] = int32(i)
		cnt[k]++
	}
	out := make([]int32, P)
	for s := 0; s < P; {
		grp := keys[order[s]] / int32(n) // line·g + block
		e := s + 1
		for e < P && keys[order[e]]/int32(n) == grp {
			e++
		}
		line, b, a := int(grp)/g, int(grp)%g, e-s
		for t, i := range order[s:e] {
			x := b*np + t*np/a
			if local != nil {
				x = b*np + local(t, a, np)
			}
			if alongRows {
				out[i] = int32(line*n + x)
			} else {
				out[i] = int32(x*n + line)
			}
		}
		s = e
	}
	return out, nil
}

// localRoute routes every packet from pos to target inside its submesh in
// three one-axis phases (rows, columns, rows) and returns the targets of
// the first two. The intermediate column of a packet is ⌊colour·n'/Δ⌋ for a
// proper edge colouring with Δ colours (König) of the bipartite multigraph
// whose edges are the packets, from source local row to target local row,
// per submesh; Δ is its largest degree.
func localRoute(n, np int, pos, target []int32) (a, b []int32, err error) {
	P := len(pos)
	a, b = make([]int32, P), make([]int32, P)
	g := n / np
	bySub := make([][]int, g*g)
	for i, pu := range pos {
		r, c := int(pu)/n, int(pu)%n
		tr, tc := int(target[i])/n, int(target[i])%n
		if r/np != tr/np || c/np != tc/np {
			return nil, nil, fmt.Errorf("mesh: local rearrangement leaves the submesh ((%d,%d) → (%d,%d))", r, c, tr, tc)
		}
		bySub[(r/np)*g+c/np] = append(bySub[(r/np)*g+c/np], i)
	}
	for _, mem := range bySub {
		if len(mem) == 0 {
			continue
		}
		u := make([]int, len(mem)) // source local row
		v := make([]int, len(mem)) // target local row
		degU, degV := make([]int, np), make([]int, np)
		for e, i := range mem {
			u[e], v[e] = int(pos[i])/n%np, int(target[i])/n%np
			degU[u[e]]++
			degV[v[e]]++
		}
		delta := 0
		for x := range np {
			delta = max(delta, degU[x], degV[x])
		}
		col := edgeColour(np, delta, u, v)
		for e, i := range mem {
			r, tr := int(pos[i])/n, int(target[i])/n
			base := int(pos[i]) % n / np * np
			mid := base + col[e]*np/delta
			a[i] = int32(r*n + mid)
			b[i] = int32(tr*n + mid)
		}
	}
	return a, b, nil
}

// edgeColour properly colours the edges (u[e], v[e]) of a bipartite
// multigraph with parts of size side and largest degree delta using delta
// colours (König's theorem), by the alternating-path (Kempe chain) method:
// O(E·(side + delta/64)).
func edgeColour(side, delta int, u, v []int) []int {
	words := (delta + 63) / 64
	usedU := make([]uint64, side*words)
	usedV := make([]uint64, side*words)
	atU := make([]int, side*delta) // edge at (vertex, colour) or −1
	atV := make([]int, side*delta)
	for i := range atU {
		atU[i], atV[i] = -1, -1
	}
	col := make([]int, len(u))
	free := func(used []uint64, x int) int {
		for w := range words {
			if inv := ^used[x*words+w]; inv != 0 {
				if c := w*64 + bits.TrailingZeros64(inv); c < delta {
					return c
				}
			}
		}
		panic("mesh: edgeColour: no free colour (degree above delta)")
	}
	set := func(e, c int) {
		col[e] = c
		usedU[u[e]*words+c/64] |= 1 << (c % 64)
		usedV[v[e]*words+c/64] |= 1 << (c % 64)
		atU[u[e]*delta+c], atV[v[e]*delta+c] = e, e
	}
	unset := func(e int) {
		c := col[e]
		usedU[u[e]*words+c/64] &^= 1 << (c % 64)
		usedV[v[e]*words+c/64] &^= 1 << (c % 64)
		atU[u[e]*delta+c], atV[v[e]*delta+c] = -1, -1
	}
	var path []int
	for e := range u {
		alpha := free(usedU, u[e])
		if atV[v[e]*delta+alpha] >= 0 {
			beta := free(usedV, v[e])
			// Swap α and β on the path from v[e] that starts with α.
			path = path[:0]
			x, onV, c := v[e], true, alpha
			for {
				var f int
				if onV {
					f = atV[x*delta+c]
				} else {
					f = atU[x*delta+c]
				}
				if f < 0 {
					break
				}
				path = append(path, f)
				if onV {
					x = u[f]
				} else {
					x = v[f]
				}
				onV = !onV
				c = alpha + beta - c
			}
			for _, f := range path {
				unset(f)
			}
			for _, f := range path {
				set(f, alpha+beta-col[f])
			}
		}
		set(e, alpha)
	}
	return col
}
