package mbfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// mbflyMaxFlow is the number of edge-disjoint paths from node s to node t
// in net (unit capacity per edge, parallel edges counted), by augmenting
// paths (breadth-first search on the residual graph; Edmonds–Karp). It is
// an independent computation: it sees only the edge list.
func mbflyMaxFlow(net *mb.Network, s, t int32) int {
	nv := net.Nodes()
	type arc struct {
		to, rev int32
		cap     int8
	}
	adj := make([][]arc, nv)
	for _, e := range net.Edges {
		adj[e.From] = append(adj[e.From], arc{to: e.To, rev: int32(len(adj[e.To])), cap: 1})
		adj[e.To] = append(adj[e.To], arc{to: e.From, rev: int32(len(adj[e.From]) - 1), cap: 0})
	}
	flow := 0
	prevNode := make([]int32, nv)
	prevArc := make([]int32, nv)
	for {
		for i := range prevNode {
			prevNode[i] = -1
		}
		prevNode[s] = s
		queue := []int32{s}
		for len(queue) > 0 && prevNode[t] < 0 {
			v := queue[0]
			queue = queue[1:]
			for i, a := range adj[v] {
				if a.cap > 0 && prevNode[a.to] < 0 {
					prevNode[a.to], prevArc[a.to] = v, int32(i)
					queue = append(queue, a.to)
				}
			}
		}
		if prevNode[t] < 0 {
			return flow
		}
		for v := t; v != s; v = prevNode[v] {
			a := &adj[prevNode[v]][prevArc[v]]
			a.cap--
			adj[v][a.rev].cap++
		}
		flow++
	}
}

func registerMbflyPaths() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{
			ID: "mbfly/sec3.1/d-edge-disjoint-paths",
		}), mbflyPathsCheck, false, true, "every network with its first edge deleted (a construction that loses one edge)"),
	)
}

// mbflyPathsCheck is mbfly/sec3.1/d-edge-disjoint-paths' check; dropEdge
// plants the fault (the max-flow sees each network without its first edge).
func mbflyPathsCheck(dropEdge bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxN := env.Budget.Pick(16, 32, 32)
		nets := env.Budget.Pick(1, 2, 8)
		pairs := 0
		for n := 2; n <= maxN; n *= 2 {
			for d := 1; d <= 4; d++ {
				for r := range nets {
					net, err := mbflyNet(env.Seed, 0xdf, n, d, r)
					if dropEdge && err == nil {
						cp := *net
						cp.Edges = cp.Edges[1:]
						net = &cp
					}
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					for i := range n {
						for o := range n {
							f := mbflyMaxFlow(net, net.Node(0, i), net.Node(net.LogN, o))
							pairs++
							if f != d {
								return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("N=%d d=%d network %d: input %d to output %d has %d edge-disjoint paths", n, d, r, i, o, f), Counterexample: map[string]any{"N": n, "d": d, "network": r, "input": i, "output": o, "paths": f}}

							}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d (input, output) pairs, max-flow = d for all", pairs)}
	}
}
