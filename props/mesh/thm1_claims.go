package mesh

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// phase2Loads is, for DET_3_PHASE_ROUTE on the k-k distribution dst, the
// number of packets whose Phase-2 target is each PU. Since every packet ends
// Phase 2 at its target and none is created or lost, this is the queue of
// each PU at the end of Phase 2 (RouteKK's EndQueue[1] is its maximum; the
// claims confirm that on every counterexample they report).
func phase2Loads(n int, dst [][]amesh.Dest, coloring bool, alloc allocFn) ([]int, error) {
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Coloring: coloring, Allocator: alloc})
	if err != nil {
		return nil, err
	}
	load := make([]int, n*n)
	for _, t := range pl.Targets[1] {
		load[t]++
	}
	return load, nil
}

// cloneKK is a deep copy of a k-k distribution.
func cloneKK(d [][]amesh.Dest) [][]amesh.Dest {
	out := make([][]amesh.Dest, len(d))
	for p, ds := range d {
		out[p] = slices.Clone(ds)
	}
	return out
}

// climbPhase2Queue is a seeded hill climb over k-k distributions for a large
// end-of-Phase-2 queue of DET_3_PHASE_ROUTE with coloring. It starts from a
// uniformly random k-k distribution and repeatedly swaps the destinations
// of two random packets (which keeps every PU sending and receiving k),
// keeping the swap unless it lowers the score: the largest Phase-2 end
// queue, then the sum of squares of all of them (so plateaus are crossed
// towards concentration). It stops after iters swaps or as soon as the
// largest queue exceeds stop, and returns the best distribution, its queue
// and the number of swaps tried.
func climbPhase2Queue(n, k int, r *rand.Rand, iters, stop int, alloc allocFn) (best [][]amesh.Dest, queue, tried int, err error) {
	cur := GenKK(KKUniform, n, k, r)
	// The loads are phase2Loads(n, cur, true, alloc), kept up to date PU
	// by PU: DET_3_PHASE_ROUTE plans each PU from its own packets alone
	// (amesh.Det3Phase2Targets), so a swap replans the two PUs it touches
	// (TestClimbPhase2QueueEqualsPlain: the same climb as replanning all).
	load, err := phase2Loads(n, cur, true, alloc)
	if err != nil {
		return nil, 0, 0, err
	}
	o := amesh.Options{Coloring: true, Allocator: alloc}
	targets := make([][]int32, n*n) // PU p's packets' Phase-2 targets
	for p := range cur {
		if targets[p], err = amesh.Det3Phase2Targets(n, p, cur[p], o); err != nil {
			return nil, 0, 0, err
		}
	}
	// retarget moves PU p's contribution to the loads from its targets to
	// t and returns the old ones.
	retarget := func(p int, t []int32) []int32 {
		old := targets[p]
		for _, x := range old {
			load[x]--
		}
		for _, x := range t {
			load[x]++
		}
		targets[p] = t
		return old
	}
	// replan retargets PU p to its targets on cur.
	replan := func(p int) ([]int32, error) {
		t, err := amesh.Det3Phase2Targets(n, p, cur[p], o)
		if err != nil {
			return nil, err
		}
		return retarget(p, t), nil
	}
	var old1, old2 []int32
	try := func(p1, p2 int) (int, int64, error) {
		var err error
		if old1, err = replan(p1); err != nil {
			return 0, 0, err
		}
		if p2 != p1 {
			if old2, err = replan(p2); err != nil {
				return 0, 0, err
			}
		}
		top, sq := loadScore(load)
		return top, sq, nil
	}
	undo := func(p1, p2 int) {
		if p2 != p1 {
			retarget(p2, old2)
		}
		retarget(p1, old1)
	}
	top, sq := loadScore(load)
	return climbSwaps(cur, k, r, iters, stop, top, sq, try, undo)
}

// loadScore is the climb's score of the end-of-Phase-2 loads: the
// largest, then the sum of squares.
func loadScore(load []int) (int, int64) {
	var sq int64
	for _, x := range load {
		sq += int64(x) * int64(x)
	}
	return slices.Max(load), sq
}

