package mesh

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// newPlanRef is NewPlan as it was before 2026-11-24 (colour with maps for
// DET_3, fresh buffers for every PU, targets from a row-major PU number
// divided by n): the plain version that TestNewPlanEqualsRef holds the
// faster one to.
func newPlanRef(alg Algorithm, n int, dst [][]Dest, rng *rand.Rand, o Options) (Plan, error) {
	if n < 1 || len(dst) != n*n {
		return Plan{}, fmt.Errorf("mesh: n = %d with %d PUs' destinations: need n ≥ 1 and n² lists", n, len(dst))
	}
	k := len(dst[0])
	for p, ds := range dst {
		if len(ds) != k {
			return Plan{}, fmt.Errorf("mesh: PU %d sends %d packets, PU 0 sends %d: k must be the same everywhere", p, len(ds), k)
		}
		for _, d := range ds {
			if d.Row < 0 || int(d.Row) >= n || d.Col < 0 || int(d.Col) >= n {
				return Plan{}, fmt.Errorf("mesh: PU %d sends to (%d, %d), allowed [0, %d)²", p, d.Row, d.Col, n)
			}
		}
	}
	if alg == Det3 && o.Coloring && k%2 != 0 {
		return Plan{}, fmt.Errorf("mesh: k = %d: DET_3_PHASE_ROUTE with coloring needs k even", k)
	}
	if rng == nil && alg != Det3 {
		return Plan{}, fmt.Errorf("mesh: %s needs a random source", alg)
	}
	K := n * n * k
	pl := Plan{N: n, Src: make([]int32, K)}
	final := make([]int32, K)
	for p, ds := range dst {
		for r, d := range ds {
			q := p*k + r
			pl.Src[q] = int32(p)
			final[q] = d.Row*int32(n) + d.Col
		}
	}
	black := make([]bool, K)
	if o.Coloring {
		for p := range dst {
			colour(dst[p], black[p*k:(p+1)*k], rng, alg == Det3)
		}
	}
	draw := func() int32 { return int32(rng.IntN(n)) }
	if o.Position != nil {
		draw = func() int32 { return o.Position(rng, n) }
	}
	rc := func(pu int32) (int32, int32) { return pu / int32(n), pu % int32(n) }
	at := func(r, c int32) int32 { return r*int32(n) + c }
	phases := 3
	if alg == Rand4 {
		phases = 4
	}
	pl.Targets = make([][]int32, phases)
	for ph := range pl.Targets {
		pl.Targets[ph] = make([]int32, K)
	}
	// Phase 1 intermediate positions: the column in the row (white) or the
	// row in the column (black).
	inter := make([]int32, K)
	switch alg {
	case Rand3, Rand4:
		for q := range inter {
			inter[q] = draw()
		}
	case Det3:
		for p, ds := range dst {
			for _, isBlack := range []bool{false, true} {
				var idx []int
				var local []Dest
				for r, d := range ds {
					if black[p*k+r] == isBlack {
						idx = append(idx, r)
						if isBlack { // black: roles of rows and columns swapped
							local = append(local, Dest{Row: d.Col, Col: d.Row})
						} else {
							local = append(local, d)
						}
					}
				}
				if len(local) == 0 {
					continue
				}
				var a Allocation
				var err error
				switch {
				case o.Allocator != nil:
					self := int32(p % n)
					if isBlack {
						self = int32(p / n)
					}
					a, err = o.Allocator(n, self, local)
				case o.DirectAllocate || n&(n-1) != 0:
					a, err = Allocate(n, local, nil)
				default:
					var w LinearWork
					a, w, err = AllocateLinearWork(n, local)
					pl.AllocateWork += w.Total()
				}
				if err != nil {
					return Plan{}, err
				}
				for t, r := range idx {
					inter[p*k+r] = a.Pos[t]
				}
			}
		}
	default:
		return Plan{}, fmt.Errorf("mesh: unknown algorithm %q (allowed: %s, %s, %s)", alg, Rand4, Rand3, Det3)
	}
	for q := range K {
		sr, sc := rc(pl.Src[q])
		dr, dc := rc(final[q])
		x := inter[q]
		var steps []int32
		switch {
		case alg == Rand4 && !black[q]:
			y := draw()
			steps = []int32{at(sr, x), at(y, x), at(y, dc), at(dr, dc)}
		case alg == Rand4:
			y := draw()
			steps = []int32{at(x, sc), at(x, y), at(dr, y), at(dr, dc)}
		case !black[q]: // rows, columns, rows
			steps = []int32{at(sr, x), at(dr, x), at(dr, dc)}
		default: // columns, rows, columns
			steps = []int32{at(x, sc), at(x, dc), at(dr, dc)}
		}
		for ph, t := range steps {
			pl.Targets[ph][q] = t
		}
	}
	return pl, nil
}

