package mesh

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPrimeAllocatorHook kills the mutants of NewPlanPrime's Allocator
// branch (primeClass), which the package's other tests never take: the
// bundle destinations `Row / n'` and `Col / n'` and self = `s % g`. The
// hook's contract (Options.Allocator's doc): per submesh and colour class
// it gets g positions, self = the submesh's index in its row-bundle, and
// the destinations as bundles (⌊row/n'⌋, ⌊col/n'⌋) in packet order. n = 4,
// n' = 2 (g = 2), k = 1, PU (r, c) sends to (c, (r+1) mod 4); no colouring.
// Expected calls are computed here from the PUs of each submesh; the hook
// allocates every packet to position self, so Phase 1 must leave every
// packet in the submesh it started in.
func TestPrimeAllocatorHook(t *testing.T) {
	const n, np, g = 4, 2, 2
	dst := make([][]Dest, n*n)
	for p := range dst {
		r, c := p/n, p%n
		dst[p] = []Dest{{Row: int32(c), Col: int32((r + 1) % n)}}
	}
	type call struct {
		gn   int
		self int32
		dst  []Dest
	}
	var got []call
	hook := func(gn int, self int32, ds []Dest) (Allocation, error) {
		got = append(got, call{gn, self, slices.Clone(ds)})
		if self < 0 || int(self) >= gn {
			return Allocation{}, fmt.Errorf("hook: self = %d, allowed [0, %d)", self, gn)
		}
		pos := make([]int32, len(ds))
		for i := range pos {
			pos[i] = self
		}
		return Allocation{Pos: pos, Counts: make([]int, gn)}, nil
	}
	pl, err := NewPlanPrime(n, np, dst, Options{Allocator: hook})
	if err != nil {
		t.Fatal(err)
	}
	var want []call
	for R := range g {
		for C := range g {
			w := call{g, int32(C), nil}
			for p := range n * n { // increasing packet order
				if p/n/np == R && p%n/np == C {
					d := dst[p][0]
					w.dst = append(w.dst, Dest{Row: d.Row / np, Col: d.Col / np})
				}
			}
			want = append(want, w)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d hook calls, want %d (one per submesh)", len(got), len(want))
	}
	for s := range want {
		if got[s].gn != want[s].gn || got[s].self != want[s].self || !slices.Equal(got[s].dst, want[s].dst) {
			t.Errorf("submesh %d: hook called with (%d, %d, %v), want (%d, %d, %v)", s, got[s].gn, got[s].self, got[s].dst, want[s].gn, want[s].self, want[s].dst)
		}
	}
	sub := func(pu int32) int { return int(pu)/n/np*g + int(pu)%n/np }
	for q, pu := range pl.Targets[PrimePhase1] {
		if sub(pu) != sub(pl.Src[q]) {
			t.Errorf("packet %d allocated to its own submesh ends Phase 1 in submesh %d, started in %d", q, sub(pu), sub(pl.Src[q]))
		}
	}
}

// TestLocalRouteLoad checks localRoute against its doc on random
// rearrangements inside the submeshes of n×n meshes (n' | n): the first
// phase moves along the packet's row, the second along the column it
// reached to the target row, and no PU holds more than ⌈Δ/n'⌉ packets at
// the end of either phase, Δ being the largest number of packets leaving
// or entering one local row of the packet's submesh (computed here from
// pos and target). The per-phase loads are what the König colouring is
// for: any intermediate column gives a correct route, so the plan tests
// cannot see a wrong colouring, a wrong Δ or a wrong source/target row.
// The targets are skewed towards few rows so that Δ is well above n'.
func TestLocalRouteLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	for trial := range 300 {
		np := 1 + r.IntN(4)
		n := np * (1 + r.IntN(3))
		P := r.IntN(6 * n * n)
		pos, target := make([]int32, P), make([]int32, P)
		hot := r.IntN(np) // a favoured local row
		for i := range P {
			pu := r.IntN(n * n)
			row, col := pu/n, pu%n
			R, C := row/np*np, col/np*np
			tr := R + r.IntN(np)
			if trial%2 == 0 && r.IntN(2) == 0 {
				tr = R + hot
			}
			pos[i] = int32(pu)
			target[i] = int32(tr*n + C + r.IntN(np))
		}
		a, b, err := localRoute(n, np, pos, target)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		g := n / np
		sub := func(pu int32) int { return int(pu)/n/np*g + int(pu)%n/np }
		deg := make(map[[3]int]int) // (submesh, side, local row)
		for i := range P {
			deg[[3]int{sub(pos[i]), 0, int(pos[i]) / n % np}]++
			deg[[3]int{sub(pos[i]), 1, int(target[i]) / n % np}]++
		}
		delta := make(map[int]int)
		for key, d := range deg {
			delta[key[0]] = max(delta[key[0]], d)
		}
		loadA, loadB := map[int32]int{}, map[int32]int{}
		for i := range P {
			s := sub(pos[i])
			if sub(a[i]) != s || sub(b[i]) != s {
				t.Fatalf("trial %d (n = %d, n' = %d): packet %d leaves its submesh (%d → %d → %d)", trial, n, np, i, pos[i], a[i], b[i])
			}
			if a[i]/int32(n) != pos[i]/int32(n) || b[i]%int32(n) != a[i]%int32(n) || b[i]/int32(n) != target[i]/int32(n) {
				t.Fatalf("trial %d (n = %d, n' = %d): packet %d goes %d → %d → %d → %d, not row, column, row", trial, n, np, i, pos[i], a[i], b[i], target[i])
			}
			loadA[a[i]]++
			loadB[b[i]]++
			limit := (delta[s] + np - 1) / np
			if loadA[a[i]] > limit || loadB[b[i]] > limit {
				t.Fatalf("trial %d (n = %d, n' = %d): PU %d or %d holds more than ⌈Δ/n'⌉ = %d packets", trial, n, np, a[i], b[i], limit)
			}
		}
	}
}
