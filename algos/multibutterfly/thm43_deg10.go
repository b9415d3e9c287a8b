package multibutterfly

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sort"

	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
)

// Theorem 4.3's degree reduction (004_8aa7b4c265a7324b.txt §4.4), built as
// a graph on the proof's network (models/multibutterfly.Thm43Network):
//
//   - "We can apply Theorem 4.2 to sets of d nonadjacent expanders":
//     expander layers 0 … G−1 in the translates S_j = {j, j + G/d, …,
//     j + (d−1)G/d} (j < G/d), G = d⌊(P−1)/d⌋. Layer P − 1 ends at stage
//     P, which the proof puts on 2d-cycles (below), so it cannot be a copy
//     in a Theorem 4.2 set; layers G … P−1 are "the remaining stages"
//     ("otherwise, we treat the nodes in the remaining stages in the same
//     way we treat the nodes of the first log 2d stages of the
//     Multi-Butterfly"): stages G+1 … P−1 become cycles.
//   - Theorem 4.2 on a set: copy k is layer ℓ_k; the colour-k edge (v, u)
//     of the (identical) expander becomes the line v@ℓ_k — u@(ℓ_k+1), and
//     the copies of v in the set's sender stages (and of u in its receiver
//     stages) form a cycle. A node whose sender set and receiver set have
//     different stages lies on two cycles.
//   - "We replace each node in the first log 2d [stages] of the
//     Multi-Butterfly by a cycle of 2d vertices. Each new vertex is connected
//     to one backward and one forward edge of the original node": a cycle
//     node's edge of colour c sits at its vertex c; the cycle has max(back,
//     forward) vertices (2d in the multi-butterfly, d in the expander part).
//   - "We apply Theorem 4.2 to the remaining stages of the Multi-Butterfly":
//     a level i ≥ log 2d has 2^i ≥ 2d splitters, all identical; pattern c
//     (c < 2d) is the node range [c·n/2d, (c+1)·n/2d) and copy c keeps its
//     colour-c edges; the cycle of position r joins r + c·n/2d, c < 2d,
//     within one stage.
//   - Direct edges are lines.
//
// A layer not realized by Theorem 4.2 (the remaining expander layers, the
// first log 2d multi-butterfly levels, the direct layers) is "full": each
// of its edges is one line, between the cycle vertex of its colour at a
// cycle node and the node's one vertex otherwise. Where such a layer meets
// a Theorem 4.2 stage (stage G, stage P + log 2d) that stage's vertices
// keep every edge of the full layer.

// Deg10 line kinds.
const (
	LineFull  int8 = iota // carries one original edge (Edge)
	LineThm42             // a Theorem 4.2 line: copy Copy of its set, carries the set's colour-Copy edges
	LineCycle             // a cycle line
)

// Deg10 vertex kinds.
const (
	VertexSingle int8 = iota // the node's only vertex
	VertexCycle              // vertex Slot of a cycle node
)

// Deg10Vertex is a vertex of the reduced graph.
type Deg10Vertex struct {
	Node int32 // the original node (stage·n + q)
	Kind int8
	Slot int8 // the cycle slot (VertexCycle), else 0
	Part int8 // 0: stages 0 … P−1; 1: stages P … P + log n; 2: the rest
}

// Deg10Line is a line of the reduced graph.
type Deg10Line struct {
	A, B int32 // vertex indices (A at the lower stage, or the cycle's earlier slot)
	Kind int8
	Edge int32 // the original edge (LineFull, LineThm42), −1 for cycle lines
}

// Deg10 is Theorem 4.3's reduced network.
type Deg10 struct {
	Net      *mb.Thm43Network
	Vertices []Deg10Vertex
	Lines    []Deg10Line
	// First[v] is the first vertex of original node v (its cycle vertex 0
	// for a cycle node); Len[v] its number of vertices.
	First, Len []int32
	// Sets are the expander part's Theorem 4.2 sets (layers in copy order);
	// G is the number of layers they cover; Cycle[s] says stage s's nodes
	// are cycles; L2d = log 2d; Fb the number of multi-butterfly stages
	// on cycles (min(log 2d, log n), ± 1 under the Deg10Fb faults).
	Sets  [][]int
	G     int
	Cycle []bool
	L2d   int
	Fb    int
}

