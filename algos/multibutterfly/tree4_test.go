package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// N = 2, d = 3 (paths of 3 lines, see models' TestTree4HandN2D3): the
// even iteration has 6 colours, each an exchange of 3 steps: 18 steps
// against the original 6; the two paths of a colour are disjoint and the
// two packets of a path cross on its middle line, so no vertex uses two
// lines in a step. The odd iteration has no edges (stage 1 is the output).
// Starting each colour one step early makes nodes start before their
// exchange returned.
func TestTreeIterationHand(t *testing.T) {
	net, _ := mb.Build(2, 3, seeds.Rand(4))
	tr, _ := mb.BuildTree4(net, false)
	r, err := SimulateTreeIteration(tr, 0, nil)
	if err != nil || r.Steps != 18 || r.Original != 6 || r.MaxLines != 1 || r.Early != "" {
		t.Fatalf("even: %+v %v", r, err)
	}
	r, err = SimulateTreeIteration(tr, 1, nil)
	if err != nil || r.Steps != 0 {
		t.Fatalf("odd: %+v %v", r, err)
	}
	r, _ = SimulateTreeIteration(tr, 0, func(_, l int) int { return l - 1 })
	if r.Early == "" || r.Steps != 3+5*2 {
		t.Fatalf("early start not seen: %+v", r)
	}
	if _, err := SimulateTreeIteration(tr, 2, nil); err == nil {
		t.Fatal("parity 2 accepted")
	}
}
