package mesh

import (
	"slices"
	"testing"
)

// TestStillSendsNothing: Still is "a PU that sends nothing" — on a 2×2 torus,
// where every PU has all four links, with two packets in every queue, a step
// of Still everywhere is legal, moves nothing and leaves every queue as it
// was. Kills the four sign mutants of Still's initializer (−1 → 1 in any
// direction), which gremlins v0.6.0 counts as not covered (issue 9 E,
// docs/mutation/models_mesh.md).
func TestStillSendsNothing(t *testing.T) {
	g, err := NewGrid(2, true)
	if err != nil {
		t.Fatal(err)
	}
	for p := range g.Queues {
		g.Queues[p] = []Item{{ID: int32(2 * p), Target: int32(p)}, {ID: int32(2*p + 1), Target: int32(p)}}
	}
	m := []Moves{Still, Still, Still, Still}
	next, ev, err := StepGrid(g, m)
	if err != nil {
		t.Fatalf("all Still: %v", err)
	}
	if ev.Moved != 0 || ev.MaxQueue != 2 {
		t.Errorf("all Still: %d moved, largest queue %d; want 0 and 2", ev.Moved, ev.MaxQueue)
	}
	for p := range g.Queues {
		if !slices.Equal(next.Queues[p], g.Queues[p]) {
			t.Errorf("PU %d: queue %v, want %v", p, next.Queues[p], g.Queues[p])
		}
	}
}
