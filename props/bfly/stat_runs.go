package bfly

import (
	ab "routecheck/algos/butterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
)

// The simulations of the Theorem 1, 2, 8 and 11 claims, run once per
// process and (seed, budget): each claim's planted fault "the bound scaled
// by 0.5" judges the very runs the claim judges (same seeds, same
// packets), so the runs are kept (the cache of claims.go) and only the
// judging, in stat_claims.go, depends on the bound's factor. A run list
// that ended in an error keeps the error; the checks then return it as
// before (inconclusive, the error as evidence). TestStatRunsMemoSame
// checks that a recalled list equals a fresh one and that the checks'
// outcomes are the ones the unshared runs give.

type statRunsKey struct {
	seed   uint64
	budget props.Budget
}

// keptRuns are one claim's simulations: one entry per cell, in the check's
// order, or the error that ended them (with the cells run before it).
type keptRuns[C any] struct {
	cells []C
	err   error
}

// keptCells recalls env's runs from memo, or runs and keeps them: for
// each size of sizes in order, size runs that size's cells on one engine
// (shared by all sizes) and passes each finished cell to keep; the first
// error ends the runs, with the cells kept before it.
func keptCells[C, E any](memo *cache[statRunsKey, keptRuns[C]], env props.Env, sizes []bflySize, size func(e *E, sz bflySize, keep func(C)) error) keptRuns[C] {
	return memo.getOr(statRunsKey{env.Seed, env.Budget}, func() keptRuns[C] {
		var v keptRuns[C]
		var e E
		for _, sz := range sizes {
			if err := size(&e, sz, func(c C) { v.cells = append(v.cells, c) }); err != nil {
				v.err = err
				return v
			}
		}
		return v
	})
}

// familyRuns recalls env's runs from memo, or runs and keeps them: one
// for every run of every (size, family) cell — the sizes of sizes(budget)
// in order, bflyFamilies within a size — each cell's results in run order;
// the first error ends the runs. The runs share one engine.
func familyRuns[T any](memo *cache[statRunsKey, keptRuns[[]T]], env props.Env, sizes func(props.Budget) []bflySize, one func(e *ab.Engine, n, fi, run int) (T, error)) keptRuns[[]T] {
	return keptCells(memo, env, sizes(env.Budget), func(e *ab.Engine, sz bflySize, keep func([]T)) error {
		for fi := range bflyFamilies {
			runs := make([]T, 0, sz.runs)
			for run := range sz.runs {
				x, err := one(e, sz.n, fi, run)
				if err != nil {
					return err
				}
				runs = append(runs, x)
			}
			keep(runs)
		}
		return nil
	})
}

// thm1Cell is one (size, problem) cell of bfly/thm-1/time-O-congestion:
// the runs whose problem has C ≥ log N, in run order.
type thm1Cell struct {
	n    int
	name string
	runs []thm1Run
}

type thm1Run struct {
	sd       uint64
	steps, c int
}

var thm1Memo cache[statRunsKey, keptRuns[thm1Cell]]

var thm1Problems = []struct {
	name string
	t    func(n int) int
	tr   bool
}{{"transpose", func(int) int { return 1 }, true}, {"random ×log N", func(n int) int { return n }, false}, {"random ×4 log N", func(n int) int { return 4 * n }, false}, {"transpose ×log N", func(n int) int { return n }, true}}

// thm1Sim runs (or recalls) the Theorem 1 claim's simulations.
func thm1Sim(env props.Env) keptRuns[thm1Cell] {
	sizes := bflySizes(env.Budget, []bflySize{{4, 40}, {6, 20}, {8, 6}, {10, 2}},
		[]bflySize{{4, 200}, {6, 100}, {8, 30}, {10, 10}, {12, 3}},
		[]bflySize{{4, 1000}, {6, 500}, {8, 150}, {10, 50}, {12, 15}})
	return keptCells(&thm1Memo, env, sizes, func(e *ab.Engine, sz bflySize, keep func(thm1Cell)) error {
		n := sz.n
		for pi, prob := range thm1Problems {
			c := thm1Cell{n: n, name: prob.name}
			for run := range sz.runs {
				sd := seeds.Derive(env.Seed, 0xb1, uint64(n), uint64(pi), uint64(run))
				rng := seeds.Rand(sd)
				p := bflyforms.Transpose(n)
				if !prob.tr {
					p = perm.Random(1<<n, rng)
				}
				res, ps, err := routeCopies(e, mb.Shape{LogN: n}, p, prob.t(n), rng)
				if err != nil {
					return err
				}
				C := ab.MaxCongestion(mb.Shape{LogN: n}, ps)
				if C < n {
					continue
				}
				c.runs = append(c.runs, thm1Run{sd, res.Steps, C})
			}
			keep(c)
		}
		return nil
	})
}

