package mesh

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/mesh"
)

// Algorithm names a k-k routing algorithm of 003_8774480fe7c747cc.txt.
type Algorithm string

// The algorithms.
const (
	Rand4 Algorithm = "rand-4-phase" // RAND_4_PHASE_ROUTE (§1)
	Rand3 Algorithm = "rand-3-phase" // RAND_3_PHASE_ROUTE (§1)
	Det3  Algorithm = "det-3-phase"  // DET_3_PHASE_ROUTE with ALLOCATE (§3)
)

// Options configure RouteKK.
type Options struct {
	// Coloring routes half of the packets (white) as described and the other
	// half (black) orthogonally, overlaid (§1; Theorem 1's proof for Det3).
	Coloring bool
	// Model runs every phase on the step model (models/mesh.StepGrid) instead
	// of the fast counting engine; the results are identical (tested), the
	// model is much slower.
	Model bool
	// DirectAllocate makes DET_3_PHASE_ROUTE use the direct O(k log k)
	// Allocate instead of AllocateLinear (the paper's "Linear Work"
	// organization). The two give identical plans (tested); the direct
	// version is also what runs when n is not a power of two, where the
	// list organization does not apply.
	DirectAllocate bool
	// Torus runs the phases on the n×n torus (wrap-around links in every
	// row and column) instead of the mesh; it needs Model. The plan is the
	// same; each packet takes the shorter way around its row or column
	// (rightward/upward when both are n/2 long) and farthest-first orders
	// each link by the remaining distance that way. This is a simple
	// stand-in: the paper (§6) says tori should use the one-dimensional
	// algorithm of its reference [4], which is not implemented.
	Torus bool
	// Allocator and Position are hooks for planted faults only: props runs
	// a claim's checker against a mutant of the algorithm to show that the
	// checker can fail. nil, the default and the only value this package's
	// algorithms use, means ALLOCATE (AllocatePrime in NewPlanPrime) and a
	// uniform random position.
	//
	// Allocator replaces ALLOCATE in DET_3_PHASE_ROUTE (and ALLOCATE' in
	// NewPlanPrime) for one PU (submesh) and colour class: n positions,
	// self the PU's own position on the line of Phase 1 (its column; its
	// row for the black class, whose destinations come with rows and
	// columns swapped; in NewPlanPrime the submesh's index in its
	// row-bundle, with bundle destinations), dst the destinations (NewPlan
	// reuses dst's array for the next call: the hook must not keep it).
	Allocator func(n int, self int32, dst []Dest) (Allocation, error)
	// Position replaces rng.IntN(n) for the random positions of
	// RAND_3_PHASE_ROUTE and RAND_4_PHASE_ROUTE.
	Position func(rng *rand.Rand, n int) int32
	// PrimeSpread, another planted-fault hook (nil: the real spreading),
	// replaces ⌊t·n'/a⌋, the local line of the t-th of the a packets that
	// arrive at one submesh of one column, in NewPlanPrime's Phase 2 (P2);
	// it must return a value in [0, n').
	PrimeSpread func(t, a, np int) int
}

// KKResult is the outcome of a k-k routing.
type KKResult struct {
	Steps      int   // total steps
	PhaseSteps []int // steps of each phase
	// PhaseQueue[p] is the largest queue at any step of phase p (the
	// queues at its start included); EndQueue[p] the largest at its end.
	PhaseQueue []int
	EndQueue   []int
	MaxQueue   int
}

// Plan is the sequence of phase targets: Targets[ph][q] is the PU (row-major)
// packet q must reach at the end of phase ph; Src[q] is where it starts.
// Every phase moves each packet along one axis only.
type Plan struct {
	N       int
	Src     []int32
	Targets [][]int32
	// AllocateWork is, for DET_3_PHASE_ROUTE with AllocateLinear, the total
	// of AllocateLinearWork's operation counts over all PUs (and colour
	// classes); 0 otherwise.
	AllocateWork int
}

