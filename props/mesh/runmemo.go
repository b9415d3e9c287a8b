package mesh

import (
	"sync"
	"sync/atomic"

	"routecheck/props"
)

// runMemo holds the runs that sibling claims share, per key, in order: a
// key's runs are routed as far as some judge has needed them (a planted
// fault caught early costs little) and never twice; a routing error is kept
// after the runs routed before it. Its mutex is held while runs are routed
// and judged (a second claim waits for them rather than routing them
// again). The zero value is empty and ready.
type runMemo[K comparable, R any] struct {
	mu   sync.Mutex
	runs map[K][]R
	errs map[K]error
	// routed counts the runs routed (failed ones included): the tests read
	// it to show that sibling claims judge one routing of their runs.
	routed atomic.Int64
}

// forget drops every key's runs (a test's fresh start).
func (m *runMemo[K, R]) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.runs, m.errs = nil, nil
}

// judgeRuns hands judge the runs route(0), …, route(count−1) in that
// order until it returns an outcome (a violation), and returns that
// outcome; a routing error is returned as inconclusive once judge has
// passed the runs before it; nil when judge passed every run. With m nil
// every run is routed when it is reached; else too, but the runs are kept
// in m under key, so a later call with the same key is handed the runs
// routed so far and routes only those past them that it reaches. key must
// name everything route's runs depend on.
func judgeRuns[K comparable, R any](m *runMemo[K, R], key K, count int, route func(i int) (R, error), judge func(R) *props.Outcome) *props.Outcome {
	inconclusive := func(err error) *props.Outcome {
		return &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	if m == nil {
		for i := range count {
			r, err := route(i)
			if err != nil {
				return inconclusive(err)
			}
			if o := judge(r); o != nil {
				return o
			}
		}
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs == nil {
		m.runs, m.errs = map[K][]R{}, map[K]error{}
	}
	for i := range count {
		if rs := m.runs[key]; i == len(rs) {
			if err := m.errs[key]; err != nil {
				return inconclusive(err)
			}
			m.routed.Add(1)
			r, err := route(i)
			if err != nil {
				m.errs[key] = err
				return inconclusive(err)
			}
			m.runs[key] = append(rs, r)
		}
		if o := judge(m.runs[key][i]); o != nil {
			return o
		}
	}
	return nil
}
