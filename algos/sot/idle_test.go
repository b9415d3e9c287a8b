package sot

import (
	"math/rand/v2"
	"testing"

	msot "routecheck/models/sot"
)

// idleTamper is the step model's version of RouteIdle's rule, written from
// its definition (as props/sot's planted fault sotIdleRounds is): in the
// rounds ⌊T/n⌋ ≢ off (mod k), every action that would inject an own packet
// is dropped.
func idleTamper(k, off int) func(*msot.State, []msot.Action) {
	return func(s *msot.State, a []msot.Action) {
		if (s.T/s.N)%k == off {
			return
		}
		for v := range a {
			if _, inj := a[v].Right.Packet(); inj {
				a[v].Right = msot.None
			}
			if _, inj := a[v].Down.Packet(); inj {
				a[v].Down = msot.None
			}
		}
	}
}

// idleTrace is fastTrace with RouteIdle's idle rounds (k), capped at
// maxSteps.
func idleTrace(t *testing.T, alg Algorithm, n, h, k, maxSteps int, seed uint64) (Result, []int32, []int32) {
	rel := RandomRelation(n, h, rand.New(rand.NewPCG(seed, 1)))
	f, err := newFast(alg, n, rel, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	f.idleK = k
	f.arrive = make([]int32, len(rel))
	res := f.run(maxSteps)
	defl := make([]int32, len(rel))
	for id, a := range f.arrive {
		if a > 0 {
			defl[id] = f.defl[id]
		}
	}
	// RouteIdle is the same engine.
	if r2, err := RouteIdle(alg, n, rel, rand.New(rand.NewPCG(seed, 7)), maxSteps, k); err != nil || r2 != res {
		t.Errorf("%s n=%d k=%d: RouteIdle %+v, %v; engine %+v", alg, n, k, r2, err, res)
	}
	return res, f.arrive, defl
}

// RouteIdle against Route with the idle tamper on the step model (every
// step checked by msot.StepInto): the same result and, per packet, the
// same delivery step and deflections, for every rule, on
// random h-relations with idle rounds of every other round and 2 of 3.
// The comparison has power: the model run idling the other rounds
// (off = 1, a planted difference) must be reported on every case.
func TestRouteIdleMatchesModel(t *testing.T) {
	for _, alg := range Algorithms {
		for _, c := range []struct{ n, h, k int }{{4, 12, 2}, {5, 10, 3}, {8, 24, 2}, {8, 16, 4}} {
			seed := uint64(31*c.n + c.k)
			// The literal rules of protocol a can livelock
			// (sot/alg-1/livelock-literal): their runs may stop at the
			// cap; the others complete well before it.
			maxSteps := 600
			r2, a2, d2 := idleTrace(t, alg, c.n, c.h, c.k, maxSteps, seed)
			if !r2.Complete && alg != GreedyALiteral && alg != ScheduledLiteral {
				t.Fatalf("%s %+v: fast run incomplete: %+v", alg, c, r2)
			}
			rel := RandomRelation(c.n, c.h, rand.New(rand.NewPCG(seed, 1)))
			r1, a1, d1, err := modelTrace(alg, c.n, rel, seed, maxSteps, idleTamper(c.k, 0))
			if err != nil {
				t.Fatalf("%s %+v: model: %v", alg, c, err)
			}
			if msg := diffTraces(r1, r2, a1, a2, d1, d2); msg != "" {
				t.Errorf("%s %+v: %s", alg, c, msg)
			}
			p1, pa, pd, err := modelTrace(alg, c.n, rel, seed, maxSteps, idleTamper(c.k, 1))
			if err != nil {
				t.Fatalf("%s %+v: planted model: %v", alg, c, err)
			}
			if diffTraces(p1, r2, pa, a2, pd, d2) == "" {
				t.Errorf("%s %+v: idling the other rounds went unnoticed", alg, c)
			}
		}
	}
}

// With k ≤ 1, RouteIdle is RouteFast.
func TestRouteIdleK1(t *testing.T) {
	rel := RandomRelation(6, 12, rand.New(rand.NewPCG(3, 1)))
	for _, alg := range Algorithms {
		for _, k := range []int{0, 1} {
			a, err1 := RouteIdle(alg, 6, rel, rand.New(rand.NewPCG(3, 7)), 0, k)
			b, err2 := RouteFast(alg, 6, rel, rand.New(rand.NewPCG(3, 7)), 0)
			if err1 != nil || err2 != nil || a != b {
				t.Errorf("%s k=%d: RouteIdle %+v (%v), RouteFast %+v (%v)", alg, k, a, err1, b, err2)
			}
		}
	}
}
