package mesh

import (
	"fmt"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// Lemma 9's proof fact (003_8774480fe7c747cc.txt §3, before Lemma 9): "the
// allocation is performed so that at least half of the packets with
// destination in the right half of row i already stand in the right half
// of row i at the beginning of Phase 3".

// halfCount is, for one row and one half of it (0 left, 1 right), h = the
// packets with destination in that half of the row and in = those of them
// standing in that half at the start of Phase 3.
type halfCount struct{ row, half, in, h int }

// halfCounts runs ALLOCATE (alloc unless nil) for DET_3_PHASE_ROUTE
// without coloring on dst and returns the counts of every row and half (a
// packet's column at the start of Phase 3 is its Phase-1 position, and its
// row its destination row).
func halfCounts(n int, dst [][]amesh.Dest, alloc allocFn) ([]halfCount, error) {
	pl, err := amesh.NewPlan(amesh.Det3, n, dst, nil, amesh.Options{Allocator: alloc})
	if err != nil {
		return nil, err
	}
	k := len(dst[0])
	out := make([]halfCount, 2*n)
	for i := range out {
		out[i] = halfCount{row: i / 2, half: i % 2}
	}
	for q, t := range pl.Targets[1] {
		d := dst[q/k][q%k]
		right := 2*int(d.Col) >= n
		c := &out[2*int(d.Row)+map[bool]int{false: 0, true: 1}[right]]
		c.h++
		if (2*(int(t)%n) >= n) == right {
			c.in++
		}
	}
	return out, nil
}

// lemma9Sizes are (n, k) with n a power of two and k a multiple of n (the
// paper's assumptions) and k < 2·n²·log n (below §3's k = ω(n² log n)),
// smallest first.
func lemma9Sizes(b props.Budget) [][2]int {
	s := [][2]int{{2, 2}, {2, 4}, {4, 4}, {4, 8}, {4, 16}, {8, 8}, {8, 16}, {8, 64}}
	if b >= props.Default {
		s = append(s, [2]int{16, 16}, [2]int{16, 32}, [2]int{16, 256})
	}
	return s
}

// lemma9LargeK are (n, k) in §3's regime: n a power of two, k a multiple
// of n and k ≥ 2·n²·log n (the factor 2 read into k = ω(n² log n) and
// fixed before running; log₂), smallest first.
func lemma9LargeK(b props.Budget) [][2]int {
	s := [][2]int{{2, 8}, {2, 32}, {4, 64}, {4, 256}, {8, 384}}
	if b >= props.Default {
		s = append(s, [2]int{8, 1024}, [2]int{16, 2048})
	}
	return s
}

// lemma9UniformRuns is the number of uniform random distributions a size
// of mesh/lemma-9/proof-fact-half draws (one each of the other families).
// Raised on 2026-11-25 from 4, 8, 30: the fact is about every distribution,
// and ALLOCATE alone is cheap (no routing), so the claim can afford to look.
func lemma9UniformRuns(b props.Budget) int { return b.Pick(400, 1000, 4000) }

func init() {
	// run checks 2·in ≥ h − allowance(n) for every row and half; shrink
	// minimizes the first counterexample.
	run := func(env props.Env, sizes func(props.Budget) [][2]int, alloc allocFn, allowance func(n int) int, shrink bool, runs int) props.Outcome {
		cases, worstFrac := 0, 2.0
		worstAt := ""
		for _, nk := range sizes(env.Budget) {
			n, k := nk[0], nk[1]
			for fi, f := range KKFamilies {
				reps := 1
				if f == KKUniform {
					reps = runs
				}
				for rep := range reps {
					seed := seeds.Derive(env.Seed, 0x1e9, uint64(n), uint64(k), uint64(fi), uint64(rep))
					dst := GenKK(f, n, k, seeds.Rand(seed))
					cs, err := halfCounts(n, dst, alloc)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					cases++
					breaks := func(cs []halfCount) *halfCount {
						for i, c := range cs {
							if c.h > 0 && 2*c.in < c.h-allowance(n) {
								return &cs[i]
							}
						}
						return nil
					}
					for _, c := range cs {
						if c.h > 0 && float64(c.in)/float64(c.h) < worstFrac {
							worstFrac, worstAt = float64(c.in)/float64(c.h), fmt.Sprintf("n=%d k=%d %s", n, k, f)
						}
					}
					if b := breaks(cs); b != nil {
						if shrink {
							dst = shrinkKK(n, dst, func(d [][]amesh.Dest) bool {
								cs, err := halfCounts(n, d, alloc)
								return err == nil && breaks(cs) != nil
							})
							cs, _ = halfCounts(n, dst, alloc)
							b = breaks(cs)
						}
						side := map[int]string{0: "left", 1: "right"}[b.half]
						return props.Outcome{Verdict: props.Violated,
							Evidence:       fmt.Sprintf("n = %d, k = %d, %s (seed %d%s): of the %d packets with destination in the %s half of row %d only %d stand in that half at the start of Phase 3 (allowed: at least (h − %d)/2)", n, k, f, seed, map[bool]string{true: ", shrunk", false: ""}[shrink], b.h, side, b.row, b.in, allowance(n)),
							Counterexample: map[string]any{"instance": kkInstanceUncoloured(n, k, dst), "row": b.row, "half": side, "h": b.h, "in": b.in}}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d distributions over %v (uniform ×%d, transpose, reflect, row-to-col): every row and half within the allowance; smallest fraction in the correct half %.3f (at %s)", cases, sizes(env.Budget), runs, worstFrac, worstAt)}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-half",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9LargeK, nil, func(int) int { return 0 }, true, lemma9UniformRuns(env.Budget))
		},
		Faults: []props.Fault{{Name: faultMirror, Check: func(env props.Env) props.Outcome {
			return run(env, lemma9LargeK, mirrorAllocate, func(int) int { return 0 }, false, lemma9UniformRuns(env.Budget))
		}}},
	})))
	props.Register(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-half/small-k",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, nil, func(int) int { return 0 }, true, env.Budget.Pick(4, 8, 30))
		},
	}))
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-rounded",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, nil, func(n int) int { return n * n }, false, env.Budget.Pick(100, 30, 1000))
		},
		Faults: []props.Fault{{Name: faultMirror, Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, mirrorAllocate, func(n int) int { return n * n }, false, env.Budget.Pick(100, 30, 1000))
		}}},
	})))
}

// kkInstanceUncoloured is kkInstance for a DET_3 run without coloring.
func kkInstanceUncoloured(n, k int, d [][]amesh.Dest) map[string]any {
	m := kkInstance(n, k, d)
	m["coloring"] = false
	return m
}