// NewPlan computes the phases of alg for the k-k distribution dst
// (dst[p] lists the destinations of the k packets of PU p, row-major; packet
// q = p·k + r). Randomized algorithms draw from rng; Det3 ignores it.
// Det3 runs ALLOCATE on every PU (on each colour class separately with
// coloring, rows and columns swapped for the black one) with AllocateLinear
// when n is a power of two — the paper's assumption and its linear-work
// organization — and with the direct Allocate (smallest-index ties, the
// same result) otherwise or when o.DirectAllocate is set.
// Errors name the parameter: n ≥ 1, every PU the same k ≥ 1, destinations
// inside the mesh; Det3 with coloring needs k even.
func NewPlan(alg Algorithm, n int, dst [][]Dest, rng *rand.Rand, o Options) (Plan, error) {
	if n < 1 || len(dst) != n*n {
		return Plan{}, fmt.Errorf("mesh: n = %d with %d PUs' destinations: need n ≥ 1 and n² lists", n, len(dst))
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
	if alg == Det3 && o.Coloring && k%2 != 0 {
		return Plan{}, fmt.Errorf("mesh: k = %d: DET_3_PHASE_ROUTE with coloring needs k even", k)
	}
	if rng == nil && alg != Det3 {
		return Plan{}, fmt.Errorf("mesh: %s needs a random source", alg)
	}
	K := n * n * k
	pl := Plan{N: n, Src: make([]int32, K)}
	for p := range dst {
		for q := p * k; q < (p+1)*k; q++ {
			pl.Src[q] = int32(p)
		}
	}
	black := make([]bool, K)
	if o.Coloring {
		var scratch []int32 // Det3: colourDet's counters, zero between PUs
		if alg == Det3 {
			scratch = make([]int32, 2*n*n)
		}
		for p := range dst {
			if alg == Det3 {
				colourDet(dst[p], black[p*k:(p+1)*k], n, scratch)
			} else {
				colour(dst[p], black[p*k:(p+1)*k], rng, false)
			}
		}
	}
	draw := func() int32 { return int32(rng.IntN(n)) }
	if o.Position != nil {
		draw = func() int32 { return o.Position(rng, n) }
	}
	at := func(r, c int32) int32 { return r*int32(n) + c }
	phases := 3
	if alg == Rand4 {
		phases = 4
	}
	pl.Targets = make([][]int32, phases)
	for ph := range pl.Targets {
		pl.Targets[ph] = make([]int32, K)
	}
	// Phase 1 intermediate positions: the column in the row (white) or the
	// row in the column (black).
	inter := make([]int32, K)
	switch alg {
	case Rand3, Rand4:
		for q := range inter {
			inter[q] = draw()
		}
	case Det3:
		var sc det3Scratch // reused for every PU
		for p, ds := range dst {
			w, err := det3Inter(n, p, ds, black[p*k:(p+1)*k], inter[p*k:(p+1)*k], o, &sc)
			if err != nil {
				return Plan{}, err
			}
			pl.AllocateWork += w
		}
	default:
		return Plan{}, fmt.Errorf("mesh: unknown algorithm %q (allowed: %s, %s, %s)", alg, Rand4, Rand3, Det3)
	}
	// The targets, packet by packet in the order q = p·k + r (the order
	// of the draws of RAND_4's second positions).
	t0, t1, t2 := pl.Targets[0], pl.Targets[1], pl.Targets[2]
	var t3 []int32
	if alg == Rand4 {
		t3 = pl.Targets[3]
	}
	for p, ds := range dst {
		sr, sc := int32(p/n), int32(p%n)
		for r, d := range ds {
			q := p*k + r
			dr, dc := d.Row, d.Col
			x := inter[q]
			switch {
			case alg == Rand4 && !black[q]:
				y := draw()
				t0[q], t1[q], t2[q], t3[q] = at(sr, x), at(y, x), at(y, dc), at(dr, dc)
			case alg == Rand4:
				y := draw()
				t0[q], t1[q], t2[q], t3[q] = at(x, sc), at(x, y), at(dr, y), at(dr, dc)
			case !black[q]: // rows, columns, rows
				t0[q], t1[q], t2[q] = at(sr, x), at(dr, x), at(dr, dc)
			default: // columns, rows, columns
				t0[q], t1[q], t2[q] = at(x, sc), at(x, dc), at(dr, dc)
			}
		}
	}
	return pl, nil
}

// det3Scratch is det3Inter's scratch: the allocators read it and keep
// nothing of it.
type det3Scratch struct {
	idx   []int
	local []Dest
	lin   linearScratch // AllocateLinear's arrays
}

// det3Inter is DET_3_PHASE_ROUTE's Phase 1 positions of PU p's packets
// (destinations ds, colours black): ALLOCATE on each colour class
// separately (rows and columns swapped for the black one), inter[r] the
// position (column in the row, or row in the column) packet r goes to. It
// returns AllocateLinearWork's operation count (0 when another allocator
// runs). NewPlan runs it on every PU; Det3Phase2Targets on one.
func det3Inter(n, p int, ds []Dest, black []bool, inter []int32, o Options, sc *det3Scratch) (int, error) {
	work := 0
	for _, isBlack := range []bool{false, true} {
		idx, local := sc.idx[:0], sc.local[:0]
		for r, d := range ds {
			if black[r] == isBlack {
				idx = append(idx, r)
				if isBlack { // black: roles of rows and columns swapped
					local = append(local, Dest{Row: d.Col, Col: d.Row})
				} else {
					local = append(local, d)
				}
			}
		}
		sc.idx, sc.local = idx, local
		if len(local) == 0 {
			continue
		}
		var a Allocation
		var err error
		switch {
		case o.Allocator != nil:
			self := int32(p % n)
			if isBlack {
				self = int32(p / n)
			}
			a, err = o.Allocator(n, self, local)
		case o.DirectAllocate || n&(n-1) != 0:
			a, err = Allocate(n, local, nil)
		default:
			var w LinearWork
			a, w, err = allocateLinear(n, local, &sc.lin) // a lives in sc.lin: read at once
			work += w.Total()
		}
		if err != nil {
			return work, err
		}
		for t, r := range idx {
			inter[r] = a.Pos[t]
		}
	}
	return work, nil
}

// Det3Phase2Targets is NewPlan(Det3, n, dst, nil, o)'s Phase-2 targets
// (Targets[1]) of PU p's packets, computed from PU p's destinations ds
// alone — DET_3_PHASE_ROUTE plans each PU on its own (Theorem 1's
// coloring and ALLOCATE read only the PU's packets) — so that a search
// that changes a few PUs' destinations can update the plan PU by PU
// (TestDet3Phase2TargetsEqualsNewPlan). With o.Coloring k = len(ds) must
// be even. Errors are NewPlan's.
func Det3Phase2Targets(n, p int, ds []Dest, o Options) ([]int32, error) {
	if n < 1 || p < 0 || p >= n*n {
		return nil, fmt.Errorf("mesh: PU %d of the %d×%d mesh: need n ≥ 1 and 0 ≤ p < n²", p, n, n)
	}
	for _, d := range ds {
		if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
			return nil, fmt.Errorf("mesh: PU %d sends to (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
		}
	}
	k := len(ds)
	if o.Coloring && k%2 != 0 {
		return nil, fmt.Errorf("mesh: k = %d: DET_3_PHASE_ROUTE with coloring needs k even", k)
	}
	black := make([]bool, k)
	if o.Coloring {
		colourDet(ds, black, n, make([]int32, 2*n*n))
	}
	inter := make([]int32, k)
	if _, err := det3Inter(n, p, ds, black, inter, o, &det3Scratch{}); err != nil {
		return nil, err
	}
	out := make([]int32, k)
	for r, d := range ds {
		if black[r] { // columns, rows, columns: Phase 2 ends at (x, dc)
			out[r] = inter[r]*int32(n) + d.Col
		} else { // rows, columns, rows: at (dr, x)
			out[r] = d.Row*int32(n) + inter[r]
		}
	}
	return out, nil
}

// colour marks black the packets of one PU: for Det3 as in Theorem 1's
// proof (half of each group of packets with a common destination; the odd
// ones alternate so that k/2 get each colour), otherwise independently with
// probability 1/2.
func colour(ds []Dest, black []bool, rng *rand.Rand, det bool) {
	if !det {
		for r := range black {
			black[r] = rng.IntN(2) == 1
		}
		return
	}
	counts := map[Dest]int{}
	for _, d := range ds {
		counts[d]++
	}
	// In each group with a common destination every second packet is black;
	// the last packet of an odd-sized group is black for every second such
	// group, so that k/2 packets get each colour (k even: the number of
	// odd-sized groups is even).
	seen := map[Dest]int{}
	extraBlack := false
	for r, d := range ds {
		seen[d]++
		black[r] = seen[d]%2 == 0
		if counts[d]%2 == 1 && seen[d] == counts[d] {
			black[r] = extraBlack
			extraBlack = !extraBlack
		}
	}
}

// colourDet is colour for Det3 (det set) on a PU's destinations inside
// the n×n mesh, with dense counters instead of maps: scratch holds 2·n²
// zeros on entry and is left so. The same colours as colour
// (TestColourDetEqualsColour).
func colourDet(ds []Dest, black []bool, n int, scratch []int32) {
	counts, seen := scratch[:n*n], scratch[n*n:2*n*n]
	for _, d := range ds {
		counts[int(d.Row)*n+int(d.Col)]++
	}
	extraBlack := false
	for r, d := range ds {
		i := int(d.Row)*n + int(d.Col)
		seen[i]++
		black[r] = seen[i]%2 == 0
		if counts[i]%2 == 1 && seen[i] == counts[i] {
			black[r] = extraBlack
			extraBlack = !extraBlack
		}
	}
	for _, d := range ds {
		i := int(d.Row)*n + int(d.Col)
		counts[i], seen[i] = 0, 0
	}
}

// RouteKK runs the plan and measures it (on the torus with o.Torus, which
// needs o.Model).
func RouteKK(pl Plan, o Options) (KKResult, error) {
	if o.Torus && !o.Model {
		return KKResult{}, fmt.Errorf("mesh: the torus runs only on the step model (set Model with Torus)")
	}
	if !o.Model {
		return routeLines(pl.N, nil, append([]int32(nil), pl.Src...), pl.Targets)
	}
	return routePhases(pl, func(pos, tg []int32) (phaseRun, error) { return modelPhase(pl.N, pos, tg, o.Torus) })
}

// routePhases runs pl's phases one after another with phase (each packet
// from pos to its target tg; pos is then moved to tg) and measures them as
// RouteKK reports them: steps and queues per phase, their sum and maximum.
func routePhases(pl Plan, phase func(pos, tg []int32) (phaseRun, error)) (KKResult, error) {
	var res KKResult
	pos := append([]int32(nil), pl.Src...)
	for ph, tg := range pl.Targets {
		r, err := phase(pos, tg)
		if err != nil {
			return res, fmt.Errorf("phase %d: %w", ph+1, err)
		}
		res.PhaseSteps = append(res.PhaseSteps, r.steps)
		res.PhaseQueue = append(res.PhaseQueue, r.phaseQ)
		res.EndQueue = append(res.EndQueue, r.endQ)
		res.Steps += r.steps
		res.MaxQueue = max(res.MaxQueue, r.phaseQ)
		copy(pos, tg)
	}
	return res, nil
}

// routeLines is RouteKK on the fast engine (n×n mesh): the phases of
// targets from pos (overwritten: it ends at the last targets) on lines, or on a new
// lineEngine when lines is nil (a lineEngine is left empty by every phase,
// so one can serve run after run).
func routeLines(n int, lines *lineEngine, pos []int32, targets [][]int32) (KKResult, error) {
	var res KKResult
	for ph, tg := range targets {
		if lines == nil {
			lines = newLineEngine(n)
		}
		steps, phaseQ, endQ, err := lines.phase(pos, tg)
		if err != nil {
			return res, fmt.Errorf("phase %d: %w", ph+1, err)
		}
		res.PhaseSteps = append(res.PhaseSteps, steps)
		res.PhaseQueue = append(res.PhaseQueue, phaseQ)
		res.EndQueue = append(res.EndQueue, endQ)
		res.Steps += steps
		res.MaxQueue = max(res.MaxQueue, phaseQ)
		copy(pos, tg)
	}
	return res, nil
}

// axisMove checks that a packet moves along one axis and returns its line
// (row or column index), its position on the line and its target on it.
func axisMove(n int, from, to int32) (horizontal bool, line, a, b int, err error) {
	fr, fc := int(from)/n, int(from)%n
	tr, tc := int(to)/n, int(to)%n
	switch {
	case fr == tr:
		return true, fr, fc, tc, nil
	case fc == tc:
		return false, fc, fr, tr, nil
	}
	return false, 0, 0, 0, fmt.Errorf("mesh: a packet goes from (%d,%d) to (%d,%d), not along one axis", fr, fc, tr, tc)
}

// phaseRun is what modelPhase measures: steps, the largest queue at any
// step (initial included) and at the end, and the link traversals.
type phaseRun struct{ steps, phaseQ, endQ, moves int }

// ringWay is the signed way from a to b on a line of n positions: b − a on
// the mesh; on the torus the shorter way around, +n/2 when both ways are
// n/2 long.
func ringWay(n, a, b int, torus bool) int {
	d := b - a
	if torus {
		d = ((d % n) + n) % n
		if 2*d > n {
			d -= n
		}
	}
	return d
}

// modelPhase runs one phase on models/mesh.StepGrid (a torus when torus is
// set) with farthest-first (GridFarthestFirst, through mesh.Decide), and checks that every packet ends at its
// target.
func modelPhase(n int, pos, tg []int32, torus bool) (phaseRun, error) {
	var res phaseRun
	g, err := loadPhaseGrid(n, pos, tg, torus)
	if err != nil {
		return res, err
	}
	queueMax := func() int { return maxQueue(g) }
	res.phaseQ = queueMax()
	var moves []mesh.Moves
	for {
		var any bool
		moves, any = mesh.Decide(g, GridFarthestFirst, nil, moves)
		if !any {
			break
		}
		next, ev, err := mesh.StepGrid(g, moves)
		if err != nil {
			return res, err
		}
		g = next
		res.steps++
		res.moves += ev.Moved
		res.phaseQ = max(res.phaseQ, ev.MaxQueue)
	}
	for p, qu := range g.Queues {
		for _, it := range qu {
			if it.Target != int32(p) {
				return res, fmt.Errorf("mesh: packet %d stopped at PU %d, its target is %d", it.ID, p, it.Target)
			}
		}
	}
	res.endQ = queueMax()
	return res, nil
}

// fastPhase runs one phase with counting engines: every row and column is a
// pair of one-directional lines (the side type of Fast1D), stepped in
// lockstep, with shared queue counters per PU. The largest queue is taken
// after every step over the PUs that received a packet in it (no other
// queue grew), and the pending packets are counted as the sides deliver.
func fastPhase(n int, pos, tg []int32) (steps, phaseQ, endQ int, err error) {
	// lines: rows 0…n−1 then columns; each with a rightward (up) and a
	// mirrored leftward (down) side. PU x of line l is base[l] + x·stride[l].
	fw := make([]*side, 2*n)
	bw := make([]*side, 2*n)
	base, stride := make([]int, 2*n), make([]int, 2*n)
	for l := range fw {
		fw[l], bw[l] = newSide(n), newSide(n)
		if l < n {
			base[l], stride[l] = l*n, 1
		} else {
			base[l], stride[l] = l-n, n
		}
	}
	queue := make([]int, n*n)
	for q := range pos {
		queue[pos[q]]++
		h, line, a, b, err := axisMove(n, pos[q], tg[q])
		if err != nil {
			return 0, 0, 0, err
		}
		if !h {
			line += n
		}
		switch {
		case b > a:
			fw[line].add(a, b)
		case b < a:
			bw[line].add(n-1-a, n-1-b)
		}
	}
	for _, x := range queue {
		phaseQ = max(phaseQ, x)
	}
	pending := 0
	for l := range fw {
		pending += fw[l].pending + bw[l].pending
	}
	send := make([]int, n)
	var grew []int // PUs that received a packet in this step
	for pending > 0 {
		steps++
		grew = grew[:0]
		for l := range fw {
			b0, st := base[l], stride[l]
			if s := fw[l]; s.pending > 0 {
				before := s.pending
				s.step(send)
				pending -= before - s.pending
				for x, d := range send {
					if d >= 0 {
						from := b0 + x*st
						queue[from]--
						queue[from+st]++
						grew = append(grew, from+st)
					}
				}
			}
			if s := bw[l]; s.pending > 0 {
				before := s.pending
				s.step(send)
				pending -= before - s.pending
				for x, d := range send {
					if d >= 0 { // mirrored position x is real n−1−x
						from := b0 + (n-1-x)*st
						queue[from]--
						queue[from-st]++
						grew = append(grew, from-st)
					}
				}
			}
		}
		for _, p := range grew {
			phaseQ = max(phaseQ, queue[p])
		}
	}
	for _, x := range queue {
		endQ = max(endQ, x)
	}
	return steps, phaseQ, endQ, nil
}

// loadPhaseGrid is a phase's starting grid for the step model: packet q
// queued at pos[q] for tg[q], after checking that each move is along one
// axis (axisMove).
func loadPhaseGrid(n int, pos, tg []int32, torus bool) (mesh.Grid, error) {
	g, err := mesh.NewGrid(n, torus)
	if err != nil {
		return g, err
	}
	for q := range pos {
		if _, _, _, _, err := axisMove(n, pos[q], tg[q]); err != nil {
			return g, err
		}
		g.Queues[pos[q]] = append(g.Queues[pos[q]], mesh.Item{ID: int32(q), Target: tg[q]})
	}
	return g, nil
}

// maxQueue is the longest queue in g.
func maxQueue(g mesh.Grid) int {
	m := 0
	for _, qu := range g.Queues {
		m = max(m, len(qu))
	}
	return m
}
