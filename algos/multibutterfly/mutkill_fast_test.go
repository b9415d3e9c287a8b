package multibutterfly

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// Tests written against the gremlins survivors of fast.go (issue 9 E); the
// audit, mutant by mutant, is docs/mutation/algos_mbfly_fast.md. Expected
// values come from runStepModel (the reference loop), from the Engine's
// documented contract (which networks and states it takes, what a reused
// engine keeps) or from sizes computed by hand from its documented layout.

// newEngineSafe is NewEngine with a panic turned into a value: the engine
// must refuse a network it cannot take, never crash on it.
func newEngineSafe(net *mb.Network) (e *Engine, panicked any) {
	defer func() { panicked = recover() }()
	return NewEngine(net), nil
}

// fitsSafe is e.fits with a panic turned into a value.
func fitsSafe(e *Engine, s mb.State) (ok bool, panicked any) {
	defer func() { panicked = recover() }()
	return e.fits(s), nil
}

// TestEngineTakesBoundaryShapes: the engine's doc names the only networks
// and states it leaves to the step-model loop (a misplaced edge, a colour
// used twice, more than 64 batches, a Count that is not the tally of Pos);
// every network the model's constructors make is none of them, down to
// N = 2 and d = 1, and so is every state mb.Init makes on it with
// 1 ≤ L ≤ 64. They run on the engine (no silent ten-fold slowdown), with
// runStepModel's answers; L = 65 falls back.
func TestEngineTakesBoundaryShapes(t *testing.T) {
	type shape struct {
		name string
		net  func() (*mb.Network, error)
	}
	var shapes []shape
	for _, c := range []struct{ n, d int }{{2, 1}, {2, 2}, {2, 3}, {4, 1}, {8, 1}, {16, 4}} {
		shapes = append(shapes, shape{fmt.Sprintf("Build(%d, %d)", c.n, c.d), func() (*mb.Network, error) {
			return mb.Build(c.n, c.d, seeds.Rand(0xb0d, uint64(c.n), uint64(c.d)))
		}})
	}
	shapes = append(shapes,
		shape{"BuildMGG(2)", func() (*mb.Network, error) { return mb.BuildMGG(2) }},
		shape{"BuildMGGShifted(4)", func() (*mb.Network, error) { return mb.BuildMGGShifted(4) }})
	for i, sh := range shapes {
		net, err := sh.net()
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(net)
		if !e.ok {
			t.Errorf("%s: the engine refuses a network the model built", sh.name)
			continue
		}
		for _, L := range []int{1, 2, 63, 64, 65} {
			s, err := mb.Init(net, L, perm.Random(net.N, seeds.Rand(0xb0d, uint64(i), uint64(L))))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := e.fits(s), L <= 64; got != want {
				t.Errorf("%s, L = %d: the engine takes the state: %v, want %v", sh.name, L, got, want)
			}
			for _, o := range []Options{{}, {Check: true}} {
				if d := diff(traceOf(runStepModel, s, o), traceOf(e.Run, s, o)); d != "" {
					t.Errorf("%s, L = %d, %+v: %s", sh.name, L, o, d)
				}
			}
		}
	}
}

// TestEngineRefusesMalformedNetworks: networks one edge away from a valid
// multi-butterfly that break what the engine relies on (every edge leads
// from stage s < log N to stage s + 1, colours in [0, 2d), no colour twice
// at a tail or at a head) are refused — NewEngine must not panic and must
// leave them to the step-model loop.
func TestEngineRefusesMalformedNetworks(t *testing.T) {
	base, err := mb.Build(8, 1, seeds.Rand(0xbad, 8))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(net *mb.Network)) *mb.Network {
		net := *base
		net.Edges = slices.Clone(base.Edges)
		f(&net)
		return &net
	}
	d2 := int32(2 * base.D)
	cases := []struct {
		name string
		net  *mb.Network
	}{
		// An edge leaving an output node ⟨log N, 0⟩ for a stage
		// log N + 1 that does not exist, in the last colour.
		{"edge out of stage log N", edit(func(net *mb.Network) {
			net.Edges = append(net.Edges, mb.Edge{From: net.Node(net.LogN, 0), To: int32(net.Nodes()), Stage: int32(net.LogN), Colour: d2 - 1})
		})},
		{"colour 2d", edit(func(net *mb.Network) { net.Edges[0].Colour = d2 })},
		{"colour used twice at a head", headTwice(t, base)},
	}
	for _, c := range cases {
		e, p := newEngineSafe(c.net)
		switch {
		case p != nil:
			t.Errorf("%s: NewEngine panics: %v", c.name, p)
		case e.ok:
			t.Errorf("%s: the engine takes the network", c.name)
		}
	}
}