// Deg10Fault plants a fault in the construction (props' power checks).
type Deg10Fault int

// The planted construction faults.
const (
	Deg10NoFault     Deg10Fault = iota
	Deg10DropCycle              // the last cycle line of one node is missing
	Deg10ShortCycle             // multi-butterfly cycles of d vertices, not 2d (edge c at vertex c mod d)
	Deg10DoubleSlot             // a cycle node's forward edge c at vertex c mod d (two on one vertex)
	Deg10MergeTwoOne            // (MergeDeg10) two vertices of one part on one processor
	Deg10ShiftRecv              // a cycle node's backward edge c at slot (c+1) mod l (its process is elsewhere when the sender talks)
	Deg10FbPlus                 // log 2d + 1 multi-butterfly stages on cycles (a consistent construction, one stage too many)
	Deg10FbMinus                // log 2d − 1 multi-butterfly stages on cycles
)

// BuildThm43Deg10 builds the reduced network of t (d ≥ 2; needs P − 1 ≥
// 2d so that the translates are nonadjacent).
func BuildThm43Deg10(t *mb.Thm43Network, fault Deg10Fault) (*Deg10, error) {
	return buildThm43Deg10(t, fault, false)
}

// BuildThm43Deg10Even is the repaired grouping: G = d·⌊(P−1)/d⌋ lowered
// by d when G/d is odd, so that every translate {j, j + G/d, …} holds
// layers of one parity and is idle in every other iteration (the layers
// past G become cycle stages, as the proof's remaining stages).
func BuildThm43Deg10Even(t *mb.Thm43Network, fault Deg10Fault) (*Deg10, error) {
	return buildThm43Deg10(t, fault, true)
}