// climbSwaps is the climb of climbPhase2Queue from cur, scored (top, sq):
// each of up to iters tries swaps the destinations of two random packets
// (p1's r1-th and p2's r2-th; equal destinations are skipped) and scores
// the result with try(p1, p2); a lower score is undone (the swap reverted,
// then undo(p1, p2)), any other kept. It stops once the best queue exceeds
// stop. cur is changed in place; best is a copy.
func climbSwaps(cur [][]amesh.Dest, k int, r *rand.Rand, iters, stop, top int, sq int64, try func(p1, p2 int) (int, int64, error), undo func(p1, p2 int)) (best [][]amesh.Dest, queue, tried int, err error) {
	pus := len(cur)
	best, queue = cloneKK(cur), top
	for tried = 0; tried < iters && queue <= stop; tried++ {
		p1, r1 := r.IntN(pus), r.IntN(k)
		p2, r2 := r.IntN(pus), r.IntN(k)
		if cur[p1][r1] == cur[p2][r2] {
			continue
		}
		cur[p1][r1], cur[p2][r2] = cur[p2][r2], cur[p1][r1]
		t, s, err := try(p1, p2)
		if err != nil {
			return nil, 0, 0, err
		}
		if t < top || (t == top && s < sq) {
			cur[p1][r1], cur[p2][r2] = cur[p2][r2], cur[p1][r1]
			undo(p1, p2)
			continue
		}
		top, sq = t, s
		if t > queue {
			best, queue = cloneKK(cur), t
		}
	}
	return best, queue, tried, nil
}

// shrinkKK simplifies a k-k distribution while bad stays true: it sends
// packets home (destination = source PU) by swapping the destination of a
// travelling packet at PU p with that of a packet elsewhere bound for p,
// pass after pass until no such swap keeps bad. Every swap keeps the
// distribution k-k; the result has no more travelling packets than d.
func shrinkKK(n int, d [][]amesh.Dest, bad func([][]amesh.Dest) bool) [][]amesh.Dest {
	d = cloneKK(d)
	home := func(p int) amesh.Dest { return amesh.Dest{Row: int32(p / n), Col: int32(p % n)} }
	for changed := true; changed; {
		changed = false
		for p := range d {
			for r := range d[p] {
				if d[p][r] == home(p) {
					continue
				}
			search:
				for p2 := range d {
					if p2 == p {
						continue
					}
					for r2 := range d[p2] {
						if d[p2][r2] != home(p) {
							continue
						}
						d[p][r], d[p2][r2] = d[p2][r2], d[p][r]
						if bad(d) {
							changed = true
							break search
						}
						d[p][r], d[p2][r2] = d[p2][r2], d[p][r]
					}
				}
			}
		}
	}
	return d
}

// travelling is the number of packets of d whose destination is not their
// source PU.
func travelling(n int, d [][]amesh.Dest) int {
	c := 0
	for p, ds := range d {
		for _, x := range ds {
			if int(x.Row)*n+int(x.Col) != p {
				c++
			}
		}
	}
	return c
}

