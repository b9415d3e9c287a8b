package multibutterfly

import (
	"errors"
	"strings"
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// Tests written against the gremlins survivors of 2026-11-24 (issue 9 E);
// the audit, mutant by mutant, is /work/mutreports/mbfly_audit.md. Expected
// values are from §3.1's definition of the network or computed by hand on
// networks of 2 or 4 inputs.

// BuildAppendixA builds at the bottom of its ranges (N = 2, d = 1), at
// N = 2, d = 64 and at N = 4, 8, and every node of stage s < log N has d edges
// into each output set of its splitter (§3.1: 2d out edges, d up, d down),
// so the network has N·log N·2d edges.
func TestBuildAppendixAShapes(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {2, 64}, {4, 1}, {8, 3}} {
		n, d := c[0], c[1]
		net, err := BuildAppendixA(n, d, seeds.Rand(uint64(n*100+d), 0xa1))
		if err != nil {
			t.Fatalf("BuildAppendixA(%d, %d): %v", n, d, err)
		}
		logN := 0
		for 1<<logN < n {
			logN++
		}
		if net.N != n || net.LogN != logN || net.D != d || len(net.Edges) != n*logN*2*d {
			t.Fatalf("BuildAppendixA(%d, %d): N = %d, log N = %d, d = %d, %d edges; want %d, %d, %d, %d",
				n, d, net.N, net.LogN, net.D, len(net.Edges), n, logN, d, n*logN*2*d)
		}
		for v := range n * logN {
			s, k := v/n, v%n
			m := n >> s // size of k's set A_{s,j}
			base := k / m * m
			up, down := 0, 0
			for _, ei := range net.Out[v] {
				e := net.Edges[ei]
				ts, tk := int(e.To)/n, int(e.To)%n
				switch {
				case ts != s+1:
					t.Fatalf("N = %d: edge %d from stage %d to stage %d", n, ei, s, ts)
				case tk >= base && tk < base+m/2 && !e.Lower:
					up++
				case tk >= base+m/2 && tk < base+m && e.Lower:
					down++
				default:
					t.Fatalf("N = %d: edge %d from ⟨%d, %d⟩ to ⟨%d, %d⟩ (lower %v) leaves the set", n, ei, s, k, ts, tk, e.Lower)
				}
			}
			if up != d || down != d {
				t.Fatalf("N = %d, d = %d: node ⟨%d, %d⟩ has %d upper and %d lower edges", n, d, s, k, up, down)
			}
		}
	}
	for _, c := range [][2]int{{1, 1}, {6, 1}, {2, 0}} {
		if _, err := BuildAppendixA(c[0], c[1], seeds.Rand(1)); err == nil {
			t.Errorf("BuildAppendixA(%d, %d): no error", c[0], c[1])
		}
	}
}

// commNet4 is the bare shape of a §4.1 network with n = 4 (k = 2, stages
// 0…6, node ⟨s, q⟩ = 4s + q): CheckComm, DoneKeep and the CommState
// methods read only N and LogN.
func commNet4() *CommNetwork { return &CommNetwork{N: 4, LogN: 2, D: 1} }

// commState4 has its 12 packets nowhere yet (Buf all −1) with destination
// node 16 + i for packet i (stages 4…6), and the given packet placements.
func commState4(place map[int32]int32) CommState {
	net := commNet4()
	s := CommState{Net: net, Buf: make([]int32, net.Nodes()), Dest: make([]int32, 12), Delivered: make([]bool, 12)}
	for v := range s.Buf {
		s.Buf[v] = -1
	}
	for p := range s.Dest {
		s.Dest[p] = int32(16 + p)
		s.Delivered[p] = true
	}
	for p, v := range place {
		s.Buf[v], s.Delivered[p] = p, false
	}
	return s
}

// CheckComm in the multi-butterfly part (stages k…2k) compares the top
// st − k bits of the row with the destination column's: with n = 4, a packet
// for column 2 (destination node 18 = ⟨4, 2⟩) is on its route at ⟨3, 2⟩
// and ⟨3, 3⟩ (top bit 1) and ⟨4, 2⟩, not at ⟨3, 0⟩, ⟨3, 1⟩ or ⟨4, 3⟩. The
// misrouting error names the destination as ⟨stage, column⟩.
func TestCheckCommUpperColumns(t *testing.T) {
	for _, c := range []struct {
		node int32
		ok   bool
	}{
		{3*4 + 2, true}, {3*4 + 3, true}, {4*4 + 2, true},
		{3*4 + 0, false}, {3*4 + 1, false}, {4*4 + 3, false},
		{5*4 + 2, true}, {5*4 + 1, false},
	} {
		err := CheckComm(commState4(map[int32]int32{2: c.node}))
		if (err == nil) != c.ok {
			t.Errorf("packet for ⟨4, 2⟩ at node %d: %v, want ok %v", c.node, err, c.ok)
		}
	}
	err := CheckComm(commState4(map[int32]int32{9: 5*4 + 0})) // packet 9: node 25 = ⟨6, 1⟩
	if err == nil || !strings.Contains(err.Error(), "destination ⟨6, 1⟩") || !strings.Contains(err.Error(), "misrouted to ⟨5, 0⟩") {
		t.Errorf("packet for ⟨6, 1⟩ at ⟨5, 0⟩: %v", err)
	}
}