func buildThm43Deg10(t *mb.Thm43Network, fault Deg10Fault, even bool) (*Deg10, error) {
	n, d, P := t.N, t.D, t.P
	g := &Deg10{Net: t, L2d: bits.Len(uint(2*d)) - 1}
	g.G = d * ((P - 1) / d)
	if even && (g.G/d)%2 == 1 {
		g.G -= d
	}
	if g.G/d < 2 {
		return nil, fmt.Errorf("multibutterfly: P − 1 = %d: need at least 2d = %d expander layers for sets of d nonadjacent layers", P-1, 2*d)
	}
	for j := range g.G / d {
		var s []int
		for k := range d {
			s = append(s, j+k*(g.G/d))
		}
		g.Sets = append(g.Sets, s)
	}
	stages := t.Stages()
	g.Cycle = make([]bool, stages)
	for s := g.G + 1; s < P; s++ {
		g.Cycle[s] = true
	}
	fb := min(g.L2d, t.LogN) // multi-butterfly levels on cycles
	switch fault {
	case Deg10FbPlus:
		fb = min(fb+1, t.LogN)
	case Deg10FbMinus:
		fb = max(fb-1, 0)
	}
	g.Fb = fb
	for s := P; s < P+fb; s++ {
		g.Cycle[s] = true
	}
	// edges by node
	out := make([][]int32, t.Nodes())
	in := make([][]int32, t.Nodes())
	for i, e := range t.Edges {
		out[e.From] = append(out[e.From], int32(i))
		in[e.To] = append(in[e.To], int32(i))
	}
	part := func(s int) int8 {
		switch {
		case s < P:
			return 0
		case s <= t.FirstDirect():
			return 1
		}
		return 2
	}
	g.First = make([]int32, t.Nodes())
	g.Len = make([]int32, t.Nodes())
	for v := range t.Nodes() {
		s := v / n
		g.First[v] = int32(len(g.Vertices))
		if !g.Cycle[s] {
			g.Vertices = append(g.Vertices, Deg10Vertex{Node: int32(v), Kind: VertexSingle, Part: part(s)})
			g.Len[v] = 1
			continue
		}
		l := max(len(in[v]), len(out[v]))
		if fault == Deg10ShortCycle && s >= P {
			l = d
		}
		for k := range l {
			g.Vertices = append(g.Vertices, Deg10Vertex{Node: int32(v), Kind: VertexCycle, Slot: int8(k), Part: part(s)})
		}
		g.Len[v] = int32(l)
		for k := range l {
			if fault == Deg10DropCycle && v == P*n && k == l-1 {
				continue
			}
			g.Lines = append(g.Lines, Deg10Line{A: g.First[v] + int32(k), B: g.First[v] + int32((k+1)%l), Kind: LineCycle, Edge: -1})
		}
	}
	// at returns the vertex of node v that carries edge ei (forward: v is
	// its From).
	at := func(v int32, ei int32, forward bool) int32 {
		if !g.Cycle[int(v)/n] {
			return g.First[v]
		}
		c := t.Edges[ei].Colour
		if c >= g.Len[v] || fault == Deg10DoubleSlot && forward {
			c %= int32(d)
		}
		if fault == Deg10ShiftRecv && !forward {
			c = (c + 1) % g.Len[v]
		}
		return g.First[v] + c
	}
	setOf := make([]int, P) // layer → set index (−1: full)
	copyOf := make([]int, P)
	for l := range setOf {
		setOf[l] = -1
	}
	for j, s := range g.Sets {
		for k, l := range s {
			setOf[l], copyOf[l] = j, k
		}
	}
	w := n / (2 * d) // a multi-butterfly pattern's node range
	for i, e := range t.Edges {
		s := int(e.Stage)
		switch {
		case t.Part[i] == 0 && setOf[s] >= 0:
			if int(e.Colour) == copyOf[s] {
				g.Lines = append(g.Lines, Deg10Line{A: g.First[e.From], B: g.First[e.To], Kind: LineThm42, Edge: int32(i)})
			}
		case t.Part[i] == 1 && s-P >= fb:
			q := int(e.From) % n
			if w > 0 && int(e.Colour) == q/w {
				g.Lines = append(g.Lines, Deg10Line{A: g.First[e.From], B: g.First[e.To], Kind: LineThm42, Edge: int32(i)})
			}
		default:
			g.Lines = append(g.Lines, Deg10Line{A: at(e.From, int32(i), true), B: at(e.To, int32(i), false), Kind: LineFull, Edge: int32(i)})
		}
	}
	// Theorem 4.2 cycles of the expander part: one per node and distinct
	// stage list (a node's sender and receiver cycles coincide when the
	// lists are equal).
	for v := range n {
		seen := map[string]bool{}
		addCyc := func(st []int) {
			key := fmt.Sprint(st)
			if seen[key] {
				return
			}
			seen[key] = true
			for k := range st {
				a, b := g.First[st[k]*n+v], g.First[st[(k+1)%len(st)]*n+v]
				g.Lines = append(g.Lines, Deg10Line{A: a, B: b, Kind: LineCycle, Edge: -1})
			}
		}
		for _, s := range g.Sets {
			snd := append([]int(nil), s...)
			rcv := make([]int, len(s))
			for k, l := range s {
				rcv[k] = l + 1
			}
			addCyc(snd)
			addCyc(rcv)
		}
	}
	// Theorem 4.2 cycles of the multi-butterfly: stages that send or
	// receive on a level ≥ log 2d.
	if w > 0 {
		for s := P + fb; s <= t.FirstDirect(); s++ {
			sends := s < t.FirstDirect() && s-P >= fb
			recvs := s-1-P >= fb
			if !sends && !recvs {
				continue
			}
			for r := range w {
				for c := range 2 * d {
					a, b := g.First[s*n+r+c*w], g.First[s*n+r+((c+1)%(2*d))*w]
					g.Lines = append(g.Lines, Deg10Line{A: a, B: b, Kind: LineCycle, Edge: -1})
				}
			}
		}
	}
	return g, nil
}

// Degrees returns every vertex's degree (parallel lines counted: a
// 2-cycle is a double line, as in Theorem 4.2's G').
func (g *Deg10) Degrees() []int {
	deg := make([]int, len(g.Vertices))
	for _, l := range g.Lines {
		deg[l.A]++
		deg[l.B]++
	}
	return deg
}

