package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// BatchesFor at its boundaries: β = 0 is allowed (α = 0.3 gives ⌈3.33…⌉ =
// 4, not the nearest integer 3); α = 1/49, β = 0 is exactly 49 although
// 1/(1/49) is 49.00000000000001 in floating point, and α = 1/2915 is 2915
// (the rounding error, 4.5e-13, is relative: 1e-9·L tolerates it); α ≤ 0
// and β < 0 panic.
func TestBatchesForBoundaries(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want int
	}{{0.3, 0, 4}, {1.0 / 49, 0, 49}, {1.0 / 98, 1, 49}, {1.0 / 2915, 0, 2915}, {1, 0, 1}} {
		if got := BatchesFor(c.a, c.b); got != c.want {
			t.Errorf("α=%v β=%v: L = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for _, c := range [][2]float64{{0, 1}, {-0.5, 1}, {0.5, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("BatchesFor(%v, %v) did not panic", c[0], c[1])
				}
			}()
			BatchesFor(c[0], c[1])
		}()
	}
	if got := DefaultMaxIterations(3, 2); got != 64*(3+2+4) {
		t.Errorf("DefaultMaxIterations(3, 2) = %d, want 576", got)
	}
}

// A run cut after two iterations reports exactly those: 4d steps, not
// complete, and the moves made (iteration 1 activates only edges leaving odd
// stages, so the inputs first move in iteration 2, and the reversal on
// N = 8 cannot finish then: a packet crosses at most one stage per
// iteration and there are three).
func TestRunCutAfterTwoIterations(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(5))
	if err != nil {
		t.Fatal(err)
	}
	p := perm.Identity(8)
	for i := range p {
		p[i] = int32(7 - i)
	}
	s, _ := mb.Init(net, 2, p)
	res, _, err := Run(s, Options{MaxIterations: 2, Check: true})
	if err != nil || res.Complete || res.Iterations != 2 || res.Steps != 8 || res.Moves == 0 {
		t.Errorf("cut at two iterations: %+v %v; want 2 iterations, 8 steps, some moves, not complete", res, err)
	}
}

// §4: Steps = 2d and SimSteps = 3d + 1 per iteration, complete or cut; a
// run cut after one iteration has made exchanges and is not complete.
func TestRunCommCounts(t *testing.T) {
	const n, d = 8, 2
	net, err := mb.BuildComm(n, d, seeds.Rand(6))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.InitComm(net, commDests(net, 6))
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := RunComm(s, 2, 0, true)
	if err != nil || !full.Complete || full.Iterations < 2 {
		t.Fatalf("full run: %+v %v", full, err)
	}
	cut, _, err := RunComm(s, 2, 1, true)
	if err != nil || cut.Complete || cut.Iterations != 1 || cut.Exchanges == 0 {
		t.Fatalf("cut run: %+v %v", cut, err)
	}
	for _, r := range []CommResult{full, cut} {
		if r.Steps != r.Iterations*2*d || r.SimSteps != r.Iterations*(3*d+1) {
			t.Errorf("%+v: want Steps = %d·iterations and SimSteps = %d·iterations", r, 2*d, 3*d+1)
		}
	}
}
