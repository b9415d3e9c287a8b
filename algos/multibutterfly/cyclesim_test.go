package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
)

// colourOf is a König colouring of H, as SimulateCycles wants it.
func colourOf(t *testing.T, h expander.Graph) [][]int32 {
	col, err := expander.EdgeColouring(h)
	if err != nil {
		t.Fatal(err)
	}
	return col
}

// TestSimulateCycles: the zigzag schedule meets every neighbour once with
// one active line per vertex; the literal rotation meets every neighbour
// too but puts a vertex on two lines (send and receive) once d ≥ 3; a
// schedule that never moves meets only one neighbour.
func TestSimulateCycles(t *testing.T) {
	stay := CycleSchedule{Name: "stay", Lines: func(k, d int) [][2]int { return nil }}
	for _, d := range []int{2, 4, 8} {
		h := expander.RandomRegular(6, d, seeds.Rand(7, uint64(d)))
		col := colourOf(t, h)
		z, err := SimulateCycles(h, col, ZigzagSchedule)
		if err != nil || z.Missed != "" || z.MaxLines != 1 || z.Steps != 2*d || z.Degree != 3 {
			t.Fatalf("d=%d zigzag: %+v %v", d, z, err)
		}
		r, err := SimulateCycles(h, col, RotateSchedule)
		wantLines := 2
		if d == 2 {
			wantLines = 1
		}
		if err != nil || r.Missed != "" || r.MaxLines != wantLines {
			t.Fatalf("d=%d rotate: %+v %v", d, r, err)
		}
		s, err := SimulateCycles(h, col, stay)
		if err != nil || s.Missed == "" {
			t.Fatalf("d=%d stay: %+v %v", d, s, err)
		}
	}
}
