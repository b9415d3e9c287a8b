package pops_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// randActions draws a legal action for every processor as drawActions does
// (a packet, an ack or nothing to a random non-empty set of couplers, a
// random listen and Keep, random drops), from a PCG stream; with bad set
// one processor's action is made illegal (a Send index past its buffer).
func randActions(rng *rand.Rand, s pops.State, bad bool) []pops.Action {
	n, g := s.Shape.N(), s.Shape.G
	a := make([]pops.Action, n)
	for i := range a {
		a[i] = pops.Idle()
		switch rng.IntN(4) {
		case 1, 2:
			if len(s.Buf[i]) > 0 {
				a[i].Send = int32(rng.IntN(len(s.Buf[i])))
			}
		case 3:
			a[i].Ack = int32(rng.IntN(n))
		}
		if a[i].Send >= 0 || a[i].Ack >= 0 {
			to := rng.Perm(g)[:1+rng.IntN(g)]
			for _, b := range to {
				a[i].To = append(a[i].To, int32(b))
			}
		}
		a[i].Listen = int32(rng.IntN(g+1) - 1)
		a[i].Keep = pops.Keep(rng.IntN(2))
		for k := range s.Buf[i] {
			if rng.IntN(5) == 0 {
				a[i].Drop = append(a[i].Drop, int32(k))
			}
		}
	}
	if bad {
		i := rng.IntN(n)
		a[i].Ack, a[i].Send, a[i].To = -1, int32(len(s.Buf[i])), []int32{0}
	}
	return a
}

type stepFunc func(pops.State, []pops.Action) (pops.State, pops.Events, error)

// stepperDiff runs random runs of random slots (shapes up to POPS(4,4),
// partial permutations, every 9th slot illegal) through Step and through
// fast, each on its own states, and returns the first difference: next
// state, events, error, or fast's input modified. One fast function serves
// every run (a Stepper's memory carries over).
func stepperDiff(seed uint64, runs int, fast stepFunc) string {
	rng := rand.New(rand.NewPCG(seed, 14))
	for r := range runs {
		sh := pops.Shape{D: 1 + rng.IntN(4), G: 1 + rng.IntN(4)}
		dst := perm.Random(sh.N(), rng)
		for p := range dst {
			if rng.IntN(4) == 0 {
				dst[p] = perm.None
			}
		}
		s, err := pops.NewState(sh, dst)
		if err != nil {
			return err.Error()
		}
		f := s
		for slot := range 1 + rng.IntN(8) {
			a := randActions(rng, s, slot%9 == 8)
			next, ev, err := pops.Step(s, a)
			fBefore := f.Clone()
			fNext, fEv, fErr := fast(f, a)
			where := fmt.Sprintf("run %d %v slot %d", r, sh, slot)
			switch {
			case (err == nil) != (fErr == nil) || err != nil && err.Error() != fErr.Error():
				return fmt.Sprintf("%s: error %v, fast %v", where, err, fErr)
			case !f.Equal(fBefore):
				return where + ": fast modified its input state"
			case err != nil:
				continue
			case !fNext.Equal(next):
				return fmt.Sprintf("%s: next state %+v, fast %+v", where, next, fNext)
			case !eventsEqual(fEv, ev):
				return fmt.Sprintf("%s: events %+v, fast %+v", where, ev, fEv)
			}
			s, f = next, fNext
		}
	}
	return ""
}

// Stepper against Step: the same next state, events and errors on 3000
// random runs (one Stepper throughout, its states threaded as a run does),
// and its input never modified. The harness is not vacuous: a stepper that
// forgets one delivery event, or one that writes its result over its input
// (no double buffering), is caught on the same runs.
func TestStepperMatchesStep(t *testing.T) {
	var st pops.Stepper
	if d := stepperDiff(1, 3000, st.Step); d != "" {
		t.Fatal(d)
	}
	var st2 pops.Stepper
	forgets := func(s pops.State, a []pops.Action) (pops.State, pops.Events, error) {
		next, ev, err := st2.Step(s, a)
		if len(ev.Delivered) > 0 {
			ev.Delivered = ev.Delivered[1:]
		}
		return next, ev, err
	}
	if stepperDiff(1, 3000, forgets) == "" {
		t.Fatal("a stepper that forgets a delivery event was not caught")
	}
	var st3 pops.Stepper
	overwrites := func(s pops.State, a []pops.Action) (pops.State, pops.Events, error) {
		next, ev, err := st3.Step(s, a)
		if err == nil { // as if the result had been written over the input
			copy(s.Delivered, next.Delivered)
			copy(s.Lost, next.Lost)
			for i := range s.Buf {
				copy(s.Buf[i], next.Buf[i])
			}
		}
		return next, ev, err
	}
	if stepperDiff(1, 3000, overwrites) == "" {
		t.Fatal("a stepper that writes over its input was not caught")
	}
}

// Step sorts the transmissions by counting or by comparison depending on
// the number of couplers; both must give the same slot. Step with counting
// forced against Step with comparison forced, on the random runs of
// TestStepperMatchesStep (shapes up to POPS(4,4): many conflicts, multi-
// coupler sends, illegal slots), and each against the naive oracle.
func TestStepSortPaths(t *testing.T) {
	restore := pops.SetCountingSortLimit(1 << 20) // the reference: counting
	defer restore()
	byComparison := func(s pops.State, a []pops.Action) (pops.State, pops.Events, error) {
		defer pops.SetCountingSortLimit(-1000)()
		return pops.Step(s, a)
	}
	if d := stepperDiff(2, 3000, byComparison); d != "" {
		t.Fatal(d)
	}
	rng := rand.New(rand.NewPCG(3, 14))
	for r := range 2000 {
		sh := pops.Shape{D: 1 + rng.IntN(4), G: 1 + rng.IntN(4)}
		s, err := pops.NewState(sh, perm.Random(sh.N(), rng))
		if err != nil {
			t.Fatal(err)
		}
		for slot := range 4 {
			a := randActions(rng, s, false)
			wantNext, wantEv := naiveStep(s, a)
			for _, limit := range []int{-1000, 1 << 20} {
				undo := pops.SetCountingSortLimit(limit)
				next, ev, err := pops.Step(s, a)
				undo()
				if err != nil || !next.Equal(wantNext) || !eventsEqual(ev, wantEv) {
					t.Fatalf("run %d %v slot %d, counting limit %d: Step %+v %+v %v, naive %+v %+v", r, sh, slot, limit, next, ev, err, wantNext, wantEv)
				}
			}
			s, _, _ = pops.Step(s, a)
		}
	}
}
