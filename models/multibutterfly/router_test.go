package multibutterfly

import (
	"errors"
	"math/rand/v2"
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// routerFunc adapts a function to Router.
type routerFunc func(v *View, moves []Move) []Move

func (routerFunc) Init(*Network, int) {}
func (f routerFunc) Route(v *View, _ *rand.Rand, m []Move) []Move {
	return f(v, m)
}

// RunRouter shows a node only itself: its own buffer, its own out edges
// with their heads' buffers, and the clock; it rejects a move of a packet
// the node does not hold or along an edge that is not the node's
// (ErrIllegal), passes the model's capacity error through (ErrCapacity),
// and stops at MaxSteps.
func TestRunRouter(t *testing.T) {
	net, err := Build(8, 2, seeds.Rand(3))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Init(net, 1, perm.Identity(8))

	// The views: every packet seen once per step, at its own node.
	seen := 0
	res, _, err := RunRouter(s, routerFunc(func(v *View, m []Move) []Move {
		if len(v.Out) != 2*net.D || v.Stage != int(v.Node)/8 || v.Row != int(v.Node)%8 {
			t.Fatalf("view of node %d: stage %d row %d, %d out edges", v.Node, v.Stage, v.Row, len(v.Out))
		}
		for _, h := range v.Buffer {
			if s.Pos[h.Packet] != v.Node || h.Dest != s.Dest[h.Packet] {
				t.Fatalf("node %d sees packet %d, which stands at %d", v.Node, h.Packet, s.Pos[h.Packet])
			}
		}
		for _, p := range v.Out {
			e := net.Edges[p.Edge]
			if e.From != v.Node || e.To != p.To || e.Colour != p.Colour || e.Lower != p.Lower || len(p.Head) != 0 {
				t.Fatalf("node %d: port %+v does not match edge %+v", v.Node, p, e)
			}
		}
		seen += len(v.Buffer)
		return m
	}), nil, RouterOptions{MaxSteps: 3})
	if err != nil || res.Complete || res.Steps != 3 || seen != 3*8 {
		t.Fatalf("idle run: %+v, %v, %d headers seen", res, err, seen)
	}

	var se *StepError
	// A node moving its neighbour's packet.
	_, _, err = RunRouter(s, routerFunc(func(v *View, m []Move) []Move {
		if v.Node == 0 {
			return append(m, Move{Packet: 1, Edge: net.Out[1][0]})
		}
		return m
	}), nil, RouterOptions{MaxSteps: 3})
	if !errors.Is(err, ErrIllegal) || !errors.As(err, &se) || se.Step != 0 {
		t.Fatalf("a foreign packet: %v", err)
	}
	// A node moving its own packet along a foreign edge.
	_, _, err = RunRouter(s, routerFunc(func(v *View, m []Move) []Move {
		if v.Node == 0 {
			return append(m, Move{Packet: 0, Edge: net.Out[1][0]})
		}
		return m
	}), nil, RouterOptions{MaxSteps: 3})
	if !errors.Is(err, ErrIllegal) {
		t.Fatalf("a foreign edge: %v", err)
	}
	// Two inputs into one stage-1 node, one step apart, with L = 1.
	target := net.Edges[net.Out[0][0]].To
	var second int32 = -1
	for v := int32(1); v < 8 && second < 0; v++ {
		for _, ei := range net.Out[v] {
			if net.Edges[ei].To == target {
				second = ei
			}
		}
	}
	if second < 0 {
		t.Skip("no second input reaches the head of node 0's first edge")
	}
	_, _, err = RunRouter(s, routerFunc(func(v *View, m []Move) []Move {
		switch {
		case v.Step == 0 && v.Node == 0:
			return append(m, Move{Packet: 0, Edge: net.Out[0][0]})
		case v.Step == 1 && v.Node == net.Edges[second].From:
			return append(m, Move{Packet: v.Buffer[0].Packet, Edge: second})
		}
		return m
	}), nil, RouterOptions{MaxSteps: 3})
	if !errors.Is(err, ErrCapacity) || !errors.As(err, &se) || se.Step != 1 {
		t.Fatalf("over capacity: %v", err)
	}
}

// An instance with no packets is complete before any step.
func TestRunRouterEmpty(t *testing.T) {
	net, _ := Build(4, 1, seeds.Rand(1))
	p := []int32{perm.None, perm.None, perm.None, perm.None}
	s, _ := Init(net, 1, p)
	res, _, err := RunRouter(s, routerFunc(func(*View, []Move) []Move { panic("called") }), nil, RouterOptions{})
	if err != nil || !res.Complete || res.Steps != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}
