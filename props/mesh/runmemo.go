package mesh

import "sync"

// runMemo holds the runs that sibling claims share, per key, guarded by a
// mutex held while they are routed (a second claim waits for them rather
// than routing them again). A routing error is kept with the runs routed
// before it. The zero value is empty and ready.
type runMemo[K comparable, R any] struct {
	mu   sync.Mutex
	runs map[K][]R
	errs map[K]error
}

// eachRun hands each the runs route(0), …, route(count−1) in that order
// until it returns false, and returns the first routing error (each sees
// no run of a sequence that failed when memoized). With m nil every run is
// routed when it is reached, so a planted fault caught early costs little;
// else all count runs are routed once per key, kept in m and handed out
// from there.
func eachRun[K comparable, R any](m *runMemo[K, R], key K, count int, route func(i int) (R, error), each func(R) bool) error {
	if m == nil {
		for i := range count {
			r, err := route(i)
			if err != nil {
				return err
			}
			if !each(r) {
				return nil
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
		return err
	}
	for _, r := range rs {
		if !each(r) {
			return nil
		}
	}
	return nil
}
