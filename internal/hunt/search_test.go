package hunt

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"routecheck/models/perm"
)

// fixedPoints is a landscape whose optimum is known: the identity, with N
// fixed points, reachable from anywhere by transpositions that never lower
// the count (swapping x with the position its target value sits at adds at
// least one fixed point). A uniformly random permutation has about one.
func fixedPoints(p []int32) (float64, error) {
	f := 0
	for i, v := range p {
		if int(v) == i {
			f++
		}
	}
	return float64(f), nil
}

// On a landscape with a known optimum the search reaches it and random
// sampling (at the same evaluations) does not: for N = 24 the chance that
// one of ~3000 random permutations has even 8 fixed points is below
// 3000·(1/8!) ≈ 0.07, and the test asks only for random < 24.
func TestPermSearchFindsKnownOptimum(t *testing.T) {
	s := PermSearch{N: 24, Samples: 16, Eval: fixedPoints}
	r, err := s.Run(context.Background(), Options{Seed: 1, Iters: 3000}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if r.Value != 24 || !slices.Equal(r.Best, perm.Identity(24)) {
		t.Errorf("best %v (%g fixed points), want the identity", r.Best, r.Value)
	}
	if !(r.RandomBest < 24) {
		t.Errorf("random baseline %g", r.RandomBest)
	}
	// 16 samples, then 3000 moves of which those with i = j cost nothing.
	if r.Evaluations < 16+2800 || r.Evaluations > 16+3000 {
		t.Errorf("evaluations %d, want 16 + (≤ 3000 moves)", r.Evaluations)
	}
	// Deterministic given the seed.
	r2, _ := s.Run(context.Background(), Options{Seed: 1, Iters: 3000}, 7)
	if r2.Evaluations != r.Evaluations || r2.RandomBest != r.RandomBest || r2.FoundBy != r.FoundBy {
		t.Errorf("two runs differ: %+v vs %+v", r, r2)
	}
}

// Restarts share the moves; Metric maps the objective; a passed deadline
// stops the search but not the baseline, which still matches the
// evaluations made.
func TestPermSearchRestartsMetricDeadline(t *testing.T) {
	s := PermSearch{N: 12, Samples: 4, Restarts: 3, Eval: fixedPoints, Metric: func(v float64) float64 { return math.Floor(v / 2) }}
	// 1000 moves per run: from a random permutation of 12 the climb needs
	// about 66·H(12) ≈ 205 moves to the identity in expectation.
	r, err := s.Run(context.Background(), Options{Seed: 2, Iters: 4000}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if r.Value != 6 {
		t.Errorf("metric of the identity's 12 fixed points = %g, want 6", r.Value)
	}
	if r.RandomBest != math.Floor(r.RandomBest) || r.RandomBest > 6 {
		t.Errorf("random baseline %g not a metric value", r.RandomBest)
	}
	s = PermSearch{N: 12, Families: []Family{{Name: "id", Perm: perm.Identity(12)}}, Samples: 100, Eval: fixedPoints}
	r, err = s.Run(context.Background(), Options{Seed: 2, Iters: 400, Deadline: time.Now().Add(-time.Second)}, 7)
	if err == nil {
		t.Errorf("a search stopped before any evaluation returned %+v", r)
	}
}

// An evaluation error ends the search and is returned.
func TestPermSearchEvalError(t *testing.T) {
	calls := 0
	s := PermSearch{N: 8, Samples: 10, Eval: func(p []int32) (float64, error) {
		calls++
		if calls == 3 {
			return 0, context.DeadlineExceeded
		}
		return 1, nil
	}}
	if _, err := s.Run(context.Background(), Options{Seed: 1, Iters: 10}, 7); err != context.DeadlineExceeded {
		t.Errorf("error %v", err)
	}
	if calls != 3 {
		t.Errorf("%d evaluations after the error's, want none", calls-3)
	}
}

// Used counts moves, or time when a Deadline is set and that is further
// along; Share splits the time left between the runs still to come.
func TestUsedAndShare(t *testing.T) {
	if got := (Options{}).Used(25, 100); got != 0.25 {
		t.Errorf("Used(25, 100) = %g", got)
	}
	if got := (Options{}).Used(5, 0); got != 0 {
		t.Errorf("Used(5, 0) = %g", got)
	}
	now := time.Now()
	o := Options{Begin: now.Add(-3 * time.Second), Deadline: now.Add(time.Second)}
	// At least three of four seconds are gone (more if the test is slow).
	if got := o.Used(1, 100); got < 0.74 {
		t.Errorf("three of four seconds gone: Used = %g, want ≥ 0.75", got)
	}
	if got := o.Used(100, 100); got != 1 {
		t.Errorf("all moves made: Used = %g", got)
	}
	s := o.Share(4)
	// A quarter of what is left of the second (less if the test is slow).
	if left := s.Deadline.Sub(s.Begin); left <= 0 || left > 250*time.Millisecond {
		t.Errorf("a quarter of the second left: %v", left)
	}
	if s := (Options{}).Share(3); !s.Deadline.IsZero() || s.Begin.IsZero() {
		t.Errorf("no deadline: Share gave %+v", s)
	}
}

// With Shrink set, the best permutation is shrunk after the baseline: for
// "input 0 is not a fixed point" every instance that keeps the value 1 and
// admits no fixing swap is a transposition (0 x), which is what comes out;
// the evaluations and the baseline are the search's, before shrinking.
func TestPermSearchShrinks(t *testing.T) {
	moved0 := func(p []int32) (float64, error) {
		if p[0] != 0 {
			return 1, nil
		}
		return 0, nil
	}
	var f ShrinkFlag
	s := PermSearch{N: 16, Samples: 8, Eval: moved0, Shrink: &f}
	r, err := s.Run(context.Background(), Options{Seed: 3, Iters: 50}, 7)
	if err != nil {
		t.Fatal(err)
	}
	x := r.Best[0]
	want := perm.Identity(16)
	want[0], want[x] = x, 0
	if x == 0 || !slices.Equal(r.Best, want) || r.Value != 1 || r.Hunted != 1 || !r.Shrunk.Minimal {
		t.Errorf("shrunk to %v (value %g, hunted %g, %+v), want a transposition (0 x)", r.Best, r.Value, r.Hunted, r.Shrunk)
	}
	if r.MovedBefore <= 2 || !strings.Contains(r.FoundBy, fmt.Sprintf("shrunk from %d to 2 packets", r.MovedBefore)) {
		t.Errorf("found_by %q (moved before %d)", r.FoundBy, r.MovedBefore)
	}
	if r.Evaluations < 8+40 || r.Evaluations > 8+50 {
		t.Errorf("evaluations %d, want the search's 8 + (≤ 50)", r.Evaluations)
	}
}

// An evaluation that fails while the best is shrunk does not lose the
// case: the search returns its unshrunk best, value and baseline, with the
// error in found_by, and no shrink floor.
func TestPermSearchShrinkErrorKeepsBest(t *testing.T) {
	var sf ShrinkFlag
	s := PermSearch{N: 12, Samples: 4, Eval: fixedPoints, Shrink: &sf}
	o := Options{Seed: 2, Iters: 50}
	plain := s
	plain.Shrink = nil
	want, err := plain.Run(context.Background(), o, 9)
	if err != nil {
		t.Fatal(err)
	}
	// The search and its baseline make 2·Evaluations calls; the shrink's
	// first evaluation fails.
	calls := 0
	s.Eval = func(p []int32) (float64, error) {
		calls++
		if calls > 2*want.Evaluations {
			return 0, fmt.Errorf("planted failure at call %d", calls)
		}
		return fixedPoints(p)
	}
	got, err := s.Run(context.Background(), o, 9)
	if err != nil {
		t.Fatalf("the error discarded the case: %v", err)
	}
	if calls != 2*want.Evaluations+1 {
		t.Errorf("%d calls, want the search's and baseline's %d and one in the shrink", calls, 2*want.Evaluations)
	}
	if !slices.Equal(got.Best, want.Best) || got.Value != want.Value || got.Hunted != want.Hunted || got.RandomBest != want.RandomBest || got.ShrinkFloor() != nil {
		t.Errorf("got %+v, want the unshrunk %+v", got, want)
	}
	if !strings.Contains(got.FoundBy, "not shrunk (an evaluation failed while shrinking: planted failure") {
		t.Errorf("found_by %q", got.FoundBy)
	}
}
