package sot

import (
	"sync"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// costKey names one cell of sot/sec4.2/greedy-a/cost-e-over-e-minus-1's
// sweep: the runs it simulates depend on nothing else.
type costKey struct {
	seed       uint64
	n, m, runs int
}

// costCell is a cell's costs T/h, one per run, or (failed) the first run
// that returned an error or did not complete.
type costCell struct {
	once   sync.Once
	xs     []float64
	failed bool
	run    int
	res    asot.Result
	err    error
}

var costCells sync.Map // costKey → *costCell

// greedyACosts returns T/h of greedy-a on runs random h-relations (h = m·n)
// of the cost claim's cell (n, m). Each cell is simulated once per process:
// the claim and its planted fault, which differ only in the value they
// compare against, judge the same runs. A failed run ends the cell (see
// costCell). Callers must not modify the cell.
func greedyACosts(env props.Env, n, m, runs int) *costCell {
	v, _ := costCells.LoadOrStore(costKey{env.Seed, n, m, runs}, &costCell{})
	c := v.(*costCell)
	c.once.Do(func() {
		h := m * n
		for r := range runs {
			rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0xc05, uint64(n), uint64(m), uint64(r)))
			res, _, err := asot.Route(asot.GreedyA, n, rel, nil, asot.Options{})
			if err != nil || !res.Complete {
				c.failed, c.run, c.res, c.err = true, r, res, err
				return
			}
			c.xs = append(c.xs, float64(res.Steps)/float64(h))
		}
	})
	return c
}
