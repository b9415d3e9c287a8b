package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// randomKK draws a uniformly random k-k distribution: the n²·k destination
// slots (k per PU) shuffled over the n²·k packets.
func randomKK(r *rand.Rand, n, k int) [][]Dest {
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

// The fast engine and the step model give identical phase times and queues
// for every algorithm, with and without coloring; every packet ends at its
// destination (the model run checks arrival at each phase target).
func TestKKFastEqualsModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(t, "n")
		k := 2 * rapid.IntRange(1, 4).Draw(t, "k/2")
		alg := rapid.SampledFrom([]Algorithm{Rand3, Rand4, Det3}).Draw(t, "alg")
		col := rapid.Bool().Draw(t, "coloring")
		seed := rapid.Uint64().Draw(t, "seed")
		dst := randomKK(rand.New(rand.NewPCG(seed, 1)), n, k)
		pl, err := NewPlan(alg, n, dst, rand.New(rand.NewPCG(seed, 2)), Options{Coloring: col})
		if err != nil {
			t.Fatal(err)
		}
		for q, tg := range pl.Targets[len(pl.Targets)-1] {
			d := dst[q/k][q%k]
			if tg != d.Row*int32(n)+d.Col {
				t.Fatalf("packet %d's last target %d is not its destination %v", q, tg, d)
			}
		}
		f, err := RouteKK(pl, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := RouteKK(pl, Options{Model: true})
		if err != nil {
			t.Fatal(err)
		}
		if f.Steps != m.Steps || f.MaxQueue != m.MaxQueue {
			t.Fatalf("fast %+v, model %+v", f, m)
		}
		for ph := range f.PhaseSteps {
			if f.PhaseSteps[ph] != m.PhaseSteps[ph] || f.PhaseQueue[ph] != m.PhaseQueue[ph] || f.EndQueue[ph] != m.EndQueue[ph] {
				t.Fatalf("phase %d: fast %+v, model %+v", ph+1, f, m)
			}
		}
	})
}

// Det3 colours exactly k/2 packets of each PU black, and half (rounded) of
// every group with a common destination.
func TestDetColouring(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		k := 2 * (1 + r.IntN(6))
		ds := make([]Dest, k)
		for i := range ds {
			ds[i] = Dest{Row: int32(r.IntN(2)), Col: int32(r.IntN(2))}
		}
		black := make([]bool, k)
		colour(ds, black, nil, true)
		nb := 0
		group := map[Dest][2]int{}
		for i, b := range black {
			g := group[ds[i]]
			if b {
				nb++
				g[1]++
			} else {
				g[0]++
			}
			group[ds[i]] = g
		}
		if nb != k/2 {
			t.Fatalf("%v: %d black of %d", ds, nb, k)
		}
		for d, g := range group {
			if g[0]-g[1] > 1 || g[1]-g[0] > 1 {
				t.Fatalf("%v: destination %v split %d white / %d black", ds, d, g[0], g[1])
			}
		}
	}
}

// BenchmarkDet3 is the target: DET_3_PHASE_ROUTE with coloring on
// n = 32, k = n²·log n = 5120 (5.2 million packets), uniform random k-k,
// ≤ 30 s and ≤ 2 GiB; with the list-based AllocateLinear (the default) and
// with the direct Allocate. Run:
//
//	go test ./algos/mesh -run='^$' -bench=Det3 -benchtime=1x -benchmem
func BenchmarkDet3(b *testing.B) {
	const n, k = 32, 32 * 32 * 5
	dst := randomKK(rand.New(rand.NewPCG(1, 1)), n, k)
	for _, direct := range []bool{false, true} {
		name := map[bool]string{false: "allocate-linear", true: "allocate-direct"}[direct]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				pl, err := NewPlan(Det3, n, dst, nil, Options{Coloring: true, DirectAllocate: direct})
				if err != nil {
					b.Fatal(err)
				}
				r, err := RouteKK(pl, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.Steps)/float64(k*n/2), "steps/(kn/2)")
				b.ReportMetric(float64(r.MaxQueue)/float64(k), "queue/k")
			}
		})
	}
}

