package sot

import (
	"sync"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	"routecheck/oracles/sotforms"
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

// The cells run on the fast engine (asot.RouteFast: the same result as
// asot.Route, tested against the step model in algos/sot).

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
			res, err := asot.RouteFast(asot.GreedyA, n, rel, nil, 0)
			if err != nil || !res.Complete {
				c.failed, c.run, c.res, c.err = true, r, res, err
				return
			}
			c.xs = append(c.xs, float64(res.Steps)/float64(h))
		}
	})
	return c
}

// whpKey names one run of sot/sec4.3/whp-n-plus-ch: Algorithm 2 on the
// random (n·log₂ n)-relation of run r at size n.
type whpKey struct {
	seed uint64
	n, r int
}

// whpRun is one such run: its result (on asot.RouteFast) and W = max
// w(i, j) of its relation.
type whpRun struct {
	once sync.Once
	res  asot.Result
	w    int
	err  error
}

var whpRuns sync.Map // whpKey → *whpRun

// whpRelation is the relation of run r at size n.
func whpRelation(seed uint64, n, r int) []perm.Pair {
	return asot.RandomRelation(n, n*sotLog2(n), seeds.Rand(seed, 0x443, uint64(n), uint64(r)))
}

// scheduledWhpRun returns run r at size n of the whp claim, simulated once
// per process: the claim and its planted fault (which differ only in the
// constant c) judge the same runs. Callers must not modify it.
func scheduledWhpRun(env props.Env, n, r int) *whpRun {
	v, _ := whpRuns.LoadOrStore(whpKey{env.Seed, n, r}, &whpRun{})
	c := v.(*whpRun)
	c.once.Do(func() {
		rel := whpRelation(env.Seed, n, r)
		c.res, c.err = asot.RouteFast(asot.Scheduled, n, rel, nil, 0)
		_, c.w = sotforms.ScheduledTime(n, rel)
	})
	return c
}

// freshKey names one sotFresh statistic: it depends on nothing else (the
// budget only chooses which (n, runs) are asked for).
type freshKey struct {
	seed, tag uint64
	alg       asot.Algorithm
	n, runs   int
}

type freshCell struct {
	once sync.Once
	st   sotFreshStat
	err  error
}

var freshCells sync.Map // freshKey → *freshCell

// sotFresh is sotFreshPlain computed once per process per key: a band
// claim and its planted fault (sotFreshBandFaults), and
// sot/sec3.3/greedy-c/decreasing and its reversed fault, differ only in
// what they compare the same statistics against.
func sotFresh(env props.Env, tag uint64, alg asot.Algorithm, n, runs int) (sotFreshStat, error) {
	v, _ := freshCells.LoadOrStore(freshKey{env.Seed, tag, alg, n, runs}, &freshCell{})
	c := v.(*freshCell)
	c.once.Do(func() { c.st, c.err = sotFreshPlain(env, tag, alg, n, runs) })
	return c.st, c.err
}
