package mesh

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Every DET_4_PHASE_ROUTE plan moves each packet along one axis per phase
// (rows, columns, rows, columns for white; the other way for black) and
// ends it at its destination; the fast engine and the step model give
// identical phase times and queues on it (the differential test of the
// fast path for this algorithm).
func TestDet4PlanFastEqualsModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(t, "n")
		col := rapid.Bool().Draw(t, "coloring")
		k := rapid.IntRange(1, 8).Draw(t, "k")
		if col {
			k = 2 * rapid.IntRange(1, 4).Draw(t, "k/2")
		}
		dst := randomKK(rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)), n, k)
		pl, err := NewPlanDet4(n, dst, Det4Options{Coloring: col})
		if err != nil {
			t.Fatal(err)
		}
		if len(pl.Targets) != 4 {
			t.Fatalf("%d phases, want 4", len(pl.Targets))
		}
		for q := range pl.Src {
			from := pl.Src[q]
			for ph, tg := range pl.Targets {
				if _, _, _, _, err := axisMove(n, from, tg[q]); err != nil {
					t.Fatalf("packet %d phase %d: %v", q, ph+1, err)
				}
				from = tg[q]
			}
			d := dst[q/k][q%k]
			if from != d.Row*int32(n)+d.Col {
				t.Fatalf("packet %d ends at %d, its destination is %v", q, from, d)
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
		for ph := range f.PhaseSteps {
			if f.PhaseSteps[ph] != m.PhaseSteps[ph] || f.PhaseQueue[ph] != m.PhaseQueue[ph] || f.EndQueue[ph] != m.EndQueue[ph] {
				t.Fatalf("phase %d: fast %+v, model %+v", ph+1, f, m)
			}
		}
	})
}

// The white packets of a plan move along rows in Phases 1 and 3 and along
// columns in Phases 2 and 4; the black ones the other way round.
func TestDet4Axes(t *testing.T) {
	const n, k = 4, 8
	dst := randomKK(rand.New(rand.NewPCG(3, 4)), n, k)
	for _, col := range []bool{false, true} {
		pl, err := NewPlanDet4(n, dst, Det4Options{Coloring: col})
		if err != nil {
			t.Fatal(err)
		}
		black := make([]bool, len(pl.Src))
		if col {
			for p := range dst {
				colour(dst[p], black[p*k:(p+1)*k], nil, true)
			}
		}
		for q := range pl.Src {
			from := pl.Src[q]
			for ph, tg := range pl.Targets {
				fr, fc, tr, tc := from/n, from%n, tg[q]/n, tg[q]%n
				rowMove := ph%2 == 0 != black[q]
				if rowMove && fr != tr || !rowMove && fc != tc {
					t.Fatalf("coloring %v, packet %d (black %v), phase %d: (%d,%d) → (%d,%d)", col, q, black[q], ph+1, fr, fc, tr, tc)
				}
				from = tg[q]
			}
		}
	}
}

// When each colour class of every PU is a multiple of n packets, every PU
// sends exactly (class size)/n packets to every PU of its line in Phases 1
// and 2, so by the one-dimensional bound (the middle link carries
// (class/n)·(n/2)·(n/2) packets each way, and no link more) each of the two
// phases takes exactly class·n/4 steps: k·n/4 without coloring, k·n/8 with.
func TestDet4UnshuffleExact(t *testing.T) {
	for _, c := range []struct {
		n, k int
		col  bool
	}{{2, 2, false}, {4, 4, false}, {4, 8, true}, {4, 16, false}, {8, 16, true}, {8, 64, false}, {8, 48, true}} {
		r := rand.New(rand.NewPCG(uint64(c.n), uint64(c.k)))
		for _, dst := range [][][]Dest{randomKK(r, c.n, c.k), transposeKK(c.n, c.k)} {
			pl, err := NewPlanDet4(c.n, dst, Det4Options{Coloring: c.col})
			if err != nil {
				t.Fatal(err)
			}
			class := c.k
			if c.col {
				class /= 2
			}
			// Count what every PU sends to every other PU in Phases 1
			// and 2 (white and black packets use different lines).
			for ph := range 2 {
				from := pl.Src
				if ph == 1 {
					from = pl.Targets[0]
				}
				sent := map[[2]int32]int{}
				for q := range from {
					sent[[2]int32{from[q], pl.Targets[ph][q]}]++
				}
				for pair, cnt := range sent {
					if pair[0] != pair[1] && cnt != class/c.n {
						t.Fatalf("n=%d k=%d col=%v phase %d: PU %d sends %d to PU %d, want %d per class", c.n, c.k, c.col, ph+1, pair[0], cnt, pair[1], class/c.n)
					}
				}
			}
			res, err := RouteKK(pl, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := class * c.n / 4; res.PhaseSteps[0] != want || res.PhaseSteps[1] != want || res.EndQueue[0] != c.k || res.EndQueue[1] != c.k {
				t.Errorf("n=%d k=%d coloring=%v: phases 1, 2 take %v steps (want %d each), end queues %v (want k = %d)", c.n, c.k, c.col, res.PhaseSteps[:2], want, res.EndQueue[:2], c.k)
			}
		}
	}
}

// The planted-fault deals differ from the algorithm's: DealStay leaves
// Phases 1 and 2 empty; DealBlocks and DealRoundRobin agree only on a list
// of at most one packet per position.
func TestDet4Deals(t *testing.T) {
	const n, k = 4, 8
	dst := transposeKK(n, k)
	pl, err := NewPlanDet4(n, dst, Det4Options{Deal: DealStay})
	if err != nil {
		t.Fatal(err)
	}
	for q := range pl.Src {
		if pl.Targets[0][q] != pl.Src[q] || pl.Targets[1][q] != pl.Src[q] {
			t.Fatalf("DealStay moved packet %d in Phase 1 or 2", q)
		}
	}
	if DealBlocks(1, 8, 0, 4) != 0 || DealRoundRobin(1, 8, 0, 4) != 1 || DealBlocks(7, 8, 0, 4) != 3 || DealRoundRobin(7, 8, 0, 4) != 3 {
		t.Error("DealBlocks / DealRoundRobin at hand-computed ranks")
	}
}

// Bad parameters are refused with an error naming them.
func TestDet4Errors(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		dst  [][]Dest
		o    Det4Options
		want string
	}{
		{"n", 0, nil, Det4Options{}, "n ≥ 1"},
		{"lists", 2, make([][]Dest, 3), Det4Options{}, "n² lists"},
		{"k", 1, [][]Dest{{}}, Det4Options{}, "k ≥ 1"},
		{"uneven", 2, [][]Dest{{{0, 0}}, {{0, 1}}, {{1, 0}}, {{1, 1}, {1, 1}}}, Det4Options{}, "the same everywhere"},
		{"range", 1, [][]Dest{{{0, 1}}}, Det4Options{}, "allowed [0, 1)²"},
		{"odd", 1, [][]Dest{{{0, 0}}}, Det4Options{Coloring: true}, "k even"},
		{"deal", 2, [][]Dest{{{0, 0}}, {{0, 1}}, {{1, 0}}, {{1, 1}}}, Det4Options{Deal: func(int, int, int, int) int { return 5 }}, "position 5"},
	} {
		_, err := NewPlanDet4(c.n, c.dst, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
