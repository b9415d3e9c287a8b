package mesh

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
	"routecheck/props/meshtest"
)

// KKFamily names a k-k distribution family: one of props/meshtest's
// KKFamilies, which defines them.
type KKFamily string

// The families: uniformly random, and three structured adversaries.
const (
	KKUniform   KKFamily = "uniform"
	KKTranspose KKFamily = "transpose"  // (i, j) sends all k packets to (j, i)
	KKReflect   KKFamily = "reflect"    // (i, j) sends all k packets to (n−1−i, n−1−j)
	KKRowToCol  KKFamily = "row-to-col" // (i, j) sends k/n packets to each PU of row j
)

// KKFamilies lists them: props/meshtest.KKFamilies, in its order.
var KKFamilies = func() []KKFamily {
	var fs []KKFamily
	for _, f := range meshtest.KKFamilies {
		fs = append(fs, KKFamily(f))
	}
	return fs
}()

// GenKK builds a k-k distribution of a family: props/meshtest.KK's
// instance (the suite's k-k families, the same rng draws), as the
// destinations of each PU's k packets. It panics on what KK refuses (an
// unknown family, row-to-col without n | k): the claims' sizes are fixed.
func GenKK(f KKFamily, n, k int, r *rand.Rand) [][]amesh.Dest {
	in, err := meshtest.KK(string(f), n, k, r)
	if err != nil {
		panic("props/mesh: " + err.Error())
	}
	// each PU's list cut from one array (capacity its own count), filled
	// in packet order: the lists appending would build, without regrowing
	count := make([]int, n*n)
	for _, p := range in.Src {
		count[p]++
	}
	all := make([]amesh.Dest, len(in.Dst))
	out := make([][]amesh.Dest, n*n)
	at := 0
	for p, c := range count {
		if c > 0 {
			out[p] = all[at : at : at+c]
			at += c
		}
	}
	for q, d := range in.Dst {
		out[in.Src[q]] = append(out[in.Src[q]], amesh.Dest{Row: d / int32(n), Col: d % int32(n)})
	}
	return out
}

// kkSizes are the (n, k) the mesh claims cover at a budget: n a power of
// two, k ∈ {2n, n², n²·log n} (all multiples of 2n, as coloring needs).
func kkSizes(b props.Budget) [][2]int {
	var out [][2]int
	for _, n := range []int{4, 8, 16, 32}[:b.Pick(2, 3, 4)] {
		out = append(out, [2]int{n, 2 * n}, [2]int{n, n * n}, [2]int{n, n * n * floorLog2(n)})
	}
	return out
}

// KKCase is a counterexample of the k-k claims.
type KKCase struct {
	Algorithm amesh.Algorithm `json:"algorithm"`
	Coloring  bool            `json:"coloring"`
	N         int             `json:"n"`
	K         int             `json:"k"`
	Family    KKFamily        `json:"family"`
	Seed      uint64          `json:"seed"`
}

// allocFn replaces ALLOCATE in DET_3_PHASE_ROUTE (mesh.Options.Allocator)
// for a planted fault; nil is ALLOCATE.
type allocFn = func(n int, self int32, dst []amesh.Dest) (amesh.Allocation, error)

// skipAllocate is the planted fault "a phase that skips balancing": every
// packet is allocated to the PU's own position, so Phase 1 moves nothing
// and Phases 2 and 3 are plain column-then-row routing.
func skipAllocate(n int, self int32, dst []amesh.Dest) (amesh.Allocation, error) {
	a := amesh.Allocation{Pos: make([]int32, len(dst)), Counts: make([]int, n)}
	for p := range a.Pos {
		a.Pos[p] = self
	}
	a.Counts[self] = len(dst)
	return a, nil
}

// offByOneAllocate is ALLOCATE with an off-by-one extraction in Step 3.
func offByOneAllocate(n int, _ int32, dst []amesh.Dest) (amesh.Allocation, error) {
	return amesh.AllocateMutant(n, dst, nil, amesh.ExtractOneShort)
}

