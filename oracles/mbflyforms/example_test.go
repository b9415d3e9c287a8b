package mbflyforms_test

import (
	"fmt"

	"routecheck/oracles/mbflyforms"
)

// The paper's non-explicit §3.3 assignment: L from the formula, condition
// (1), and Theorem 3.1's coefficient of log N.
func Example() {
	p := mbflyforms.Sec3Sets[0]
	lhs, g2, ok := mbflyforms.Cond1(p.Beta, p.Gamma, p.Theta)
	fmt.Println("L =", mbflyforms.Batches(p.Alpha, p.Beta), "printed", p.PrintedL)
	fmt.Printf("condition (1): %.4f ≤ %.4f is %v\n", mbflyforms.F(lhs), mbflyforms.F(g2), ok)
	fmt.Printf("Theorem 3.1: %.1f log N (printed %g)\n", mbflyforms.Thm31Coefficient(p.D, 7, 0.714, false), p.PrintedCoeff)
	// Output:
	// L = 289 printed 68
	// condition (1): 0.5271 ≤ 0.5098 is false
	// Theorem 3.1: 102.9 log N (printed 100)
}
