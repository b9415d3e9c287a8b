package mesh

import (
	"sync"

	"routecheck/props"
)

// runMemo holds the runs that sibling claims share, per key, guarded by a
// mutex held while they are routed (a second claim waits for them rather
// than routing them again). A routing error is kept with the runs routed
// before it. The zero value is empty and ready.
type runMemo[K comparable, R any] struct {
	mu   sync.Mutex
	runs map[K][]R
	errs map[K]error
}

// judgeRuns hands judge the runs route(0), …, route(count−1) in that
// order until it returns an outcome (a violation), and returns that
// outcome; a routing error is returned as inconclusive (judge sees no run
// of a memoized sequence that failed); nil when judge passed every run.
// With m nil every run is routed when it is reached, so a planted fault
// caught early costs little; else all count runs are routed once per key,
// kept in m and handed out from there.
func judgeRuns[K comparable, R any](m *runMemo[K, R], key K, count int, route func(i int) (R, error), judge func(R) *props.Outcome) *props.Outcome {
	if m == nil {
		for i := range count {
			r, err := route(i)
			if err != nil {
				return &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if o := judge(r); o != nil {
				return o
			}
		}
		return nil
	}
	m.mu.Lock()
	rs, ok := m.runs[key]
	err := m.errs[key]
	if !ok {
		for i := range count {
			var r R
			if r, err = route(i); err != nil {
				break
			}
			rs = append(rs, r)
		}
		if m.runs == nil {
			m.runs, m.errs = map[K][]R{}, map[K]error{}
		}
		m.runs[key], m.errs[key] = rs, err
	}
	m.mu.Unlock()
	if err != nil {
		return &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	for _, r := range rs {
		if o := judge(r); o != nil {
			return o
		}
	}
	return nil
}
