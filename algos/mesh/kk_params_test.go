package mesh

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"routecheck/models/mesh"
)

// identityKK is the k-k distribution in which every packet stays at its PU.
func identityKK(n, k int) [][]Dest {
	dst := make([][]Dest, n*n)
	for p := range dst {
		for range k {
			dst[p] = append(dst[p], Dest{Row: int32(p / n), Col: int32(p % n)})
		}
	}
	return dst
}

// NewPlan refuses a destination in row or column n (and −1), for every
// algorithm, naming the PU and the allowed range; row and column n − 1 are
// fine.
func TestNewPlanDestinationRange(t *testing.T) {
	const n = 4
	for _, alg := range []Algorithm{Rand4, Rand3, Det3} {
		for _, d := range []Dest{{Row: n, Col: 0}, {Row: 0, Col: n}, {Row: -1, Col: 0}, {Row: 0, Col: -1}} {
			dst := identityKK(n, 2)
			dst[5][1] = d
			_, err := NewPlan(alg, n, dst, rand.New(rand.NewPCG(1, 1)), Options{})
			if err == nil || !strings.Contains(err.Error(), "PU 5 sends to") || !strings.Contains(err.Error(), "allowed [0, 4)²") {
				t.Errorf("%s, destination %+v at PU 5: %v", alg, d, err)
			}
		}
		dst := identityKK(n, 2)
		dst[5][0], dst[5][1] = Dest{Row: n - 1, Col: 0}, Dest{Row: 0, Col: n - 1}
		if _, err := NewPlan(alg, n, dst, rand.New(rand.NewPCG(1, 1)), Options{}); err != nil {
			t.Errorf("%s, row and column n − 1: %v", alg, err)
		}
	}
}

// Only DET_3_PHASE_ROUTE with coloring needs k even (Theorem 1's proof
// splits every PU's packets k/2 : k/2); the randomized algorithms colour each
// packet by a fair coin (§1) and take any k.
func TestNewPlanColoringOddK(t *testing.T) {
	dst := identityKK(2, 3)
	rng := rand.New(rand.NewPCG(2, 2))
	if _, err := NewPlan(Det3, 2, dst, nil, Options{Coloring: true}); err == nil || !strings.Contains(err.Error(), "k = 3") {
		t.Errorf("Det3 with coloring, k = 3: %v", err)
	}
	if _, err := NewPlan(Det3, 2, dst, nil, Options{}); err != nil {
		t.Errorf("Det3 without coloring, k = 3: %v", err)
	}
	for _, alg := range []Algorithm{Rand4, Rand3} {
		if _, err := NewPlan(alg, 2, dst, rng, Options{Coloring: true}); err != nil {
			t.Errorf("%s with coloring, k = 3: %v", alg, err)
		}
	}
}

// Options.Allocator is called once per PU and colour class with self the
// PU's position on its Phase-1 line: its column for the white class, its
// row for the black class (destinations with rows and columns swapped).
// With coloring on the 4×4 mesh every PU (r, c) sends one packet to (c, r)
// and one to (c', r), c' = c + 1 mod 4 (k = 2; two groups of one packet, so
// by colour's rule for odd groups the first is white, the second black):
// the hook sees the white destination (c, r) with self = c and the black
// one swapped, (r, c'), with self = r. The hook puts every packet at
// position 0, which the plan's Phase-1 targets must show. The calls are
// compared as a multiset, recorded under a mutex, so neither call order nor
// concurrency matters; a destination alone does not identify a call (the
// white (c, r) of PU (r, c) equals the swapped black (c, r) of PU (c, r−1)),
// and neither does (self, destination), so each expected call is counted
// twice.
func TestAllocatorHookSelf(t *testing.T) {
	const n = 4
	dst := make([][]Dest, n*n)
	for p := range dst {
		r, c := int32(p/n), int32(p%n)
		dst[p] = []Dest{{Row: c, Col: r}, {Row: (c + 1) % n, Col: r}}
	}
	type call struct {
		self int32
		dst  Dest
	}
	var mu sync.Mutex
	calls := map[call]int{}
	total := 0
	hook := func(n int, self int32, ds []Dest) (Allocation, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range ds {
			calls[call{self, d}]++
			total++
		}
		return Allocation{Pos: make([]int32, len(ds)), Counts: make([]int, n)}, nil
	}
	pl, err := NewPlan(Det3, n, dst, nil, Options{Coloring: true, Allocator: hook})
	if err != nil {
		t.Fatal(err)
	}
	if total != 2*n*n {
		t.Fatalf("%d destinations passed to the hook, want %d", total, 2*n*n)
	}
	want := map[call]int{}
	for p := range n * n {
		r, c := int32(p/n), int32(p%n)
		want[call{c, Dest{Row: c, Col: r}}]++           // white: self = column
		want[call{r, Dest{Row: r, Col: (c + 1) % n}}]++ // black, swapped: self = row
	}
	if !maps.Equal(calls, want) {
		t.Errorf("hook calls (self, destination)×count %v, want %v", calls, want)
	}
	for p := range n * n {
		r, c := int32(p/n), int32(p%n)
		// Position 0: the white packet goes to column 0 of its row, the
		// black one to row 0 of its column.
		w, b := pl.Targets[0][2*p], pl.Targets[0][2*p+1]
		if w != r*n || b != c {
			t.Errorf("PU (%d,%d): Phase-1 targets %d (white) and %d (black), want %d and %d", r, c, w, b, r*n, c)
		}
	}
}

