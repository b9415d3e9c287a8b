package pops

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Two keys are computed at the same time: key 2 is asked for only once the
// computation of key 1 has started, and key 1's computation waits until that
// of key 2 has started, which one lock held through a computation would
// never allow (it would time out: a map that held its lock during f failed
// this test; before the started1 hand-off it could pass by ordering).
func TestOnceMapKeysConcurrent(t *testing.T) {
	var o onceMap[int, int]
	started1 := make(chan struct{})
	started2 := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, err := o.get(1, func() (int, error) {
			close(started1)
			select {
			case <-started2:
				return 10, nil
			case <-time.After(10 * time.Second):
				return 0, errors.New("key 2 never started while key 1 was computed")
			}
		})
		if err != nil || v != 10 {
			t.Errorf("key 1: %d, %v", v, err)
		}
	}()
	<-started1
	v, err := o.get(2, func() (int, error) { close(started2); return 20, nil })
	<-done
	if err != nil || v != 20 {
		t.Fatalf("key 2: %d, %v", v, err)
	}
}

// One key is computed once by concurrent callers, who all get its value;
// a failed computation is retried by the next caller.
func TestOnceMapOnceAndRetry(t *testing.T) {
	var o onceMap[string, int]
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := o.get("a", func() (int, error) { calls.Add(1); time.Sleep(time.Millisecond); return 7, nil })
			if err != nil || v != 7 {
				t.Errorf("got %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if c := calls.Load(); c != 1 {
		t.Fatalf("computed %d times, want once", c)
	}
	if _, err := o.get("b", func() (int, error) { return 0, errors.New("boom") }); err == nil {
		t.Fatal("the error was lost")
	}
	if v, err := o.get("b", func() (int, error) { return 3, nil }); err != nil || v != 3 {
		t.Fatalf("retry after an error: %d, %v", v, err)
	}
}

// keptMap: concurrent callers of one key compute it once; different keys
// compute at the same time (as TestOnceMapKeysConcurrent); a failure is
// retried; a value is held strongly for keepFor after its last use, then
// only weakly, and recomputed once the collector has freed it.
// box is a value too large for the tiny allocator (which could keep a
// freed value alive next to a live one).
type box [16]int64

func TestKeptMap(t *testing.T) {
	k := keptMap[int, box]{keepFor: 50 * time.Millisecond}
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := k.get(1, func() (*box, error) { calls.Add(1); time.Sleep(time.Millisecond); return &box{7}, nil })
			if err != nil || v[0] != 7 {
				t.Errorf("got %v, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if c := calls.Load(); c != 1 {
		t.Fatalf("computed %d times, want once", c)
	}
	started1, started2, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_, err := k.get(2, func() (*box, error) {
			close(started1)
			select {
			case <-started2:
				return &box{2}, nil
			case <-time.After(10 * time.Second):
				return nil, errors.New("key 3 never started while key 2 was computed")
			}
		})
		if err != nil {
			t.Error(err)
		}
	}()
	<-started1
	if _, err := k.get(3, func() (*box, error) { close(started2); return &box{3}, nil }); err != nil {
		t.Fatal(err)
	}
	<-done
	if _, err := k.get(4, func() (*box, error) { return nil, errors.New("boom") }); err == nil {
		t.Fatal("the error was lost")
	}
	if v, err := k.get(4, func() (*box, error) { return &box{4}, nil }); err != nil || v[0] != 4 {
		t.Fatalf("retry after an error: %v, %v", v, err)
	}
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
	calls.Store(0)
	if v, _ := k.get(1, func() (*box, error) { calls.Add(1); return &box{8}, nil }); v[0] != 8 || calls.Load() != 1 {
		t.Fatalf("after release and collection: got %d with %d computations, want a fresh 8", v[0], calls.Load())
	}
}
