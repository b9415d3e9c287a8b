package mesh

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/mesh"
)

// GridFarthestFirst on a grid whose packets all stay in their rows is the
// §2 strategy on every row at once: the grid run (models/mesh.Decide and
// StepGrid) takes as many steps as the slowest row does with RunLinear on
// the linear-array model, and every packet ends at its target.
func TestGridFarthestFirstIsLinearPerRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 200 {
		n := 1 + rng.IntN(7)
		g, _ := mesh.NewGrid(n, false)
		want := 0
		for r := range n {
			var src, dst []int32
			for id := range rng.IntN(3 * n) {
				s, d := int32(rng.IntN(n)), int32(rng.IntN(n))
				src, dst = append(src, s), append(dst, d)
				g.Queues[r*n+int(s)] = append(g.Queues[r*n+int(s)], mesh.Item{ID: int32(r*1000 + id), Target: int32(r*n) + d})
			}
			l, err := mesh.NewLinear(n, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			res, err := RunLinear(l, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			want = max(want, res.Steps)
		}
		var moves []mesh.Moves
		steps := 0
		for {
			var any bool
			moves, any = mesh.Decide(g, GridFarthestFirst, nil, moves)
			if !any {
				break
			}
			next, _, err := mesh.StepGrid(g, moves)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			g, steps = next, steps+1
		}
		for p, q := range g.Queues {
			for _, it := range q {
				if it.Target != int32(p) {
					t.Fatalf("trial %d: packet %d stopped at %d, target %d", trial, it.ID, p, it.Target)
				}
			}
		}
		if steps != want {
			t.Errorf("trial %d (n = %d): grid %d steps, slowest row on the linear model %d", trial, n, steps, want)
		}
	}
}
