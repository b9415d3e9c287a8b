package multibutterfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
)

// One iteration of §3.2's algorithm on §3.3's degree-4 tree network
// (models/multibutterfly.Tree4), step by step: in colour order, every
// activated original edge (v, u) becomes an exchange along its path — v's
// packet travels toward u and u's toward v, one line per step each, the
// two crossing on the middle line (an exchange), so a path of ℓ lines
// takes ℓ steps. The next colour may start at a node only after the
// previous colour's exchange has returned to it: the packet v offers on
// colour c + 1 depends on the outcome of colour c.

// TreeIterResult is what SimulateTreeIteration found.
type TreeIterResult struct {
	// Steps is the length of the iteration on the tree network; Original
	// is the original network's, 2d (one step per colour).
	Steps, Original int
	// MaxLines is the most lines any vertex used in one step (the model
	// allows 1).
	MaxLines int
	// Early is the first node that started a colour before its previous
	// colour's exchange came back ("" if none).
	Early string
}

// SimulateTreeIteration runs the iteration of the given parity (0: edges
// leaving even stages) with colour c starting gap(c, ℓ) steps after colour
// c − 1 started, ℓ the longest path of colour c − 1 (gap = nil: ℓ, the
// schedule that waits for each exchange; props plants faults with others).
func SimulateTreeIteration(t *mb.Tree4, parity int, gap func(c, l int) int) (TreeIterResult, error) {
	net := t.Net
	if parity != 0 && parity != 1 {
		return TreeIterResult{}, fmt.Errorf("multibutterfly: parity %d: must be 0 or 1", parity)
	}
	if gap == nil {
		gap = func(_, l int) int { return l }
	}
	res := TreeIterResult{Original: 2 * net.D}
	// lines[step] = vertex → set of lines (by the other end) used
	type use struct{ v, w int32 }
	lines := map[int]map[use]bool{}
	mark := func(step int, a, b int32) {
		if lines[step] == nil {
			lines[step] = map[use]bool{}
		}
		lines[step][use{a, b}] = true
		lines[step][use{b, a}] = true
	}
	back := make([]int, net.Nodes()) // step at which a node's last exchange came back
	start, prevLen := 0, 0
	for c := range 2 * net.D {
		var active []int
		for i, e := range net.Edges {
			if int(e.Stage)%2 == parity && int(e.Colour) == c {
				active = append(active, i)
			}
		}
		if len(active) == 0 {
			continue
		}
		if prevLen > 0 {
			start += gap(c, prevLen)
		}
		longest := 0
		for _, i := range active {
			p := t.Path[i]
			l := len(p) - 1
			longest = max(longest, l)
			e := net.Edges[i]
			for _, v := range []int32{e.From, e.To} {
				if back[v] > start {
					if res.Early == "" {
						res.Early = fmt.Sprintf("node %d starts colour %d at step %d, but its previous exchange returns at step %d", v, c, start, back[v])
					}
				}
			}
			for k := 1; k <= l; k++ {
				mark(start+k, p[k-1], p[k])     // v's packet, forward
				mark(start+k, p[l-k+1], p[l-k]) // u's packet, backward
			}
			back[e.From], back[e.To] = start+l, start+l
		}
		prevLen = longest
	}
	res.Steps = start + prevLen
	for _, us := range lines {
		per := map[int32]int{}
		for u := range us {
			per[u.v]++
		}
		for _, n := range per {
			res.MaxLines = max(res.MaxLines, n)
		}
	}
	return res, nil
}
