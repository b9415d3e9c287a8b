package pops

import "sync"

// onceMap computes a value once per key, process-wide, without one global
// lock: callers asking for different keys compute concurrently, and callers
// asking for a key being computed wait for that computation and share its
// value. A computation that fails is not remembered (the next caller tries
// again), as the maps it replaced did.
type onceMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*onceEntry[V]
}

type onceEntry[V any] struct {
	mu   sync.Mutex // held while the value is computed
	done bool
	v    V
}

// get returns the value for key, computing it with f if no earlier call
// succeeded.
func (o *onceMap[K, V]) get(key K, f func() (V, error)) (V, error) {
	o.mu.Lock()
	if o.m == nil {
		o.m = map[K]*onceEntry[V]{}
	}
	e, ok := o.m[key]
	if !ok {
		e = &onceEntry[V]{}
		o.m[key] = e
	}
	o.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e.v, nil
	}
	v, err := f()
	if err != nil {
		var zero V
		return zero, err
	}
	e.v, e.done = v, true
	return v, nil
}
