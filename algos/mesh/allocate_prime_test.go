package mesh

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// uniformKK is a random k-k distribution: every PU is the destination of
// exactly k packets.
func uniformKK(r *rand.Rand, n, k int) [][]Dest {
	slots := make([]Dest, 0, n*n*k)
	for p := range n * n {
		for range k {
			slots = append(slots, Dest{Row: int32(p / n), Col: int32(p % n)})
		}
	}
	r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	out := make([][]Dest, n*n)
	for p := range out {
		out[p] = slots[p*k : (p+1)*k]
	}
	return out
}

func transposeKK(n, k int) [][]Dest {
	out := make([][]Dest, n*n)
	for p := range out {
		out[p] = make([]Dest, k)
		for t := range out[p] {
			out[p][t] = Dest{Row: int32(p % n), Col: int32(p / n)}
		}
	}
	return out
}

// ALLOCATE' with n' = 1 is ALLOCATE; with n' > 1 it is ALLOCATE on the
// bundles, and for g = n/n' a power of two dividing the packet count every
// submesh of the row-bundle gets exactly (packets)/g (Lemma 6 with g for n).
func TestAllocatePrime(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for trial := range 40 {
		n := []int{4, 8, 16}[trial%3]
		d := randomUniform(r, n, n*(1+r.IntN(2*n)))
		got, err := AllocatePrime(n, 1, d)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Allocate(n, d, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("n' = 1 differs from Allocate")
		}
		for _, np := range []int{2, 4} {
			g := n / np
			if g < 1 || n%np != 0 {
				continue
			}
			k := np * np * g * (1 + r.IntN(4)) // a multiple of g
			d := randomUniform(r, n, k)
			a, err := AllocatePrime(n, np, d)
			if err != nil {
				t.Fatal(err)
			}
			for j, c := range a.Counts {
				if c != k/g {
					t.Fatalf("n = %d, n' = %d: submesh %d gets %d, want %d", n, np, j, c, k/g)
				}
			}
			// Positions are submesh indices of the row-bundle.
			for _, j := range a.Pos {
				if j < 0 || int(j) >= g {
					t.Fatalf("position %d outside [0, %d)", j, g)
				}
			}
		}
	}
	for _, c := range []struct{ n, np int }{{8, 3}, {8, 0}, {8, 16}} {
		if _, err := AllocatePrime(c.n, c.np, nil); err == nil {
			t.Errorf("n = %d, n' = %d accepted", c.n, c.np)
		}
	}
}

// The colouring must be proper with Δ colours (checked directly).
func TestEdgeColour(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 200 {
		side := 1 + r.IntN(8)
		E := r.IntN(300)
		u, v := make([]int, E), make([]int, E)
		degU, degV := make([]int, side), make([]int, side)
		for e := range E {
			u[e], v[e] = r.IntN(side), r.IntN(side)
			if trial%2 == 0 { // skewed: one heavy pair
				u[e], v[e] = r.IntN(2)*(side-1), 0
			}
			degU[u[e]]++
			degV[v[e]]++
		}
		delta := max(slices.Max(degU), slices.Max(degV))
		col := edgeColour(side, delta, u, v)
		type vc struct{ x, c int }
		seenU, seenV := map[vc]bool{}, map[vc]bool{}
		for e := range E {
			if col[e] < 0 || col[e] >= delta {
				t.Fatalf("colour %d outside [0, %d)", col[e], delta)
			}
			if seenU[vc{u[e], col[e]}] || seenV[vc{v[e], col[e]}] {
				t.Fatalf("trial %d: colour %d used twice at a vertex", trial, col[e])
			}
			seenU[vc{u[e], col[e]}], seenV[vc{v[e], col[e]}] = true, true
		}
	}
}

// With n' = 1 every submesh is one PU: the local rearrangements do nothing
// and the main phases must be exactly Det3's (ALLOCATE' = ALLOCATE).
func TestPlanPrimeReducesToDet3(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	for _, coloring := range []bool{false, true} {
		for _, n := range []int{2, 4, 8} {
			for _, k := range []int{2, 2 * n, n * n} {
				dst := uniformKK(r, n, k)
				want, err := NewPlan(Det3, n, dst, nil, Options{Coloring: coloring})
				if err != nil {
					t.Fatal(err)
				}
				got, err := NewPlanPrime(n, 1, dst, Options{Coloring: coloring})
				if err != nil {
					t.Fatal(err)
				}
				for ph, main := range []int{PrimePhase1, PrimePhase2, PrimePhase3} {
					if !slices.Equal(got.Targets[main], want.Targets[ph]) {
						t.Fatalf("coloring %v n = %d k = %d: phase %d differs from Det3", coloring, n, k, ph+1)
					}
				}
				pos := got.Src
				for ph, tg := range got.Targets {
					if ph == PrimePhase1 || ph == PrimePhase2 || ph == PrimePhase3 {
						pos = tg
						continue
					}
					if !slices.Equal(tg, pos) {
						t.Fatalf("n' = 1: local phase %d moves packets", ph)
					}
				}
			}
		}
	}
}

