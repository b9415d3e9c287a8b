package experiment

import (
	"context"
	"fmt"
	"sync"
)

// Pool runs jobs on worker goroutines so that the memory estimates of what
// the workers hold stay within a budget: large jobs wait for each other
// while small ones fill the gaps. It is the scheduler behind both Execute
// (`routecheck reproduce`) and `routecheck claims`.
type Pool struct {
	// Workers is the number of goroutines (at least 1; at most one per job).
	Workers int
	// MemLimit bounds the sum of the estimates of what the workers hold
	// (0: no bound). A job whose own estimate exceeds it still runs, alone
	// (no other job runs beside it); callers that must refuse such jobs do
	// so before calling Run.
	MemLimit int64
	// Keep says a worker keeps its buffers between jobs: it is charged with
	// the largest estimate among the jobs it ran since it last dropped them
	// (Execute's workers reuse their buffers). Without Keep a worker holds
	// nothing between jobs (each claim allocates its own).
	Keep bool
	// Key, when set, names what a job shares with other jobs (a memoised
	// computation): two jobs with the same non-empty key never run at
	// once, so the later one finds the memo filled instead of holding a
	// worker while it waits. A worker skips a job whose key is running
	// and takes the next one that fits.
	Key func(job int) string
}

// What a worker does before its next job (Keep only).
type takeAct int

const (
	runIt    takeAct = iota // keep the buffers and run
	dropRun                 // drop the buffers, then run
	dropOnly                // drop the buffers and ask again
)

// shrinkAt is the estimate above which a worker that keeps its buffers
// drops them before a smaller job, so as not to block the others.
const shrinkAt = 64 << 20

// Run runs do(w, job) for every job in jobs, in that order of preference,
// on p.Workers goroutines (w is the worker's index, 0 ≤ w < workers). A
// worker takes the first queued job whose estimate cost(job) fits next to
// what the others hold (or any job when the others hold nothing), and waits
// when none fits. With Keep, a worker that must drop its buffers calls
// drop(w) on its own goroutine first (drop may be nil), and a worker
// holding a large job's buffers drops them before it runs a smaller one.
//
// The first error returned by do stops the pool (the jobs running finish;
// no new one starts) and is returned; so is a cancelled ctx, as
// "interrupted: …". Which worker ran a job, and when, depends on timing:
// callers key results by job.
func (p Pool) Run(ctx context.Context, jobs []int, cost func(job int) int64, do func(w, job int) error, drop func(w int)) error {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		firstErr error
		ctxErr   error
		held     int64 // Σ over workers of what each holds
		queue    = append([]int(nil), jobs...)
		running  = map[string]bool{} // keys of the jobs in flight (Key only)
	)
	key := func(j int) string {
		if p.Key == nil {
			return ""
		}
		return p.Key(j)
	}
	// take returns the next job for a worker holding *mine bytes and
	// updates *mine and held; ok is false when there is nothing left to do.
	take := func(mine *int64) (j int, act takeAct, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		for {
			if firstErr != nil || ctxErr != nil || len(queue) == 0 {
				return 0, runIt, false
			}
			others := held - *mine
			for i, j := range queue {
				if k := key(j); k != "" && running[k] {
					continue
				}
				c := cost(j)
				next, act := c, runIt
				if p.Keep {
					next = max(*mine, c)
					if p.MemLimit > 0 && *mine >= shrinkAt && c < *mine {
						next, act = c, dropRun
					}
				}
				if p.MemLimit <= 0 || others == 0 || others+next <= p.MemLimit {
					queue = append(queue[:i], queue[i+1:]...)
					if k := key(j); k != "" {
						running[k] = true
					}
					held += next - *mine
					*mine = next
					if act == dropRun {
						cond.Broadcast()
					}
					return j, act, true
				}
			}
			if p.Keep && *mine > 0 {
				held -= *mine
				*mine = 0
				cond.Broadcast()
				return 0, dropOnly, true
			}
			cond.Wait()
		}
	}
	// release ends a job: without Keep the worker holds nothing afterwards.
	release := func(j int, mine *int64, err error) {
		mu.Lock()
		if k := key(j); k != "" {
			delete(running, k)
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if !p.Keep {
			held -= *mine
			*mine = 0
		}
		mu.Unlock()
		cond.Broadcast()
	}
	stopWatch := context.AfterFunc(ctx, func() {
		mu.Lock()
		ctxErr = ctx.Err()
		mu.Unlock()
		cond.Broadcast()
	})
	defer stopWatch()
	for w := range max(1, min(p.Workers, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine int64
			for {
				j, act, ok := take(&mine)
				if !ok {
					return
				}
				if act != runIt && drop != nil {
					drop(w)
				}
				if act == dropOnly {
					continue
				}
				release(j, &mine, do(w, j))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if ctxErr != nil {
		return fmt.Errorf("interrupted: %w", ctxErr)
	}
	return nil
}
