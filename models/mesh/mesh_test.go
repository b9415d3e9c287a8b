package mesh

import (
	"errors"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// genGrid draws a small mesh or torus with random queues.
func genGrid(t *rapid.T) Grid {
	n := rapid.IntRange(1, 4).Draw(t, "n")
	g, _ := NewGrid(n, rapid.Bool().Draw(t, "torus"))
	id := int32(0)
	for p := range g.Queues {
		for range rapid.IntRange(0, 3).Draw(t, "queue") {
			g.Queues[p] = append(g.Queues[p], Item{ID: id, Target: int32(rapid.IntRange(0, n*n-1).Draw(t, "target"))})
			id++
		}
	}
	return g
}

// genMoves draws moves, legal or not (out-of-range indices, duplicates and
// border links included).
func genMoves(t *rapid.T, g Grid) []Moves {
	m := make([]Moves, len(g.Queues))
	for p := range m {
		for d := range 4 {
			m[p][d] = int32(rapid.IntRange(-1, len(g.Queues[p])).Draw(t, "index"))
		}
	}
	return m
}

// legal is an independent statement of what the hardware allows.
func legal(g Grid, m []Moves) bool {
	for p, mv := range m {
		for d, k := range mv {
			if k == -1 {
				continue
			}
			if int(k) >= len(g.Queues[p]) || k < -1 || g.Neighbour(p, Dir(d)) < 0 {
				return false
			}
			for d2 := d + 1; d2 < 4; d2++ {
				if mv[d2] == k {
					return false
				}
			}
		}
	}
	return true
}

// StepGrid is pure (the input is untouched and stepping twice gives the same
// result), accepts exactly the legal moves, conserves packets (every id
// once), and moves each sent packet to the right neighbour.
func TestStepGridProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGrid(t)
		m := genMoves(t, g)
		before := g.Clone()
		next, ev, err := StepGrid(g, m)
		if !reflect.DeepEqual(g, before) {
			t.Fatal("StepGrid modified its input")
		}
		if ok := legal(g, m); ok != (err == nil) {
			t.Fatalf("legal %v but error %v", ok, err)
		}
		if err != nil {
			if !errors.Is(err, ErrAction) {
				t.Fatalf("error %v does not wrap ErrAction", err)
			}
			return
		}
		again, ev2, _ := StepGrid(g, m)
		if !reflect.DeepEqual(next, again) || !reflect.DeepEqual(ev, ev2) {
			t.Fatal("two steps from the same state differ")
		}
		where := map[int32]int{}
		for p, q := range next.Queues {
			for _, it := range q {
				if _, dup := where[it.ID]; dup {
					t.Fatalf("packet %d twice", it.ID)
				}
				where[it.ID] = p
			}
		}
		if len(where) != g.Count() || next.Count() != g.Count() {
			t.Fatalf("%d packets after, %d before", next.Count(), g.Count())
		}
		moved := 0
		for p, mv := range m {
			for d, k := range mv {
				if k >= 0 {
					moved++
					if got, want := where[g.Queues[p][k].ID], g.Neighbour(p, Dir(d)); got != want {
						t.Fatalf("packet sent %v from %d is at %d, want %d", Dir(d), p, got, want)
					}
				}
			}
		}
		if moved != ev.Moved || next.Step != g.Step+1 {
			t.Fatalf("moved %d, event says %d", moved, ev.Moved)
		}
	})
}

// Neighbours: borders on the mesh, wrap-around on the torus.
func TestNeighbour(t *testing.T) {
	m, _ := NewGrid(3, false)
	tor, _ := NewGrid(3, true)
	for _, c := range []struct {
		p        int
		d        Dir
		mesh, to int
	}{
		{0, Left, -1, 2}, {0, Down, -1, 6}, {0, Right, 1, 1}, {0, Up, 3, 3},
		{8, Right, -1, 6}, {8, Up, -1, 2}, {4, Left, 3, 3}, {4, Down, 1, 1},
	} {
		if got := m.Neighbour(c.p, c.d); got != c.mesh {
			t.Errorf("mesh: %d %v = %d, want %d", c.p, c.d, got, c.mesh)
		}
		if got := tor.Neighbour(c.p, c.d); got != c.to {
			t.Errorf("torus: %d %v = %d, want %d", c.p, c.d, got, c.to)
		}
	}
}

// StepLinear: the same purity, legality and conservation properties.
func TestStepLinearProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "n")
		k := rapid.IntRange(0, 8).Draw(t, "packets")
		src, dst := make([]int32, k), make([]int32, k)
		for i := range k {
			src[i] = int32(rapid.IntRange(0, n-1).Draw(t, "src"))
			dst[i] = int32(rapid.IntRange(0, n-1).Draw(t, "dst"))
		}
		s, err := NewLinear(n, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		a := make([]Send, n)
		for i := range a {
			q := len(s.Queues[i])
			a[i] = Send{Right: int32(rapid.IntRange(-1, q).Draw(t, "r")), Left: int32(rapid.IntRange(-1, q).Draw(t, "l"))}
		}
		before := s.Clone()
		next, ev, err := StepLinear(s, a)
		if !reflect.DeepEqual(s, before) {
			t.Fatal("StepLinear modified its input")
		}
		ok := true
		for i, x := range a {
			q := int32(len(s.Queues[i]))
			if x.Right >= q || x.Left >= q || (x.Right >= 0 && x.Right == x.Left) || (x.Right >= 0 && i == n-1) || (x.Left >= 0 && i == 0) {
				ok = false
			}
		}
		if ok != (err == nil) {
			t.Fatalf("legal %v, error %v", ok, err)
		}
		if err != nil {
			return
		}
		if next.Pending()+len(ev.Delivered) != s.Pending() {
			t.Fatalf("pending %d + delivered %d ≠ %d", next.Pending(), len(ev.Delivered), s.Pending())
		}
	})
}
