package mesh

import (
	"errors"
	"slices"
	"testing"

	"routecheck/props"
)

// judgeRuns with a memo routes a key's runs once, all of them, and hands
// them out again in order (stopping at judge's first outcome); without one
// it routes only up to that run; an error (inconclusive) is kept with the
// runs before it and returned again without routing; another key is
// routed afresh.
func TestJudgeRunsRoutesOncePerKey(t *testing.T) {
	var m runMemo[int, int]
	routed := 0
	route := func(i int) (int, error) {
		routed++
		if i == 3 {
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
		{&m, 1, 3, 2, []int{0, 10}, false, 3, 3},  // memoized: not routed again
		{nil, 1, 3, 2, []int{0, 10}, false, 3, 5}, // no memo: routed up to the stop
		{&m, 2, 5, 9, nil, true, 5, 9},            // the error at run 3, no run handed out
		{&m, 2, 5, 9, nil, true, 9, 9},            // and kept
		{&m, 7, 2, 9, []int{0, 10}, false, 9, 11}, // another key: routed afresh
	} {
		if routed != c.routedBy {
			t.Fatalf("case %d: %d routed before, want %d", i, routed, c.routedBy)
		}
		got, err := collect(c.memo, c.key, c.count, c.stop)
		if !slices.Equal(got, c.want) || (err != nil) != c.wantErr || routed != c.routedTo {
			t.Fatalf("case %d: runs %v, error %v, %d routed; want %v, error %v, %d routed", i, got, err, routed, c.want, c.wantErr, c.routedTo)
		}
	}
}
