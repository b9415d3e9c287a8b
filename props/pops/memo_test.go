package pops

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// intMemo is a onceMap or a keptMap as the shared tests below see it: get
// with int keys and int values.
type intMemo interface {
	get(key int, f func() (int, error)) (int, error)
}

// box is a value too large for the tiny allocator (which could keep a
// freed value alive next to a live one).
type box [16]int64

// keptInts is a keptMap[int, box] as an intMemo (the value in box[0]).
type keptInts struct{ k *keptMap[int, box] }

func (a keptInts) get(key int, f func() (int, error)) (int, error) {
	b, err := a.k.get(key, func() (*box, error) {
		v, err := f()
		if err != nil {
			return nil, err
		}
		return &box{int64(v)}, nil
	})
	if err != nil {
		return 0, err
	}
	return int(b[0]), nil
}

// testKeysConcurrent: keys a and b are computed at the same time: b is asked
// for only once the computation of a has started, and a's computation waits
// until that of b has started, which one lock held through a computation
// would never allow (it would time out: a map that held its lock during f
// failed this test; before the started hand-off it could pass by ordering).
func testKeysConcurrent(t *testing.T, m intMemo, a, b int) {
	t.Helper()
	startedA := make(chan struct{})
	startedB := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, err := m.get(a, func() (int, error) {
			close(startedA)
			select {
			case <-startedB:
				return 10, nil
			case <-time.After(10 * time.Second):
				return 0, fmt.Errorf("key %d never started while key %d was computed", b, a)
			}
		})
		if err != nil || v != 10 {
			t.Errorf("key %d: %d, %v", a, v, err)
		}
	}()
	<-startedA
	v, err := m.get(b, func() (int, error) { close(startedB); return 20, nil })
	<-done
	if err != nil || v != 20 {
		t.Fatalf("key %d: %d, %v", b, v, err)
	}
}

// testComputedOnce: key is computed once by 8 concurrent callers, who all
// get its value.
func testComputedOnce(t *testing.T, m intMemo, key int) {
	t.Helper()
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.get(key, func() (int, error) { calls.Add(1); time.Sleep(time.Millisecond); return 7, nil })
			if err != nil || v != 7 {
				t.Errorf("got %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if c := calls.Load(); c != 1 {
		t.Fatalf("computed %d times, want once", c)
	}
}

// testRetry: a failed computation of key is not remembered; the next caller
// computes it again.
func testRetry(t *testing.T, m intMemo, key int) {
	t.Helper()
	if _, err := m.get(key, func() (int, error) { return 0, errors.New("boom") }); err == nil {
		t.Fatal("the error was lost")
	}
	if v, err := m.get(key, func() (int, error) { return 3, nil }); err != nil || v != 3 {
		t.Fatalf("retry after an error: %d, %v", v, err)
	}
}

func TestOnceMapKeysConcurrent(t *testing.T) {
	var o onceMap[int, int]
	testKeysConcurrent(t, &o, 1, 2)
}

func TestOnceMapOnceAndRetry(t *testing.T) {
	var o onceMap[int, int]
	testComputedOnce(t, &o, 1)
	testRetry(t, &o, 2)
}

// keptMap: concurrent callers of one key compute it once; different keys
// compute at the same time; a failure is retried (the tests onceMap runs
// too); a value is held strongly for keepFor after its last use, then only
// weakly, and recomputed once the collector has freed it.
func TestKeptMap(t *testing.T) {
	k := keptMap[int, box]{keepFor: 50 * time.Millisecond}
	m := keptInts{&k}
	testComputedOnce(t, m, 1)
	testKeysConcurrent(t, m, 2, 3)
	testRetry(t, m, 4)
	if !k.held(1) {
		t.Fatal("key 1 not held right after its use")
	}
	deadline := time.Now().Add(10 * time.Second)
	for k.held(1) {
		if time.Now().After(deadline) {
			t.Fatal("key 1 still held strongly 10 s after its last use (keepFor 50 ms)")
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.GC()
	runtime.GC()
	calls := 0
	if v, _ := k.get(1, func() (*box, error) { calls++; return &box{8}, nil }); v[0] != 8 || calls != 1 {
		t.Fatalf("after release and collection: got %d with %d computations, want a fresh 8", v[0], calls)
	}
}