// SimpleDegrees returns every vertex's degree in the simple graph:
// distinct neighbours, so a double line (a 2-cycle of Theorem 4.2, or a
// cycle line beside a line of the same two vertices) counts once.
func (g *Deg10) SimpleDegrees() []int {
	nb := make([]map[int32]bool, len(g.Vertices))
	for _, l := range g.Lines {
		for _, e := range [2][2]int32{{l.A, l.B}, {l.B, l.A}} {
			if nb[e[0]] == nil {
				nb[e[0]] = map[int32]bool{}
			}
			nb[e[0]][e[1]] = true
		}
	}
	deg := make([]int, len(g.Vertices))
	for v, m := range nb {
		deg[v] = len(m)
	}
	return deg
}

// Census returns, per part, how many vertices have each degree.
func (g *Deg10) Census() [3]map[int]int {
	var c [3]map[int]int
	for p := range c {
		c[p] = map[int]int{}
	}
	for v, k := range g.Degrees() {
		c[g.Vertices[v].Part][k]++
	}
	return c
}

// CheckDeg10 validates the construction: every cycle node's lines form
// one cycle through its vertices in slot order, every edge of a full
// layer is carried by exactly one line between the right nodes, and no
// vertex carries two edges of one direction in a full layer.
func CheckDeg10(g *Deg10) error {
	t := g.Net
	n := t.N
	cyc := map[[2]int32]int{}
	carried := make([]int, len(t.Edges))
	fwd := map[int32]int{}
	bwd := map[int32]int{}
	for _, l := range g.Lines {
		if int(l.A) >= len(g.Vertices) || int(l.B) >= len(g.Vertices) {
			return fmt.Errorf("multibutterfly: line (%d, %d) out of range", l.A, l.B)
		}
		switch l.Kind {
		case LineCycle:
			cyc[[2]int32{min(l.A, l.B), max(l.A, l.B)}]++
		case LineFull:
			e := t.Edges[l.Edge]
			if g.Vertices[l.A].Node != e.From || g.Vertices[l.B].Node != e.To {
				return fmt.Errorf("multibutterfly: line for edge %d joins nodes %d, %d; want %d, %d", l.Edge, g.Vertices[l.A].Node, g.Vertices[l.B].Node, e.From, e.To)
			}
			carried[l.Edge]++
			if g.Vertices[l.A].Kind == VertexCycle {
				fwd[l.A]++
			}
			if g.Vertices[l.B].Kind == VertexCycle {
				bwd[l.B]++
			}
		}
	}
	// In vertex order, so that the error (and the evidence that quotes
	// it) names the same vertex on every run.
	for _, v := range slices.Sorted(maps.Keys(fwd)) {
		if k := fwd[v]; k > 1 {
			return fmt.Errorf("multibutterfly: cycle vertex %d (node %d) carries %d forward edges", v, g.Vertices[v].Node, k)
		}
	}
	for _, v := range slices.Sorted(maps.Keys(bwd)) {
		if k := bwd[v]; k > 1 {
			return fmt.Errorf("multibutterfly: cycle vertex %d (node %d) carries %d backward edges", v, g.Vertices[v].Node, k)
		}
	}
	for v := range t.Nodes() {
		if !g.Cycle[v/n] {
			continue
		}
		l := g.Len[v]
		for k := range l {
			a, b := g.First[v]+k, g.First[v]+(k+1)%l
			if cyc[[2]int32{min(a, b), max(a, b)}] == 0 {
				return fmt.Errorf("multibutterfly: cycle of node %d (stage %d) has no line between slots %d and %d", v, v/n, k, (k+1)%l)
			}
		}
	}
	full := g.fullEdges()
	for i := range t.Edges {
		if full[i] && carried[i] != 1 {
			return fmt.Errorf("multibutterfly: edge %d (stage %d) carried by %d lines, want 1", i, t.Edges[i].Stage, carried[i])
		}
	}
	return nil
}

// fullEdges marks the edges of layers realized by full lines.
func (g *Deg10) fullEdges() []bool {
	t := g.Net
	inSet := make([]bool, t.P)
	for _, s := range g.Sets {
		for _, l := range s {
			inSet[l] = true
		}
	}
	fb := g.Fb
	f := make([]bool, len(t.Edges))
	for i, e := range t.Edges {
		s := int(e.Stage)
		switch t.Part[i] {
		case 0:
			f[i] = !inSet[s]
		case 1:
			f[i] = s-t.P < fb
		default:
			f[i] = true
		}
	}
	return f
}