// The planted faults of every checker that runs DET_3_PHASE_ROUTE (or
// NewPlanPrime): the same check with ALLOCATE (ALLOCATE') replaced.
const (
	faultSkipAllocate = "ALLOCATE skipped: every packet keeps its own column (submesh) in Phase 1, a phase that skips balancing"
	faultOffByOne     = "ALLOCATE with an off-by-one extraction: Step 3 extracts n·⌊B/n⌋ − 1 packets (mesh.ExtractOneShort)"
)

// det3Faults runs check against the two mutants.
func det3Faults(check func(props.Env, allocFn) props.Outcome) []props.Fault {
	return []props.Fault{
		{Name: faultSkipAllocate, Check: func(env props.Env) props.Outcome { return check(env, skipAllocate) }},
		{Name: faultOffByOne, Check: func(env props.Env) props.Outcome { return check(env, offByOneAllocate) }},
	}
}

// faithful is check with the real ALLOCATE.
func faithful(check func(props.Env, allocFn) props.Outcome) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return check(env, nil) }
}

// slackMax keeps the largest worst/bound seen (for Outcome.Slack).
type slackMax struct {
	worst, bound float64
	seen         bool
}

func (s *slackMax) see(worst, bound float64) {
	if bound > 0 && (!s.seen || worst*s.bound > s.worst*bound) {
		s.worst, s.bound, s.seen = worst, bound, true
	}
}

// on sets o.Slack when o holds.
func (s *slackMax) on(o props.Outcome) props.Outcome {
	if s.seen && o.Verdict == props.Holds {
		o.Slack = props.SlackOf(s.worst, s.bound)
	}
	return o
}

// det3Key keys the DET_3_PHASE_ROUTE runs that sibling claims share:
// everything a run depends on besides its index (the seed, the budget's
// sizes, coloring, and the allocator by sharedAlloc's name).
type det3Key struct {
	seed     uint64
	budget   props.Budget
	coloring bool
	alloc    string
}

// sharedAlloc names the allocators whose runs sibling claims share:
// ALLOCATE (nil) and the two planted faults of det3Faults; "" for any
// other (its runs are not kept). Functions do not compare in Go, so they
// are told apart by their code pointers.
func sharedAlloc(alloc allocFn) string {
	if alloc == nil {
		return "ALLOCATE"
	}
	p := reflect.ValueOf(alloc).Pointer()
	for _, a := range []struct {
		name string
		fn   allocFn
	}{{"skip", skipAllocate}, {"off-by-one", offByOneAllocate}} {
		if p == reflect.ValueOf(a.fn).Pointer() {
			return a.name
		}
	}
	return ""
}

// judgeDet3Runs is judgeRuns on the runs of (env, coloring, alloc): kept
// in m when sharedAlloc names alloc, else routed afresh.
func judgeDet3Runs[R any](m *runMemo[det3Key, R], env props.Env, coloring bool, alloc allocFn, count int, route func(i int) (R, error), judge func(R) *props.Outcome) *props.Outcome {
	key := det3Key{env.Seed, env.Budget, coloring, sharedAlloc(alloc)}
	if key.alloc == "" {
		m = nil
	}
	return judgeRuns(m, key, count, route, judge)
}

// kkRun is one run of kkCheck: its case and result (steps and queues per
// phase, a summary).
type kkRun struct {
	n, k int
	f    KKFamily
	seed uint64
	r    amesh.KKResult
}

// kkMemo holds kkCheck's runs for the claims that share kkShares (Lemmas
// 7–9, Corollary 1's Phase 1 and Theorem 1 read the same runs).
var kkMemo runMemo[det3Key, kkRun]

// kkShares is the Shares of the claims that read kkMemo.
const kkShares = "mesh/det3-kk-runs"