// An error of a later phase names that phase: a plan whose second phase
// moves a packet diagonally fails with "phase 2", on the counting engine,
// the step model and the torus split router alike.
func TestRouteKKNamesFailingPhase(t *testing.T) {
	// 4×4: packet 0 from PU 0 to PU 1 (phase 1, along row 0), then to
	// PU 6 = (1,2) (phase 2, not along one axis).
	pl := Plan{N: 4, Src: []int32{0}, Targets: [][]int32{{1}, {6}}}
	for _, o := range []Options{{}, {Model: true}, {Model: true, Torus: true}} {
		if _, err := RouteKK(pl, o); err == nil || !strings.HasPrefix(err.Error(), "phase 2: ") {
			t.Errorf("RouteKK %+v: %v", o, err)
		}
	}
	if _, err := RouteKKTorusSplit(pl); err == nil || !strings.HasPrefix(err.Error(), "phase 2: ") {
		t.Errorf("RouteKKTorusSplit: %v", err)
	}
}

// RunLinear's bound is on the steps taken: a packet from PU 0 to PU 3
// needs exactly 3 steps, so maxSteps = 3 finishes and maxSteps = 2 is an
// error with the packet still pending.
func TestRunLinearStepBound(t *testing.T) {
	s, err := mesh.NewLinear(4, []int32{0}, []int32{3})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := RunLinear(s, 3); err != nil || r.Steps != 3 {
		t.Errorf("maxSteps 3: %+v, %v (want 3 steps)", r, err)
	}
	if _, err := RunLinear(s, 2); err == nil || !strings.Contains(err.Error(), "1 packets still pending after 2 steps") {
		t.Errorf("maxSteps 2: %v", err)
	}
}

// Fast1D refuses a source or destination n (and −1) with the packet and
// the allowed range; PU n − 1 is fine.
func TestFast1DRange(t *testing.T) {
	for _, c := range []struct{ s, d int32 }{{4, 0}, {0, 4}, {-1, 0}, {0, -1}} {
		if _, err := Fast1D(4, []int32{c.s}, []int32{c.d}); err == nil || !strings.Contains(err.Error(), "allowed PUs are [0, 4)") {
			t.Errorf("packet %d → %d: %v", c.s, c.d, err)
		}
	}
	if r, err := Fast1D(4, []int32{3, 0}, []int32{0, 3}); err != nil || r.Steps != 3 {
		t.Errorf("3 → 0 and 0 → 3: %+v, %v (want 3 steps)", r, err)
	}
}

// colour's doc comment for DET_3_PHASE_ROUTE: in each group with a common
// destination every second packet (the 2nd, 4th, …) is black, and the last
// packet of an odd-sized group is white for the first such group, black for
// the next, and so on. By hand, with d = (0,0), e = (0,1):
// [d e d e d d]: d d d d are W B W B, e e are W B;
// [d d d e]: d is odd-sized (W B, then its last W), e odd-sized (B).
func TestDetColouringEverySecond(t *testing.T) {
	d, e := Dest{Row: 0, Col: 0}, Dest{Row: 0, Col: 1}
	for _, c := range []struct {
		ds   []Dest
		want []bool
	}{
		{[]Dest{d, e, d, e, d, d}, []bool{false, false, true, true, false, true}},
		{[]Dest{d, d, d, e}, []bool{false, true, false, true}},
	} {
		black := make([]bool, len(c.ds))
		colour(c.ds, black, nil, true)
		if !slices.Equal(black, c.want) {
			t.Errorf("%v: black %v, want %v", c.ds, black, c.want)
		}
	}
}
