package mesh

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// AllocateCase is an ALLOCATE instance: one PU's destinations on an n×n
// mesh.
type AllocateCase struct {
	N    int          `json:"n"`
	Dest []amesh.Dest `json:"dest"`
}

// forEachMultiset calls f with every multiset of k destinations of an n×n
// mesh (non-decreasing in row-major cell order) until f returns false.
func forEachMultiset(n, k int, f func([]amesh.Dest) bool) {
	idx := make([]int, k)
	d := make([]amesh.Dest, k)
	stop := false
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if stop {
			return
		}
		if pos == k {
			for i, c := range idx {
				d[i] = amesh.Dest{Row: int32(c / n), Col: int32(c % n)}
			}
			stop = !f(d)
			return
		}
		for c := from; c < n*n && !stop; c++ {
			idx[pos] = c
			rec(pos+1, c)
		}
	}
	rec(0, 0)
}

// allocSmall are the sizes whose every destination multiset the ALLOCATE
// checks try: n ∈ {2, 4}, k ∈ {n, 2n}.
var allocSmall = [][2]int{{2, 2}, {2, 4}, {4, 4}, {4, 8}}

// allocSweep tries the cases of an ALLOCATE check until one fails: first
// every destination multiset of each (n, k) of sizes, in order, with no
// tie-breaking rule (nil: smallest index), then random cases i = 0, 1, …,
// random − 1, each drawn by draw(i) with the tie-breaking rule to use. try
// returns nil when a case passes and, on a failure, what the counterexample
// shows besides the case; the sweep stops at the first failure. It returns
// the number of multisets tried and the first failure's counterexample
// (try's fields with "case": the AllocateCase), or nil when none failed.
func allocSweep(sizes [][2]int, random int, draw func(i int) (int, []amesh.Dest, amesh.TieBreak), try func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any) (int, map[string]any) {
	multisets := 0
	var cex map[string]any
	check := func(n int, d []amesh.Dest, tie amesh.TieBreak) bool {
		if cex = try(n, d, tie); cex != nil {
			cex["case"] = AllocateCase{n, slices.Clone(d)}
		}
		return cex == nil
	}
	for _, nk := range sizes {
		if cex != nil {
			break
		}
		forEachMultiset(nk[0], nk[1], func(d []amesh.Dest) bool {
			multisets++
			return check(nk[0], d, nil)
		})
	}
	for i := 0; i < random && cex == nil; i++ {
		check(draw(i))
	}
	return multisets, cex
}

// allocOutcome is an ALLOCATE check's verdict: violated with evidence bad
// and the counterexample when cex is not nil, else holds with evidence
// good.
func allocOutcome(cex map[string]any, bad, good string) props.Outcome {
	if cex != nil {
		return props.Outcome{Verdict: props.Violated, Evidence: bad, Counterexample: cex}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: good}
}

func randomDests(r *rand.Rand, n, k int) []amesh.Dest {
	d := make([]amesh.Dest, k)
	skew := r.IntN(3)
	for i := range d {
		row := r.IntN(n)
		switch {
		case skew == 1 && r.IntN(2) == 0:
			row = 0
		case skew == 2:
			row = r.IntN(min(3, n))
		}
		d[i] = amesh.Dest{Row: int32(row), Col: int32(r.IntN(n))}
	}
	return d
}

// allocateFn is ALLOCATE or a mutant of it (mesh.AllocateMutant).
type allocateFn = func(n int, dst []amesh.Dest, tie amesh.TieBreak) (amesh.Allocation, error)

// allocateMutants names the planted faults of the ALLOCATE checkers.
var allocateMutants = map[amesh.Mutation]string{
	amesh.ExtractOneShort:   "ALLOCATE with an off-by-one extraction: Step 3 extracts n·⌊B/n⌋ − 1 packets (mesh.ExtractOneShort)",
	amesh.ExtractRoundShort: "ALLOCATE with Step 3 one round short: it extracts n·(⌊B/n⌋ − 1) packets (mesh.ExtractRoundShort)",
}

// withAllocateFault registers check with mesh.Allocate as c's Check and,
// as its planted fault, the same check with ALLOCATE mutated by m.
func withAllocateFault(c props.Claim, m amesh.Mutation, check func(props.Env, allocateFn) props.Outcome) props.Claim {
	c.Check = func(env props.Env) props.Outcome { return check(env, amesh.Allocate) }
	c.Faults = []props.Fault{{Name: allocateMutants[m], Check: func(env props.Env) props.Outcome {
		return check(env, func(n int, dst []amesh.Dest, tie amesh.TieBreak) (amesh.Allocation, error) {
			return amesh.AllocateMutant(n, dst, tie, m)
		})
	}}}
	return withPowerNote(c)
}

func floorLog2(n int) int { return bits.Len(uint(n)) - 1 }

