package mesh

import (
	amesh "routecheck/algos/mesh"
	"routecheck/internal/pcgstate"
	"routecheck/internal/seeds"
)

// The statistical claims time thousands of runs of one size; kkRuns does
// it without building GenKK's lists or a Plan, reusing its buffers from
// run to run: genKKFlat is GenKK(f, n, k, seeds.Rand(seed)) laid out flat,
// and amesh.KKTimer is RouteKKTimes(NewPlan(…)) straight from it
// (TestGenKKFlatEqualsGenKK, TestKKRunsEqualsPlainRuns here;
// mesh.TestKKTimerEqualsPlanTimes in algos/mesh).

// kkRuns holds the buffers of one goroutine's runs.
type kkRuns struct {
	ids    []int32 // the uniform family's shuffled destination PUs
	dst    []amesh.Dest
	pu     []amesh.Dest // pu[p]: PU p as a destination (per n)
	timers map[int]*amesh.KKTimer
}

// genKKFlat is GenKK(f, n, k, seeds.Rand(seed)) with PU p's list at
// dst[p·k : (p+1)·k] (the same destinations: the uniform family's shuffle
// draws the same swaps from the same stream, pcgstate.Shuffle being
// rand.Rand.Shuffle's loop with the generator in registers). The result
// lives in r's buffer until the next call.
func (r *kkRuns) genKKFlat(f KKFamily, n, k int, seed uint64) []amesh.Dest {
	K := n * n * k
	if cap(r.dst) < K {
		r.dst, r.ids = make([]amesh.Dest, K), make([]int32, K)
	}
	dst := r.dst[:K]
	if len(r.pu) != n*n {
		r.pu = make([]amesh.Dest, n*n)
		for p := range r.pu {
			r.pu[p] = amesh.Dest{Row: int32(p / n), Col: int32(p % n)}
		}
	}
	switch f {
	case KKUniform:
		ids := r.ids[:K]
		for p := range n * n {
			for q := p * k; q < (p+1)*k; q++ {
				ids[q] = int32(p)
			}
		}
		pcgstate.Shuffle(ids, seeds.PCG(seed))
		for q, p := range ids {
			dst[q] = r.pu[p]
		}
		return dst
	case KKTranspose, KKReflect:
		for p := range n * n {
			i, j := p/n, p%n
			d := amesh.Dest{Row: int32(j), Col: int32(i)}
			if f == KKReflect {
				d = amesh.Dest{Row: int32(n - 1 - i), Col: int32(n - 1 - j)}
			}
			for q := p * k; q < (p+1)*k; q++ {
				dst[q] = d
			}
		}
		return dst
	case KKRowToCol:
		if k%n == 0 {
			for p := range n * n {
				j := p % n
				for t := range k {
					dst[p*k+t] = amesh.Dest{Row: int32(j), Col: int32(t / (k / n))}
				}
			}
			return dst
		}
	}
	// what GenKK refuses (it panics), and any family added later
	lists := GenKK(f, n, k, seeds.Rand(seed))
	for p, l := range lists {
		copy(dst[p*k:], l)
	}
	return dst
}

// timer is the KKTimer for n.
func (r *kkRuns) timer(n int) *amesh.KKTimer {
	if r.timers == nil {
		r.timers = map[int]*amesh.KKTimer{}
	}
	t := r.timers[n]
	if t == nil {
		t = amesh.NewKKTimer(n)
		r.timers[n] = t
	}
	return t
}

// times is runKKStatCaseWith(c, nil, nil, true) for the cases KKTimer
// runs (RAND_3 and RAND_4; DET_3_PHASE_ROUTE without coloring); ok is
// false for the others.
func (r *kkRuns) times(c KKStatCase) (res amesh.KKResult, ok bool, err error) {
	if c.Algorithm == amesh.Det3 && c.Coloring {
		return res, false, nil
	}
	dst := r.genKKFlat(c.Family, c.N, c.K, c.DistSeed)
	t := r.timer(c.N)
	if c.Algorithm == amesh.Det3 {
		res, err = t.Det3(dst)
	} else {
		res, err = t.Rand(c.Algorithm, dst, seeds.PCG(c.AlgSeed), c.Coloring)
	}
	return res, true, err
}

// route is runKKStatCaseWith(c, nil, nil, false) for DET_3_PHASE_ROUTE
// (amesh.KKTimer.RouteDet3: every queue measured); ok is false for the
// other algorithms.
func (r *kkRuns) route(c KKStatCase) (res amesh.KKResult, ok bool, err error) {
	if c.Algorithm != amesh.Det3 {
		return res, false, nil
	}
	return r.routeDet3(c.Family, c.N, c.K, c.DistSeed, c.Coloring)
}

// routeDet3 is RouteKK(NewPlan(Det3, n, GenKK(f, n, k, seeds.Rand(seed)),
// nil, Options{Coloring: coloring}), Options{}) on r's buffers.
func (r *kkRuns) routeDet3(f KKFamily, n, k int, seed uint64, coloring bool) (amesh.KKResult, bool, error) {
	res, err := r.timer(n).RouteDet3(r.genKKFlat(f, n, k, seed), coloring)
	return res, true, err
}