// MergeDeg10 is the merge map of Theorem 4.3's last step ("we can
// simulate each iteration on N processors"): the vertices of each part in
// construction order (stage, position, slot), the k-th vertex of every
// part on processor k. It returns the processor of each vertex and the
// number of processors. Deg10MergeTwoOne plants two vertices of part 0 on
// processor 0.
func MergeDeg10(g *Deg10, fault Deg10Fault) ([]int32, int) {
	proc := make([]int32, len(g.Vertices))
	var cnt [3]int32
	for v, x := range g.Vertices {
		proc[v] = cnt[x.Part]
		cnt[x.Part]++
	}
	if fault == Deg10MergeTwoOne {
		proc[1] = 0
	}
	return proc, int(max(cnt[0], cnt[1], cnt[2]))
}

// MergeDeg10Balanced is a second merge map: the vertices of the
// multi-butterfly part by decreasing degree, those of the other two parts
// by increasing degree (ties in construction order), the k-th of each on
// processor k — the largest degree beside the smallest.
func MergeDeg10Balanced(g *Deg10) ([]int32, int) {
	deg := g.Degrees()
	var byPart [3][]int
	for v, x := range g.Vertices {
		byPart[x.Part] = append(byPart[x.Part], v)
	}
	proc := make([]int32, len(g.Vertices))
	procs := 0
	for p, l := range byPart {
		sort.SliceStable(l, func(i, j int) bool {
			if p == 1 {
				return deg[l[i]] > deg[l[j]]
			}
			return deg[l[i]] < deg[l[j]]
		})
		for k, v := range l {
			proc[v] = int32(k)
		}
		procs = max(procs, len(l))
	}
	return proc, procs
}

// MergeDegrees checks a merge map (every processor hosts at most one
// vertex of each part) and returns each processor's degree: the lines
// between its vertices and other processors' (a line inside one processor
// is not a link; parallel links counted).
func MergeDegrees(g *Deg10, proc []int32, procs int) ([]int, error) {
	if len(proc) != len(g.Vertices) {
		return nil, fmt.Errorf("multibutterfly: merge map has %d entries, want %d", len(proc), len(g.Vertices))
	}
	host := make([][3]int32, procs)
	for p := range host {
		host[p] = [3]int32{-1, -1, -1}
	}
	for v, p := range proc {
		if p < 0 || int(p) >= procs {
			return nil, fmt.Errorf("multibutterfly: vertex %d on processor %d, want [0, %d)", v, p, procs)
		}
		pt := g.Vertices[v].Part
		if host[p][pt] >= 0 {
			return nil, fmt.Errorf("multibutterfly: processor %d hosts vertices %d and %d of part %d", p, host[p][pt], v, pt)
		}
		host[p][pt] = int32(v)
	}
	deg := make([]int, procs)
	for _, l := range g.Lines {
		if proc[l.A] != proc[l.B] {
			deg[proc[l.A]]++
			deg[proc[l.B]]++
		}
	}
	return deg, nil
}

// Deg10Steps is one iteration's length on the pieces of the reduced
// network, measured by simulation.
type Deg10Steps struct {
	// Expander is the longest Theorem 4.2 simulation of an expander set,
	// MB42 of a multi-butterfly level ≥ log 2d; CycleExp and CycleMB are
	// the longest walk of a cycle node's process (expander part,
	// multi-butterfly); Direct is the most lines a direct-part vertex uses
	// in one iteration.
	Expander, MB42, CycleExp, CycleMB, Direct int
	// MaxLines is the most active lines at one vertex in one step of a
	// Theorem 4.2 simulation; Missed the first process that did not meet
	// its neighbours ("" if none): in a Theorem 4.2 simulation, or on a
	// full line between two cycle nodes whose walks reach its two ends in
	// different slots (both walks start at slot 0 together and spend one
	// talk-and-move window per slot, so slot k is visited in window k).
	MaxLines int
	Missed   string
	// Interface lists the single vertices that carry more than one line of
	// a full layer (their edges are not scheduled here).
	Interface []string
	// Conflicts lists, per parity, the expander stages whose vertices must
	// move on two different Theorem 4.2 cycles in one iteration, and the
	// interface stage G when its own process rides its set's cycle in the
	// iteration its full lines are active ("" none).
	Conflicts []string
}

