package mesh

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// judgeRuns routes a key's runs up to judge's first outcome; with a memo
// it keeps them and hands them out again in order, routing only the runs
// past them that a later judge reaches; an error (inconclusive, after the
// runs before it were judged) is kept after those runs and returned again
// without routing; another key is routed afresh.
func TestJudgeRunsRoutesOncePerKey(t *testing.T) {
	var m runMemo[int, int]
	routed := 0
	key := 0
	route := func(i int) (int, error) {
		routed++
		if i == 3 && key == 2 {
			return 0, errors.New("run 3")
		}
		return 10 * i, nil
	}
	collect := func(memo *runMemo[int, int], key, count, stop int) ([]int, error) {
		var got []int
		o := judgeRuns(memo, key, count, route, func(r int) *props.Outcome {
			if got = append(got, r); len(got) == stop {
				return &props.Outcome{Verdict: props.Violated}
			}
			return nil
		})
		if o != nil && o.Verdict == props.Inconclusive {
			return got, errors.New(o.Evidence)
		}
		return got, nil
	}
	for i, c := range []struct {
		memo               *runMemo[int, int]
		key, count, stop   int
		want               []int
		wantErr            bool
		routedBy, routedTo int
	}{
		{&m, 1, 3, 9, []int{0, 10, 20}, false, 0, 3},
		{&m, 1, 3, 2, []int{0, 10}, false, 3, 3},               // memoized: not routed again
		{nil, 1, 3, 2, []int{0, 10}, false, 3, 5},              // no memo: routed up to the stop
		{&m, 2, 5, 9, []int{0, 10, 20}, true, 5, 9},            // the error at run 3, after the runs before it
		{&m, 2, 5, 9, []int{0, 10, 20}, true, 9, 9},            // and kept
		{&m, 7, 2, 9, []int{0, 10}, false, 9, 11},              // another key: routed afresh
		{&m, 8, 6, 2, []int{0, 10}, false, 11, 13},             // routed up to the stop
		{&m, 8, 6, 5, []int{0, 10, 20, 30, 40}, false, 13, 16}, // then on from there (run 3 fails only for key 2)
	} {
		if routed != c.routedBy {
			t.Fatalf("case %d: %d routed before, want %d", i, routed, c.routedBy)
		}
		key = c.key
		got, err := collect(c.memo, c.key, c.count, c.stop)
		if !slices.Equal(got, c.want) || (err != nil) != c.wantErr || routed != c.routedTo {
			t.Fatalf("case %d: runs %v, error %v, %d routed; want %v, error %v, %d routed", i, got, err, routed, c.want, c.wantErr, c.routedTo)
		}
	}
}

// The sibling claims that read DET_3_PHASE_ROUTE's k-k runs (kkCheck) and
// NewPlanPrime's (primeCheck) route each run once: their checks route
// exactly the runs of ALLOCATE (ALLOCATE') at the budget, with and
// without coloring, and their planted faults at most the runs of the two
// mutants (at most all of them, however many siblings judge them).
func TestSiblingsShareRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	kk := int64(len(kkSizes(env.Budget)) * len(KKFamilies))
	prime := int64(len(primeSizes(env.Budget)) * len(KKFamilies))
	for _, c := range []struct {
		name          string
		ids           []string
		routed        *atomic.Int64
		forget        func()
		checks, fault int64
	}{
		{kkShares, []string{"mesh/cor-1/phase-1-exact", "mesh/cor-1/phase-1-exact-colored", "mesh/lemma-7/queue-after-phase-2", "mesh/lemma-8/phase-2-time", "mesh/lemma-9/phase-3-time", "mesh/thm-1/time", "mesh/thm-1/queue-repaired"},
			&kkMemo.routed, kkMemo.forget, 2 * kk, 2 * 2 * kk},
		{primeShares, []string{"mesh/lemma-12/corrected", "mesh/lemma-13/phase-2-time", "mesh/thm-3/time", "mesh/sec-5/cor-1-carries-over", "mesh/sec-5/lemma-9-analogue"},
			&primeMemo.routed, primeMemo.forget, 2 * prime, 2 * 2 * prime},
	} {
		t.Run(c.name, func(t *testing.T) {
			claimtest.SiblingsShareRuns(t, c.ids, env, c.routed, c.forget, c.checks, c.fault)
		})
	}
}
