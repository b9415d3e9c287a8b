package mesh

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Decide shows each PU its own place, the shape, the clock and its own
// queue, in PU order, and reports whether anything is sent.
func TestDecide(t *testing.T) {
	g, _ := NewGrid(3, true)
	g.Step = 5
	g.Queues[4] = []Item{{ID: 1, Target: 0}}
	var seen []int
	r := RouterFunc(func(v View, _ *rand.Rand) Moves {
		if v.N != 3 || !v.Torus || v.Step != 5 || len(v.Queue) != len(g.Queues[v.PU]) {
			t.Errorf("PU %d sees %+v", v.PU, v)
		}
		seen = append(seen, v.PU)
		if len(v.Queue) > 0 {
			return Moves{0, -1, -1, -1}
		}
		return Still
	})
	m, any := Decide(g, r, nil, make([]Moves, 0, 9))
	if !any || len(m) != 9 || m[4] != (Moves{0, -1, -1, -1}) || m[0] != Still {
		t.Errorf("moves %v, any %v", m, any)
	}
	for i, p := range seen {
		if p != i {
			t.Fatalf("PUs asked in order %v", seen)
		}
	}
	g.Queues[4] = nil
	if _, any := Decide(g, r, nil, m); any {
		t.Error("nothing to send, but Decide reports a move")
	}
}

// CheckConservation accepts every legal step of StepGrid, and names the
// packet when one is lost, copied, created or rewritten, or the shape
// changes.
func TestCheckConservation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGrid(t)
		m := genMoves(t, g)
		if !legal(g, m) {
			return
		}
		next, _, err := StepGrid(g, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckConservation(g, next); err != nil {
			t.Fatal(err)
		}
	})
	g, _ := NewGrid(2, false)
	g.Queues[0] = []Item{{ID: 0, Target: 3}, {ID: 1, Target: 2}}
	g.Queues[3] = []Item{{ID: 2, Target: 0}}
	faults := map[string]func(n *Grid){
		"lost":     func(n *Grid) { n.Queues[0] = n.Queues[0][:1] },
		"twice":    func(n *Grid) { n.Queues[1] = append(n.Queues[1], n.Queues[3][0]) },
		"appeared": func(n *Grid) { n.Queues[2] = append(n.Queues[2], Item{ID: 9}) },
		"changed":  func(n *Grid) { n.Queues[3][0].Target = 1 },
		"shape":    func(n *Grid) { n.Torus = true },
	}
	for want, f := range faults {
		n := g.Clone()
		f(&n)
		if err := CheckConservation(g, n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}