// kkCheck runs Det3 (with ALLOCATE replaced by alloc unless nil) on every
// size and family of the budget and applies bad to each result (a
// non-empty string is a violation). The runs of ALLOCATE and of the
// planted faults are kept in kkMemo (judgeRuns), so the sibling claims
// route each of them once.
func kkCheck(env props.Env, alloc allocFn, coloring bool, bad func(n, k int, r amesh.KKResult) string, describe func(n, k int, r amesh.KKResult) string) props.Outcome {
	var ev []string
	var runs kkRuns // ALLOCATE's runs, on reused buffers (TestKKRunsEqualsPlainRuns)
	sizes, fams := kkSizes(env.Budget), len(KKFamilies)
	route := func(i int) (kkRun, error) {
		n, k, fi := sizes[i/fams][0], sizes[i/fams][1], i%fams
		run := kkRun{n: n, k: k, f: KKFamilies[fi], seed: env.Seed ^ uint64(n*1000003+k*101+fi)}
		var err error
		if alloc == nil {
			run.r, _, err = runs.routeDet3(run.f, n, k, run.seed, coloring)
		} else {
			run.r, err = det3Run(n, GenKK(run.f, n, k, seeds.Rand(run.seed)), alloc, coloring)
		}
		return run, err
	}
	stop := judgeDet3Runs(&kkMemo, env, coloring, alloc, len(sizes)*fams, route, func(run kkRun) *props.Outcome {
		n, k, f := run.n, run.k, run.f
		if msg := bad(n, k, run.r); msg != "" {
			return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %s", n, k, f, msg), Counterexample: KKCase{amesh.Det3, coloring, n, k, f, run.seed}}
		}
		if f == KKUniform || f == KKReflect {
			ev = append(ev, fmt.Sprintf("n=%d k=%d %s: %s", n, k, f, describe(n, k, run.r)))
		}
		return nil
	})
	if stop != nil {
		return *stop
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d families × sizes %v; e.g. %s", len(KKFamilies), sizes, strings.Join(ev, "; "))}
}

// withDet3Faults registers check as c's Check (with the real ALLOCATE) and
// its two mutants (det3Faults) as c's Faults.
func withDet3Faults(c props.Claim, check func(props.Env, allocFn) props.Outcome) props.Claim {
	c.Check, c.Faults = faithful(check), det3Faults(check)
	return withPowerNote(c)
}

// powerNote records why a holds or consistent verdict is live again.
const powerNote = "[2026-11-23] Power (issue 9): the check also runs against the planted faults in the ledger's power column; the recorded %s stands because at least one of them is caught at the small and default budgets (the mesh claims that existed before their faults were written were recorded inconclusive until then; claims added later had their faults from the start)."

// withPowerNote appends powerNote to a holds or consistent claim's notes.
func withPowerNote(c props.Claim) props.Claim {
	if c.Recorded == props.Holds || c.Recorded == props.Consistent {
		c.Notes = strings.TrimSpace(c.Notes + " " + fmt.Sprintf(powerNote, c.Recorded))
	}
	return c
}

func nlogn2(n int) int { return n * n * floorLog2(n) }

// kkBound is a claim that a number of each DET_3_PHASE_ROUTE run (value)
// stays within bound(n, k) on every size and family of kkCheck.
type kkBound struct {
	coloring bool
	value    func(r amesh.KKResult) int
	bound    func(n, k int) float64
	strict   bool   // the claim is value < bound; else value ≤ bound
	over     string // a violation's text, formatted with the value and ⌊bound⌋
	// describe is the evidence's text on a run with value v.
	describe func(n, k, v int, bound float64) string
	// hunted: saved distributions also checked, after the families
	// (each once, at every budget), parsed by the loader.
	hunted func() ([]huntedKK, error)
}

// stepsBound is kkBound.describe for a time bound.
func stepsBound(_, _, v int, bound float64) string {
	return fmt.Sprintf("%d steps (bound %d)", v, int(bound))
}

// check is the claim's check with ALLOCATE replaced by alloc unless nil;
// the slack is the largest value/bound.
func (c kkBound) check(env props.Env, alloc allocFn) props.Outcome {
	var sl slackMax
	o := kkCheck(env, alloc, c.coloring, func(n, k int, r amesh.KKResult) string {
		v, b := c.value(r), c.bound(n, k)
		sl.see(float64(v), b)
		if c.breaks(v, b) {
			return fmt.Sprintf(c.over, v, int(b))
		}
		return ""
	}, func(n, k int, r amesh.KKResult) string { return c.describe(n, k, c.value(r), c.bound(n, k)) })
	if o.Verdict != props.Holds || c.hunted == nil {
		return sl.on(o)
	}
	hs, err := c.hunted()
	if err != nil {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	var ev []string
	for _, h := range hs {
		n, k := h.n, h.k
		r, err := det3Run(n, h.dst, alloc, c.coloring)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v", h.file, err)}
		}
		v, b := c.value(r), c.bound(n, k)
		sl.see(float64(v), b)
		if c.breaks(v, b) {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("hunted n = %d, k = %d (%s): "+c.over, n, k, h.file, v, int(b)),
				Counterexample: map[string]any{"file": h.file, "n": n, "k": k, "value": v, "bound": int(b)}}
		}
		ev = append(ev, fmt.Sprintf("hunted n=%d k=%d: %s", n, k, c.describe(n, k, v, b)))
	}
	o.Evidence += "; " + strings.Join(ev, "; ")
	return sl.on(o)
}

