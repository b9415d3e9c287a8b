// Package popsexp runs the randomized POPS router over many random
// permutations — the unit of work behind the Table I/II claims and
// `routecheck reproduce pops-table1|pops-table2`. Run r of a cell uses the
// stream seeds.Rand(seed, n, d, g, variant, r): the same seed gives the same
// numbers whatever the worker count or shard.
package popsexp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	ap "routecheck/algos/pops"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Sample is what one run reports.
type Sample struct {
	Run       int  `json:"run"`
	Steps     int  `json:"steps"`
	Slots     int  `json:"slots"`
	Completed bool `json:"completed"`
	Lost      int  `json:"lost"`
	// DegreeAfterStage1 is the conflict-graph degree at the start of the
	// first step after stage 1 (−1 if the run ended before it).
	DegreeAfterStage1 int `json:"degree_after_stage1"`
}

// Spec names the runs to do.
type Spec struct {
	Shape   pops.Shape
	Variant ap.Variant
	Seed    uint64
	Runs    []int // run indices (a shard may do a subset)
	Workers int   // 0: runtime.NumCPU()
	// Progress, if set, is called after each finished run (from any worker).
	Progress func(done, total int)
}

// Rand returns the stream of run r.
func Rand(seed uint64, sh pops.Shape, v ap.Variant, r int) *rand.Rand {
	return seeds.Rand(seed, uint64(sh.N()), uint64(sh.D), uint64(sh.G), uint64(v), uint64(r))
}

// BytesPerWorker estimates the memory one worker needs for shape sh: the
// engine's arrays plus the permutation.
func BytesPerWorker(sh pops.Shape) int64 {
	n, g2 := int64(sh.N()), int64(sh.G)*int64(sh.G)
	return 13*n + 32*min(n, g2) + 4*n
}

// RunOne does run r of the spec's cell: a uniformly random permutation, then
// the router, both from the run's stream.
func RunOne(e *ap.Engine, dst []int32, sh pops.Shape, v ap.Variant, seed uint64, r int) (Sample, error) {
	rng := Rand(seed, sh, v, r)
	perm.RandomInto(dst, rng)
	res, err := e.Run(sh, dst, rng, ap.Options{Variant: v})
	if err != nil {
		return Sample{}, err
	}
	s := Sample{Run: r, Steps: res.Steps, Slots: res.Slots(v, sh), Completed: res.Completed, Lost: res.Lost, DegreeAfterStage1: -1}
	if k := ap.Stage1Steps(sh, ap.DefaultCEps); k < len(res.MaxDegree) {
		s.DegreeAfterStage1 = int(res.MaxDegree[k])
	}
	return s, nil
}

// Run does the spec's runs on Workers goroutines and returns the samples in
// the order of spec.Runs. It stops early when ctx is cancelled.
func Run(ctx context.Context, spec Spec) ([]Sample, error) {
	if err := ap.CheckShape(spec.Shape); err != nil {
		return nil, err
	}
	w := spec.Workers
	if w <= 0 {
		w = runtime.NumCPU()
	}
	w = min(w, max(len(spec.Runs), 1))
	out := make([]Sample, len(spec.Runs))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		done     int
	)
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e ap.Engine
			dst := make([]int32, spec.Shape.N())
			for j := range jobs {
				s, err := RunOne(&e, dst, spec.Shape, spec.Variant, spec.Seed, spec.Runs[j])
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				out[j] = s
				done++
				d := done
				mu.Unlock()
				if spec.Progress != nil {
					spec.Progress(d, len(spec.Runs))
				}
			}
		}()
	}
	var err error
feed:
	for j := range spec.Runs {
		select {
		case jobs <- j:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err != nil {
		return nil, fmt.Errorf("interrupted: %w", err)
	}
	return out, nil
}

// Range returns the run indices 0…k-1.
func Range(k int) []int {
	r := make([]int, k)
	for i := range r {
		r[i] = i
	}
	return r
}
