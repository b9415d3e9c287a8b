package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
)

func TestTreeDepth(t *testing.T) {
	for g, want := range map[int]int{1: 0, 2: 1, 3: 1, 4: 2, 9: 2, 10: 3, 27: 3, 28: 4, 60: 4, 81: 4, 82: 5} {
		if got := TreeDepth(g); got != want {
			t.Errorf("TreeDepth(%d) = %d, want %d", g, got, want)
		}
	}
}

// N = 2, d = 3 by hand: each input's 3 upper and 3 lower edges form two
// sets of 3 (one root each, h = 1); each output has 6 incoming edges, two
// sets of 3 (two roots). So 4 nodes + 8 roots = 12 vertices; 8 node–root
// lines + 12 root–root lines = 20; nodes have degree 2, roots 4; every
// edge is node → root → root → node, 3 lines.
func TestTree4HandN2D3(t *testing.T) {
	net, err := Build(2, 3, seeds.Rand(4))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := BuildTree4(net, false)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Vertices != 12 || len(tr.Lines) != 20 || tr.Depth != 1 {
		t.Fatalf("%d vertices, %d lines, depth %d; want 12, 20, 1", tr.Vertices, len(tr.Lines), tr.Depth)
	}
	deg := tr.Degrees()
	for v, d := range deg {
		want := 4
		if v < 4 {
			want = 2
		}
		if d != want {
			t.Errorf("vertex %d: degree %d, want %d", v, d, want)
		}
	}
	for e, p := range tr.Path {
		if len(p) != 4 || p[0] != net.Edges[e].From || p[3] != net.Edges[e].To || p[1] < 4 || p[2] < 4 {
			t.Errorf("edge %d: path %v", e, p)
		}
	}
}

// N = 2, d = 1: every set has one edge, so there are no trees: the network
// is the multi-butterfly itself (paths of one line, node degree 2).
func TestTree4D1IsTheNetwork(t *testing.T) {
	net, _ := Build(2, 1, seeds.Rand(1))
	tr, err := BuildTree4(net, false)
	if err != nil || tr.Vertices != 4 || len(tr.Lines) != len(net.Edges) || tr.Depth != 0 {
		t.Fatalf("%+v %v", tr, err)
	}
}

// On random networks every vertex has degree ≤ 4 and every edge a path of
// exactly 2⌈log₃ d⌉ + 1 lines; the shallow fault breaks the degree bound.
func TestTree4Degrees(t *testing.T) {
	for _, d := range []int{2, 3, 4, 9, 10} {
		for _, n := range []int{4, 16} {
			net, _ := Build(n, d, seeds.Rand(9, uint64(n), uint64(d)))
			tr, err := BuildTree4(net, false)
			if err != nil {
				t.Fatal(err)
			}
			for v, g := range tr.Degrees() {
				if g > 4 {
					t.Fatalf("d=%d N=%d: vertex %d has degree %d", d, n, v, g)
				}
			}
			for e, p := range tr.Path {
				if len(p)-1 != 2*TreeDepth(d)+1 {
					t.Fatalf("d=%d N=%d: edge %d path of %d lines", d, n, e, len(p)-1)
				}
			}
			sh, _ := BuildTree4(net, true)
			worst := 0
			for _, g := range sh.Degrees() {
				worst = max(worst, g)
			}
			if worst <= 4 {
				t.Fatalf("d=%d N=%d: shallow trees still have degree ≤ 4", d, n)
			}
		}
	}
}