// thm1QueueHand is a k-k distribution on the 2×2 mesh with k = 8 (n a power
// of two, k a multiple of 2n: inside Theorem 1's assumptions) on which
// DET_3_PHASE_ROUTE with coloring ends Phase 2 with 14 packets in PU (0,0),
// above Theorem 1's k + n²·log n = 12. PUs 0…3 are (0,0), (0,1), (1,0),
// (1,1); the order of each list matters only for which odd-sized group's
// last packet is white (Theorem 1's proof leaves it open; algos/mesh
// alternates, the first white).
//
// Worked by hand. PU 1 sends (0,1)×3, (1,0)×3, (0,0)×2: coloring makes
// white (0,1)×2, (1,0), (0,0) and black (0,1), (1,0)×2, (0,0). White
// ALLOCATE: bucket row 0 = {(0,0), (0,1), (0,1)}, B = 3 ≥ n: Step 3 puts
// one packet at each column and leaves one; bucket row 1 = {(1,0)}. Step 8
// takes the two size-1 subbuckets in row order: row 0's goes to column 0
// (all α equal, smallest index), row 1's to column 1. So 2 white packets
// for row 0 stand in column 0 and end Phase 2 at (0,0). Black (rows and
// columns swapped): bucket column 0 = {(0,0), (1,0), (1,0)} likewise puts 2
// in row 0, which end Phase 2 at (0,0): PU 1 contributes 4. PU 2 is the
// same. PU 0 sends (0,1), (1,0), (0,0)×4, (1,1)×2: white (0,1), (0,0)×2,
// (1,1) — row 0 bucket of 3 → 2 at column 0 — and black (1,0), (0,0)×2,
// (1,1) — column 0 bucket of 3 → 2 at row 0: 4. PU 3 sends (0,1), (1,0),
// (1,1)×6: white (0,1) (a lone subbucket of row 0 → column 0) and black
// (1,0) (→ row 0): 2. Total 4 + 4 + 4 + 2 = 14. Every PU receives 8.
func thm1QueueHand() [][]amesh.Dest {
	rep := func(r, c int32, times int) []amesh.Dest { return slices.Repeat([]amesh.Dest{{Row: r, Col: c}}, times) }
	pu12 := slices.Concat(rep(0, 1, 3), rep(1, 0, 3), rep(0, 0, 2))
	return [][]amesh.Dest{
		slices.Concat(rep(0, 1, 1), rep(1, 0, 1), rep(0, 0, 4), rep(1, 1, 2)),
		slices.Clone(pu12),
		slices.Clone(pu12),
		slices.Concat(rep(0, 1, 1), rep(1, 0, 1), rep(1, 1, 6)),
	}
}

// kkFile is a saved mesh-kk case (the format of testdata/hunt/mesh-*.json,
// replayed by `routecheck replay`).
type kkFile struct {
	Kind     string  `json:"kind"`
	Target   string  `json:"target,omitempty"`
	Metric   string  `json:"metric"`
	Value    float64 `json:"value"`
	FoundBy  string  `json:"found_by,omitempty"`
	Seed     uint64  `json:"hunt_seed,omitempty"`
	Instance struct {
		Algorithm string    `json:"algorithm"`
		Coloring  bool      `json:"coloring"`
		N         int       `json:"n"`
		K         int       `json:"k"`
		Dest      [][]int32 `json:"dest"` // row-major destination indices per PU
	} `json:"instance"`
}

// parseKKFile decodes a saved mesh-kk case into (n, k, distribution).
func parseKKFile(raw []byte) (n, k int, d [][]amesh.Dest, err error) {
	var f kkFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, 0, nil, err
	}
	n, k = f.Instance.N, f.Instance.K
	if f.Kind != "mesh-kk" || n < 1 || len(f.Instance.Dest) != n*n {
		return 0, 0, nil, fmt.Errorf("not a mesh-kk case on an n×n mesh (kind %q, n = %d, %d lists)", f.Kind, n, len(f.Instance.Dest))
	}
	d = make([][]amesh.Dest, n*n)
	for p, ds := range f.Instance.Dest {
		if len(ds) != k {
			return 0, 0, nil, fmt.Errorf("PU %d sends %d packets, k = %d", p, len(ds), k)
		}
		for _, x := range ds {
			if x < 0 || int(x) >= n*n {
				return 0, 0, nil, fmt.Errorf("PU %d sends to %d, outside the mesh", p, x)
			}
			d[p] = append(d[p], amesh.Dest{Row: x / int32(n), Col: x % int32(n)})
		}
	}
	return n, k, d, nil
}

// The saved cases the Theorem 1 queue claims replay (copies under
// props/mesh/testdata of cases found by `routecheck hunt mesh-phase2-queue
// --coloring`; the n = 4 one shrunk by shrinkKK, the n = 2 one is
// thm1QueueHand).
var thm1Cases = []savedCase{
	{"props/mesh/testdata/mesh-thm1-queue-n2-k8-colored.json"},
	{"props/mesh/testdata/mesh-thm1-queue-n4-k16-colored.json"},
	{"props/mesh/testdata/mesh-phase2-queue-n8-k64-colored.json"},
}

