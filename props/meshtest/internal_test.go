package meshtest

import (
	"testing"

	am "routecheck/algos/mesh"
	"routecheck/models/mesh"
)

// The conservation check is not vacuous: with a model step that loses the
// last packet of the largest queue, or copies the first packet of PU 0,
// the suite reports conservation (the real StepGrid never does either).
func TestConservationCatchesModelFaults(t *testing.T) {
	faults := map[string]func(g mesh.Grid, m []mesh.Moves) (mesh.Grid, mesh.GridEvents, error){
		"loses": func(g mesh.Grid, m []mesh.Moves) (mesh.Grid, mesh.GridEvents, error) {
			next, ev, err := mesh.StepGrid(g, m)
			for p, q := range next.Queues {
				if len(q) > 1 {
					next.Queues[p] = q[:len(q)-1]
					break
				}
			}
			return next, ev, err
		},
		"copies": func(g mesh.Grid, m []mesh.Moves) (mesh.Grid, mesh.GridEvents, error) {
			next, ev, err := mesh.StepGrid(g, m)
			for p, q := range next.Queues {
				if len(q) > 0 {
					next.Queues[p] = append(q, q[0])
					break
				}
			}
			return next, ev, err
		},
	}
	defer func(s func(mesh.Grid, []mesh.Moves) (mesh.Grid, mesh.GridEvents, error)) { stepGrid = s }(stepGrid)
	for name, f := range faults {
		stepGrid = f
		fs := Check(func() mesh.Router { return am.GridFarthestFirst }, Options{Sizes: []int{3}, Ks: []int{2}, ReplayDir: "-"})
		if len(fs) == 0 || fs[0].Property != Conservation {
			t.Errorf("%s: failures %v, want conservation first", name, fs)
		}
	}
}
