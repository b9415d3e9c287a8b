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
	// run checks 2·in ≥ h − allowance(n, dst)[2·row + half] for every row
	// and half; shrink minimizes the first counterexample.
	run := func(env props.Env, sizes func(props.Budget) [][2]int, alloc allocFn, allowance func(n int, dst [][]amesh.Dest) []int, shrink bool, runs int) props.Outcome {
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
					breaks := func(dst [][]amesh.Dest, cs []halfCount) *halfCount {
						u := allowance(n, dst)
						for i, c := range cs {
							if c.h > 0 && 2*c.in < c.h-u[i] {
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
					if b := breaks(dst, cs); b != nil {
						if shrink {
							dst = shrinkKK(n, dst, func(d [][]amesh.Dest) bool {
								cs, err := halfCounts(n, d, alloc)
								return err == nil && breaks(d, cs) != nil
							})
							cs, _ = halfCounts(n, dst, alloc)
							b = breaks(dst, cs)
						}
						side := map[int]string{0: "left", 1: "right"}[b.half]
						return props.Outcome{Verdict: props.Violated,
							Evidence:       fmt.Sprintf("n = %d, k = %d, %s (seed %d%s): of the %d packets with destination in the %s half of row %d only %d stand in that half at the start of Phase 3 (allowed: at least (h − %d)/2)", n, k, f, seed, map[bool]string{true: ", shrunk", false: ""}[shrink], b.h, side, b.row, b.in, allowance(n, dst)[2*b.row+b.half]),
							Counterexample: map[string]any{"instance": kkInstanceUncoloured(n, k, dst), "row": b.row, "half": side, "h": b.h, "in": b.in}}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d distributions over %v (uniform ×%d, transpose, reflect, row-to-col): every row and half within the allowance; smallest fraction in the correct half %.3f (at %s)", cases, sizes(env.Budget), runs, worstFrac, worstAt)}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-half",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9LargeK, nil, noAllowance, true, lemma9UniformRuns(env.Budget))
		},
		Faults: []props.Fault{{Name: faultMirror, Check: func(env props.Env) props.Outcome {
			return run(env, lemma9LargeK, mirrorAllocate, noAllowance, false, lemma9UniformRuns(env.Budget))
		}}},
	})))
	props.Register(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-half/small-k",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, nil, noAllowance, true, env.Budget.Pick(4, 8, 30))
		},
	}))
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-9/proof-fact-rounded",
		Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, nil, oddSources, false, env.Budget.Pick(100, 30, 1000))
		},
		Faults: []props.Fault{{Name: faultMirror, Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, mirrorAllocate, oddSources, false, env.Budget.Pick(100, 30, 1000))
		}}, {Name: "ALLOCATE without Step 2's sort: every bucket keeps the input order instead of being sorted on the destination column (mesh.AllocateMutant, Step2Unsorted)", Check: func(env props.Env) props.Outcome {
			return run(env, lemma9Sizes, unsortedAllocate, oddSources, false, env.Budget.Pick(100, 30, 1000))
		}}},
	})))
}

// noAllowance is the allowance of the unrounded fact: none.
func noAllowance(n int, _ [][]amesh.Dest) []int { return make([]int, 2*n) }

// oddSources is mesh/lemma-9/proof-fact-rounded's allowance, indexed as
// halfCounts (2·row + half, 0 left, 1 right): the number of sources that
// send an odd number of packets to the row and at least one of them to
// that half. Only a subbucket of size 1 may put a packet anywhere; a
// source has one for row i exactly when its bucket for row i has an odd
// remainder mod n, i.e. an odd number of packets (n even), and that packet
// is one of its packets for the half. Counted from the destinations, not
// from the allocation; O(n²·k).
func oddSources(n int, dst [][]amesh.Dest) []int {
	u := make([]int, 2*n)
	count := make([]int, n)
	inHalf := make([]bool, 2*n)
	for _, ds := range dst {
		clear(count)
		clear(inHalf)
		for _, d := range ds {
			count[d.Row]++
			half := 0
			if 2*int(d.Col) >= n {
				half = 1
			}
			inHalf[2*int(d.Row)+half] = true
		}
		for i, in := range inHalf {
			if in && count[i/2]%2 == 1 {
				u[i]++
			}
		}
	}
	return u
}

// unsortedAllocate is ALLOCATE without Step 2's sort (a planted fault).
func unsortedAllocate(n int, _ int32, dst []amesh.Dest) (amesh.Allocation, error) {
	return amesh.AllocateMutant(n, dst, nil, amesh.Step2Unsorted)
}

// kkInstanceUncoloured is kkInstance for a DET_3 run without coloring.
func kkInstanceUncoloured(n, k int, d [][]amesh.Dest) map[string]any {
	m := kkInstance(n, k, d)
	m["coloring"] = false
	return m
}