// StepCommKeep refuses edge index len(Edges) (one past the last) with an
// error, as StepComm does.
func TestStepCommKeepEdgeRange(t *testing.T) {
	net, err := BuildComm(2, 1, seeds.Rand(31))
	if err != nil {
		t.Fatal(err)
	}
	s, err := InitComm(net, []int32{4, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, ei := range []int32{int32(len(net.Edges)), -1} {
		if _, err := StepCommKeep(s, []int32{ei}); err == nil {
			t.Errorf("edge %d accepted", ei)
		}
	}
}

// DoneKeep: true exactly when every packet sits in its destination node's
// buffer; packet 0 counts like any other.
func TestDoneKeep(t *testing.T) {
	all := map[int32]int32{}
	for p := range int32(12) {
		all[p] = 16 + p
	}
	if s := commState4(all); !s.DoneKeep() {
		t.Error("every packet at its destination: DoneKeep false")
	}
	for _, p := range []int32{0, 5, 11} {
		m := map[int32]int32{}
		for q, v := range all {
			m[q] = v
		}
		m[p] = p // at its start node, not its destination
		if s := commState4(m); s.DoneKeep() {
			t.Errorf("packet %d at node %d (destination %d): DoneKeep true", p, p, 16+p)
		}
	}
	if s := commState4(map[int32]int32{}); !s.DoneKeep() {
		t.Error("empty buffers: DoneKeep false")
	}
}

// Step and CheckInvariants refuse an index one past the end (packet
// len(Pos), node Nodes()) with an error, not a panic.
func TestStepAndInvariantsRanges(t *testing.T) {
	net := build(t, 4, 1, 32)
	s, err := Init(net, 1, perm.Identity(4))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Step(s, []Move{{Packet: int32(len(s.Pos)), Edge: 0}}); !errors.Is(err, ErrIllegal) {
		t.Errorf("packet %d (one past the last): %v", len(s.Pos), err)
	}
	x := s.Clone()
	x.Count[x.Pos[0]]--
	x.Pos[0] = int32(net.Nodes())
	if err := CheckInvariants(x); err == nil {
		t.Errorf("packet at node %d (one past the last) accepted", net.Nodes())
	}
}

// greedy is a router for hand-checked runs: every node moves its first
// packet along the first out edge into the output set the packet's
// destination bit names.
func greedy(net *Network) routerFunc {
	return func(v *View, m []Move) []Move {
		h := v.Buffer[0]
		for _, o := range v.Out {
			if o.Lower == net.GoesLower(h.Dest, v.Stage) {
				return append(m, Move{Packet: h.Packet, Edge: o.Edge})
			}
		}
		return m
	}
}

// On N = 2 the permutation (1 0) is routed in one step: both inputs send at
// once, into different outputs. So RunRouter reports 1 step, 2 moves, 2
// delivered and a largest buffer of 1; AfterStep is called once, with t = 1
// and both deliveries. Run again from the delivered state, RunRouter counts
// both packets as delivered before any step and takes none. An error from
// AfterStep stops the run and comes back wrapped in a *StepError for step 0.
func TestRunRouterCountsN2(t *testing.T) {
	net := build(t, 2, 1, 33)
	s, err := Init(net, 1, []int32{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	res, end, err := RunRouter(s, greedy(net), nil, RouterOptions{MaxSteps: 10, AfterStep: func(st int, _ *State, ev Events) error {
		calls++
		if st != 1 || ev.Moves != 2 || len(ev.Delivered) != 2 {
			t.Errorf("AfterStep(t = %d): %d moves, %d delivered; want t = 1, 2, 2", st, ev.Moves, len(ev.Delivered))
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Steps != 1 || res.Moves != 2 || res.Delivered != 2 || res.MaxBuffer != 1 || calls != 1 {
		t.Fatalf("result %+v after %d AfterStep calls; want complete, 1 step, 2 moves, 2 delivered, max buffer 1, 1 call", res, calls)
	}
	res, _, err = RunRouter(end, greedy(net), nil, RouterOptions{MaxSteps: 10})
	if err != nil || !res.Complete || res.Steps != 0 || res.Delivered != 2 || res.Moves != 0 {
		t.Fatalf("from the delivered state: %+v, %v; want complete, 0 steps, 2 delivered", res, err)
	}
	stop := errors.New("stop")
	_, _, err = RunRouter(s, greedy(net), nil, RouterOptions{MaxSteps: 10, AfterStep: func(int, *State, Events) error { return stop }})
	var se *StepError
	if !errors.As(err, &se) || se.Step != 0 || !errors.Is(err, stop) {
		t.Fatalf("AfterStep error: got %v", err)
	}
}

// A router naming packet len(Pos) or edge len(Edges) (one past the last) is
// refused with ErrIllegal, not a panic.
func TestRunRouterRefusesOnePastEnd(t *testing.T) {
	net := build(t, 4, 1, 34)
	s, _ := Init(net, 1, perm.Identity(4))
	for _, bad := range []func(v *View) Move{
		func(v *View) Move { return Move{Packet: int32(len(s.Pos)), Edge: v.Out[0].Edge} },
		func(v *View) Move { return Move{Packet: v.Buffer[0].Packet, Edge: int32(len(net.Edges))} },
	} {
		_, _, err := RunRouter(s, routerFunc(func(v *View, m []Move) []Move { return append(m, bad(v)) }), nil, RouterOptions{MaxSteps: 5})
		if !errors.Is(err, ErrIllegal) {
			t.Errorf("got %v, want ErrIllegal", err)
		}
	}
}

// A node holding two packets sees both in its View, and no node sees a
// packet that stands elsewhere: two packets are walked by hand (Step) into
// one node of stage 1, then RunRouter's first views are compared with the
// positions.
func TestRunRouterViewsOfFullNode(t *testing.T) {
	const n = 8
	for seed := range uint64(20) {
		net := build(t, n, 2, 40+seed)
		// find a stage-1 node w in the upper set with in-edges from two
		// different inputs a ≠ b
		var ea, eb int32 = -1, -1
		for w := int32(n); w < n+n/2 && eb < 0; w++ {
			ea, eb = -1, -1
			for ei, e := range net.Edges {
				if e.To != w {
					continue
				}
				if ea < 0 {
					ea = int32(ei)
				} else if net.Edges[ea].From != e.From {
					eb = int32(ei)
					break
				}
			}
		}
		if eb < 0 {
			continue
		}
		a, b := net.Edges[ea].From, net.Edges[eb].From
		p := make([]int32, n)
		for i := range p {
			p[i] = perm.None
		}
		p[a], p[b] = 0, 1 // destinations 0 and 1: the upper half, as w
		s, err := Init(net, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := int32(0), int32(1)
		if a > b {
			pa, pb = 1, 0 // packets are named by source order
		}
		if s, _, err = Step(s, []Move{{Packet: pa, Edge: ea}}); err != nil {
			t.Fatal(err)
		}
		if s, _, err = Step(s, []Move{{Packet: pb, Edge: eb}}); err != nil {
			t.Fatal(err)
		}
		w := net.Edges[ea].To
		if s.Count[w] != 2 {
			t.Fatalf("node %d holds %d packets, want 2", w, s.Count[w])
		}
		views := 0
		_, _, err = RunRouter(s, routerFunc(func(v *View, m []Move) []Move {
			views++
			want := 0
			for q, at := range s.Pos {
				if at == v.Node {
					want++
					found := false
					for _, h := range v.Buffer {
						found = found || h.Packet == int32(q)
					}
					if !found {
						t.Errorf("seed %d: node %d does not see its packet %d", seed, v.Node, q)
					}
				}
			}
			if len(v.Buffer) != want {
				t.Errorf("seed %d: node %d sees %d packets, holds %d", seed, v.Node, len(v.Buffer), want)
			}
			return m
		}), nil, RouterOptions{MaxSteps: 1})
		if err != nil {
			t.Fatal(err)
		}
		if views != 1 {
			t.Fatalf("seed %d: %d views at step 0, want 1 (only node %d holds packets)", seed, views, w)
		}
		return
	}
	t.Fatal("no network with a stage-1 node fed by two inputs")
}

// A step with no exchanges is legal (no line active) and changes nothing,
// under both readings.
func TestStepCommEmptyStep(t *testing.T) {
	net, err := BuildComm(2, 1, seeds.Rand(35))
	if err != nil {
		t.Fatal(err)
	}
	s, err := InitComm(net, []int32{7, 6, 5, 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, step := range map[string]func(CommState, []int32) (CommState, error){"StepComm": StepComm, "StepCommKeep": StepCommKeep} {
		x, err := step(s, nil)
		if err != nil {
			t.Fatalf("%s with no exchanges: %v", name, err)
		}
		for v := range s.Buf {
			if x.Buf[v] != s.Buf[v] {
				t.Fatalf("%s with no exchanges: node %d holds %d, held %d", name, v, x.Buf[v], s.Buf[v])
			}
		}
		for p := range s.Delivered {
			if x.Delivered[p] {
				t.Fatalf("%s with no exchanges: packet %d delivered", name, p)
			}
		}
	}
}