// Thm1QueueRepaired is routecheck's repaired bound on the queues at the end
// of Phase 2 of DET_3_PHASE_ROUTE with ALLOCATE and Theorem 1's coloring on
// an n×n mesh, n a power of two, any k:
//
//	k + ⌊(n − 1)·min(n², k)/n⌋ + 2·n²·log n.
//
// The derivation is in the notes of mesh/thm-1/queue-repaired.
func Thm1QueueRepaired(n, k int) int {
	return k + (n-1)*min(n*n, k)/n + 2*nlogn2(n)
}

// endQueue2 is the largest queue at the end of Phase 2 and a PU holding
// it, counted from the plan, and the same maximum measured by RouteKK on
// the step model (or on the counting engine above 2^14 packets).
func endQueue2(n int, d [][]amesh.Dest, alloc allocFn) (queue, pu, measured int, err error) {
	l, err := phase2Loads(n, d, true, alloc)
	if err != nil {
		return 0, 0, 0, err
	}
	for p, x := range l {
		if x > l[pu] {
			pu = p
		}
	}
	pl, err := amesh.NewPlan(amesh.Det3, n, d, nil, amesh.Options{Coloring: true, Allocator: alloc})
	if err != nil {
		return 0, 0, 0, err
	}
	r, err := amesh.RouteKK(pl, amesh.Options{Model: len(pl.Src) <= 1<<14})
	if err != nil {
		return 0, 0, 0, err
	}
	return l[pu], pu, r.EndQueue[1], nil
}

// dealLateAllocate is ALLOCATE with Step 3 dealing one rank late (a
// planted fault).
func dealLateAllocate(n int, _ int32, dst []amesh.Dest) (amesh.Allocation, error) {
	return amesh.AllocateMutant(n, dst, nil, amesh.Step3DealLate)
}

// kkInstance is a k-k distribution as a counterexample: dest[p] lists the
// row-major indices of PU p's destinations.
func kkInstance(n, k int, d [][]amesh.Dest) map[string]any {
	dest := make([][]int32, len(d))
	for p, ds := range d {
		for _, x := range ds {
			dest[p] = append(dest[p], x.Row*int32(n)+x.Col)
		}
	}
	return map[string]any{"algorithm": amesh.Det3, "coloring": true, "n": n, "k": k, "dest": dest}
}

func init() {
	thm1Src := seed003 + " Theorem 1"
	props.Register(ledger.Text(props.Claim{ID: "mesh/thm-1/queue", Source: thm1Src,
		Check: func(env props.Env) props.Outcome {
			var ev []string
			var cex any
			report := func(what string, n, k int, d [][]amesh.Dest) error {
				q, pu, measured, err := endQueue2(n, d, nil)
				if err != nil {
					return err
				}
				if q != measured {
					return fmt.Errorf("%s: end-of-Phase-2 queue %d counted from the plan, %d measured by RouteKK", what, q, measured)
				}
				bound := k + nlogn2(n)
				ev = append(ev, fmt.Sprintf("%s: n = %d, k = %d: PU (%d,%d) holds %d at the end of Phase 2 (bound %d)", what, n, k, pu/n, pu%n, q, bound))
				if q > bound && cex == nil {
					cex = map[string]any{"instance": kkInstance(n, k, d), "pu": []int{pu / n, pu % n}, "end_of_phase_2_queue": q, "bound": bound}
				}
				return nil
			}
			if err := report("hand-built", 2, 8, thm1QueueHand()); err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			for _, c := range thm1Cases[1:] {
				n, k, d, err := c.parse()
				if err == nil {
					err = report(c.file, n, k, d)
				}
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v", c.file, err)}
				}
			}
			iters := env.Budget.Pick(3000, 20000, 100000)
			for i, nk := range [][2]int{{2, 8}, {4, 16}} {
				n, k := nk[0], nk[1]
				d, _, tried, err := climbPhase2Queue(n, k, seeds.Rand(env.Seed, 0x7e1, uint64(i)), iters, k+nlogn2(n), nil)
				if err == nil {
					err = report(fmt.Sprintf("hill climb (%d swaps)", tried), n, k, d)
				}
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
			}
			if cex != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(ev, "; "), Counterexample: cex}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
		}}))
}

