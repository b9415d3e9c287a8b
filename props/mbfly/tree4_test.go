package mbfly

import (
	"testing"

	"routecheck/props"
)

// exchangeSteps is the least number of steps in which two packets swap
// ends along a path of L lines (vertices 0 … L) when every vertex uses at
// most one line per step: each step each packet stays or moves one line
// either way; the two may cross the same line in the same step (one line
// at each end). Breadth-first search over every schedule.
func exchangeSteps(L int) int {
	type st struct{ a, b int }
	seen := map[st]bool{{0, L}: true}
	front := []st{{0, L}}
	for steps := 0; len(front) > 0; steps++ {
		var next []st
		for _, s := range front {
			if s.a == L && s.b == 0 {
				return steps
			}
			for da := -1; da <= 1; da++ {
				for db := -1; db <= 1; db++ {
					a, b := s.a+da, s.b+db
					if a < 0 || a > L || b < 0 || b > L {
						continue
					}
					// lines used this step, as their lower vertex
					used := map[int]bool{}
					if da != 0 {
						used[min(s.a, a)] = true
					}
					if db != 0 {
						used[min(s.b, b)] = true
					}
					ok := true
					for v := 0; v <= L; v++ {
						if used[v-1] && used[v] { // lines (v−1, v) and (v, v+1)
							ok = false
						}
					}
					if n := (st{a, b}); ok && !seen[n] {
						seen[n] = true
						next = append(next, n)
					}
				}
			}
		}
		front = next
	}
	return -1
}

// TestTreeExchangeParityByHand backs mbfly/sec3.3/degree-4-factor's note:
// an exchange over L lines takes L steps when L is odd (the packets cross
// on the middle line) and L + 1 when L is even (moving every step, both
// would need the middle vertex's two lines at step L/2), so a path of 2h
// lines costs as much as one of 2h + 1.
func TestTreeExchangeParityByHand(t *testing.T) {
	for L := 1; L <= 8; L++ {
		want := L
		if L%2 == 0 {
			want = L + 1
		}
		if got := exchangeSteps(L); got != want {
			t.Errorf("L = %d lines: exchange in %d steps, want %d", L, got, want)
		}
	}
}

// TestTree4FactorLeadsWithD3: at d = 3 a ternary tree has depth 1, an edge
// is a path of 1 + 1 + 1 = 3 lines, so an iteration costs 3 times the
// original's, against 2⌈log₃ 3⌉ = 2: the claim must be violated there,
// first.
func TestTree4FactorLeadsWithD3(t *testing.T) {
	o := tree4FactorCheck(props.Env{Budget: props.Small, Seed: 20261122})
	if o.Verdict != props.Violated {
		t.Fatalf("verdict %v (%s), want violated", o.Verdict, o.Evidence)
	}
	cex, _ := o.Counterexample.(map[string]any)
	if d, f, b := cex["d"], cex["factor"], cex["2ceil_log3d"]; d != 3 || f != 3.0 || b != 2 {
		t.Fatalf("counterexample d = %v, factor %v, bound %v; want 3, 3, 2 (%s)", d, f, b, o.Evidence)
	}
}