// SimulateDeg10Iteration measures one iteration on every piece of g: each
// expander set and each multi-butterfly level ≥ log 2d by SimulateCycles
// with sched on the graph H read back from g's Theorem 4.2 lines (every
// cycle line sched uses must be in g), each cycle node by walking its
// process once around its cycle (a talk step at each vertex with a line of
// the active layer, a move step per cycle line), and the direct part by
// counting lines per vertex; then where the pieces meet it lists the
// interface vertices (left unscheduled) and the Conflicts that stop the
// pieces' schedules from running together in one iteration. It returns an
// error when a piece cannot be simulated (a missing line, a colouring
// that is not proper).
func SimulateDeg10Iteration(g *Deg10, sched CycleSchedule) (Deg10Steps, error) {
	t := g.Net
	n, d := t.N, t.D
	var res Deg10Steps
	cycLines := map[[2]int32]int{}
	for _, l := range g.Lines {
		if l.Kind == LineCycle {
			cycLines[[2]int32{min(l.A, l.B), max(l.A, l.B)}]++
		}
	}
	// hasMove checks that every move line of sched exists on the cycle
	// through vertices vs (position j → vs[j]).
	hasMove := func(vs []int32, k int) error {
		for _, ln := range sched.Lines(k, len(vs)) {
			a, b := vs[ln[0]], vs[ln[1]]
			if a != b && cycLines[[2]int32{min(a, b), max(a, b)}] == 0 {
				return fmt.Errorf("multibutterfly: %s schedule moves along (%d, %d), which is no cycle line", sched.Name, a, b)
			}
		}
		return nil
	}
	run := func(h expander.Graph, col [][]int32, copies int, cycles [][]int32) (int, error) {
		for _, vs := range cycles {
			for k := range copies {
				if err := hasMove(vs, k); err != nil {
					return 0, err
				}
			}
		}
		r, err := SimulateCycles(h, col, sched)
		if err != nil {
			return 0, err
		}
		res.MaxLines = max(res.MaxLines, r.MaxLines)
		if r.Missed != "" && res.Missed == "" {
			res.Missed = r.Missed
		}
		return r.Steps, nil
	}
	// expander sets: H from the lines of each copy
	byLayer := map[int][]Deg10Line{}
	for _, l := range g.Lines {
		if l.Kind == LineThm42 {
			e := t.Edges[l.Edge]
			byLayer[int(e.Stage)] = append(byLayer[int(e.Stage)], l)
		}
	}
	for _, s := range g.Sets {
		h := expander.Graph{NA: n, NB: n, Adj: make([][]int32, n)}
		col := make([][]int32, n)
		for k, layer := range s {
			for _, l := range byLayer[layer] {
				a := int(g.Vertices[l.A].Node) % n
				b := int32(int(g.Vertices[l.B].Node) % n)
				h.Adj[a] = append(h.Adj[a], b)
				col[a] = append(col[a], int32(k))
			}
		}
		var cycles [][]int32
		for v := range n {
			snd := make([]int32, d)
			rcv := make([]int32, d)
			for k, l := range s {
				snd[k], rcv[k] = g.First[l*n+v], g.First[(l+1)*n+v]
			}
			cycles = append(cycles, snd, rcv)
		}
		st, err := run(h, col, d, cycles)
		if err != nil {
			return res, fmt.Errorf("expander set %v: %w", s, err)
		}
		res.Expander = max(res.Expander, st)
	}
	// multi-butterfly levels ≥ log 2d
	fb := g.Fb
	w := n / (2 * d)
	for lv := fb; lv < t.LogN && w > 0; lv++ {
		s := t.P + lv
		h := expander.Graph{NA: w, NB: w, Adj: make([][]int32, w)}
		col := make([][]int32, w)
		for _, l := range byLayer[s] {
			a := int(g.Vertices[l.A].Node) % n
			b := int(g.Vertices[l.B].Node) % n
			c := a / w
			if b/w != c {
				return res, fmt.Errorf("multibutterfly: level %d: line (%d, %d) leaves pattern %d", lv, a, b, c)
			}
			h.Adj[a%w] = append(h.Adj[a%w], int32(b%w))
			col[a%w] = append(col[a%w], int32(c))
		}
		var cycles [][]int32
		for _, st := range []int{s, s + 1} {
			for r := range w {
				vs := make([]int32, 2*d)
				for c := range 2 * d {
					vs[c] = g.First[st*n+r+c*w]
				}
				cycles = append(cycles, vs)
			}
		}
		st, err := run(h, col, 2*d, cycles)
		if err != nil {
			return res, fmt.Errorf("multi-butterfly level %d: %w", lv, err)
		}
		res.MB42 = max(res.MB42, st)
	}
	// cycle walks and direct lines, per parity of the active layers
	full := g.fullEdges()
	perParity := make([][2]int, len(g.Vertices)) // full lines of the layer active in parity p
	for _, l := range g.Lines {
		if l.Kind != LineFull {
			continue
		}
		e := t.Edges[l.Edge]
		if !full[l.Edge] {
			continue
		}
		p := int(e.Stage) % 2
		perParity[l.A][p]++
		perParity[l.B][p]++
		// the meeting step: both processes must be at the line's ends in
		// the same window
		va, vb := g.Vertices[l.A], g.Vertices[l.B]
		if va.Kind == VertexCycle && vb.Kind == VertexCycle && va.Slot != vb.Slot && res.Missed == "" {
			res.Missed = fmt.Sprintf("edge %d (layer %d): the sender's process talks from slot %d of node %d in window %d, the receiver's is at slot %d of node %d only in window %d", l.Edge, e.Stage, va.Slot, va.Node, va.Slot, vb.Slot, vb.Node, vb.Slot)
		}
	}
	for v := range t.Nodes() {
		s := v / n
		if g.Cycle[s] {
			l := int(g.Len[v])
			for p := range 2 {
				talks := 0
				for k := range l {
					a, b := g.First[v]+int32(k), g.First[v]+int32((k+1)%l)
					if perParity[a][p] > 0 {
						talks++
					}
					if cycLines[[2]int32{min(a, b), max(a, b)}] == 0 {
						return res, fmt.Errorf("multibutterfly: node %d (stage %d): its process cannot move from slot %d to %d", v, s, k, (k+1)%l)
					}
				}
				if s < t.P {
					res.CycleExp = max(res.CycleExp, talks+l)
				} else {
					res.CycleMB = max(res.CycleMB, talks+l)
				}
			}
			continue
		}
		x := g.First[v]
		for p := range 2 {
			if s > t.FirstDirect() {
				res.Direct = max(res.Direct, perParity[x][p])
			} else if perParity[x][p] > 1 {
				res.Interface = append(res.Interface, fmt.Sprintf("stage %d: %d full lines in one iteration", s, perParity[x][p]))
			}
		}
	}
	sort.Strings(res.Interface)
	res.Interface = compactStrings(res.Interface)
	res.Conflicts = g.conflicts()
	return res, nil
}