func init() {
	// queueRepaired is mesh/thm-1/queue-repaired's check with ALLOCATE
	// replaced by alloc unless nil.
	queueRepaired := func(env props.Env, alloc allocFn) props.Outcome {
		var ev []string
		var sl slackMax
		check := func(what string, n, k int, d [][]amesh.Dest) (props.Outcome, bool) {
			q, pu, _, err := endQueue2(n, d, alloc)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: what + ": " + err.Error()}, true
			}
			b := Thm1QueueRepaired(n, k)
			sl.see(float64(q), float64(b))
			ev = append(ev, fmt.Sprintf("%s n=%d k=%d: %d ≤ %d", what, n, k, q, b))
			if q > b {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s: PU (%d,%d) holds %d > %d at the end of Phase 2", what, pu/n, pu%n, q, b), Counterexample: map[string]any{"instance": kkInstance(n, k, d), "end_of_phase_2_queue": q, "bound": b}},
					true
			}
			return props.Outcome{}, false
		}
		if o, stop := check("hand-built", 2, 8, thm1QueueHand()); stop {
			return o
		}
		for _, c := range thm1Cases[1:] {
			n, k, d, err := c.parse()
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: c.file + ": " + err.Error()}
			}
			if o, stop := check(c.file, n, k, d); stop {
				return o
			}
		}
		iters := env.Budget.Pick(2000, 20000, 100000)
		for i, nk := range [][2]int{{2, 8}, {4, 16}, {4, 32}} {
			n, k := nk[0], nk[1]
			d, _, _, err := climbPhase2Queue(n, k, seeds.Rand(env.Seed, 0x7e2, uint64(i)), iters, Thm1QueueRepaired(n, k), alloc)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if o, stop := check("hill climb", n, k, d); stop {
				return o
			}
		}
		worstAny := 0.0
		o := kkCheck(env, alloc, true, func(n, k int, r amesh.KKResult) string {
			sl.see(float64(r.EndQueue[1]), float64(Thm1QueueRepaired(n, k)))
			worstAny = max(worstAny, float64(r.MaxQueue-k)/float64(Thm1QueueRepaired(n, k)-k))
			if b := Thm1QueueRepaired(n, k); r.EndQueue[1] > b {
				return fmt.Sprintf("end-of-Phase-2 queue %d > %d", r.EndQueue[1], b)
			}
			return ""
		}, func(n, k int, r amesh.KKResult) string {
			return fmt.Sprintf("k + %d (bound k + %d)", r.EndQueue[1]-k, Thm1QueueRepaired(n, k)-k)
		})
		if o.Verdict != props.Holds {
			return o
		}
		return sl.on(props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%s; families: %s; the largest queue at any step of any phase on the families is k + %.2f·(bound − k)", strings.Join(ev, "; "), o.Evidence, worstAny)})
	}
	repaired := withDet3Faults(ledger.Text(props.Claim{ID: "mesh/thm-1/queue-repaired", Shares: kkShares}), queueRepaired)
	repaired.Faults = append(repaired.Faults, props.Fault{Name: "ALLOCATE with Step 3 dealing one rank late: extracted packet t goes to position min(⌊(t+1)/q⌋, n − 1) instead of ⌊t/q⌋ (mesh.AllocateMutant, Step3DealLate), so a source puts ⌊γ/n⌋ + 1 of its Step-3 packets for a row in the last column, breaking step (1) of the derivation", Check: func(env props.Env) props.Outcome {
		return queueRepaired(env, dealLateAllocate)
	}})
	props.Register(repaired)
}
