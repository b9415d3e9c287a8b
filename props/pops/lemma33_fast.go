package pops

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"

	ap "routecheck/algos/pops"
	"routecheck/internal/pcgstate"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
)

// lemma33Scratch holds lemma33Instance's buffers between runs, so that the
// 2^20-processor instances of Lemma 3.3 (default budget) are drawn without
// allocating and clearing 16 MB per run.
type lemma33Scratch struct {
	p     []int32
	pairs []uint64 // s<<32 | p[s], shuffled by the swaps that shuffle order
	dst   []int32
	acc   []uint64 // the pairs accepted by the last call (reset in dst by the next)
	src   []int32
	tmp   []int32
}

// instance is lemma33Instance(g, deg, rand.New(src)) — the same random
// draws in the same order, the same result — written into s's buffers (the
// returned slice is overwritten by the next call). It uses 32-bit indices,
// draws from the PCG directly, shuffles the pairs (s, p[s]) instead of the
// indices s so that the greedy pass reads them in order instead of looking
// p[s] up at random, resets only the entries of dst the last call set, and
// stops the greedy pass once every group sends deg packets, after which no
// packet could be accepted.
func (s *lemma33Scratch) instance(g, deg int, src *rand.PCG) []int32 {
	n := g * g
	full := g * deg
	if len(s.p) != n {
		s.p, s.pairs, s.dst = make([]int32, n), make([]uint64, n), make([]int32, n)
		s.src, s.tmp = make([]int32, g), make([]int32, g)
		for i := range s.dst {
			s.dst[i] = perm.None
		}
		s.acc = s.acc[:0]
	}
	p, pairs, dst := s.p, s.pairs, s.dst
	for i := range p {
		p[i] = int32(i)
	}
	pcgstate.Shuffle(p, src)
	for i, x := range p {
		pairs[i] = uint64(i)<<32 | uint64(uint32(x))
	}
	pcgstate.Shuffle(pairs, src)
	for _, e := range s.acc {
		dst[int32(e>>32)] = perm.None
	}
	if cap(s.acc) < full {
		s.acc = make([]uint64, full)
	}
	acc := s.acc[:full]
	srcDeg, tmpDeg := s.src, s.tmp
	clear(srcDeg)
	clear(tmpDeg)
	d32, k := int32(deg), 0
	if g&(g-1) == 0 { // the budgets' g (256, 1024): a shift and a mask, not two divisions
		shift, mask := uint(bits.TrailingZeros(uint(g))), uint64(g-1)
		for _, e := range pairs {
			if k == full {
				break
			}
			a, t := e>>(32+shift), e&mask
			// Branch-free: whether the pair is accepted is close to a coin
			// flip while the groups fill.
			ok := b2i(srcDeg[a] < d32) & b2i(tmpDeg[t] < d32)
			srcDeg[a] += ok
			tmpDeg[t] += ok
			acc[k] = e
			k += int(ok)
		}
	} else {
		for _, e := range pairs {
			if k == full {
				break
			}
			a, t := int(e>>32)/g, int(uint32(e))%g
			if srcDeg[a] < d32 && tmpDeg[t] < d32 {
				srcDeg[a]++
				tmpDeg[t]++
				acc[k] = e
				k++
			}
		}
	}
	s.acc = acc[:k]
	for _, e := range s.acc {
		dst[int32(e>>32)] = int32(uint32(e))
	}
	return dst
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// lemma33Run is one run of Lemma 3.3's check: the instance and the router
// draw from the stream seeds.Rand(seed, 33, ⌊100α⌋, r), in that order. It
// returns the step count (−1: did not complete) and the largest conflict
// degree of the first step.
func lemma33Run(e *ap.Engine, s *lemma33Scratch, seed uint64, g int, alpha float64, deg, r int) (steps int, degree int32, err error) {
	src := seeds.PCG(seed, 33, uint64(alpha*100), uint64(r))
	dst := s.instance(g, deg, src)
	res, err := e.RunPCG(mpops.Shape{D: g, G: g}, dst, src, ap.Options{})
	if err != nil {
		return 0, 0, err
	}
	steps = res.Steps
	if !res.Completed {
		steps = -1
	}
	if len(res.MaxDegree) > 0 { // an empty instance takes no step
		degree = res.MaxDegree[0]
	}
	return steps, degree, nil
}

// lemma33Simulate runs Lemma 3.3's runs 0…runs−1 (lemma33Run) on up to
// workers goroutines, each with its own engine and buffers (≈ 41 MB each at
// g = 1024), and returns the step counts by run, which do not depend on
// workers. The error is that of the lowest-numbered run that failed, or an
// instance whose conflict degree exceeds deg (the generator broke).
func lemma33Simulate(seed uint64, g, runs int, alpha float64, deg, workers int) ([]int, error) {
	xs := make([]int, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	workers = max(1, min(workers, runs))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e ap.Engine
			var s lemma33Scratch
			for r := w; r < runs; r += workers {
				steps, degree, err := lemma33Run(&e, &s, seed, g, alpha, deg, r)
				if err == nil && int(degree) > deg {
					err = fmt.Errorf("instance generator broke: degree %d > %d", degree, deg)
				}
				xs[r], errs[r] = steps, err
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return xs, nil
}

// lemma33Workers is how many goroutines simulate Lemma 3.3's runs: the
// claim is one of the ledger's longest single computations, so it uses two
// cores where there are two, and no more, because the claim's memory
// estimate (160 MiB, mem.go) covers two workers' buffers (≈ 41 MB each at
// g = 1024), not one per core.
func lemma33Workers() int { return min(2, runtime.GOMAXPROCS(0)) }
