package mesh

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// Claims of 003_8774480fe7c747cc.txt on §2's regular extraction, the
// "Linear Work" organization of ALLOCATE (§3, Theorem 1's last sentence)
// and ALLOCATE' with DET_3_PHASE_ROUTE for small k (§5: Lemmas 12, 13,
// Theorem 3).

// PrimeCase is a counterexample or witness of the §5 claims.
type PrimeCase struct {
	N        int            `json:"n"`
	NPrime   int            `json:"n_prime"`
	K        int            `json:"k"`
	Coloring bool           `json:"coloring"`
	Family   KKFamily       `json:"family"`
	Seed     uint64         `json:"seed"`
	Dest     [][]amesh.Dest `json:"dest,omitempty"`
	Measured map[string]any `json:"measured,omitempty"`
}

// a2AdversarialDests gives every bucket the remainder n − 1 (⌊log n⌋
// subbuckets per row, the most Step 5 can make) and puts the rest on row 0.
func a2AdversarialDests(seed uint64, n, k int) []amesh.Dest {
	r := seeds.Rand(seed)
	var d []amesh.Dest
	for row := 0; row < n && len(d)+n-1 <= k; row++ {
		for range n - 1 {
			d = append(d, amesh.Dest{Row: int32(row), Col: int32(r.IntN(n))})
		}
	}
	for len(d) < k {
		d = append(d, amesh.Dest{Row: 0, Col: int32(r.IntN(n))})
	}
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

// a2Prime runs DET_3_PHASE_ROUTE with ALLOCATE' and also returns the number
// of packets in every submesh at the end of Phase 2 (a function of ALLOCATE'
// alone: Phase 2 moves along columns, so a packet's submesh at its end is
// (destination row-bundle, allocated submesh)).
func a2Prime(n, np int, dst [][]amesh.Dest, coloring bool, alloc allocFn) (amesh.KKResult, []int, error) {
	return a2PrimeOpts(n, np, dst, amesh.Options{Coloring: coloring, Allocator: alloc})
}

// a2PrimeOpts is a2Prime with NewPlanPrime's options o (Coloring and the
// planted-fault hooks Allocator and PrimeSpread).
func a2PrimeOpts(n, np int, dst [][]amesh.Dest, o amesh.Options) (amesh.KKResult, []int, error) {
	pl, err := amesh.NewPlanPrime(n, np, dst, o)
	if err != nil {
		return amesh.KKResult{}, nil, err
	}
	r, err := amesh.RouteKK(pl, amesh.Options{})
	if err != nil {
		return r, nil, err
	}
	g := n / np
	load := make([]int, g*g)
	for _, pu := range pl.Targets[amesh.PrimePhase2] {
		load[int(pu)/n/np*g+int(pu)%n/np]++
	}
	return r, load, nil
}

// primeSizes are the (n, n', k) of the §5 claims at a budget (n, n' powers
// of two, k a multiple of 2n so that every family and coloring apply).
func primeSizes(b props.Budget) [][3]int {
	s := [][3]int{{8, 2, 16}, {8, 4, 16}, {16, 4, 32}, {16, 8, 32}, {16, 2, 32}}
	switch b {
	case props.Default:
		s = append(s, [3]int{32, 4, 64}, [3]int{32, 8, 64}, [3]int{16, 4, 128})
	case props.Large:
		s = append(s, [3]int{32, 4, 64}, [3]int{32, 8, 64}, [3]int{16, 4, 128}, [3]int{64, 8, 128}, [3]int{32, 16, 64})
	}
	return s
}

// primeRun is one run of primeCheck: its case, result (steps and queues
// per phase) and the per-submesh count at the end of Phase 2 (summaries).
type primeRun struct {
	n, np, k int
	f        KKFamily
	seed     uint64
	r        amesh.KKResult
	load     []int
}

// primeMemo holds primeCheck's runs for the claims that share
// primeShares (Lemmas 12 and 13, Theorem 3's time and the §5 analogues
// read the same runs).
var primeMemo runMemo[det3Key, primeRun]

// primeShares is the Shares of the claims that read primeMemo.
const primeShares = "mesh/det3-prime-runs"

// primeCheck runs every size and family of the budget and applies bad to
// each result; load is the per-submesh count at the end of Phase 2. The
// runs of ALLOCATE' and of det3Faults' planted faults are kept in
// primeMemo (judgeRuns), so the sibling claims route each of them once.
func primeCheck(env props.Env, alloc allocFn, coloring bool, bad func(n, np, k int, r amesh.KKResult, load []int) string, describe func(n, np, k int, r amesh.KKResult) string) props.Outcome {
	return primeCheckOpts(env, amesh.Options{Coloring: coloring, Allocator: alloc}, bad, describe)
}

// primeCheckOpts is primeCheck with NewPlanPrime's options o; runs with a
// PrimeSpread fault are not kept in primeMemo (no sibling reads them).
func primeCheckOpts(env props.Env, o amesh.Options, bad func(n, np, k int, r amesh.KKResult, load []int) string, describe func(n, np, k int, r amesh.KKResult) string) props.Outcome {
	coloring := o.Coloring
	var ev []string
	sizes, fams := primeSizes(env.Budget), len(KKFamilies)
	route := func(i int) (primeRun, error) {
		s, fi := sizes[i/fams], i%fams
		run := primeRun{n: s[0], np: s[1], k: s[2], f: KKFamilies[fi]}
		run.seed = seeds.Derive(env.Seed, 0x5ec5, uint64(run.n), uint64(run.np), uint64(run.k), uint64(fi))
		var err error
		run.r, run.load, err = a2PrimeOpts(run.n, run.np, GenKK(run.f, run.n, run.k, seeds.Rand(run.seed)), o)
		return run, err
	}
	memo := &primeMemo
	if o.PrimeSpread != nil {
		memo = nil
	}
	stop := judgeDet3Runs(memo, env, coloring, o.Allocator, len(sizes)*fams, route, func(run primeRun) *props.Outcome {
		n, np, k, f := run.n, run.np, run.k, run.f
		if msg := bad(n, np, k, run.r, run.load); msg != "" {
			return &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, n' = %d, k = %d, %s: %s", n, np, k, f, msg), Counterexample: PrimeCase{N: n, NPrime: np, K: k, Coloring: coloring, Family: f, Seed: run.seed}}
		}
		if f == KKUniform || f == KKReflect {
			ev = append(ev, fmt.Sprintf("n=%d n'=%d k=%d %s: %s", n, np, k, f, describe(n, np, k, run.r)))
		}
		return nil
	})
	if stop != nil {
		return *stop
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d families × (n, n', k) ∈ %v; %s", len(KKFamilies), sizes, strings.Join(ev, "; "))}
}

// lemma12Terms returns (n²/n'⁴)·log(n/n') and n/n'² (Lemma 12's additive
// terms, read with the primes the extraction dropped).
func lemma12Terms(n, np int) (float64, float64) {
	g := float64(n / np)
	return g * g / float64(np*np) * math.Log2(g), g / float64(np)
}

// faultSpreadP2 is a near-miss fault of NewPlanPrime's placement (Options.
// PrimeSpread): Phase 2's even spreading off by one.
const faultSpreadP2 = "NewPlanPrime's Phase 2 spreading off by one: the t-th of a packets arriving at a submesh's column goes to local row ⌊max(0, t − 1)·n'/a⌋ instead of ⌊t·n'/a⌋, so the first local row gets one packet more and the last one fewer"

// spreadP2OneEarly is faultSpreadP2's local row.
func spreadP2OneEarly(t, a, np int) int { return max(0, t-1) * np / a }

// withFault registers check(env, false) as c's Check and check(env, true),
// the same checker against the planted fault named name, as its Fault.
func withFault(c props.Claim, name string, check func(env props.Env, mutant bool) props.Outcome) props.Claim {
	c.Check = func(env props.Env) props.Outcome { return check(env, false) }
	c.Faults = []props.Fault{{Name: name, Check: func(env props.Env) props.Outcome { return check(env, true) }}}
	return withPowerNote(c)
}

// withAllocatePrimeFault registers check with mesh.AllocatePrime as c's
// Check and, as its planted fault, ALLOCATE' with the off-by-one Step 3
// extraction (ALLOCATE' is Allocate on bundles with g = n/n' positions).
func withAllocatePrimeFault(c props.Claim, check func(props.Env, func(n, np int, d []amesh.Dest) (amesh.Allocation, error)) props.Outcome) props.Claim {
	c.Check = func(env props.Env) props.Outcome { return check(env, amesh.AllocatePrime) }
	c.Faults = []props.Fault{{Name: "ALLOCATE' with an off-by-one extraction: Step 3 extracts g·⌊B/g⌋ − 1 packets (mesh.ExtractOneShort)", Check: func(env props.Env) props.Outcome {
		return check(env, func(n, np int, d []amesh.Dest) (amesh.Allocation, error) {
			local := make([]amesh.Dest, len(d))
			for p, x := range d {
				local[p] = amesh.Dest{Row: x.Row / int32(np), Col: x.Col / int32(np)}
			}
			return amesh.AllocateMutant(n/np, local, nil, amesh.ExtractOneShort)
		})
	}}}
	return withPowerNote(c)
}

func init() {
	props.Register(withFault(ledger.Text(props.Claim{ID: "mesh/sec-2/regular-extraction"}), "regular extraction off by one: indices ⌊(i + 1)·s/x⌋, 0 ≤ i < x", func(env props.Env, mutant bool) props.Outcome {
		indices := amesh.RegularIndices
		if mutant {
			indices = func(s, x int) []int {
				out := make([]int, x)
				for i := range out {
					out[i] = (i + 1) * s / x
				}
				return out
			}
		}
		S := env.Budget.Pick(200, 600, 2000)
		pairs := 0
		for s := 1; s <= S; s++ {
			seen := make([]int, s) // seen[t] = last (x) that took t
			for x := 1; x <= s; x++ {
				pairs++
				idx := indices(s, x)
				ok := len(idx) == x
				for _, t := range idx {
					if t < 0 || t >= s || seen[t] == x {
						ok = false
						break
					}
					seen[t] = x
				}
				if !ok {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("s = %d, x = %d: indices %v are not x distinct indices in [0, s)", s, x, idx), Counterexample: map[string]any{"s": s, "x": x, "indices": idx}}

				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("x distinct indices in [0, s) for all %d pairs 1 ≤ x ≤ s ≤ %d", pairs, S)}
	}))

	split := func(s int) [][]int32 {
		set := make([]int32, s)
		for i := range set {
			set[i] = int32(i)
		}
		return amesh.SplitPowersOfTwo(set)
	}
	props.Register(ledger.Text(props.Claim{ID: "mesh/sec-2/pow2-split-printed",
		Check: func(env props.Env) props.Outcome {
			var viol []int
			var first any
			for s := 1; s <= 4096; s++ {
				subs := split(s)
				if m := bits.Len(uint(s)) - 1; len(subs) > m {
					if first == nil {
						sizes := make([]int, len(subs))
						for i, x := range subs {
							sizes[i] = len(x)
						}
						first = map[string]any{"s": s, "m": m, "subsets": subs, "sizes": sizes}
					}
					viol = append(viol, s)
				}
			}
			if first != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("more than ⌊log₂ s⌋ subsets for s ∈ %v (s ≤ 4096)", viol), Counterexample: first}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "at most ⌊log₂ s⌋ subsets for every s ≤ 4096"}
		}}))
	props.Register(withFault(ledger.Text(props.Claim{ID: "mesh/sec-2/pow2-split-corrected"}), "power-of-two split off by one: each round extracts the largest power of two below the s' remaining elements (all of them when s' = 1)", func(env props.Env, mutant bool) props.Outcome {
		split := split
		if mutant {
			split = func(s int) [][]int32 {
				var out [][]int32
				rest := make([]int32, s)
				for i := range rest {
					rest[i] = int32(i)
				}
				for len(rest) > 0 {
					x := 1
					if len(rest) > 1 {
						x = 1 << (bits.Len(uint(len(rest)-1)) - 1)
					}
					pick := make([]bool, len(rest))
					for _, t := range amesh.RegularIndices(len(rest), x) {
						pick[t] = true
					}
					var take, left []int32
					for t, e := range rest {
						if pick[t] {
							take = append(take, e)
						} else {
							left = append(left, e)
						}
					}
					out, rest = append(out, take), left
				}
				return out
			}
		}
		for s := 1; s <= 4096; s++ {
			subs := split(s)
			var want []int
			for b := bits.Len(uint(s)) - 1; b >= 0; b-- {
				if s>>b&1 == 1 {
					want = append(want, 1<<b)
				}
			}
			got := make([]int, len(subs))
			seen := make([]bool, s)
			for i, x := range subs {
				got[i] = len(x)
				if !slices.IsSorted(x) {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("s = %d: subset %v not in sorted order", s, x)}
				}
				for _, e := range x {
					if seen[e] {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("s = %d: element %d in two subsets", s, e)}
					}
					seen[e] = true
				}
			}
			m := bits.Len(uint(s)) - 1
			tight := bits.OnesCount(uint(s+1)) == 1
			if !slices.Equal(got, want) || slices.Contains(seen, false) || len(subs) > m+1 || (len(subs) == m+1) != tight {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("s = %d: sizes %v, binary digits %v", s, got, want), Counterexample: map[string]any{"s": s, "sizes": got}}
			}
		}
		const n = 64
		for B := 1; B <= 300; B++ {
			d := make([]amesh.Dest, B)
			for i := range d {
				d[i] = amesh.Dest{Row: 0, Col: int32(i % n)}
			}
			a, err := amesh.Allocate(n, d, nil)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if a.PerRow[0] != bits.OnesCount(uint(B%n)) {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("ALLOCATE, n = 64, bucket of %d: %d subbuckets, popcount(%d) = %d", B, a.PerRow[0], B%n, bits.OnesCount(uint(B%n)))}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: "sizes = binary digits of s (hence popcount(s) ≤ ⌊log₂ s⌋ + 1 subsets, equality iff s = 2^j − 1) for every s ≤ 4096; ALLOCATE's Step 5 agrees on B ≤ 300, n = 64"}
	}))

	// lists is mesh/linear-work/lists-implement-step-8's check of the
	// organization linear (AllocateLinear or a planted fault).
	lists := func(env props.Env, linear func(n int, d []amesh.Dest) (amesh.Allocation, error)) props.Outcome {
		try := func(n int, d []amesh.Dest, _ amesh.TieBreak) map[string]any {
			want, err1 := amesh.Allocate(n, d, nil)
			got, err2 := linear(n, d)
			bad := err1 != nil || err2 != nil || !reflect.DeepEqual(got, want)
			if !bad && len(d)%n == 0 {
				bad = slices.Max(got.Counts) != len(d)/n || slices.Min(got.Counts) != len(d)/n || got.MaxSpread > 1
			}
			if bad {
				return map[string]any{"linear": got.Pos, "allocate": want.Pos, "errors": fmt.Sprint(err1, err2)}
			}
			return nil
		}
		var sizes [][2]int // every k ≤ the largest, for n = 1, 2, 4
		for _, c := range [][2]int{{1, 5}, {2, 8}, {4, env.Budget.Pick(5, 6, 7)}} {
			for k := 0; k <= c[1]; k++ {
				sizes = append(sizes, [2]int{c[0], k})
			}
		}
		r := seeds.Rand(env.Seed, 0x11a)
		random := env.Budget.Pick(120, 1200, 12000)
		multisets, cex := allocSweep(sizes, random, func(i int) (int, []amesh.Dest, amesh.TieBreak) {
			n := []int{8, 16, 32, 64}[i%4]
			k := r.IntN(3*n*n + 1)
			if i%3 == 2 {
				return n, a2AdversarialDests(r.Uint64(), n, k), nil
			}
			return n, randomDests(r, n, k), nil
		}, try)
		return allocOutcome(cex, "the list organization differs from ALLOCATE (or is unbalanced)", fmt.Sprintf("AllocateLinear = Allocate(smallest-index ties) on %d cases (%d random), balanced where n | k", random+multisets, random))
	}
	listsC := withFault(ledger.Text(props.Claim{ID: "mesh/linear-work/lists-implement-step-8"}), "an organization with an off-by-one Step 3 extraction (mesh.AllocateMutant with ExtractOneShort in place of AllocateLinear)", func(env props.Env, mutant bool) props.Outcome {
		if mutant {
			return lists(env, func(n int, d []amesh.Dest) (amesh.Allocation, error) {
				return amesh.AllocateMutant(n, d, nil, amesh.ExtractOneShort)
			})
		}
		return lists(env, amesh.AllocateLinear)
	})
	listsC.Faults = append(listsC.Faults, props.Fault{Name: "AllocateLinear's Step 8 lists unified one short: when intervals are unified, the last old interval's list is left out of the new one (mesh.AllocateLinearMutant, UnifyDropsLast), which can then miss minimal indices until it is exhausted and rebuilt", Check: func(env props.Env) props.Outcome {
		return lists(env, func(n int, d []amesh.Dest) (amesh.Allocation, error) {
			return amesh.AllocateLinearMutant(n, d, amesh.UnifyDropsLast)
		})
	}})
	props.Register(listsC)

	props.Register(withFault(ledger.Text(props.Claim{ID: "mesh/thm-1/linear-work"}), "the bound scaled by ×0.5 (13k + n² + ⌊log n⌋·n + 6n + 1 and 17k halved; factor fixed before running)", func(env props.Env, mutant bool) props.Outcome {
		scale := 1.0
		if mutant {
			scale = 0.5
		}
		var sl slackMax
		ns := []int{8, 16, 32}
		if env.Budget != props.Small {
			ns = append(ns, 64)
		}
		var rows []string
		for _, n := range ns {
			var per []string
			for _, mult := range []int{1, 4, 16, 64} {
				k := mult * n * n
				worst := 0.0
				for fam := range 3 {
					seed := seeds.Derive(env.Seed, 0x1e, uint64(n), uint64(k), uint64(fam))
					var d []amesh.Dest
					switch fam {
					case 0:
						d = make([]amesh.Dest, k)
						r := seeds.Rand(seed)
						for i := range d {
							d[i] = amesh.Dest{Row: int32(r.IntN(n)), Col: int32(r.IntN(n))}
						}
					case 1:
						d = a2AdversarialDests(seed, n, k)
					default:
						d = make([]amesh.Dest, k)
						r := seeds.Rand(seed)
						for i := range d {
							d[i] = amesh.Dest{Row: 0, Col: int32(r.IntN(n))}
						}
					}
					_, w, err := amesh.AllocateLinearWork(n, d)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					sl.see(float64(w.Total()), scale*float64(min(amesh.LinearWorkBound(n, k), 17*k)))
					if float64(w.Total()) > scale*float64(amesh.LinearWorkBound(n, k)) || float64(w.Total()) > scale*float64(17*k) {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, family %d: %d operations (%+v), bound %d, 17k = %d", n, k, fam, w.Total(), w, amesh.LinearWorkBound(n, k), 17*k), Counterexample: map[string]any{"n": n, "k": k, "family": fam, "seed": seed, "work": w}}

					}
					worst = max(worst, float64(w.Total())/float64(k))
				}
				per = append(per, fmt.Sprintf("%.2f", worst))
			}
			rows = append(rows, fmt.Sprintf("n=%d: %s", n, strings.Join(per, ", ")))
		}
		// Through the router: DET_3_PHASE_ROUTE with coloring runs
		// AllocateLinear on every PU and colour class (k/2 packets each).
		var routed []string
		for _, nk := range [][2]int{{8, 64}, {8, 256}, {16, 256}, {16, 1024}}[:env.Budget.Pick(3, 4, 4)] {
			n, k := nk[0], nk[1]
			dst := GenKK(KKUniform, n, k, seeds.Rand(env.Seed, 0x1f, uint64(n), uint64(k)))
			pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Coloring: true})
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			b := 2 * n * n * amesh.LinearWorkBound(n, k/2)
			sl.see(float64(pl.AllocateWork), scale*float64(b))
			if float64(pl.AllocateWork) > scale*float64(b) || pl.AllocateWork == 0 {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("DET_3_PHASE_ROUTE, n = %d, k = %d: ALLOCATE work %d, bound 2n²·LinearWorkBound(n, k/2) = %d", n, k, pl.AllocateWork, b), Counterexample: map[string]any{"n": n, "k": k, "work": pl.AllocateWork}}

			}
			routed = append(routed, fmt.Sprintf("n=%d k=%d: %.2f", n, k, float64(pl.AllocateWork)/float64(n*n*k)))
		}
		return sl.on(props.Outcome{Verdict: props.Holds, Evidence: "largest operations per packet for k = n², 4n², 16n², 64n² (bound 17): " + strings.Join(rows, "; ") +
			"; inside DET_3_PHASE_ROUTE with coloring (uniform k-k, ALLOCATE on k/2 packets per PU and colour), operations per packet: " + strings.Join(routed, ", ")})
	}))

	props.Register(withAllocatePrimeFault(ledger.Text(props.Claim{ID: "mesh/sec-5/allocate-prime-balance",
		Scope: "g = n/n' a power of two dividing k·n'²: every submesh of random uniform, transpose, reflect and row-to-col k-k distributions for (n, n', k) ∈ " + fmt.Sprint(primeSizes(props.Small)) + " (small budget; more at larger budgets)",
	}), func(env props.Env, allocatePrime func(n, np int, d []amesh.Dest) (amesh.Allocation, error)) props.Outcome {
		subs := 0
		for _, s := range primeSizes(env.Budget) {
			n, np, k := s[0], s[1], s[2]
			g := n / np
			for fi, f := range KKFamilies {
				dst := GenKK(f, n, k, seeds.Rand(env.Seed, 0xa11, uint64(n), uint64(np), uint64(fi)))
				for R := range g {
					for C := range g {
						var d []amesh.Dest
						for r := R * np; r < (R+1)*np; r++ {
							for c := C * np; c < (C+1)*np; c++ {
								d = append(d, dst[r*n+c]...)
							}
						}
						a, err := allocatePrime(n, np, d)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						subs++
						for j, c := range a.Counts {
							if c != len(d)/g {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, n' = %d, k = %d, %s: submesh (%d,%d) allocates %d to submesh %d, want %d", n, np, k, f, R, C, c, j, len(d)/g)}
							}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exactly k·n'²/g per submesh in all %d submeshes", subs)}
	}))

	props.Register(ledger.Text(props.Claim{ID: "mesh/lemma-12/printed",
		Check: func(env props.Env) props.Outcome {
			for _, n := range []int{4, 8} {
				for np := 2; np < n; np *= 2 {
					t1, t2 := lemma12Terms(n, np)
					for k := 1; k <= 4; k++ {
						bound := float64(k) + t1 + t2
						tries := 4 + env.Budget.Pick(200, 400, 1000)
						for i := range tries {
							var f KKFamily
							var seed uint64
							if i < 4 {
								f = KKFamilies[i]
								if f == KKRowToCol && k%n != 0 {
									continue
								}
							} else {
								f = KKUniform
							}
							seed = seeds.Derive(env.Seed, 0x12, uint64(n), uint64(np), uint64(k), uint64(i))
							dst := GenKK(f, n, k, seeds.Rand(seed))
							r, load, err := a2Prime(n, np, dst, false, nil)
							if err != nil {
								return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
							}
							most := slices.Max(load)
							forced := (most + np*np - 1) / (np * np)
							if float64(forced) >= bound {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, n' = %d, k = %d (%s): a submesh receives %d = k·n'² + %d packets in Phase 2, so some PU holds ≥ %d ≥ bound %.4g (our placement: %d)", n, np, k, f, most, most-k*np*np, forced, bound, r.EndQueue[amesh.PrimePhase2]), Counterexample: PrimeCase{N: n, NPrime: np, K: k, Family: f, Seed: seed, Dest: dst,
									Measured: map[string]any{"submesh_packets": most, "forced_queue": forced, "queue": r.EndQueue[amesh.PrimePhase2], "bound": bound}}}

							}
						}
					}
				}
			}
			return props.Outcome{Verdict: props.Holds, Evidence: "no forced violation found"}
		}}))

	// lemma12 is mesh/lemma-12/corrected's check on NewPlanPrime with the
	// options o (no coloring; the planted-fault hooks).
	lemma12 := func(env props.Env, o amesh.Options) props.Outcome {
		var sl slackMax
		return sl.on(primeCheckOpts(env, o, func(n, np, k int, r amesh.KKResult, load []int) string {
			g := n / np
			lg := bits.Len(uint(g)) - 1
			t1, t2 := lemma12Terms(n, np)
			sl.see(float64(slices.Max(load)), float64(k*np*np+g*g*lg))
			sl.see(float64(r.EndQueue[amesh.PrimePhase2]), float64(k+int(math.Ceil(t1+t2-1e-9))))
			if most := slices.Max(load); most > k*np*np+g*g*lg {
				return fmt.Sprintf("a submesh receives %d > k·n'² + (n/n')² log(n/n') = %d", most, k*np*np+g*g*lg)
			}
			if q := r.EndQueue[amesh.PrimePhase2]; q > k+int(math.Ceil(t1+t2-1e-9)) {
				return fmt.Sprintf("queue %d > k + ⌈%.3g⌉", q, t1+t2)
			}
			return ""
		}, func(n, np, k int, r amesh.KKResult) string {
			t1, t2 := lemma12Terms(n, np)
			return fmt.Sprintf("queue k + %d (bound k + %d)", r.EndQueue[amesh.PrimePhase2]-k, int(math.Ceil(t1+t2-1e-9)))
		}))
	}
	lemma12c := withDet3Faults(ledger.Text(props.Claim{ID: "mesh/lemma-12/corrected", Shares: primeShares,
		Scope: "DET_3_PHASE_ROUTE with ALLOCATE', no coloring; (n, n', k) ∈ " + fmt.Sprint(primeSizes(props.Small)) + " at the small budget (more at larger ones); uniform random, transpose, reflect and row-to-col",
	}), func(env props.Env, alloc allocFn) props.Outcome {
		return lemma12(env, amesh.Options{Allocator: alloc})
	})
	lemma12c.Faults = append(lemma12c.Faults, props.Fault{Name: faultSpreadP2, Check: func(env props.Env) props.Outcome {
		return lemma12(env, amesh.Options{PrimeSpread: spreadP2OneEarly})
	}})
	props.Register(lemma12c)

	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/lemma-13/phase-2-time", Shares: primeShares,
		Scope: "DET_3_PHASE_ROUTE with ALLOCATE' (NewPlanPrime), farthest-first, no coloring; (n, n', k) ∈ " + fmt.Sprint(primeSizes(props.Small)) + " at the small budget (more at larger ones); uniform random, transpose, reflect and row-to-col",
	}), func(env props.Env, alloc allocFn) props.Outcome {
		var sl slackMax
		bound := func(n, np, k int) float64 {
			g := float64(n / np)
			return float64(k*n)/2 + g*g/float64(np)*math.Log2(g) + g
		}
		return sl.on(primeCheck(env, alloc, false, func(n, np, k int, r amesh.KKResult, _ []int) string {
			sl.see(float64(r.PhaseSteps[amesh.PrimePhase2]), bound(n, np, k))
			if s := r.PhaseSteps[amesh.PrimePhase2]; float64(s) > bound(n, np, k) {
				return fmt.Sprintf("%d steps > %.4g", s, bound(n, np, k))
			}
			return ""
		}, func(n, np, k int, r amesh.KKResult) string {
			return fmt.Sprintf("%d steps (bound %.4g)", r.PhaseSteps[amesh.PrimePhase2], bound(n, np, k))
		}))
	}))

	props.Register(withDet3Faults(ledger.Text(props.Claim{ID: "mesh/thm-3/time", Shares: primeShares, RecordedAt: map[props.Budget]props.Verdict{props.Default: props.Holds},
		Scope: "NewPlanPrime with coloring, all 15 phases (4 local rearrangements of 3 one-axis phases, 3 main phases); (n, n', k) ∈ " + fmt.Sprint(primeSizes(props.Small)) + " at the small budget (more at larger ones); uniform random, transpose, reflect and row-to-col",
	}), func(env props.Env, alloc allocFn) props.Outcome {
		var sl slackMax
		f := func(n, np, k int) float64 {
			return float64(k*np) + float64(n*n)/float64(np*np*np)*math.Log2(float64(n))
		}
		return sl.on(primeCheck(env, alloc, true, func(n, np, k int, r amesh.KKResult, _ []int) string {
			sl.see(float64(r.Steps), float64(k*n)/2+4*f(n, np, k))
			if lim := float64(k*n)/2 + 4*f(n, np, k); float64(r.Steps) > lim {
				return fmt.Sprintf("%d steps > k·n/2 + 4·(k·n' + (n²/n'³)·log n) = %.4g", r.Steps, lim)
			}
			return ""
		}, func(n, np, k int, r amesh.KKResult) string {
			return fmt.Sprintf("%d steps = k·n/2 + %.2f·(k·n' + (n²/n'³) log n)", r.Steps, (float64(r.Steps)-float64(k*n)/2)/f(n, np, k))
		}))
	}))

	props.Register(ledger.Text(props.Claim{ID: "mesh/thm-3/queue",
		Check: func(env props.Env) props.Outcome {
			var need []string
			var last any
			for _, np := range []int{4, 8, 16} {
				n := 2 * np
				term := 4 * math.Log2(float64(n)) / float64(np*np)
				found := false
				for _, k := range []int{2, 4, 8}[:env.Budget.Pick(1, 2, 3)] {
					for i := 0; i < 100 && !found; i++ {
						seed := seeds.Derive(env.Seed, 0x73, uint64(np), uint64(k), uint64(i))
						dst := GenKK(KKUniform, n, k, seeds.Rand(seed))
						_, load, err := a2Prime(n, np, dst, true, nil)
						if err != nil {
							return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
						}
						if most := slices.Max(load); most > k*np*np {
							found = true
							need = append(need, fmt.Sprintf("n'=%d (n=%d, k=%d): a submesh holds k·n'² + %d, so queue ≥ k + 1 while (n²/n'⁴)·log n = %.3g: constant ≥ %.1f", np, n, k, most-k*np*np, term, 1/term))
							last = PrimeCase{N: n, NPrime: np, K: k, Coloring: true, Family: KKUniform, Seed: seed, Measured: map[string]any{"submesh_packets": most, "k_n_prime_sq": k * np * np}}
						}
					}
				}
				if !found {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("no submesh above k·n'² found at n' = %d; so far: %s", np, strings.Join(need, "; "))}
				}
			}
			return props.Outcome{Verdict: props.Violated, Evidence: "the constant hidden in O((n²/n'⁴)·log n) must grow: " + strings.Join(need, "; "), Counterexample: last}
		}}))
}
