package mesh

import (
	"testing"

	"routecheck/models/mesh"
)

// FarthestFirst's doc comment promises: PU i sends right the packet with
// the largest destination > i and left the one with the smallest
// destination < i, ties to the packet earliest in the queue. §2 of
// 003_8774480fe7c747cc.txt leaves ties open; on the linear array they
// change no count (tied packets have the same destination), so only the
// chosen index shows the rule. The last PU holds a packet whose
// destination is its own PU (NewLinear never queues one, but a Linear
// built by hand can): neither "> i" nor "< i", so it is not sent.
func TestFarthestFirstTies(t *testing.T) {
	s := mesh.Linear{Queues: [][]mesh.Packet{
		{{ID: 0, Dst: 3}, {ID: 1, Dst: 3}},                                   // PU 0: tie rightward
		{{ID: 2, Dst: 3}, {ID: 3, Dst: 0}, {ID: 4, Dst: 3}, {ID: 5, Dst: 0}}, // PU 1: ties both ways
		{{ID: 6, Dst: 0}, {ID: 7, Dst: 0}},                                   // PU 2: tie leftward
		{{ID: 8, Dst: 3}},                                                    // PU 3: already there
	}}
	want := []mesh.Send{{Right: 0, Left: -1}, {Right: 0, Left: 1}, {Right: -1, Left: 0}, mesh.Idle}
	got := FarthestFirst(s, nil)
	if len(got) != len(want) {
		t.Fatalf("%d sends for %d PUs", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("PU %d sends %+v, want %+v", i, got[i], want[i])
		}
	}
}

// runGrid routes g to the end with r and returns the steps; every packet
// must end at its target within limit steps.
func runGrid(t *testing.T, g mesh.Grid, r mesh.Router, limit int) int {
	t.Helper()
	var moves []mesh.Moves
	steps := 0
	for {
		var any bool
		moves, any = mesh.Decide(g, r, nil, moves)
		if !any {
			break
		}
		if steps == limit {
			t.Fatalf("not finished after %d steps", limit)
		}
		next, _, err := mesh.StepGrid(g, moves)
		if err != nil {
			t.Fatal(err)
		}
		g, steps = next, steps+1
	}
	for p, q := range g.Queues {
		for _, it := range q {
			if it.Target != int32(p) {
				t.Fatalf("packet %d stopped at PU %d, its target is %d", it.ID, p, it.Target)
			}
		}
	}
	return steps
}

// On a whole route (row, then column) GridFarthestFirst's tie rule
// (earliest in the queue first) changes the step count. By hand: PU (0,0)
// holds A for (0,1) and B for (2,1), both one link from column 1. A first:
// step 1 A arrives, step 2 B reaches (0,1), steps 3–4 B goes up its column:
// 4 steps. B first: step 1 B moves, step 2 A arrives while B goes up, step
// 3 B arrives: 3 steps. The same on the 4×4 torus with TorusSplitTies
// (one-link distances are no ties of the torus) and B for (1,1): 3 and 2
// steps.
func TestFarthestFirstTieChangesSteps(t *testing.T) {
	cases := []struct {
		name        string
		n           int
		torus       bool
		r           mesh.Router
		a, b        int32 // targets (row-major) of A and B, both at PU 0
		abWant, baW int   // steps with queue [A, B] and [B, A]
	}{
		{"grid-farthest-first/mesh", 3, false, GridFarthestFirst, 1, 2*3 + 1, 4, 3},
		{"grid-farthest-first/torus", 4, true, GridFarthestFirst, 1, 1*4 + 1, 3, 2},
		{"torus-split-ties/torus", 4, true, TorusSplitTies, 1, 1*4 + 1, 3, 2},
	}
	for _, c := range cases {
		for _, order := range []struct {
			items []mesh.Item
			want  int
		}{
			{[]mesh.Item{{ID: 0, Target: c.a}, {ID: 1, Target: c.b}}, c.abWant},
			{[]mesh.Item{{ID: 1, Target: c.b}, {ID: 0, Target: c.a}}, c.baW},
		} {
			g, err := mesh.NewGrid(c.n, c.torus)
			if err != nil {
				t.Fatal(err)
			}
			g.Queues[0] = order.items
			if got := runGrid(t, g, c.r, 10); got != order.want {
				t.Errorf("%s, queue %v: %d steps, want %d", c.name, order.items, got, order.want)
			}
		}
	}
}

// TorusSplitTies with three packets n/2 away in the same row (4×4 torus,
// PU (0,0), all for (0,2)): the first goes right, the second left (the
// right link already has a packet as far), the third waits. By hand from
// the doc comment and GridFarthestFirst's tie rule (earliest first).
func TestTorusSplitThreeTies(t *testing.T) {
	v := mesh.View{N: 4, Torus: true, PU: 0, Queue: []mesh.Item{{ID: 0, Target: 2}, {ID: 1, Target: 2}, {ID: 2, Target: 2}}}
	want := mesh.Still
	want[mesh.Right], want[mesh.Left] = 0, 1
	if got := TorusSplitTies.Route(v, nil); got != want {
		t.Errorf("moves %v, want %v", got, want)
	}
}

// A lone packet n/2 away on a large torus (n = 20, PU (0,0) to (0,10)) is
// a tie with nothing in its way: n/2 = 10 steps, for RouteKKTorusSplit as
// for the shorter-way stand-in. Its step limit must leave room for the
// ring's length, not only for the number of packets.
func TestTorusSplitLonePacketHalfRing(t *testing.T) {
	pl := Plan{N: 20, Src: []int32{0}, Targets: [][]int32{{10}}}
	split, err := RouteKKTorusSplit(pl)
	if err != nil || split.Steps != 10 {
		t.Errorf("split: %+v, %v (want 10 steps)", split, err)
	}
	one, err := RouteKK(pl, Options{Model: true, Torus: true})
	if err != nil || one.Steps != 10 {
		t.Errorf("shorter-way: %+v, %v (want 10 steps)", one, err)
	}
}
