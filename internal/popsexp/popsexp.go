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
	"routecheck/models/pops"
)

// Sample is what one run reports.
type Sample struct {
	Run       int  `json:"run"`
	Steps     int  `json:"steps"`
	Slots     int  `json:"slots"`
	Completed bool `json:"completed"`
	// Censored: the run was stopped at GuardSteps without finishing (g ≥ 2).
	// Its Steps is a lower bound, not a value: a statistic over a sample
	// with a censored run is a bound, and the table claims call it
	// inconclusive.
	Censored bool `json:"censored,omitempty"`
	// Livelocked: g = 1 and two or more packets were left after stage 1 — a
	// state no step ever leaves (pops/thm-3.8/terminates-g1), so the run was
	// stopped one step after stage 1. It never finishes.
	Livelocked bool `json:"livelocked,omitempty"`
	Lost       int  `json:"lost"`
	// DegreeAfterStage1 is the conflict-graph degree at the start of the
	// first step after stage 1 (−1 if the run ended before it).
	DegreeAfterStage1 int `json:"degree_after_stage1"`
}

// GuardSteps is the step limit of experiment runs for g ≥ 2. It is a guard,
// not a cut-off: the router is run to completion. Why it must be so large:
// at g = 2 the d = g procedure that follows stage 1 is close to a livelock
// whenever stage 1 leaves k > g packets in a group (every pending packet
// takes part and picks one of only g intermediate groups, and a packet of
// the group survives slot 1 only when no other packet of the group picked
// its group: probability about 2k/2^k per step at g = 2), and Theorem 3.8's
// concentration bounds (e^{−δ²g/4}) say nothing at g = 2, so stage 1 does
// leave such k. In 10^5 runs on POPS(32,2) (n = 64, d = 16g) 547 needed more
// than the library's default 576 steps and the longest needed 612,599 (k =
// 23 after stage 1). A run needs about 2^k/k steps, and k ≥ 28 — the order
// of 2^26 steps — was never seen; a run that hits the guard is reported as
// Censored. At n = 64 one step costs well under a microsecond, so a
// censored run costs about a minute.
const GuardSteps = 1 << 26

// StepLimit is the step limit of experiment runs on sh with c+ε = cEps:
// GuardSteps for g ≥ 2; for g = 1, one step after stage 1, which is exact:
// after stage 1 every pending packet takes part and all use the one coupler
// c(0,0) in slot 1, so with one packet left the run finishes in that step
// and with two or more nothing ever moves again (the state repeats).
func StepLimit(sh pops.Shape, cEps float64) int {
	if sh.G == 1 {
		return ap.Stage1Steps(sh, cEps) + 1
	}
	return GuardSteps
}

// Spec names the runs to do.
type Spec struct {
	Shape   pops.Shape
	Variant ap.Variant
	// CEps is c+ε of Theorem 3.8's stage 1; 0 means ap.DefaultCEps (4).
	CEps float64
	// KeepCoin selects the other reading of the switch to stage 2
	// (ap.Options.KeepCoin).
	KeepCoin bool
	Seed     uint64
	Runs     []int // run indices (a shard may do a subset)
	Workers  int   // 0: runtime.NumCPU()
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
// the router with c+ε = cEps (0: 4) and the step limit StepLimit, both from
// the run's stream. The random stream does not depend on cEps, so runs
// with different c+ε see the same permutations.
func RunOne(e *ap.Engine, dst []int32, sh pops.Shape, v ap.Variant, cEps float64, seed uint64, r int) (Sample, error) {
	return RunOneReading(e, dst, sh, v, cEps, false, seed, r)
}

// RunOneReading is RunOne under a chosen reading of the switch to stage 2
// (ap.Options.KeepCoin). The permutation and stream of run r do not depend
// on the reading, so the two readings are compared on the same inputs.
func RunOneReading(e *ap.Engine, dst []int32, sh pops.Shape, v ap.Variant, cEps float64, keepCoin bool, seed uint64, r int) (Sample, error) {
	if cEps == 0 {
		cEps = ap.DefaultCEps
	}
	// Rand's stream, with its source at hand for Engine.RunPCG.
	src := seeds.PCG(seed, uint64(sh.N()), uint64(sh.D), uint64(sh.G), uint64(v), uint64(r))
	ap.ShuffleInto(dst, src) // perm.RandomInto(dst, rand.New(src)), without the interface call per draw
	k := ap.Stage1Steps(sh, cEps)
	res, err := e.RunPCG(sh, dst, src, ap.Options{Variant: v, CEps: cEps, KeepCoin: keepCoin, MaxSteps: StepLimit(sh, cEps), MaxTrace: k + 1})
	if err != nil {
		return Sample{}, err
	}
	s := Sample{Run: r, Steps: res.Steps, Slots: res.Slots(v, sh), Completed: res.Completed, Lost: res.Lost, DegreeAfterStage1: -1}
	if !res.Completed {
		if sh.G == 1 {
			s.Livelocked = true
		} else {
			s.Censored = true
		}
	}
	if k < len(res.MaxDegree) {
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
	if c := spec.CEps; c != 0 && !(c >= 1 && c <= 1e6) {
		return nil, fmt.Errorf("c+ε = %v: must be in [1, 10^6] (0 selects 4)", c)
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
				s, err := RunOneReading(&e, dst, spec.Shape, spec.Variant, spec.CEps, spec.KeepCoin, spec.Seed, spec.Runs[j])
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