// plansDiffer is where two plans differ ("" if nowhere).
func plansDiffer(a, b Plan) string {
	switch {
	case a.N != b.N || a.AllocateWork != b.AllocateWork:
		return fmt.Sprintf("n %d/%d, allocate work %d/%d", a.N, b.N, a.AllocateWork, b.AllocateWork)
	case !slices.Equal(a.Src, b.Src):
		return "sources"
	case len(a.Targets) != len(b.Targets):
		return fmt.Sprintf("%d/%d phases", len(a.Targets), len(b.Targets))
	}
	for ph := range a.Targets {
		if !slices.Equal(a.Targets[ph], b.Targets[ph]) {
			return fmt.Sprintf("phase %d's targets", ph+1)
		}
	}
	return ""
}

// NewPlan gives newPlanRef's plan (and leaves the random source in the
// same state) for every algorithm, with and without coloring, with the
// direct Allocate and with the planted-fault hooks, on random k-k
// distributions with n a power of two and not; the comparison catches a
// planted difference (one packet's Phase-2 target moved).
func TestNewPlanEqualsRef(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	half := func(rng *rand.Rand, n int) int32 { return int32(rng.IntN(max(1, n/2))) }
	mirror := func(n int, _ int32, d []Dest) (Allocation, error) {
		a, err := Allocate(n, d, nil)
		for i := range a.Pos {
			a.Pos[i] = int32(n-1) - a.Pos[i]
		}
		return a, err
	}
	for _, c := range []struct{ n, k int }{{1, 2}, {2, 4}, {3, 6}, {4, 8}, {4, 32}, {6, 12}, {8, 64}, {16, 32}} {
		for _, alg := range []Algorithm{Rand3, Rand4, Det3} {
			for _, o := range []Options{{}, {Coloring: true}, {Coloring: true, DirectAllocate: true}, {Coloring: true, Position: half}, {Coloring: true, Allocator: mirror}} {
				dst := randomKK(r, c.n, c.k)
				seed := r.Uint64()
				r1, r2 := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
				got, err1 := NewPlan(alg, c.n, dst, r1, o)
				want, err2 := newPlanRef(alg, c.n, dst, r2, o)
				if err1 != nil || err2 != nil {
					t.Fatalf("n = %d, k = %d, %s: %v, %v", c.n, c.k, alg, err1, err2)
				}
				if d := plansDiffer(got, want); d != "" || r1.Uint64() != r2.Uint64() {
					t.Fatalf("n = %d, k = %d, %s, %+v: plans differ (%s) or the random sources do", c.n, c.k, alg, o, d)
				}
				if c.n > 1 {
					bad := Plan{N: want.N, Src: want.Src, Targets: slices.Clone(want.Targets), AllocateWork: want.AllocateWork}
					bad.Targets[1] = slices.Clone(bad.Targets[1])
					bad.Targets[1][0] = (bad.Targets[1][0] + 1) % int32(c.n*c.n)
					if plansDiffer(got, bad) == "" {
						t.Fatal("a moved Phase-2 target is not seen")
					}
				}
			}
		}
	}
}

// BenchmarkNewPlan plans RAND_4 with coloring at n = 32, k = 1024 (the
// largest default-budget size of mesh/lemma-1) and DET_3 with coloring at
// n = 16, k = 1024 (mesh/thm-2's), with NewPlan and newPlanRef, in
// packets planned per second:
// go test ./algos/mesh -run '^$' -bench NewPlan -cpu 1 -benchtime 3x
func BenchmarkNewPlan(b *testing.B) {
	for _, c := range []struct {
		alg  Algorithm
		n, k int
	}{{Rand4, 32, 1024}, {Det3, 16, 1024}} {
		dst := randomKK(rand.New(rand.NewPCG(21, 22)), c.n, c.k)
		for _, v := range []struct {
			name string
			f    func(Algorithm, int, [][]Dest, *rand.Rand, Options) (Plan, error)
		}{{"new", NewPlan}, {"ref", newPlanRef}} {
			b.Run(fmt.Sprintf("%s/n=%d,k=%d/%s", c.alg, c.n, c.k, v.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := v.f(c.alg, c.n, dst, rand.New(rand.NewPCG(1, 2)), Options{Coloring: true}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(c.n*c.n*c.k)*float64(b.N)/b.Elapsed().Seconds(), "packets/s")
			})
		}
	}
}
