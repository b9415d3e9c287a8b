package expander_test

import (
	"fmt"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
)

// A folded random 4-regular bipartite graph on 16 + 16 vertices is a
// concentrator 16 → 8 with left degree 4 and right degree 8; its exact
// expansion and its spectral certificate for sets of size ≤ 2.
func Example() {
	c := expander.Fold(expander.RandomRegular(16, 4, seeds.Rand(1)))
	dA, dB, _ := c.Biregular()
	min, _, _ := expander.MinNeighbours(c, 2)
	cert, _ := expander.Spectral(c)
	fmt.Println("degrees", dA, dB)
	fmt.Println("exact   |Γ| ≥", min[1], min[2])
	fmt.Println("certificate ≤ exact:", cert.MinNeighbours(1) <= min[1] && cert.MinNeighbours(2) <= min[2])
	// Output:
	// degrees 4 8
	// exact   |Γ| ≥ 2 4
	// certificate ≤ exact: true
}
