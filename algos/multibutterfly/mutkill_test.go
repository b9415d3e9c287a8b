package multibutterfly

import (
	"slices"
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// Tests written against the gremlins survivors of 2026-11-24 (issue 9 E);
// the audit, mutant by mutant, is /work/mutreports/mbfly_audit.md. Expected
// values come from the paper (§4: 3d + 1 simulation steps per iteration),
// the functions' documentation, or hand computation on tiny instances.

// The literal §4 run counts steps as RunComm does: 2d per iteration on the
// 3N-node network, and 3d + 1 per iteration for the N-processor simulation
// (§4, "An execution of each iteration, by the N processors, takes 3d + 1
// steps"), both when it completes (farthest-first order) and when it stops
// at maxIter = 1. d = 2: 4 and 7 per iteration.
func TestCommLiteralStepCounts(t *testing.T) {
	net, err := mb.BuildComm(4, 2, seeds.Rand(7, 0x5c))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.InitComm(net, commDests(net, 0x5c))
	if err != nil {
		t.Fatal(err)
	}
	res, fin, err := RunCommLiteralOrder(s, 2, 0, false, FarthestRowFirst)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || !fin.DoneKeep() || res.Iterations < 1 || res.Steps != 4*res.Iterations || res.SimSteps != 7*res.Iterations {
		t.Fatalf("complete run: %+v; want complete with Steps = 4·Iterations, SimSteps = 7·Iterations", res)
	}
	res, _, err = RunCommLiteral(s, 2, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Iterations != 1 || res.Steps != 4 || res.SimSteps != 7 {
		t.Fatalf("one iteration: %+v; want not complete, 1 iteration, 4 steps, 7 simulated steps", res)
	}
}

// ZigzagSchedule.Lines is what its documentation says: after even phases
// the pairs (0,1), (2,3), … swap, after odd phases (1,2), (3,4), …,
// (d−1,0); each swap is the two lines (a, b), (b, a), listed once.
func TestZigzagLinesExact(t *testing.T) {
	for _, c := range []struct {
		k, d int
		want [][2]int
	}{
		{0, 4, [][2]int{{0, 1}, {1, 0}, {2, 3}, {3, 2}}},
		{1, 4, [][2]int{{1, 2}, {2, 1}, {3, 0}, {0, 3}}},
		{2, 6, [][2]int{{0, 1}, {1, 0}, {2, 3}, {3, 2}, {4, 5}, {5, 4}}},
		{3, 6, [][2]int{{1, 2}, {2, 1}, {3, 4}, {4, 3}, {5, 0}, {0, 5}}},
	} {
		if got := ZigzagSchedule.Lines(c.k, c.d); !slices.Equal(got, c.want) {
			t.Errorf("Lines(%d, %d) = %v, want %v", c.k, c.d, got, c.want)
		}
	}
}

// k22 is K_{2,2} with the proper colouring a + b mod 2.
func k22() (expander.Graph, [][]int32) {
	return expander.Graph{NA: 2, NB: 2, Adj: [][]int32{{0, 1}, {0, 1}}}, [][]int32{{0, 1}, {1, 0}}
}

// SimulateCycles refuses colour d (one past the last) with an error.
func TestSimulateCyclesColourRange(t *testing.T) {
	h, col := k22()
	col[1] = []int32{2, 0}
	if _, err := SimulateCycles(h, col, ZigzagSchedule); err == nil {
		t.Error("colour 2 with d = 2 accepted")
	}
}

// A schedule that never moves, on K_{2,2} (d = 2): process 0 of left vertex
// 0 stays at position 0 and talks over colour 0 to right vertex 0 (index 2)
// in both phases, so the first miss is "neighbour 2, 2 times" — not a
// neighbour it never met (which is what a process that wandered would
// give).
func TestSimulateCyclesStayMiss(t *testing.T) {
	h, col := k22()
	stay := CycleSchedule{Name: "stay", Lines: func(k, d int) [][2]int { return nil }}
	r, err := SimulateCycles(h, col, stay)
	if err != nil {
		t.Fatal(err)
	}
	if want := "process 0 of vertex 0 met neighbour 2 2 times (multiplicity 1)"; r.Missed != want || r.Steps != 4 || r.MaxLines != 0 {
		t.Fatalf("stay: %+v; want Missed %q, 4 steps, no lines", r, want)
	}
}

// A schedule that puts one cycle position on two lines is reported with
// MaxLines = 2, whether that position is the smaller end of both lines
// (0: lines 0–1 and 0–2) or the larger (2: lines 0–2 and 1–2); K_{3,3}
// with colour a + b mod 3.
func TestSimulateCyclesTwoLines(t *testing.T) {
	h := expander.Graph{NA: 3, NB: 3, Adj: make([][]int32, 3)}
	col := make([][]int32, 3)
	for a := range 3 {
		for b := range 3 {
			h.Adj[a] = append(h.Adj[a], int32(b))
			col[a] = append(col[a], int32((a+b)%3))
		}
	}
	for _, lines := range [][][2]int{{{0, 1}, {0, 2}}, {{0, 2}, {1, 2}}} {
		sched := CycleSchedule{Name: "fan", Lines: func(k, d int) [][2]int { return lines }}
		r, err := SimulateCycles(h, col, sched)
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxLines != 2 {
			t.Errorf("lines %v: MaxLines %d, want 2", lines, r.MaxLines)
		}
	}
}

// portsOf is node v's view of its out edges, with empty heads.
func portsOf(net *mb.Network, v int32) []mb.Port {
	var out []mb.Port
	for _, ei := range net.Out[v] {
		e := net.Edges[ei]
		out = append(out, mb.Port{Edge: ei, Colour: e.Colour, Lower: e.Lower, To: e.To})
	}
	return out
}

// Priority's clock: step t is iteration t/2d + 1, so steps 0 … 2d−1 are
// iteration 1, in which odd stages send. A stage-1 node holding a packet
// sends it at the step whose colour is its edge toward the packet's
// destination bit, in iteration 1 and 3, not 2 (N = 8, d = 1).
func TestPriorityIterationOne(t *testing.T) {
	net, err := mb.Build(8, 1, seeds.Rand(8, 0x1e))
	if err != nil {
		t.Fatal(err)
	}
	r := &Priority{}
	r.Init(net, 2)
	v := net.Node(1, 1)                           // ⟨1, 1⟩: destinations 0…3
	h := mb.Header{Packet: 0, Source: 1, Dest: 2} // 010: second bit 1, lower
	var want mb.Port
	for _, p := range portsOf(net, v) {
		if p.Lower {
			want = p
		}
	}
	for _, c := range []struct {
		step int
		move bool
	}{
		{int(want.Colour), true}, {2 + int(want.Colour), false}, {4 + int(want.Colour), true}, {1 - int(want.Colour), false},
	} {
		view := mb.View{Step: c.step, Node: v, Stage: 1, Row: 1, Buffer: []mb.Header{h}, Out: portsOf(net, v)}
		got := r.Route(&view, nil, nil)
		if c.move && (len(got) != 1 || got[0] != (mb.Move{Packet: 0, Edge: want.Edge})) || !c.move && len(got) != 0 {
			t.Errorf("step %d: moves %v, want move %v", c.step, got, c.move)
		}
	}
}

// The lowest-priority fault breaks ties as the algorithm does, by the
// lower packet name: of packets 3 and 5, both of batch 0 (L = 2,
// destinations 2 and 0), it takes 3, listed first as RunRouter lists
// them; 3 goes to the lower set (destination 010), so at the step of the
// lower edge's colour that is the one move.
func TestLowestPriorityTie(t *testing.T) {
	net, err := mb.Build(8, 1, seeds.Rand(8, 0x1f))
	if err != nil {
		t.Fatal(err)
	}
	r := &Priority{Fault: FaultLowestPriority}
	r.Init(net, 2)
	v := net.Node(1, 0)
	var lower mb.Port
	for _, p := range portsOf(net, v) {
		if p.Lower {
			lower = p
		}
	}
	buf := []mb.Header{{Packet: 3, Source: 3, Dest: 2}, {Packet: 5, Source: 5, Dest: 0}}
	view := mb.View{Step: int(lower.Colour), Node: v, Stage: 1, Row: 0, Buffer: buf, Out: portsOf(net, v)}
	got := r.Route(&view, nil, nil)
	if len(got) != 1 || got[0] != (mb.Move{Packet: 3, Edge: lower.Edge}) {
		t.Fatalf("moves %v, want packet 3 on edge %d", got, lower.Edge)
	}
}

// Run from a state where every packet is already delivered reports them
// all delivered, complete, after 0 iterations.
func TestRunFromDelivered(t *testing.T) {
	net, err := mb.Build(4, 2, seeds.Rand(9, 0xd))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.Init(net, 2, perm.Identity(4))
	if err != nil {
		t.Fatal(err)
	}
	res, fin, err := Run(s, Options{Check: true})
	if err != nil || !res.Complete {
		t.Fatalf("first run: %+v, %v", res, err)
	}
	res, _, err = Run(fin, Options{Check: true})
	if err != nil || !res.Complete || res.Iterations != 0 || res.Delivered != 4 || res.Moves != 0 {
		t.Fatalf("from the delivered state: %+v, %v; want complete, 0 iterations, 4 delivered", res, err)
	}
}

// PriorityMaxSteps is 2d · 64(log N + L + 4): log N = 3, d = 3, L = 4 gives
// 6 · 64 · 11 = 4224.
func TestPriorityMaxStepsValue(t *testing.T) {
	if got := PriorityMaxSteps(3, 3, 4); got != 4224 {
		t.Fatalf("PriorityMaxSteps(3, 3, 4) = %d, want 4224", got)
	}
}
