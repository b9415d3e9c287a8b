package mesh

import (
	"fmt"
	"math/rand/v2"

	"routecheck/internal/pcgstate"
)

// KKTimer gives the phase times of RAND_3, RAND_4 (with or without
// coloring) and DET_3_PHASE_ROUTE without coloring straight from a k-k
// distribution, without building a Plan: the result is RouteKKTimes of the
// plan NewPlan would build from the same distribution and the same random
// stream (TestKKTimerEqualsPlanTimes), with the random draws taken from the
// PCG's state in registers (internal/pcgstate) instead of through
// rand.Rand, each packet's moves counted into its phases' line counters in
// one pass over the packets, and every buffer reused from run to run. It
// is for the statistical claims, which time thousands of runs of one size.
// Memory: (phases) · 2n³ int32 counters (1 MiB at n = 32 for RAND_4) plus
// 5 bytes per packet (coloring and first random positions), kept between
// runs. A KKTimer is for one goroutine.
type KKTimer struct {
	n      int
	timers [4]*phaseTimer // one per phase, each with its own counters
	black  []bool
	inter  []int32
	// RouteDet3's: the line engine, positions, targets and scratch
	lines   *lineEngine
	pos     []int32
	targets [3][]int32
	colour  []int32
	det3    det3Scratch
	// mutant is a planted difference for the differential test only: when
	// set, RAND_4 swaps the roles of a packet's two random positions
	// (x drawn second, y first).
	mutant bool
}

// NewKKTimer returns a KKTimer for the n×n mesh (n ≥ 1; it panics
// otherwise: a programmer error).
func NewKKTimer(n int) *KKTimer {
	if n < 1 {
		panic("mesh: NewKKTimer needs n ≥ 1")
	}
	t := &KKTimer{n: n}
	for ph := range t.timers {
		t.timers[ph] = newPhaseTimer(n)
	}
	return t
}

// checkDests checks that dst is a k-k distribution on t's mesh: n²·k
// destinations (k ≥ 1) inside the mesh, packet q = p·k + r of PU p.
func (t *KKTimer) checkDests(dst []Dest) (int, error) {
	n := t.n
	if len(dst) == 0 || len(dst)%(n*n) != 0 {
		return 0, fmt.Errorf("mesh: %d destinations on the %d×%d mesh: need n²·k of them, k ≥ 1", len(dst), n, n)
	}
	for q, d := range dst {
		if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
			return 0, fmt.Errorf("mesh: packet %d (PU %d) sends to (%d, %d), allowed [0, %d)²", q, q/(len(dst)/(n*n)), d.Row, d.Col, n)
		}
	}
	return len(dst) / (n * n), nil
}

// grow makes black and inter at least K long.
func (t *KKTimer) grow(K int) {
	if cap(t.inter) < K {
		t.black, t.inter = make([]bool, K), make([]int32, K)
	}
	t.black, t.inter = t.black[:K], t.inter[:K]
}

// Rand is RouteKKTimes(NewPlan(alg, n, per-PU lists of dst, rand.New(src),
// Options{Coloring: coloring})) for alg Rand3 or Rand4: dst[p·k + r] is
// the destination of packet r of PU p (row-major), and src is left where
// that NewPlan leaves it. Steps and PhaseSteps are RouteKK's; no queue is
// measured (MaxQueue −1).
func (t *KKTimer) Rand(alg Algorithm, dst []Dest, src *rand.PCG, coloring bool) (KKResult, error) {
	if alg != Rand3 && alg != Rand4 {
		return KKResult{}, fmt.Errorf("mesh: KKTimer.Rand runs %s or %s, not %q", Rand3, Rand4, alg)
	}
	if src == nil {
		return KKResult{}, fmt.Errorf("mesh: %s needs a random source", alg)
	}
	k, err := t.checkDests(dst)
	if err != nil {
		return KKResult{}, err
	}
	n := t.n
	t.grow(len(dst))
	black, inter := t.black, t.inter
	ps := pcgstate.Load(src)
	// NewPlan's draws, in its order: every packet's colour, then every
	// packet's first position, then (RAND_4) every packet's second.
	if coloring {
		for q := range black {
			black[q] = ps.IntN(2) == 1
		}
	} else {
		clear(black)
	}
	un := uint64(n)
	for q := range inter {
		inter[q] = int32(ps.IntN(un))
	}
	c0, c1, c2 := t.timers[0].cnt, t.timers[1].cnt, t.timers[2].cnt
	c3 := t.timers[3].cnt
	// A black packet moves as a white one on the transposed mesh: with its
	// rows and columns swapped, a row move is a move along a column and a
	// column move one along a row. So every packet is counted as a white
	// one in its own frame: row line r is counter line r + o, column line j
	// is line n + j − o (o = n for a black packet, 0 for a white one), a
	// move from position a to b of line l at (l·n + a)·n + b. A packet that
	// stays in a phase is counted on the diagonal a = b, which the line
	// times never read (times clears it); so no branch depends on the
	// coins.
	nn := n * n
	for p := range nn {
		pr, pc := p/n, p%n
		for q := p * k; q < (p+1)*k; q++ {
			m := 0
			if black[q] {
				m = -1
			}
			o := n & m
			sr, sc := pr^((pr^pc)&m), pc^((pr^pc)&m)
			r0, c0_ := int(dst[q].Row), int(dst[q].Col)
			dr, dc := r0^((r0^c0_)&m), c0_^((r0^c0_)&m)
			x := int(inter[q])
			rowAt := func(r, a, b int) int { return (r+o)*nn + a*n + b }
			colAt := func(j, a, b int) int { return (n+j-o)*nn + a*n + b }
			if alg == Rand4 {
				y := int(ps.IntN(un))
				if t.mutant {
					x, y = y, x
				}
				// row, column, row, column
				c0[rowAt(sr, sc, x)]++
				c1[colAt(x, sr, y)]++
				c2[rowAt(y, x, dc)]++
				c3[colAt(dc, y, dr)]++
				continue
			}
			// rows, columns, rows
			c0[rowAt(sr, sc, x)]++
			c1[colAt(x, sr, dr)]++
			c2[rowAt(dr, x, dc)]++
		}
	}
	ps.Store(src)
	phases := 3
	if alg == Rand4 {
		phases = 4
	}
	return t.times(phases), nil
}