// thm2TimeMemo holds bfly/thm-2/time-renamed's routing times, one list per
// (size, family) cell in the check's order.
var thm2TimeMemo cache[statRunsKey, keptRuns[[]int]]

func thm2TimeSizes(b props.Budget) []bflySize {
	return bflySizes(b, []bflySize{{4, 200}, {6, 100}, {8, 40}, {10, 10}},
		[]bflySize{{4, 1000}, {6, 500}, {8, 200}, {10, 60}, {12, 20}},
		[]bflySize{{4, 5000}, {6, 2000}, {8, 1000}, {10, 300}, {12, 100}})
}

// seeded is b with σ's seed seeds.Derive(seed, path...) and the coins'
// seed derived from σ's, the seeds of a routing claim's run.
func (b BflyRenamedRun) seeded(seed uint64, path ...uint64) BflyRenamedRun {
	b.SigmaSeed = seeds.Derive(seed, path...)
	b.CoinSeed = seeds.Derive(b.SigmaSeed, 1)
	return b
}

// thm2TimeRun is run `run` of cell (n, family fi) without its value and
// bound.
func thm2TimeRun(seed uint64, n, fi, run int) BflyRenamedRun {
	return BflyRenamedRun{Family: bflyFamilies[fi], LogN: n, T: 1}.seeded(seed, 0xb3, uint64(n), uint64(fi), uint64(run))
}

// thm2TimeSim runs (or recalls) bfly/thm-2/time-renamed's simulations.
func thm2TimeSim(env props.Env) keptRuns[[]int] {
	return familyRuns(&thm2TimeMemo, env, thm2TimeSizes, func(e *ab.Engine, n, fi, run int) (int, error) {
		b := thm2TimeRun(env.Seed, n, fi, run)
		res, _, err := routeCopies(e, mb.Shape{LogN: n}, b.renamed(env.Seed), 1, seeds.Rand(b.CoinSeed))
		return res.Steps, err
	})
}

// thm8Run is one run of bfly/thm-8/time-and-congestion: excluded (π
// outside Ψ), or its routing time and congestion.
type thm8Run struct {
	excluded bool
	steps, c int
}

// thm8Memo holds bfly/thm-8/time-and-congestion's runs, one list per
// (size, family) cell in the check's order.
var thm8Memo cache[statRunsKey, keptRuns[[]thm8Run]]

func thm8Sizes(b props.Budget) []bflySize {
	return bflySizes(b, []bflySize{{4, 60}, {6, 30}, {8, 10}, {10, 3}},
		[]bflySize{{4, 400}, {6, 200}, {8, 60}, {10, 20}, {12, 6}},
		[]bflySize{{4, 2000}, {6, 1000}, {8, 300}, {10, 100}, {12, 30}})
}

// thm8Run is run `run` of cell (n, family fi) without its value and bound.
func thm8RunOf(seed uint64, n, fi, run int) BflyRenamedRun {
	return BflyRenamedRun{Family: bflyFamilies[fi], LogN: n, R: logLog(n), T: n}.seeded(seed, 0xb9, uint64(n), uint64(fi), uint64(run))
}

