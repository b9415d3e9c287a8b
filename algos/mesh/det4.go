package mesh

import (
	"cmp"
	"fmt"
	"slices"
)

// Det4 names DET_4_PHASE_ROUTE (003_8774480fe7c747cc.txt §1, Lemma 3). Its
// plans are built by NewPlanDet4, not NewPlan.
const Det4 Algorithm = "det-4-phase"

// Deal is where an unshuffle step of DET_4_PHASE_ROUTE sends the packet of
// rank t (0 ≤ t < size) in a PU's sorted list: a position 0 ≤ pos < n of
// the PU's line (self is the PU's own position on it). nil in Det4Options
// is DealRoundRobin, the only deal this package's algorithm uses; the
// others exist as planted faults for the claims.
type Deal func(t, size, self, n int) int

// DealRoundRobin is column-sort's unshuffle: rank t goes to position t mod n.
func DealRoundRobin(t, _, _, n int) int { return t % n }

// DealStay keeps every packet where it is (a planted fault: the unshuffle
// is skipped, so Phases 3 and 4 are plain row-then-column routing).
func DealStay(_, _, self, _ int) int { return self }

// DealBlocks deals the sorted list in n contiguous blocks, rank t to
// ⌊t·n/size⌋ (a planted fault: a PU's packets for one destination range
// all go to one position instead of being spread).
func DealBlocks(t, size, _, n int) int { return t * n / size }

// Det4Options configure NewPlanDet4.
type Det4Options struct {
	// Coloring routes half of the packets (white) as described and the
	// other half (black) orthogonally, overlaid (Lemma 3 states the time
	// with coloring). Each PU colours as DET_3_PHASE_ROUTE does (Theorem
	// 1's proof: half of each group with a common destination; needs k
	// even).
	Coloring bool
	// Deal replaces DealRoundRobin in both unshuffle phases (planted
	// faults only).
	Deal Deal
}