// Det3 is RouteKKTimes(NewPlan(Det3, n, per-PU lists of dst, nil,
// Options{})): DET_3_PHASE_ROUTE without coloring, ALLOCATE run on every
// PU as NewPlan runs it (AllocateLinear when n is a power of two, the
// direct Allocate otherwise), dst laid out as for Rand. No queue is
// measured (MaxQueue −1).
func (t *KKTimer) Det3(dst []Dest) (KKResult, error) {
	k, err := t.checkDests(dst)
	if err != nil {
		return KKResult{}, err
	}
	n := t.n
	c0, c1, c2 := t.timers[0].cnt, t.timers[1].cnt, t.timers[2].cnt
	for p := range n * n {
		ds := dst[p*k : (p+1)*k]
		var a Allocation
		if n&(n-1) != 0 {
			a, err = Allocate(n, ds, nil)
		} else {
			a, _, err = allocateLinear(n, ds, &t.det3.lin)
		}
		if err != nil {
			t.clear(3)
			return KKResult{}, err
		}
		sr, sc := p/n, p%n
		for r, d := range ds {
			dr, dc, x := int(d.Row), int(d.Col), int(a.Pos[r])
			// rows, columns, rows (NewPlan's white packets); a packet
			// that stays is counted on the diagonal (see Rand)
			c0[(sr*n+sc)*n+x]++
			c1[((n+x)*n+sr)*n+dr]++
			c2[(dr*n+x)*n+dc]++
		}
	}
	return t.times(3), nil
}

// RouteDet3 is RouteKK(NewPlan(Det3, n, per-PU lists of dst, nil,
// Options{Coloring: coloring}), Options{}) — DET_3_PHASE_ROUTE with
// ALLOCATE on the fast engine, every queue measured — with the plan's
// arrays, the coloring's and ALLOCATE's scratch and the line engine reused
// from run to run (TestKKTimerRouteDet3EqualsRouteKK). dst is laid out as
// for Rand; with coloring k must be even.
func (t *KKTimer) RouteDet3(dst []Dest, coloring bool) (KKResult, error) {
	k, err := t.checkDests(dst)
	if err != nil {
		return KKResult{}, err
	}
	if coloring && k%2 != 0 {
		return KKResult{}, fmt.Errorf("mesh: k = %d: DET_3_PHASE_ROUTE with coloring needs k even", k)
	}
	n, K := t.n, len(dst)
	t.grow(K)
	if cap(t.pos) < K {
		t.pos = make([]int32, K)
		for ph := range t.targets {
			t.targets[ph] = make([]int32, K)
		}
	}
	black, inter, pos := t.black, t.inter, t.pos[:K]
	tg := [][]int32{t.targets[0][:K], t.targets[1][:K], t.targets[2][:K]}
	clear(black)
	if coloring && t.colour == nil {
		t.colour = make([]int32, 2*n*n)
	}
	for p := range n * n {
		ds, bl := dst[p*k:(p+1)*k], black[p*k:(p+1)*k]
		if coloring {
			colourDet(ds, bl, n, t.colour)
		}
		if _, err := det3Inter(n, p, ds, bl, inter[p*k:(p+1)*k], Options{}, &t.det3); err != nil {
			return KKResult{}, err
		}
	}
	t0, t1, t2 := tg[0], tg[1], tg[2]
	nn := int32(n)
	for p := range n * n {
		sr, sc := int32(p/n), int32(p%n)
		for q := p * k; q < (p+1)*k; q++ {
			pos[q] = int32(p)
			dr, dc, x := dst[q].Row, dst[q].Col, inter[q]
			if !black[q] { // rows, columns, rows
				t0[q], t1[q], t2[q] = sr*nn+x, dr*nn+x, dr*nn+dc
			} else { // columns, rows, columns
				t0[q], t1[q], t2[q] = x*nn+sc, x*nn+dc, dr*nn+dc
			}
		}
	}
	if t.lines == nil {
		t.lines = newLineEngine(n)
	}
	return routeLines(n, t.lines, pos, tg)
}

// times reads each phase's steps off its counters (the slowest line) and
// leaves the counters at zero.
func (t *KKTimer) times(phases int) KKResult {
	res := KKResult{MaxQueue: -1, PhaseSteps: make([]int, phases)}
	n := t.n
	for ph := range phases {
		tm := t.timers[ph]
		for l := range 2 * n { // the diagonals: packets that stay
			for a := range n {
				tm.cnt[(l*n+a)*n+a] = 0
			}
		}
		steps := 0
		for l := range 2 * t.n {
			steps = max(steps, tm.lineTime(tm, l))
		}
		res.PhaseSteps[ph] = steps
		res.Steps += steps
	}
	return res
}

// clear zeroes the counters of the first phases timers (after an error).
func (t *KKTimer) clear(phases int) {
	for ph := range phases {
		clear(t.timers[ph].cnt)
	}
}