// DET_3_PHASE_ROUTE plans the same with the list-based AllocateLinear (the
// default for n a power of two) and with the direct Allocate, with and
// without coloring; AllocateWork counts the linear version's operations
// and stays within LinearWorkBound per PU and colour class. For n not a
// power of two the direct version runs (AllocateWork = 0).
func TestDet3AllocateLinearSamePlan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{1, 2, 3, 4, 6, 8}).Draw(t, "n")
		k := 2 * rapid.IntRange(1, 3*n).Draw(t, "k/2")
		col := rapid.Bool().Draw(t, "coloring")
		dst := randomKK(rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3)), n, k)
		lin, err := NewPlan(Det3, n, dst, nil, Options{Coloring: col})
		if err != nil {
			t.Fatal(err)
		}
		dir, err := NewPlan(Det3, n, dst, nil, Options{Coloring: col, DirectAllocate: true})
		if err != nil {
			t.Fatal(err)
		}
		for ph := range lin.Targets {
			if !slices.Equal(lin.Targets[ph], dir.Targets[ph]) {
				t.Fatalf("phase %d targets differ between AllocateLinear and Allocate", ph+1)
			}
		}
		pow2 := n&(n-1) == 0
		classes, per := 1, k
		if col {
			classes, per = 2, k/2
		}
		switch {
		case dir.AllocateWork != 0:
			t.Fatalf("direct plan reports %d operations", dir.AllocateWork)
		case !pow2 && lin.AllocateWork != 0:
			t.Fatalf("n = %d: AllocateLinear cannot run, yet %d operations", n, lin.AllocateWork)
		case pow2 && (lin.AllocateWork < n*n*classes*per || lin.AllocateWork > n*n*classes*LinearWorkBound(n, per)):
			// at least the histogram pass of Step 1 touches every packet
			t.Fatalf("n = %d, k = %d: %d operations, outside [%d, %d]", n, k, lin.AllocateWork, n*n*classes*per, n*n*classes*LinearWorkBound(n, per))
		}
	})
}

// Torus phases worked by hand on a 4×4 grid (PU (i, j) = 4i + j).
func TestTorusPhaseHand(t *testing.T) {
	at := func(i, j int32) int32 { return 4*i + j }
	for _, c := range []struct {
		name                string
		pos, tg             []int32
		meshSteps, torSteps int
		meshMoves, torMoves int
	}{
		// 0 → 3 along row 0: 3 links right on the mesh, 1 wrap link left.
		{"one packet", []int32{at(0, 0)}, []int32{at(0, 3)}, 3, 1, 3, 1},
		// Mesh: p0 (farther) leaves PU 0 first; p1 leaves PU 1 in step 1,
		// p0 follows a step behind: 3 steps. Torus: p0 wraps left (1 step),
		// p1 goes right alone (2 steps).
		{"two packets", []int32{at(0, 0), at(0, 1)}, []int32{at(0, 3), at(0, 3)}, 3, 2, 5, 3},
		// Distance n/2 both ways: the torus sends both rightward, 0→1→2 and
		// 2→3→0, on different links; on the mesh they also use different
		// directions.
		{"half way", []int32{at(0, 0), at(0, 2)}, []int32{at(0, 2), at(0, 0)}, 2, 2, 4, 4},
		// Column 0, row 0 → row 3: down over the wrap link.
		{"column", []int32{at(0, 0)}, []int32{at(3, 0)}, 3, 1, 3, 1},
	} {
		for _, torus := range []bool{false, true} {
			r, err := modelPhase(4, c.pos, c.tg, torus)
			if err != nil {
				t.Fatal(err)
			}
			steps, moves := c.meshSteps, c.meshMoves
			if torus {
				steps, moves = c.torSteps, c.torMoves
			}
			if r.steps != steps || r.moves != moves {
				t.Errorf("%s, torus %v: %d steps, %d moves; want %d, %d", c.name, torus, r.steps, r.moves, steps, moves)
			}
		}
	}
}

// On the torus every algorithm's plan runs to completion (modelPhase checks
// that each packet ends at its target), every packet takes the shorter way
// around (the link traversals of a phase are the sum of the ring distances,
// computed here independently), and a phase takes at least its longest
// ring distance. Without Model the torus is refused.
func TestKKTorus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "n")
		k := 2 * rapid.IntRange(1, 3).Draw(t, "k/2")
		alg := rapid.SampledFrom([]Algorithm{Rand3, Rand4, Det3}).Draw(t, "alg")
		col := rapid.Bool().Draw(t, "coloring")
		seed := rapid.Uint64().Draw(t, "seed")
		pl, err := NewPlan(alg, n, randomKK(rand.New(rand.NewPCG(seed, 1)), n, k), rand.New(rand.NewPCG(seed, 2)), Options{Coloring: col})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := RouteKK(pl, Options{Torus: true}); err == nil {
			t.Fatal("torus without the step model accepted")
		}
		ring := func(a, b int) int {
			d := (b - a + n) % n
			return min(d, n-d)
		}
		pos := slices.Clone(pl.Src)
		total := 0
		for ph, tg := range pl.Targets {
			want, longest := 0, 0
			for q := range pos {
				a, b := int(pos[q]), int(tg[q])
				d := ring(a%n, b%n) + ring(a/n, b/n) // one of the two is 0
				want += d
				longest = max(longest, d)
			}
			r, err := modelPhase(n, pos, tg, true)
			if err != nil {
				t.Fatalf("phase %d: %v", ph+1, err)
			}
			if r.moves != want || r.steps < longest {
				t.Fatalf("phase %d: %d moves (ring distances sum to %d), %d steps (longest distance %d)", ph+1, r.moves, want, r.steps, longest)
			}
			total += r.steps
			copy(pos, tg)
		}
		res, err := RouteKK(pl, Options{Model: true, Torus: true})
		if err != nil || res.Steps != total {
			t.Fatalf("RouteKK on the torus: %v, %d steps (phases sum to %d)", err, res.Steps, total)
		}
	})
}
