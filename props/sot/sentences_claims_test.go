package sot

import (
	"testing"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	msot "routecheck/models/sot"
)

// The concentrated relation is an h-relation: every processor sends h
// packets, all to its successor, and receives h.
func TestSotConcentratedIsHRelation(t *testing.T) {
	for _, n := range []int{2, 5, 8} {
		h := 3
		sent, recv := make([]int, n), make([]int, n)
		for _, p := range sotConcentrated(n, h) {
			if int(p.Dst) != (int(p.Src)+1)%n {
				t.Fatalf("n = %d: packet %d → %d", n, p.Src, p.Dst)
			}
			sent[p.Src]++
			recv[p.Dst]++
		}
		for i := range n {
			if sent[i] != h || recv[i] != h {
				t.Errorf("n = %d, P%d: sends %d, receives %d, want %d each", n, i, sent[i], recv[i], h)
			}
		}
	}
}

// Greedy-a on the concentrated relation, by hand: no two packets share a
// target column at once, so nothing is deflected; P_i injects one packet a
// step for h steps and each takes n hops, so T = h + n − 1 and the links
// carry n·h·n traversals — use h/(2(h + n − 1)) < ½, the bound's tight case.
func TestSotGreedyAConcentratedUseByHand(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		h := 3 * n
		res, moves, down, out, ok := sotLinkUse(asot.GreedyA, n, sotConcentrated(n, h), seeds.Rand(1), "test")
		if !ok {
			t.Fatalf("n = %d: %s", n, out.Evidence)
		}
		if res.Steps != h+n-1 || moves != n*h*n || down != 0 || res.Deflections != 0 {
			t.Errorf("n = %d: T = %d (want %d), moves = %d (want %d), down injections %d, deflections %d", n, res.Steps, h+n-1, moves, n*h*n, down, res.Deflections)
		}
	}
}

// §2.1's torus and the planted miswiring: they differ only at the right
// output of the last column.
func TestSotTorusNexts(t *testing.T) {
	n := 5
	for i := range n {
		for j := range n {
			for _, d := range []msot.Dir{msot.Right, msot.Down} {
				a, b := sotPaperNext(n, i, j, d)
				wa, wb := i, (j+1)%n
				if d == msot.Down {
					wa, wb = (i+1)%n, j
				}
				if a != wa || b != wb {
					t.Errorf("(%d,%d) %v → (%d,%d), want (%d,%d)", i, j, d, a, b, wa, wb)
				}
				fa, fb := sotSkipWrapNext(n, i, j, d)
				if differs := fa != a || fb != b; differs != (d == msot.Right && j == n-1) {
					t.Errorf("(%d,%d) %v: miswired (%d,%d) vs (%d,%d)", i, j, d, fa, fb, a, b)
				}
			}
		}
	}
}