// NewPlanDet4 builds DET_4_PHASE_ROUTE for the k-k distribution dst (as
// NewPlan: dst[p] lists PU p's k destinations, row-major; packet q = p·k+r)
// on an n×n mesh:
//
//  1. every PU sorts its packets on their destinations and unshuffles them
//     over its row: the packet of rank t goes to column t mod n;
//  2. every PU sorts the packets it now holds the same way and unshuffles
//     them over its column: rank t goes to row t mod n;
//  3. all packets go along the rows to their destination columns;
//  4. all packets go along the columns to their destination rows.
//
// With coloring the black packets run the same algorithm with rows and
// columns exchanged, overlaid on other links.
//
// Reading. The paper does not spell DET_4_PHASE_ROUTE out: it cites the
// sorting algorithms of its [5, 7] as "implementations of column-sort [1]
// … deterministic versions of RAND_4_PHASE_ROUTE: all packets are routed
// twice across the whole mesh", whose subsets are submeshes of side
// s = n^{2/3}/k^{1/6} (K^{2/3} packets of the K = k·n² in all), and says
// that "only for very large k, k = ω(n⁴), all rearrangements become
// internal operations". This is that case: s ≤ 1, the subsets are single
// PUs, column-sort's "sort each subset" is a PU's internal sort and its
// "unshuffle" (the t-th element of every sorted subset to subset t mod s)
// is Phases 1 and 2. For k < n⁴ the cited algorithm would sort in
// submeshes of side s > 1 at a cost of O(k·s) steps, which this plan
// does not model; run there, it is a stand-in that pays rounding errors
// instead of rearrangements (the claims class it "beyond").
//
// The sort key is the destination in column-major order (column, then row;
// ties by packet number): then the packets of a PU bound for the columns
// ≥ c are a contiguous run of ranks, and so are those bound for column c
// and rows ≥ r, which is what makes the round-robin deal spread the loads
// of Phases 3 and 4 evenly. When each colour class of every PU has a
// multiple of n packets, every PU sends exactly (class size)/n packets to
// every PU of its line in Phases 1 and 2, so each takes exactly
// (class size)·n/4 steps (as Corollary 1 for DET_3_PHASE_ROUTE).
//
// Errors name the parameter: n ≥ 1, every PU the same k ≥ 1, destinations
// inside the mesh, k even with coloring.
func NewPlanDet4(n int, dst [][]Dest, o Det4Options) (Plan, error) {
	if n < 1 || len(dst) != n*n {
		return Plan{}, fmt.Errorf("mesh: n = %d with %d PUs' destinations: need n ≥ 1 and n² lists", n, len(dst))
	}
	k := len(dst[0])
	if k < 1 {
		return Plan{}, fmt.Errorf("mesh: k = 0: every PU must send k ≥ 1 packets")
	}
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
		return Plan{}, fmt.Errorf("mesh: k = %d: DET_4_PHASE_ROUTE with coloring needs k even", k)
	}
	deal := o.Deal
	if deal == nil {
		deal = DealRoundRobin
	}
	K := n * n * k
	pl := Plan{N: n, Src: make([]int32, K), Targets: make([][]int32, 4)}
	for ph := range pl.Targets {
		pl.Targets[ph] = make([]int32, K)
	}
	black := make([]bool, K)
	for p := range dst {
		for r := range k {
			pl.Src[p*k+r] = int32(p)
		}
		if o.Coloring {
			colour(dst[p], black[p*k:(p+1)*k], nil, true)
		}
	}
	n32 := int32(n)
	// Work in each class's own frame: white as is, black transposed (rows
	// ↔ columns), so that Phase 1 always runs along the frame's rows.
	// key is the column-major destination index in the frame.
	frame := func(pu int32, isBlack bool) (r, c int32) {
		if isBlack {
			return pu % n32, pu / n32
		}
		return pu / n32, pu % n32
	}
	unframe := func(r, c int32, isBlack bool) int32 {
		if isBlack {
			r, c = c, r
		}
		return r*n32 + c
	}
	type pk struct {
		q   int32
		key int32 // column-major destination in the frame
	}
	for _, isBlack := range []bool{false, true} {
		// Phase 1: per source PU (frame row r, column c), sorted, dealt
		// over the row.
		at := make([][]pk, n*n) // frame row-major PU → packets there after phase 1
		var buf []pk
		for p := range dst {
			buf = buf[:0]
			for r, d := range dst[p] {
				q := p*k + r
				if black[q] != isBlack {
					continue
				}
				dr, dc := d.Row, d.Col
				if isBlack {
					dr, dc = dc, dr
				}
				buf = append(buf, pk{q: int32(q), key: dc*n32 + dr})
			}
			slices.SortFunc(buf, func(a, b pk) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.q, b.q)) })
			fr, fc := frame(int32(p), isBlack)
			for t, x := range buf {
				col := int32(deal(t, len(buf), int(fc), n))
				if col < 0 || col >= n32 {
					return Plan{}, fmt.Errorf("mesh: deal sent rank %d of %d to position %d of %d", t, len(buf), col, n)
				}
				pl.Targets[0][x.q] = unframe(fr, col, isBlack)
				at[fr*n32+col] = append(at[fr*n32+col], x)
			}
		}
		// Phase 2: per PU after phase 1, sorted, dealt over the column;
		// Phases 3 and 4 follow from the destination.
		for fp, list := range at {
			slices.SortFunc(list, func(a, b pk) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.q, b.q)) })
			fr, fc := int32(fp)/n32, int32(fp)%n32
			for t, x := range list {
				row := int32(deal(t, len(list), int(fr), n))
				if row < 0 || row >= n32 {
					return Plan{}, fmt.Errorf("mesh: deal sent rank %d of %d to position %d of %d", t, len(list), row, n)
				}
				dc, dr := x.key/n32, x.key%n32
				pl.Targets[1][x.q] = unframe(row, fc, isBlack)
				pl.Targets[2][x.q] = unframe(row, dc, isBlack)
				pl.Targets[3][x.q] = unframe(dr, dc, isBlack)
			}
		}
	}
	return pl, nil
}