// Structure of the plan for n' > 1: every phase is one-axis (RouteKK
// checks), local phases stay in the submesh, Phase 1 ends in the allocated
// submesh of the row-bundle, Phase 2 in the destination row-bundle, Phase 3
// in the destination submesh, and the last phase at the destination; the
// fast engine and the step model agree.
func TestPlanPrimeStructure(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	for _, c := range []struct {
		n, np, k int
		coloring bool
	}{{4, 2, 4, false}, {4, 2, 4, true}, {8, 2, 8, false}, {8, 4, 16, true}, {8, 2, 6, true}} {
		for fam, dst := range [][][]Dest{uniformKK(r, c.n, c.k), transposeKK(c.n, c.k)} {
			pl, err := NewPlanPrime(c.n, c.np, dst, Options{Coloring: c.coloring})
			if err != nil {
				t.Fatal(err)
			}
			n, np, k := c.n, c.np, c.k
			sub := func(pu int32) (int, int) { return int(pu) / n / np, int(pu) % n / np }
			prev := pl.Src
			for ph, tg := range pl.Targets {
				main := ph == PrimePhase1 || ph == PrimePhase2 || ph == PrimePhase3
				for q := range tg {
					if !main {
						R0, C0 := sub(prev[q])
						R1, C1 := sub(tg[q])
						if R0 != R1 || C0 != C1 {
							t.Fatalf("%+v fam %d: local phase %d leaves the submesh", c, fam, ph)
						}
					}
				}
				prev = tg
			}
			black := make([]bool, len(pl.Src))
			if c.coloring {
				for p := range dst {
					colour(dst[p], black[p*k:(p+1)*k], nil, true)
				}
			}
			for q := range pl.Src {
				d := dst[q/k][q%k]
				R, C := sub(pl.Src[q])
				R1, C1 := sub(pl.Targets[PrimePhase1][q])
				R2, C2 := sub(pl.Targets[PrimePhase2][q])
				R3, C3 := sub(pl.Targets[PrimePhase3][q])
				dR, dC := int(d.Row)/np, int(d.Col)/np
				if !black[q] && (R1 != R || R2 != dR || C2 != C1 || R3 != dR || C3 != dC) {
					t.Fatalf("%+v: white packet %d visits submeshes (%d,%d) (%d,%d) (%d,%d) (%d,%d), dest (%d,%d)", c, q, R, C, R1, C1, R2, C2, R3, C3, dR, dC)
				}
				if black[q] && (C1 != C || C2 != dC || R2 != R1 || C3 != dC || R3 != dR) {
					t.Fatalf("%+v: black packet %d visits submeshes (%d,%d) (%d,%d) (%d,%d) (%d,%d), dest (%d,%d)", c, q, R, C, R1, C1, R2, C2, R3, C3, dR, dC)
				}
				if want := d.Row*int32(n) + d.Col; pl.Targets[PrimePhases-1][q] != want {
					t.Fatalf("packet %d ends at %d, destination %d", q, pl.Targets[PrimePhases-1][q], want)
				}
			}
			fast, err := RouteKK(pl, Options{})
			if err != nil {
				t.Fatal(err)
			}
			model, err := RouteKK(pl, Options{Model: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fast, model) {
				t.Fatalf("%+v: fast %+v, model %+v", c, fast, model)
			}
			// Corollary 1 carries over when every row of a submesh holds
			// the same share of each allocated submesh (c·n'²/g packets
			// per submesh and class, c = k or k/2 packets per PU, dealt
			// over n' rows: n'·c a multiple of g): Phase 1 leaves exactly
			// k packets in every PU.
			cls := k
			if c.coloring {
				cls = k / 2
			}
			if cls*np%(n/np) == 0 && fast.EndQueue[PrimePhase1] != k {
				t.Fatalf("%+v: queue %d at the end of Phase 1, want k = %d", c, fast.EndQueue[PrimePhase1], k)
			}
		}
	}
}
