package pops

import (
	"errors"
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
