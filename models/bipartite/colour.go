package bipartite

import "fmt"

// colouring is the working state: col[e] is edge e's colour (-1 none) and
// at[x·k + c] the edge of colour c at vertex x (-1 none), where left vertex u
// is x = u and right vertex v is x = L + v.
type colouring struct {
	m   Multigraph
	k   int
	col []int32
	at  []int32
}

func newColouring(m Multigraph, k int) *colouring {
	c := &colouring{m: m, k: k, col: make([]int32, len(m.Edges)), at: make([]int32, (m.L+m.R)*k)}
	for i := range c.col {
		c.col[i] = -1
	}
	for i := range c.at {
		c.at[i] = -1
	}
	return c
}

func (c *colouring) ends(e int32) (x, y int) {
	ed := c.m.Edges[e]
	return int(ed.U), c.m.L + int(ed.V)
}

func (c *colouring) other(e int32, x int) int {
	u, v := c.ends(e)
	if x == u {
		return v
	}
	return u
}

func (c *colouring) set(e, colour int32) {
	u, v := c.ends(e)
	c.col[e] = colour
	c.at[u*c.k+int(colour)] = e
	c.at[v*c.k+int(colour)] = e
}

func (c *colouring) unset(e int32) {
	u, v := c.ends(e)
	old := int(c.col[e])
	c.at[u*c.k+old] = -1
	c.at[v*c.k+old] = -1
	c.col[e] = -1
}

func (c *colouring) free(x int) int32 {
	for col := range c.k {
		if c.at[x*c.k+col] < 0 {
			return int32(col)
		}
	}
	panic(fmt.Sprintf("bipartite: vertex %d has no free colour among %d (degree above k)", x, c.k))
}

// path returns the maximal path that starts at x with an edge of colour a
// and then alternates colours b, a, b, … . x must miss colour b, so the path
// is simple and cannot close into a cycle.
func (c *colouring) path(x int, a, b int32, buf []int32) []int32 {
	buf = buf[:0]
	cur, want := x, a
	for {
		e := c.at[cur*c.k+int(want)]
		if e < 0 {
			return buf
		}
		buf = append(buf, e)
		if len(buf) > len(c.m.Edges) {
			panic("bipartite: alternating path longer than the edge count (internal invariant broken)")
		}
		cur = c.other(e, cur)
		want = a + b - want
	}
}

// swap exchanges colours a and b on the edges of p.
func (c *colouring) swap(p []int32, a, b int32) {
	for _, e := range p {
		c.unset(e)
	}
	for k, e := range p {
		if k%2 == 0 {
			c.set(e, b)
		} else {
			c.set(e, a)
		}
	}
}

// colourAll colours every edge with k ≥ Δ colours by König's argument: for
// edge (u, v) take a colour a free at u and b free at v; if a is taken at v,
// swap a and b along the a/b path from v. That path never reaches u: in a
// bipartite graph it would arrive at u by an a-edge, but a is free at u.
func (c *colouring) colourAll() {
	var buf []int32
	for e := range c.m.Edges {
		u, v := c.ends(int32(e))
		a, b := c.free(u), c.free(v)
		if c.at[v*c.k+int(a)] >= 0 {
			buf = c.path(v, a, b, buf)
			c.swap(buf, a, b)
		}
		c.set(int32(e), a)
	}
}

// balance makes the class sizes differ by at most one (de Werra): while the
// largest class M exceeds the smallest s by two or more, the M/s subgraph has
// a path component with one more M-edge than s-edges; swapping M and s on it
// moves one edge from M to s. Σ size² drops each time, so it terminates.
func (c *colouring) balance() {
	size := ClassSizes(c.col, c.k)
	var buf []int32
	for {
		big, small := 0, 0
		for col := range c.k {
			if size[col] > size[big] {
				big = col
			}
			if size[col] < size[small] {
				small = col
			}
		}
		if size[big]-size[small] <= 1 {
			return
		}
		a, b := int32(big), int32(small)
		found := false
		for x := range c.m.L + c.m.R {
			if c.at[x*c.k+big] < 0 || c.at[x*c.k+small] >= 0 {
				continue
			}
			buf = c.path(x, a, b, buf)
			if len(buf)%2 == 1 {
				c.swap(buf, a, b)
				size[big]--
				size[small]++
				found = true
				break
			}
		}
		if !found {
			panic("bipartite: no path with a surplus edge of the larger class (internal invariant broken)")
		}
	}
}

// Colour returns a proper edge colouring of m with colours 0…Δ-1, where Δ is
// m.MaxDegree() (König's theorem: bipartite multigraphs are class 1). A graph
// without edges gets an empty colouring. It returns an error only for an
// invalid graph. Cost O(|E|·(L+R+Δ)) time, O((L+R)·Δ) extra space.
func Colour(m Multigraph) ([]int32, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	c := newColouring(m, m.MaxDegree())
	c.colourAll()
	return c.col, nil
}

// Equitable returns a proper edge colouring of m with colours 0…k-1 whose
// colour classes differ in size by at most one, for any k ≥ Δ (de Werra's
// theorem). When k divides |E| every class has exactly |E|/k edges. It
// returns an error for an invalid graph or k < Δ (k ≥ 1 unless m has no
// edges). Cost O(|E|·(L+R+k)) time.
func Equitable(m Multigraph, k int) ([]int32, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if d := m.MaxDegree(); k < d || k < 0 {
		return nil, fmt.Errorf("bipartite: k = %d colours, need k ≥ Δ = %d", k, d)
	}
	c := newColouring(m, k)
	c.colourAll()
	if k > 0 {
		c.balance()
	}
	return c.col, nil
}