// conflicts finds, for each parity p, the expander stages whose nodes lie
// on two distinct cycles of sets that both have a layer of parity p (both
// move in that iteration), and stage G if the set of layer G − 1 moves in
// the iteration that activates layer G's full lines.
func (g *Deg10) conflicts() []string {
	var out []string
	if len(g.Sets) == 0 {
		return nil
	}
	k := g.G / g.Net.D
	setOf := func(l int) []int { return g.Sets[l%k] }
	active := func(s []int, p int) bool {
		for _, l := range s {
			if l%2 == p {
				return true
			}
		}
		return false
	}
	for p := range 2 {
		for s := 1; s < g.G; s++ {
			snd, rcv := setOf(s), setOf(s-1)
			if s%k == 0 && active(snd, p) && active(rcv, p) {
				out = append(out, fmt.Sprintf("parity %d: stage %d moves on the cycles of sets %v and %v", p, s, snd, rcv))
			}
		}
		if g.G%2 == p && active(setOf(g.G-1), p) {
			out = append(out, fmt.Sprintf("parity %d: stage G = %d sends on %d lines while its process rides the cycle of set %v", p, g.G, g.Net.D, setOf(g.G-1)))
		}
	}
	return out
}

// compactStrings drops repeated neighbours of a sorted list.
func compactStrings(l []string) []string {
	var out []string
	for i, s := range l {
		if i == 0 || s != l[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// GroupingConflicts is conflicts for any grouping of the expander layers
// 0 … G−1 into sets (not only translates), on layer numbers alone: set S's
// sender cycle runs through the stages S and its receiver cycle through S
// + 1 (one cycle when two sets' stage lists coincide); a cycle moves in
// parity p when a set using it has a layer of parity p. It lists, per
// parity, the stages on two distinct moving cycles, and stage G when its
// cycle moves in the parity of layer G (whose full lines it must serve at
// home). It panics if sets is not a partition of 0 … G−1.
func GroupingConflicts(sets [][]int, G int) []string {
	seen := make([]bool, G)
	type cyc struct{ par [2]bool }
	cycles := map[string]*cyc{}
	onStage := make([]map[string]bool, G+1)
	for s := range onStage {
		onStage[s] = map[string]bool{}
	}
	add := func(stages []int, par [2]bool) {
		st := append([]int(nil), stages...)
		sort.Ints(st)
		key := fmt.Sprint(st)
		c := cycles[key]
		if c == nil {
			c = &cyc{}
			cycles[key] = c
		}
		c.par[0] = c.par[0] || par[0]
		c.par[1] = c.par[1] || par[1]
		for _, s := range st {
			onStage[s][key] = true
		}
	}
	for _, set := range sets {
		var par [2]bool
		rcv := make([]int, len(set))
		for k, l := range set {
			if l < 0 || l >= G || seen[l] {
				panic(fmt.Sprintf("multibutterfly: GroupingConflicts: layer %d repeated or outside [0, %d)", l, G))
			}
			seen[l] = true
			par[l%2] = true
			rcv[k] = l + 1
		}
		add(set, par)
		add(rcv, par)
	}
	for l, ok := range seen {
		if !ok {
			panic(fmt.Sprintf("multibutterfly: GroupingConflicts: layer %d in no set", l))
		}
	}
	var out []string
	for p := range 2 {
		for s := range G {
			var moving []string
			for key := range onStage[s] {
				if cycles[key].par[p] {
					moving = append(moving, key)
				}
			}
			if len(moving) > 1 {
				sort.Strings(moving)
				out = append(out, fmt.Sprintf("parity %d: stage %d on moving cycles %v", p, s, moving))
			}
		}
		if G%2 == p {
			for key := range onStage[G] {
				if cycles[key].par[p] {
					out = append(out, fmt.Sprintf("parity %d: stage G = %d serves layer G while its cycle %s moves", p, G, key))
				}
			}
		}
	}
	return out
}

// EnumerateGroupings calls f on every partition of the layers 0 … G−1
// into sets of d pairwise nonadjacent layers (|a − b| ≥ 2), each set in
// increasing order, sets ordered by their least layer; f must not keep
// the slice. It returns the number of partitions.
func EnumerateGroupings(G, d int, f func([][]int)) int {
	used := make([]bool, G)
	var sets [][]int
	count := 0
	var fill func(cur []int, from int)
	var next func()
	next = func() {
		first := -1
		for l, u := range used {
			if !u {
				first = l
				break
			}
		}
		if first < 0 {
			count++
			f(sets)
			return
		}
		used[first] = true
		fill([]int{first}, first+2)
		used[first] = false
	}
	fill = func(cur []int, from int) {
		if len(cur) == d {
			sets = append(sets, cur)
			next()
			sets = sets[:len(sets)-1]
			return
		}
		for l := from; l < G; l++ {
			if used[l] {
				continue
			}
			used[l] = true
			fill(append(append([]int(nil), cur...), l), l+2)
			used[l] = false
		}
	}
	next()
	return count
}