// breaks says whether value v breaks bound b.
func (c kkBound) breaks(v int, b float64) bool {
	return float64(v) > b || c.strict && float64(v) == b
}

func init() {
	// phase1Exact checks that Phase 1 takes exactly k·n/div steps and ends
	// with k packets in every PU (div = 4; 8 with coloring).
	phase1Exact := func(colored bool, div int) func(props.Env, allocFn) props.Outcome {
		return func(env props.Env, alloc allocFn) props.Outcome {
			return kkCheck(env, alloc, colored, func(n, k int, r amesh.KKResult) string {
				if r.PhaseSteps[0] != k*n/div || r.EndQueue[0] != k {
					return fmt.Sprintf("phase 1: %d steps (want %d), largest queue at its end %d (want %d)", r.PhaseSteps[0], k*n/div, r.EndQueue[0], k)
				}
				return ""
			}, func(n, k int, r amesh.KKResult) string { return fmt.Sprintf("%d steps", r.PhaseSteps[0]) })
		}
	}
	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/cor-1/phase-1-exact", Shares: kkShares}), phase1Exact(false, 4)))
	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/cor-1/phase-1-exact-colored", Shares: kkShares}), phase1Exact(true, 8)))
	// Corollary 1 outside 'k a multiple of n': sizes in increasing order,
	// families whose generator accepts any k.
	notMultiple := func(b props.Budget) [][2]int {
		var out [][2]int
		for _, n := range []int{2, 4, 8, 16}[:b.Pick(3, 4, 4)] {
			for _, k := range []int{1, n/2 + 1, n + 1, 3*n/2 + 1, 2*n + n/2, n*n + n/2 + 1, n*n*floorLog2(n) + 1} {
				if k%n != 0 && !slices.Contains(out, [2]int{n, k}) {
					out = append(out, [2]int{n, k})
				}
			}
		}
		return out
	}
	// phase1 runs DET_3_PHASE_ROUTE without coloring (ALLOCATE replaced
	// by alloc unless nil) on every size of notMultiple and the uniform,
	// transpose and reflect families and hands each result to each: a
	// non-empty string is a violation, with the case as counterexample. A
	// routing error is inconclusive; if no case is violated the outcome is
	// holds() (called after the last case).
	phase1 := func(env props.Env, alloc allocFn, each func(n, k int, f KKFamily, r amesh.KKResult) string, holds func() props.Outcome) props.Outcome {
		for _, nk := range notMultiple(env.Budget) {
			n, k := nk[0], nk[1]
			for fi, f := range []KKFamily{KKUniform, KKTranspose, KKReflect} {
				seed := env.Seed ^ uint64(n*1000003+k*101+fi)
				r, err := det3Run(n, GenKK(f, n, k, seeds.Rand(seed)), alloc, false)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				if msg := each(n, k, f, r); msg != "" {
					return props.Outcome{Verdict: props.Violated, Evidence: msg, Counterexample: KKCase{amesh.Det3, false, n, k, f, seed}}
				}
			}
		}
		return holds()
	}
	props.Register(ledger.Text(props.Claim{ID: "mesh/cor-1/k-not-multiple-of-n/as-stated",
		Check: func(env props.Env) props.Outcome {
			return phase1(env, nil, func(n, k int, f KKFamily, r amesh.KKResult) string {
				if 4*r.PhaseSteps[0] != k*n || r.EndQueue[0] != k {
					return fmt.Sprintf("n = %d, k = %d, %s: Phase 1 takes %d steps (k·n/4 = %g) and leaves up to %d packets in a PU (k = %d)", n, k, f, r.PhaseSteps[0], float64(k*n)/4, r.EndQueue[0], k)
				}
				return ""
			}, func() props.Outcome {
				return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exact on all of %v × 3 families", notMultiple(env.Budget))}
			})
		}}))
	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/cor-1/k-not-multiple-of-n"}), func(env props.Env, alloc allocFn) props.Outcome {
		var sl slackMax
		cases, tTop, qTop := 0, 0, 0
		return phase1(env, alloc, func(n, k int, f KKFamily, r amesh.KKResult) string {
			cases++
			lo, hi := k/n, (k+n-1)/n
			t, q := r.PhaseSteps[0], r.EndQueue[0]
			sl.see(float64(t), float64(hi*n*n/4))
			sl.see(float64(q), float64(n*hi))
			if t < lo*n*n/4 || t > hi*n*n/4 || q < n*lo || q > n*hi {
				return fmt.Sprintf("n = %d, k = %d, %s: Phase 1 takes %d steps (allowed [%d, %d]), largest queue at its end %d (allowed [%d, %d])", n, k, f, t, lo*n*n/4, hi*n*n/4, q, n*lo, n*hi)
			}
			if t == hi*n*n/4 {
				tTop++
			}
			if q == n*hi {
				qTop++
			}
			return ""
		}, func() props.Outcome {
			return sl.on(props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("within the bounds on all %d cases (%v × 3 families); the time bound ⌈k/n⌉·n²/4 was attained in %d, the queue bound n·⌈k/n⌉ in %d", cases, notMultiple(env.Budget), tTop, qTop)})
		})
	}))
	// Lemmas 7–9 and Theorem 1: a bound on one number of each run.
	for _, c := range []struct {
		claim props.Claim
		b     kkBound
	}{
		{ledger.Text(props.Claim{ID: "mesh/lemma-7/queue-after-phase-2"}), lemma7Bound},
		{ledger.Text(props.Claim{ID: "mesh/lemma-8/phase-2-time"}), kkBound{value: func(r amesh.KKResult) int { return r.PhaseSteps[1] }, bound: func(n, k int) float64 { return float64(k*n+nlogn2(n)) / 2 },
			over: "%d steps > %d", describe: stepsBound}},
		{ledger.Text(props.Claim{ID: "mesh/lemma-9/phase-3-time"}), kkBound{value: func(r amesh.KKResult) int { return r.PhaseSteps[2] }, bound: func(n, k int) float64 { return float64(k*n/4 + nlogn2(n)) },
			over: "%d steps > %d", describe: stepsBound}},
		{ledger.Text(props.Claim{ID: "mesh/thm-1/time"}), kkBound{coloring: true, value: func(r amesh.KKResult) int { return r.Steps }, bound: func(n, k int) float64 { return float64(k*n+3*nlogn2(n)) / 2 }, hunted: huntedTimeAll,
			over: "%d steps > k·n/2 + 1.5·n² log n = %d",
			describe: func(n, k, v int, _ float64) string {
				return fmt.Sprintf("%d steps = %.3f·kn/2", v, float64(2*v)/float64(k*n))
			}}},
	} {
		c.claim.Shares = kkShares
		c.claim = withDet3Faults(c.claim, c.b.check)
		if c.claim.ID == "mesh/thm-1/time" {
			// A near miss: ALLOCATE mirrored keeps Corollary 1 and
			// slows Phase 3 by a lower-order amount.
			c.claim.Faults = append(c.claim.Faults, props.Fault{Name: faultMirror, Check: func(env props.Env) props.Outcome { return c.b.check(env, mirrorAllocate) }})
		}
		if c.claim.ID == "mesh/lemma-7/queue-after-phase-2" {
			// A near miss: the bound without its log n, which is what
			// §6 says dropping Step 5 would give
			// (mesh/sec-6/no-step-5-queue); the hunted cases exceed it.
			noLog := lemma7Bound
			noLog.bound = func(n, k int) float64 { return float64(k + n*n) }
			noLog.over = "queue %d ≥ k + n² = %d"
			c.claim.Faults = append(c.claim.Faults, props.Fault{Name: "Lemma 7's bound without its log n (k + n², the queue §6 ascribes to ALLOCATE without Step 5)", Check: faithful(noLog.check)})
		}
		props.Register(c.claim)
	}
}
