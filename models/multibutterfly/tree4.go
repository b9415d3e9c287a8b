package multibutterfly

import "fmt"

// §3.3 of 004_8aa7b4c265a7324b.txt: "By replacing each set of d edges
// adjacent to one node with a tree of depth log₃ d, one can decrease the
// degree to 4 adding no more than a factor of 2 log₃ d to the run-time."
//
// Tree4 builds that network from a multi-butterfly. A node's incident edges
// fall into at most four sets of at most d: the d edges into its upper
// output set, the d into its lower one, and its 2d incoming edges (an
// output of a concentrator has degree 2d) in two sets of d by edge index.
// Each set of g ≥ 2 edges becomes a ternary tree hanging from the node: a
// root joined to the node, every tree vertex with up to three children, and
// the vertices at h = ⌈log₃ g⌉ lines from the node (the leaves) each
// carrying up to three of the set's edges. An original edge (v, u) is then
// the path v → … → leaf_v — leaf_u → … → u of h_v + 1 + h_u lines (a set of
// one edge needs no tree: h = 0). Every vertex has degree ≤ 4: a node one
// line per set, a tree vertex one parent and ≤ 3 children or edges.

// Tree4 is the degree-4 network: vertices 0 … Nodes()−1 are the
// multi-butterfly's nodes, the rest tree vertices.
type Tree4 struct {
	Net      *Network
	Vertices int
	// Lines are the undirected lines of the network (parallel lines
	// possible when a set holds parallel edges).
	Lines [][2]int32
	// Path[e] lists the vertices of original edge e's path, from
	// Edges[e].From to Edges[e].To.
	Path [][]int32
	// Depth is the largest h of any tree (0 if every set has one edge).
	Depth int
}

// TreeDepth returns ⌈log₃ g⌉ for g ≥ 1 (0 for g = 1), exactly.
func TreeDepth(g int) int {
	h := 0
	for p := 1; p < g; p *= 3 {
		h++
	}
	return h
}

// BuildTree4 returns the degree-4 network of net; shallow (a planted fault,
// for props only) makes every tree one level shallower than ⌈log₃ g⌉
// (its leaves then carry up to 9 edges).
func BuildTree4(net *Network, shallow bool) (*Tree4, error) {
	if net == nil || len(net.Edges) == 0 {
		return nil, fmt.Errorf("multibutterfly: BuildTree4 needs a built network")
	}
	t := &Tree4{Net: net, Vertices: net.Nodes(), Path: make([][]int32, len(net.Edges))}
	// the sets of each node: edge indices, and whether the node is the
	// edge's From (its path segment is reversed for To)
	in := make([][]int32, net.Nodes())
	for i, e := range net.Edges {
		in[e.To] = append(in[e.To], int32(i))
	}
	// seg[e][0] is From's segment (node … leaf), seg[e][1] To's
	seg := make([][2][]int32, len(net.Edges))
	addSet := func(v int32, edges []int32, side int) {
		g := len(edges)
		if g == 0 {
			return
		}
		h := TreeDepth(g)
		if shallow && h > 0 {
			h--
		}
		t.Depth = max(t.Depth, h)
		if h == 0 {
			for _, e := range edges {
				seg[e][side] = []int32{v}
			}
			return
		}
		// level i (1 … h) vertex x has parent x/3 at level i−1 (level 0 is
		// the node itself); the leaves (level h) carry c = ⌈g / 3^(h−1)⌉
		// edges each (≤ 3 when h = ⌈log₃ g⌉), edge j on leaf j/c
		ids := map[[2]int]int32{}
		var vertex func(level, x int) int32
		vertex = func(level, x int) int32 {
			if level == 0 {
				return v
			}
			if id, ok := ids[[2]int{level, x}]; ok {
				return id
			}
			parent := vertex(level-1, x/3)
			id := int32(t.Vertices)
			t.Vertices++
			ids[[2]int{level, x}] = id
			t.Lines = append(t.Lines, [2]int32{parent, id})
			return id
		}
		leaves := 1
		for range h - 1 {
			leaves *= 3
		}
		c := (g + leaves - 1) / leaves
		for j, e := range edges {
			leaf := j / c
			path := []int32{v}
			for level := 1; level <= h; level++ {
				anc := leaf
				for range h - level {
					anc /= 3
				}
				path = append(path, vertex(level, anc))
			}
			seg[e][side] = path
		}
	}
	for v := range net.Nodes() {
		var up, down []int32
		for _, e := range net.Out[v] {
			if net.Edges[e].Lower {
				down = append(down, e)
			} else {
				up = append(up, e)
			}
		}
		addSet(int32(v), up, 0)
		addSet(int32(v), down, 0)
		for i := 0; i < len(in[v]); i += net.D {
			addSet(int32(v), in[v][i:min(i+net.D, len(in[v]))], 1)
		}
	}
	for e := range net.Edges {
		a, b := seg[e][0], seg[e][1]
		p := append([]int32(nil), a...)
		for i := len(b) - 1; i >= 0; i-- {
			p = append(p, b[i])
		}
		t.Path[e] = p
		t.Lines = append(t.Lines, [2]int32{a[len(a)-1], b[len(b)-1]})
	}
	return t, nil
}

// Degrees returns each vertex's number of lines.
func (t *Tree4) Degrees() []int {
	deg := make([]int, t.Vertices)
	for _, l := range t.Lines {
		deg[l[0]]++
		deg[l[1]]++
	}
	return deg
}