// headTwice returns base with the colours of two out edges of one tail
// swapped so that some head is entered by two edges of one colour (tails
// keep distinct colours).
func headTwice(t *testing.T, base *mb.Network) *mb.Network {
	t.Helper()
	// headOf[c][to] = the edge of colour c into to.
	type key struct{ c, to int32 }
	into := map[key]int{}
	for i, e := range base.Edges {
		into[key{e.Colour, e.To}] = i
	}
	for v, out := range base.Out {
		for _, a := range out {
			for _, b := range out {
				ea, eb := base.Edges[a], base.Edges[b]
				// Give edge b edge a's colour: it must then share a head
				// with another edge of that colour.
				if j, ok := into[key{ea.Colour, eb.To}]; a != b && ok && base.Edges[j].From != int32(v) {
					net := *base
					net.Edges = slices.Clone(base.Edges)
					net.Edges[a].Colour, net.Edges[b].Colour = eb.Colour, ea.Colour
					return &net
				}
			}
		}
	}
	t.Fatal("no swap of two colours at a tail makes a head see one colour twice")
	return nil
}

// TestEngineHeadTwiceMatchesStepModel: on a network where two edges of one
// colour enter one head, a step that uses both is illegal for the model
// (two active lines at a node); Run must give runStepModel's answer, which
// on some of these permutations is that error.
func TestEngineHeadTwiceMatchesStepModel(t *testing.T) {
	base, err := mb.Build(8, 1, seeds.Rand(0xbad, 8))
	if err != nil {
		t.Fatal(err)
	}
	net := headTwice(t, base)
	illegal := 0
	for r := range 64 {
		s, err := mb.Init(net, 2, perm.Random(net.N, seeds.Rand(0xbad, 2, uint64(r))))
		if err != nil {
			t.Fatal(err)
		}
		want := traceOf(runStepModel, s, Options{})
		if d := diff(want, traceOf(Run, s, Options{})); d != "" {
			t.Fatalf("permutation %d: %s", r, d)
		}
		if want.err != "" {
			illegal++
		}
	}
	if illegal == 0 {
		t.Error("no permutation makes the reference use both edges into one head in one step")
	}
}

// TestEngineFitsRefusesBadStates: a state with a packet outside the
// network's nodes, or a destination outside [0, N), is not one the engine
// takes (fits' doc); fits must say so, not panic.
func TestEngineFitsRefusesBadStates(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(0xf175, 8))
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(net)
	cases := []struct {
		name string
		edit func(s *mb.State)
	}{
		{"packet at node Nodes()", func(s *mb.State) { s.Count[s.Pos[0]]--; s.Pos[0] = int32(net.Nodes()) }},
		{"destination N", func(s *mb.State) { s.Dest[0] = int32(net.N) }},
	}
	for _, c := range cases {
		s, _ := mb.Init(net, 4, perm.Identity(net.N))
		c.edit(&s)
		ok, p := fitsSafe(e, s)
		switch {
		case p != nil:
			t.Errorf("%s: fits panics: %v", c.name, p)
		case ok:
			t.Errorf("%s: the engine takes the state", c.name)
		}
	}
}

// reversedEdges returns net with its edge list in reverse order (Out
// renumbered): the same network, whose colour classes the engine visits in
// node order, against the edges' index order.
func reversedEdges(net *mb.Network) *mb.Network {
	r := *net
	r.Edges = slices.Clone(net.Edges)
	slices.Reverse(r.Edges)
	r.Out = make([][]int32, len(net.Out))
	for i, e := range r.Edges {
		r.Out[e.From] = append(r.Out[e.From], int32(i))
	}
	return &r
}

// TestEngineCheckEdgeOrder: when a step overfills more than one node, the
// model's error names the first move in the order it is given, and Run's
// is runStepModel's, which gives a class's moves by edge index. On a
// network whose edge indices run against node order, Check runs of the
// batch-ignoring fault (L = 1, so overfills are common) must still give
// runStepModel's errors.
func TestEngineCheckEdgeOrder(t *testing.T) {
	base, err := mb.Build(16, 2, seeds.Rand(0x0de, 16))
	if err != nil {
		t.Fatal(err)
	}
	net := reversedEdges(base)
	e := NewEngine(net)
	if !e.ok {
		t.Fatal("the engine refuses a network whose only change is the order of its edges")
	}
	capacity := 0
	for r := range 64 {
		s, err := mb.Init(net, 1+r%2, perm.Random(net.N, seeds.Rand(0x0de, uint64(r))))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{Fault: FaultIgnoreBatch, Check: true}, {Fault: FaultIgnoreBatch}} {
			want := traceOf(runStepModel, s, o)
			if d := diff(want, traceOf(e.Run, s, o)); d != "" {
				t.Fatalf("permutation %d, %+v: %s", r, o, d)
			}
			if want.capacity {
				capacity++
			}
		}
	}
	if capacity == 0 {
		t.Error("no run overfills a node")
	}
}

