package experiment

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Without Keep a worker holds only the job it runs: the estimates of the
// jobs in flight stay within the limit, a job whose own estimate is over it
// runs with no other job beside it, and every job runs exactly once.
func TestPoolMemLimitNoKeep(t *testing.T) {
	costs := []int64{150, 60, 40, 40, 30, 20, 10, 10, 5, 5, 100, 1, 1, 1, 70}
	jobs := make([]int, len(costs))
	for i := range jobs {
		jobs[i] = i
	}
	for _, c := range []struct {
		workers int
		limit   int64
	}{{1, 100}, {4, 100}, {4, 70}, {8, 1}, {3, 0}} {
		var mu sync.Mutex
		var inFlight, maxInFlight int64
		running, maxRunning := 0, 0
		ran := make([]int, len(costs))
		err := Pool{Workers: c.workers, MemLimit: c.limit}.Run(context.Background(), jobs, func(j int) int64 { return costs[j] }, func(_, j int) error {
			mu.Lock()
			inFlight += costs[j]
			running++
			ran[j]++
			if costs[j] > c.limit && c.limit > 0 && running > 1 {
				t.Errorf("workers %d, limit %d: job of cost %d (over the limit) ran beside %d others", c.workers, c.limit, costs[j], running-1)
			}
			if c.limit > 0 && running > 1 && inFlight > c.limit {
				t.Errorf("workers %d, limit %d: %d in flight", c.workers, c.limit, inFlight)
			}
			maxInFlight, maxRunning = max(maxInFlight, inFlight), max(maxRunning, running)
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			inFlight -= costs[j]
			running--
			mu.Unlock()
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, k := range ran {
			if k != 1 {
				t.Errorf("workers %d, limit %d: job %d ran %d times", c.workers, c.limit, j, k)
			}
		}
		// The small jobs fit side by side under every limit but 1, and each
		// sleeps, so several workers must have overlapped.
		if c.workers > 1 && c.limit != 1 && maxRunning < 2 {
			t.Errorf("workers %d, limit %d: jobs never overlapped", c.workers, c.limit)
		}
		if c.limit == 1 && maxRunning != 1 {
			t.Errorf("limit 1: %d jobs at once, want 1 (every job is over the limit)", maxRunning)
		}
	}
}

// The first error stops the pool: no job starts after it, and it is the
// error returned.
func TestPoolStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	var ran []int
	err := Pool{Workers: 1}.Run(context.Background(), []int{0, 1, 2, 3, 4}, func(int) int64 { return 1 }, func(_, j int) error {
		ran = append(ran, j)
		if j == 2 {
			return boom
		}
		return nil
	}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if len(ran) != 3 {
		t.Errorf("ran %v, want jobs 0, 1, 2 only", ran)
	}
}

// Jobs that share a key never run at once, and a worker that meets a job
// whose key is running takes the next one instead of waiting: with two
// workers and jobs [a, a, b, …], the first a holds on until b has started
// (which fails, by timeout, if the other worker waits for the second a).
// Without Key the first a instead holds on until the second a starts.
func TestPoolKeyExcludes(t *testing.T) {
	keys := []string{"a", "a", "b", "", "", "c", "c", "c"}
	jobs := make([]int, len(keys))
	for i := range jobs {
		jobs[i] = i
	}
	for _, withKey := range []bool{true, false} {
		var mu sync.Mutex
		running := map[string]int{}
		ran := make([]int, len(keys))
		started := map[int]chan struct{}{}
		for j := range keys {
			started[j] = make(chan struct{})
		}
		p := Pool{Workers: 2}
		wait := 1 // the job the first a waits for: the second a
		if withKey {
			p.Key = func(j int) string { return keys[j] }
			wait = 2 // b
		}
		err := p.Run(context.Background(), jobs, func(int) int64 { return 1 }, func(_, j int) error {
			k := keys[j]
			mu.Lock()
			ran[j]++
			running[k]++
			if withKey && k != "" && running[k] > 1 {
				t.Errorf("key %q: %d jobs at once", k, running[k])
			}
			mu.Unlock()
			close(started[j])
			if j == 0 {
				select {
				case <-started[wait]:
				case <-time.After(10 * time.Second):
					t.Errorf("Key set %v: job %d never started while the first a ran", withKey, wait)
				}
			} else {
				time.Sleep(time.Millisecond)
			}
			mu.Lock()
			running[k]--
			mu.Unlock()
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, n := range ran {
			if n != 1 {
				t.Errorf("Key set %v: job %d ran %d times", withKey, j, n)
			}
		}
	}
}
