package multibutterfly

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// The Router form of §3.2 (Priority, node by node through mb.RunRouter) and
// the fast engine (Run) agree position by position after every iteration,
// in moves and in the iteration of the last delivery — with and without
// each planted fault — on random networks and permutations (differential
// test, DESIGN "fast engine checked against the step model").
func TestPriorityMatchesRun(t *testing.T) {
	cases, rejected, complete := 0, 0, 0
	for _, n := range []int{2, 4, 8, 16, 32} {
		for _, d := range []int{1, 2, 3} {
			for _, L := range []int{1, 2, 4} {
				for _, f := range []Fault{NoFault, FaultIgnoreBatch, FaultIgnoreBit, FaultLowestPriority} {
					rng := seeds.Rand(7, uint64(n), uint64(d), uint64(L), uint64(f))
					net, err := mb.Build(n, d, rng)
					if err != nil {
						t.Fatal(err)
					}
					p := perm.Random(n, rng)
					if n >= 8 && L == 2 {
						p[0], p[3] = perm.None, perm.None // partial permutations too
					}
					name := fmt.Sprintf("N=%d d=%d L=%d fault=%d perm=%v", n, d, L, f, p)
					s, _ := mb.Init(net, L, p)
					var fast [][]int32
					res, _, ferr := Run(s, Options{MaxIterations: 40, Fault: f, AfterIteration: func(_ int, x *mb.State) {
						fast = append(fast, slices.Clone(x.Pos))
					}})
					d2 := 2 * d
					slow := [][]int32{slices.Clone(s.Pos)}
					rres, _, rerr := mb.RunRouter(s, &Priority{Fault: f}, nil, mb.RouterOptions{MaxSteps: 40 * d2, AfterStep: func(t int, x *mb.State, _ mb.Events) error {
						if t%d2 == 0 {
							slow = append(slow, slices.Clone(x.Pos))
						}
						return nil
					}})
					cases++
					if (ferr == nil) != (rerr == nil) {
						t.Fatalf("%s: Run error %v, RunRouter error %v", name, ferr, rerr)
					}
					if ferr != nil {
						// Both rejected: the same class of model violation
						// in the same iteration.
						var se *mb.StepError
						if !errors.As(rerr, &se) || errors.Is(ferr, mb.ErrCapacity) != errors.Is(rerr, mb.ErrCapacity) ||
							len(fast) != se.Step/d2+1 {
							t.Fatalf("%s: Run error %v after %d iterations, RunRouter error %v", name, ferr, len(fast)-1, rerr)
						}
						rejected++
						continue
					}
					if res.Complete {
						complete++
					}
					if res.Complete != rres.Complete || res.Moves != rres.Moves || res.MaxBuffer != rres.MaxBuffer {
						t.Fatalf("%s: Run %+v, RunRouter %+v", name, res, rres)
					}
					if res.Complete && res.Iterations != (rres.Steps+d2-1)/d2 {
						t.Fatalf("%s: Run %d iterations, RunRouter %d steps", name, res.Iterations, rres.Steps)
					}
					for i := range min(len(fast), len(slow)) {
						if !slices.Equal(fast[i], slow[i]) {
							t.Fatalf("%s: positions differ after iteration %d", name, i)
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs agree (%d rejected by the model, %d complete)", cases, rejected, complete)
	if rejected == 0 || complete == 0 {
		t.Error("the comparison never saw a rejected or never a complete run")
	}
}