// allocSink keeps a cloned state on the heap (TestEngineReusedAllocates).
var allocSink *mb.State

// TestEngineReusedAllocates: a reused engine keeps its buffers, so a run
// allocates only the state it returns (its slices are the run's own): no
// more allocations than a clone of s kept on the heap (its four slices and
// the State value, which Run hands to the observer by address, so it
// lives on the heap). The networks (N ≤ 4) make at most N moves in a step
// (one stage per parity), so the moves buffer made for N is never
// outgrown.
func TestEngineReusedAllocates(t *testing.T) {
	for _, c := range []struct{ n, d, L int }{{4, 1, 2}, {4, 2, 1}, {2, 1, 1}} {
		net, err := mb.Build(c.n, c.d, seeds.Rand(0xa110c, uint64(c.n), uint64(c.d)))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := mb.Init(net, c.L, perm.Random(c.n, seeds.Rand(0xa110c, uint64(c.L))))
		e := NewEngine(net)
		var res Result
		run := func() {
			if res, _, err = e.Run(s, Options{}); err != nil || !res.Complete {
				t.Fatalf("%+v: %+v, %v", c, res, err)
			}
		}
		run()
		got := testing.AllocsPerRun(20, run)
		want := testing.AllocsPerRun(20, func() { c := s.Clone(); allocSink = &c })
		if got > want {
			t.Errorf("N = %d, d = %d, L = %d: a reused engine's run makes %.0f allocations, the returned state alone %.0f", c.n, c.d, c.L, got, want)
		}
	}
}

// TestEngineFreshBytes: a fresh engine's first run allocates about its
// documented layout, computed here by hand for N = 2^10, d = 2, L = 4 and a
// full permutation (P = N): hop 4 B per colour and inner node, the head
// check 1 bit per colour and node, first/top/mask 16 B per node, batch/
// dest/next 9 B per packet, the busy bitmap 1 bit per inner node, moves
// 12 B for each node of one parity's stages, and the returned state
// (4 B per packet for Source, Dest, Pos and per node for Count). The bound
// is twice that (append growth, size classes).
func TestEngineFreshBytes(t *testing.T) {
	const logN, d, L = 10, 2, 4
	n := 1 << logN
	net, err := mb.Build(n, d, seeds.Rand(0xb17e5, uint64(n)))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := mb.Init(net, L, perm.Random(n, seeds.Rand(0xb17e5, 1)))
	nodes, inner, d2 := net.Nodes(), n*logN, 2*d
	layout := 4*d2*inner + d2*nodes/8 + 16*nodes + 9*n + inner/8 + 12*n*(logN+1)/2 + 4*(3*n+nodes)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	res, _, err := NewEngine(net).Run(s, Options{})
	runtime.ReadMemStats(&m1)
	if err != nil || !res.Complete {
		t.Fatalf("%+v, %v", res, err)
	}
	got := m1.TotalAlloc - m0.TotalAlloc
	if got > uint64(2*layout) {
		t.Errorf("a fresh engine's first run allocates %d bytes, over twice its layout (%d)", got, layout)
	}
	t.Logf("a fresh engine's first run: %d bytes allocated, layout %d", got, layout)
}

// Run on a state the engine refuses because a packet is outside the network
// (a node ≥ Nodes(), a negative node, a destination ≥ N) falls back to the
// step model, which returns an error naming the packet — it used to panic
// indexing its per-node lists.
func TestRunRejectsPacketsOutsideTheNetwork(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(0xf175, 8))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(s *mb.State)
	}{
		{"packet at node Nodes()", func(s *mb.State) { s.Pos[0] = int32(net.Nodes()) }},
		{"packet at node −1", func(s *mb.State) { s.Pos[1] = -1 }},
		{"destination N", func(s *mb.State) { s.Dest[2] = int32(net.N) }},
	} {
		s, _ := mb.Init(net, 4, perm.Identity(net.N))
		c.edit(&s)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: Run panics: %v", c.name, p)
				}
			}()
			if _, _, err := Run(s, Options{}); err == nil || !strings.Contains(err.Error(), "outside") {
				t.Errorf("%s: Run returns error %v, want one saying the packet is outside", c.name, err)
			}
		}()
	}
}
