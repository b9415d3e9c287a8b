package bipartite_test

import (
	"fmt"

	"routecheck/models/bipartite"
)

func ExampleColour() {
	// A 2-regular multigraph: a double edge 0–0 and a 4-cycle 1–1–2–2.
	m := bipartite.Multigraph{L: 3, R: 3, Edges: []bipartite.Edge{
		{U: 0, V: 0}, {U: 0, V: 0}, {U: 1, V: 1}, {U: 1, V: 2}, {U: 2, V: 1}, {U: 2, V: 2},
	}}
	col, err := bipartite.Colour(m)
	fmt.Println(m.MaxDegree(), bipartite.Check(m, col, 2), err)
	fmt.Println(bipartite.ClassSizes(col, 2)) // two perfect matchings
	// Output:
	// 2 <nil> <nil>
	// [3 3]
}

func ExampleEquitable() {
	// The same graph with 4 colours: 6 edges in classes of 1 or 2.
	m := bipartite.Multigraph{L: 3, R: 3, Edges: []bipartite.Edge{
		{U: 0, V: 0}, {U: 0, V: 0}, {U: 1, V: 1}, {U: 1, V: 2}, {U: 2, V: 1}, {U: 2, V: 2},
	}}
	col, _ := bipartite.Equitable(m, 4)
	sizes := bipartite.ClassSizes(col, 4)
	lo, hi := sizes[0], sizes[0]
	for _, s := range sizes {
		lo, hi = min(lo, s), max(hi, s)
	}
	fmt.Println(bipartite.Check(m, col, 4), lo, hi)
	// Output: <nil> 1 2
}