func init() {
	balanced := func(n int, d []amesh.Dest, a amesh.Allocation) bool {
		return slices.Max(a.Counts) == len(d)/n && slices.Min(a.Counts) == len(d)/n && a.MaxSpread <= 1
	}
	props.Register(withAllocateFault(ledger.Text(props.Claim{ID: "mesh/lemma-6/exact-balance"}), amesh.ExtractOneShort, func(env props.Env, allocate allocateFn) props.Outcome {
		r := seeds.Rand(env.Seed ^ 0x6a110c)
		random := env.Budget.Pick(90, 900, 9000)
		cases, cex := allocSweep(allocSmall, random, func(i int) (int, []amesh.Dest, amesh.TieBreak) {
			n := []int{8, 16, 32}[i%3]
			return n, randomDests(r, n, n*(1+r.IntN(3*n))), func(c []int32) int32 { return c[r.IntN(len(c))] }
		}, func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any {
			if a, err := allocate(n, d, tie); err != nil || !balanced(n, d, a) {
				return map[string]any{"counts": a.Counts, "error": fmt.Sprint(err)}
			}
			return nil
		})
		return allocOutcome(cex, "unbalanced allocation", fmt.Sprintf("exactly k/n per position and Δ ≤ 1 on all %d multisets (n ∈ {2,4}, k ∈ {n,2n}) and %d random cases (n ∈ {8,16,32})", cases, random))
	}))
	props.Register(ledger.Text(props.Claim{ID: "mesh/lemma-6/not-power-of-two",
		Check: func(env props.Env) props.Outcome {
			cases, cex := allocSweep([][2]int{{3, 3}, {3, 6}}, 0, nil, func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any {
				if a, err := amesh.Allocate(n, d, tie); err != nil || !balanced(n, d, a) {
					return map[string]any{"counts": a.Counts}
				}
				return nil
			})
			return allocOutcome(cex, fmt.Sprintf("unbalanced after %d multisets (first in enumeration order)", cases), fmt.Sprintf("balanced on all %d multisets", cases))
		}}))
	props.Register(withAllocateFault(ledger.Text(props.Claim{ID: "mesh/lemma-6/k-not-multiple-of-n"}), amesh.ExtractOneShort, func(env props.Env, allocate allocateFn) props.Outcome {
		ok := func(n int, d []amesh.Dest, a amesh.Allocation) bool {
			k := len(d)
			return a.MaxSpread <= 1 && slices.Min(a.Counts) == k/n && slices.Max(a.Counts) == (k+n-1)/n
		}
		r := seeds.Rand(env.Seed ^ 0x6a11)
		random := env.Budget.Pick(90, 900, 9000)
		cases, cex := allocSweep([][2]int{{2, 1}, {2, 3}, {2, 5}, {2, 7}, {4, 1}, {4, 2}, {4, 3}, {4, 5}, {4, 6}, {4, 7}}, random, func(i int) (int, []amesh.Dest, amesh.TieBreak) {
			n := []int{8, 16, 32}[i%3]
			k := 1 + r.IntN(3*n*n-1)
			if k%n == 0 {
				k++
			}
			return n, randomDests(r, n, k), func(c []int32) int32 { return c[r.IntN(len(c))] }
		}, func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any {
			if a, err := allocate(n, d, tie); err != nil || !ok(n, d, a) {
				return map[string]any{"counts": a.Counts, "max_spread": a.MaxSpread, "error": fmt.Sprint(err)}
			}
			return nil
		})
		return allocOutcome(cex, "Δ > 1 or counts outside {⌊k/n⌋, ⌈k/n⌉}", fmt.Sprintf("Δ(l) ≤ 1 throughout and counts in {⌊k/n⌋, ⌈k/n⌉} on all %d multisets (n = 2, k ∈ {1, 3, 5, 7}; n = 4, k ∈ {1, 2, 3, 5, 6, 7}: k not a multiple of n, k < 8) and %d random cases (n ∈ {8, 16, 32})", cases, random))
	}))
	props.Register(withAllocateFault(ledger.Text(props.Claim{ID: "mesh/lemma-5/subbuckets"}), amesh.ExtractRoundShort, func(env props.Env, allocate allocateFn) props.Outcome {
		worst := 0.0
		r := seeds.Rand(env.Seed ^ 0x5b)
		random := env.Budget.Pick(140, 1400, 14000)
		multisets, cex := allocSweep(allocSmall, random, func(i int) (int, []amesh.Dest, amesh.TieBreak) {
			n := []int{8, 16, 32, 3, 5, 6, 7}[i%7]
			return n, randomDests(r, n, n*(1+r.IntN(3*n))), nil
		}, func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any {
			a, err := allocate(n, d, tie)
			if err != nil || a.Subbuckets > n*floorLog2(n) {
				return map[string]any{"subbuckets": a.Subbuckets}
			}
			if n > 1 {
				worst = max(worst, float64(a.Subbuckets)/float64(n*floorLog2(n)))
			}
			return nil
		})
		return allocOutcome(cex, "too many subbuckets", fmt.Sprintf("m ≤ n⌊log n⌋ on %d cases; largest m/(n⌊log n⌋) = %.2f", random+multisets, worst))
	}))
	props.Register(ledger.Text(props.Claim{ID: "mesh/lemma-5/proof-per-bucket",
		Check: func(env props.Env) props.Outcome {
			_, cex := allocSweep(allocSmall, 0, nil, func(n int, d []amesh.Dest, tie amesh.TieBreak) map[string]any {
				a, _ := amesh.Allocate(n, d, tie)
				for r, c := range a.PerRow {
					if c > floorLog2(n-1) {
						return map[string]any{"row": r, "subbuckets": c, "bound": floorLog2(n - 1)}
					}
				}
				return nil
			})
			return allocOutcome(cex, "a bucket split into more than ⌊log(n − 1)⌋ subbuckets", "no bucket exceeded ⌊log(n − 1)⌋ subbuckets")
		}}))
}
