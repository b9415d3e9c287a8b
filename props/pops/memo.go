package pops

import (
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"routecheck/props"
)

// onceMap computes a value once per key, process-wide, without one global
// lock: callers asking for different keys compute concurrently, and callers
// asking for a key being computed wait for that computation and share its
// value. A computation that fails is not remembered (the next caller tries
// again), as the maps it replaced did.
type onceMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*onceEntry[V]
	// computed counts the computations run (successful or not): the tests
	// read it to show that a claim's planted faults judge its runs rather
	// than simulating again.
	computed atomic.Int64
}

type onceEntry[V any] struct {
	mu   sync.Mutex // held while the value is computed
	done bool
	v    V
}

// get returns the value for key, computing it with f if no earlier call
// succeeded.
func (o *onceMap[K, V]) get(key K, f func() (V, error)) (V, error) {
	e := entryOf(&o.mu, &o.m, key)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e.v, nil
	}
	o.computed.Add(1)
	v, err := f()
	if err != nil {
		var zero V
		return zero, err
	}
	e.v, e.done = v, true
	return v, nil
}

// entryOf returns *m's entry for key under mu (which guards *m), adding a
// zero entry, and making the map, if there is none. The caller then locks
// the entry's own mutex, so that computations of different keys run
// concurrently.
func entryOf[K comparable, E any](mu *sync.Mutex, m *map[K]*E, key K) *E {
	mu.Lock()
	defer mu.Unlock()
	if *m == nil {
		*m = map[K]*E{}
	}
	e, ok := (*m)[key]
	if !ok {
		e = new(E)
		(*m)[key] = e
	}
	return e
}

// keptMap computes a value once per key while it is in use, without one
// global lock (callers asking for different keys compute concurrently;
// callers asking for a key being computed wait and share its value), and
// lets it go when it is not: it holds a value strongly until keepFor after
// its last use, then weakly (the collector frees it unless a caller still
// holds it, and the next caller recomputes it). A computation that fails is
// not remembered.
type keptMap[K comparable, V any] struct {
	keepFor time.Duration

	mu    sync.Mutex // guards m, timer and every entry's strong and used
	m     map[K]*keptEntry[V]
	timer *time.Timer
}

type keptEntry[V any] struct {
	mu     sync.Mutex // held while the value is computed; guards weak
	weak   weak.Pointer[V]
	strong *V
	used   time.Time
}

// get returns the value for key, computing it with f unless a live value
// is cached.
func (k *keptMap[K, V]) get(key K, f func() (*V, error)) (*V, error) {
	e := entryOf(&k.mu, &k.m, key)
	e.mu.Lock()
	defer e.mu.Unlock()
	v := e.weak.Value()
	if v == nil {
		var err error
		if v, err = f(); err != nil {
			return nil, err
		}
		e.weak = weak.Make(v)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	e.strong, e.used = v, time.Now()
	if k.timer == nil {
		k.timer = time.AfterFunc(k.keepFor, k.sweep)
	}
	return v, nil
}

// sweep drops the strong references unused for keepFor, and runs again at
// the next expiry while some remain.
func (k *keptMap[K, V]) sweep() {
	k.mu.Lock()
	defer k.mu.Unlock()
	now, next := time.Now(), time.Duration(0)
	for _, e := range k.m {
		if e.strong == nil {
			continue
		}
		left := k.keepFor - now.Sub(e.used)
		if left <= 0 {
			e.strong = nil
		} else if next == 0 || left < next {
			next = left
		}
	}
	k.timer = nil
	if next > 0 {
		k.timer = time.AfterFunc(next, k.sweep)
	}
}

// held reports whether key's value is held strongly (for tests).
func (k *keptMap[K, V]) held(key K) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[key]
	return ok && e.strong != nil
}

// envKey keys a memo of runs that depend on nothing but the seed and the
// budget (the sizes, instances and router are fixed by the check).
type envKey struct {
	seed   uint64
	budget props.Budget
}

func envKeyOf(env props.Env) envKey { return envKey{env.Seed, env.Budget} }
