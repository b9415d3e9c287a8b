package experiment

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
)

// fake is an experiment whose cell n costs n bytes a run; its worker
// records the largest total cost and the largest number of runs in flight.
type fake struct {
	mu                    sync.Mutex
	inFlight, maxInFlight int64
	running, maxRunning   int
	workersMade           int
	sizes                 []int
	sleep                 time.Duration // per run; 200µs when zero
}

func (f *fake) Name() string  { return "fake" }
func (f *fake) Title() string { return "fake" }
func (f *fake) Cells(maxN int) ([]Cell, []string) {
	var cs []Cell
	for _, n := range f.sizes {
		if n <= maxN {
			cs = append(cs, Cell{Params: []Param{{"n", n}}, Size: n})
		}
	}
	return cs, nil
}
func (f *fake) BytesPerWorker(c Cell) int64 { return int64(c.Params[0].Value) }
func (f *fake) NewWorker() func(Cell, uint64, int) (Sample, error) {
	f.mu.Lock()
	f.workersMade++
	f.mu.Unlock()
	return func(c Cell, seed uint64, run int) (Sample, error) {
		n := int64(c.Params[0].Value)
		f.mu.Lock()
		f.inFlight += n
		f.running++
		f.maxInFlight = max(f.maxInFlight, f.inFlight)
		f.maxRunning = max(f.maxRunning, f.running)
		f.mu.Unlock()
		if f.sleep > 0 {
			time.Sleep(f.sleep)
		} else {
			time.Sleep(200 * time.Microsecond)
		}
		f.mu.Lock()
		f.inFlight -= n
		f.running--
		f.mu.Unlock()
		// A value that depends only on (seed, cell, run).
		return Sample{Values: map[string]float64{"v": float64(seed*1000003 + uint64(n)*101 + uint64(run))}}, nil
	}
}
func (f *fake) Summarize(c Cell, s []Sample) Row { return Row{Cell: c, Runs: len(s)} }
func (f *fake) Charts([]Row) []NamedChart        { return nil }

// The scheduler keeps the estimates of the runs in flight under MemLimit
// (a cell too large for it runs alone), and the samples do not depend on
// the limit, the number of workers or the order in which runs were taken.
func TestExecuteMemLimit(t *testing.T) {
	sizes := []int{1, 2, 3, 40, 60, 100, 5, 7}
	run := func(workers int, limit int64) (*fake, Output) {
		f := &fake{sizes: sizes}
		cells, _ := f.Cells(1 << 30)
		o, err := Execute(context.Background(), Plan{Exp: f, Cells: cells, Runs: 6, Seed: 9, Workers: workers, MemLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		return f, o
	}
	_, ref := run(1, 0)
	for _, limit := range []int64{0, 100, 101, 70, 20} {
		f, o := run(4, limit)
		if !reflect.DeepEqual(o.Samples, ref.Samples) {
			t.Errorf("limit %d: samples differ from the one-worker run", limit)
		}
		if limit > 0 {
			// The largest single cell (100) may exceed a limit below it, alone.
			if bound := max(limit, 100); f.maxInFlight > bound {
				t.Errorf("limit %d: %d bytes in flight", limit, f.maxInFlight)
			}
		}
	}
}

// An interrupted plan stops with an error, also while a worker waits for
// memory.
func TestExecuteCancelled(t *testing.T) {
	f := &fake{sizes: []int{50, 60, 70}}
	cells, _ := f.Cells(1 << 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Execute(ctx, Plan{Exp: f, Cells: cells, Runs: 50, Seed: 1, Workers: 3, MemLimit: 60}); err == nil {
		t.Fatal("cancelled plan returned no error")
	}
}

// A worker that ran a large cell must not keep blocking the others once it
// moves to small cells: after the one 100-byte cell, the 40-byte cells fit
// two at a time under a 100-byte budget and must overlap. (Each run sleeps
// 2 ms, so overlapping workers are seen even on one CPU; with the buffers
// kept charged at 100 bytes the 40-byte runs would go one at a time.)
func TestExecuteShrinksAfterLargeCell(t *testing.T) {
	f := &fake{sizes: []int{100 << 20, 40 << 20, 41 << 20}, sleep: 2 * time.Millisecond}
	cells, _ := f.Cells(1 << 40)
	if _, err := Execute(context.Background(), Plan{Exp: f, Cells: cells, Runs: 20, Seed: 1, Workers: 2, MemLimit: 100 << 20}); err != nil {
		t.Fatal(err)
	}
	if f.maxRunning < 2 {
		t.Errorf("small cells never ran side by side after the large one (max %d at once)", f.maxRunning)
	}
	if f.maxInFlight > 100<<20 {
		t.Errorf("%d bytes in flight > budget", f.maxInFlight)
	}
}