// thm8Sim runs (or recalls) bfly/thm-8/time-and-congestion's simulations.
func thm8Sim(env props.Env) keptRuns[[]thm8Run] {
	return familyRuns(&thm8Memo, env, thm8Sizes, func(e *ab.Engine, n, fi, run int) (thm8Run, error) {
		r := logLog(n)
		b := thm8RunOf(env.Seed, n, fi, run)
		p := b.renamed(env.Seed)
		if !bflyforms.InPsi(p, n, r, 7<<r) {
			return thm8Run{excluded: true}, nil
		}
		sh := mb.Shape{LogN: n, R: r}
		res, ps, err := routeCopies(e, sh, p, n, seeds.Rand(b.CoinSeed))
		if err != nil {
			return thm8Run{}, err
		}
		return thm8Run{steps: res.Steps, c: ab.MaxCongestion(sh, ps)}, nil
	})
}

// thm11Cell is one (size, family, t) cell of bfly/thm-11/pipelined: per
// run, last[f] = the step by which permutations 1…f are delivered (f =
// 0…t); r0 is the r = 0 routing time of run 0.
type thm11Cell struct {
	n, fi, m int
	last     [][]int32
	r0       int
}

// thm11Memo holds the runs of the real router (mutate nil), which the
// claim and its scaled-bound fault share; the mutant router's runs (the
// other fault) are not kept.
var thm11Memo cache[statRunsKey, keptRuns[thm11Cell]]

func thm11Sizes(b props.Budget) ([]bflySize, []int) {
	sizes := bflySizes(b, []bflySize{{6, 6}, {8, 3}},
		[]bflySize{{6, 30}, {8, 15}, {10, 5}},
		[]bflySize{{6, 150}, {8, 60}, {10, 20}, {12, 6}})
	mults := []int{1, 4, 16}
	if b == props.Small {
		mults = mults[:2]
	}
	return sizes, mults
}

// thm11RunOf is run `run` of cell (n, family fi, t = m·n) without its
// value and bound.
func thm11RunOf(seed uint64, n, fi, m, run int) BflyRenamedRun {
	return BflyRenamedRun{Family: bflyFamilies[fi], LogN: n, R: logLog(n), T: m * n}.seeded(seed, 0xba, uint64(n), uint64(fi), uint64(m), uint64(run))
}

// thm11Sim runs bfly/thm-11/pipelined's simulations with the packets
// passed through mutate (nil: the real router, recalled if already run).
func thm11Sim(env props.Env, mutate func([]mb.Packet, int, int)) keptRuns[thm11Cell] {
	k := statRunsKey{env.Seed, env.Budget}
	if mutate == nil {
		if v, ok := thm11Memo.get(k); ok {
			return v
		}
	}
	sizes, mults := thm11Sizes(env.Budget)
	var v keptRuns[thm11Cell]
	var e ab.Engine
	fail := func(err error) keptRuns[thm11Cell] {
		v.err = err
		if mutate == nil {
			thm11Memo.put(k, v)
		}
		return v
	}
	for _, sz := range sizes {
		n, r := sz.n, logLog(sz.n)
		for _, fi := range []int{0, 2} {
			for _, m := range mults {
				t := m * n
				c := thm11Cell{n: n, fi: fi, m: m}
				for run := range sz.runs {
					b := thm11RunOf(env.Seed, n, fi, m, run)
					p := b.renamed(env.Seed)
					res, ps, err := routeCopiesWith(&e, mb.Shape{LogN: n, R: r}, p, t, seeds.Rand(b.CoinSeed), mutate)
					if err != nil {
						return fail(err)
					}
					last := make([]int32, t+1)
					for k, pk := range ps {
						last[pk.Perm] = max(last[pk.Perm], res.Latency[k])
					}
					for f := 1; f <= t; f++ {
						last[f] = max(last[f], last[f-1])
					}
					c.last = append(c.last, last)
					if run == 0 {
						r0, _, err := routeCopiesWith(&e, mb.Shape{LogN: n}, p, t, seeds.Rand(b.CoinSeed), mutate)
						if err != nil {
							return fail(err)
						}
						c.r0 = r0.Steps
					}
				}
				v.cells = append(v.cells, c)
			}
		}
	}
	if mutate == nil {
		thm11Memo.put(k, v)
	}
	return v
}
