package multibutterfly

import (
	"strings"
	"testing"

	"routecheck/internal/seeds"
)

// withEdges returns a copy of c whose edge list can be changed without
// touching c.
func withEdges(c *CommNetwork) *CommNetwork {
	x := *c
	x.Edges = append([]Edge(nil), c.Edges...)
	x.Part = append([]int8(nil), c.Part...)
	return &x
}

// CheckShape accepts built networks — small d, and §4.3's explicit
// d = 102 at n = 256, where the first splitter's output sets (m/2 = 128)
// are larger than d — and names each planted fault: an expander edge moved
// to another head (caught as a colour clash there: in a d-regular stage
// properly coloured with d colours every head has every colour), an upper
// splitter edge
// moved into the lower output set, a colour clash, a direct edge skewed to
// the next column, an edge dropped.
func TestCheckShape(t *testing.T) {
	var net *CommNetwork
	for _, c := range [][2]int{{2, 1}, {8, 3}, {16, 5}, {256, 102}} {
		n, d := c[0], c[1]
		x, err := BuildComm(n, d, seeds.Rand(0x5a, uint64(n), uint64(d)))
		if err != nil {
			t.Fatal(err)
		}
		if err := x.CheckShape(); err != nil {
			t.Fatalf("n = %d, d = %d: built network rejected: %v", n, d, err)
		}
		net = x
	}
	n, k := net.N, net.LogN
	first := func(part int8, ok func(e Edge) bool) int {
		for i, e := range net.Edges {
			if net.Part[i] == part && ok(e) {
				return i
			}
		}
		t.Fatalf("no edge of part %d", part)
		return -1
	}
	plants := []struct {
		name, want string
		plant      func(x *CommNetwork)
	}{
		{"expander edge moved to another head", "share colour", func(x *CommNetwork) {
			i := first(0, func(Edge) bool { return true })
			x.Edges[i].To = int32(n) + (x.Edges[i].To-int32(n)+1)%int32(n)
		}},
		{"upper splitter edge into the lower set", "outside the upper output set", func(x *CommNetwork) {
			i := first(1, func(e Edge) bool { return !e.Lower && int(e.Stage) == k })
			x.Edges[i].To += int32(n / 2)
		}},
		{"colour clash at a splitter input", "share colour", func(x *CommNetwork) {
			i := first(1, func(e Edge) bool { return int(e.Stage) == k })
			for j, e := range x.Edges {
				if j != i && x.Part[j] == 1 && e.From == x.Edges[i].From {
					x.Edges[j].Colour = x.Edges[i].Colour
					return
				}
			}
		}},
		{"direct edge to the next column", "direct edge", func(x *CommNetwork) {
			i := first(2, func(Edge) bool { return true })
			x.Edges[i].To++
		}},
		{"an edge dropped", "edges and", func(x *CommNetwork) {
			x.Edges, x.Part = x.Edges[1:], x.Part[1:]
		}},
	}
	for _, p := range plants {
		x := withEdges(net)
		p.plant(x)
		err := x.CheckShape()
		if err == nil || !strings.Contains(err.Error(), p.want) {
			t.Errorf("%s: CheckShape = %v, want an error containing %q", p.name, err, p.want)
		}
	}
}
