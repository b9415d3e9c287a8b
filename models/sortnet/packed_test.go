package sortnet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randNet is a random network on n wires: depth stages, each a random
// matching of a random share of the wires (some stages empty).
func randNet(r *rand.Rand, n, depth int) Network {
	nw := Network{N: n}
	for range depth {
		p := r.Perm(n)
		var st Stage
		k := r.IntN(n/2 + 1)
		for i := 0; i < 2*k; i += 2 {
			a, b := int32(p[i]), int32(p[i+1])
			st = append(st, Comparator{min(a, b), max(a, b)})
		}
		nw.Stages = append(nw.Stages, st)
	}
	return nw
}

// packedDiff runs nw (the plain engine) and p (the packed one) on the same
// inputs — trials random int32 vectors with repeated values, every prefix
// of stages on one of them, and trials words of 64 random 0-1 inputs — and
// describes the first difference (nil: none).
func packedDiff(r *rand.Rand, nw Network, p *Packed, trials int) error {
	n := nw.N
	for k := range trials {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(r.IntN(max(1, n/2)))
		}
		a, b := slices.Clone(xs), slices.Clone(xs)
		Apply(nw, a)
		p.Apply(b)
		if !slices.Equal(a, b) {
			return fmt.Errorf("n = %d, trial %d: Apply differs", n, k)
		}
		if k == 0 {
			for s := 0; s <= nw.Depth(); s++ {
				a, b := slices.Clone(xs), slices.Clone(xs)
				for _, st := range nw.Stages[:s] {
					ApplyStage(st, a)
				}
				p.ApplyStages(b, 0, s/2)
				p.ApplyStages(b, s/2, s)
				if !slices.Equal(a, b) {
					return fmt.Errorf("n = %d: the first %d stages differ", n, s)
				}
			}
		}
		if err := lastExchangeDiff(r, nw, p, xs); err != nil {
			return fmt.Errorf("n = %d, trial %d: %w", n, k, err)
		}
		w := make([]uint64, n)
		for i := range w {
			w[i] = r.Uint64()
		}
		u := slices.Clone(w)
		Eval01(nw, w)
		p.Eval01(u)
		if !slices.Equal(w, u) {
			return fmt.Errorf("n = %d, trial %d: Eval01 differs", n, k)
		}
	}
	return eval01ManyDiff(r, nw, p)
}

// lastExchangeDiff compares ApplyLastExchange with a plain run that notes
// the last comparator to exchange (numbered stage after stage), Comparator
// with the plain network's comparators in that order, and ApplyFrom(k)
// with the plain comparators from the k-th on, for a random k.
func lastExchangeDiff(r *rand.Rand, nw Network, p *Packed, xs []int32) error {
	var flat []Comparator
	for _, st := range nw.Stages {
		flat = append(flat, st...)
	}
	a, b := slices.Clone(xs), slices.Clone(xs)
	want := -1
	for k, c := range flat {
		if a[c.J] < a[c.I] {
			a[c.I], a[c.J] = a[c.J], a[c.I]
			want = k
		}
	}
	if got := p.ApplyLastExchange(b); got != want || !slices.Equal(a, b) {
		return fmt.Errorf("ApplyLastExchange: last %d, want %d (outputs equal: %v)", got, want, slices.Equal(a, b))
	}
	for k, c := range flat {
		if p.Comparator(k) != c {
			return fmt.Errorf("Comparator(%d) = %v, want %v", k, p.Comparator(k), c)
		}
	}
	from := r.IntN(len(flat) + 1)
	a, b = slices.Clone(xs), slices.Clone(xs)
	for _, c := range flat[from:] {
		if a[c.J] < a[c.I] {
			a[c.I], a[c.J] = a[c.J], a[c.I]
		}
	}
	p.ApplyFrom(b, from)
	if !slices.Equal(a, b) {
		return fmt.Errorf("ApplyFrom(%d) differs", from)
	}
	return nil
}

// eval01ManyDiff runs Eval01Many on groups of 1..9 random word vectors
// (whole groups of four, and the remainders of one to three) and compares
// each vector with the plain Eval01's output on it.
func eval01ManyDiff(r *rand.Rand, nw Network, p *Packed) error {
	n := nw.N
	for g := 1; g <= 9; g++ {
		ws := make([][]uint64, g)
		for l := range ws {
			ws[l] = make([]uint64, n)
			for i := range ws[l] {
				ws[l][i] = r.Uint64()
			}
		}
		want := make([][]uint64, g)
		for l, w := range ws {
			want[l] = slices.Clone(w)
			Eval01(nw, want[l])
		}
		p.Eval01Many(ws)
		for l := range ws {
			if !slices.Equal(ws[l], want[l]) {
				return fmt.Errorf("n = %d: Eval01Many on %d vectors differs at vector %d", n, g, l)
			}
		}
	}
	return nil
}

// The packed engine computes what the plain one computes, on random
// networks up to the largest n it takes, and the differential check sees a
// planted difference: the packed form of a network with one comparator
// deleted.
func TestPackedMatchesPlain(t *testing.T) {
	for _, chunk := range []int{packedChunk, 7} {
		old := packedChunk
		packedChunk = chunk // small chunks: many boundaries inside stages
		testPackedMatchesPlain(t)
		packedChunk = old
	}
}

func testPackedMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct{ n, depth int }{{0, 0}, {1, 3}, {2, 4}, {3, 5}, {17, 40}, {300, 60}, {Eval01ManyMaxN, 5}, {Eval01ManyMaxN + 1, 5}, {PackedMaxN, 6}} {
		nw := randNet(r, c.n, c.depth)
		p, err := Pack(nw, false)
		if err != nil {
			t.Fatal(err)
		}
		if p.Depth() != nw.Depth() || p.Size() != nw.Size() {
			t.Fatalf("n = %d: depth %d size %d, want %d %d", c.n, p.Depth(), p.Size(), nw.Depth(), nw.Size())
		}
		if u := p.Unpack(); u.N != nw.N || len(u.Stages) != len(nw.Stages) || !slices.EqualFunc(u.Stages, nw.Stages, slices.Equal[Stage]) {
			t.Fatalf("n = %d: Unpack is not the packed network", c.n)
		}
		if err := packedDiff(r, nw, p, 4); err != nil {
			t.Fatal(err)
		}
	}
	// Planted difference: one comparator of a sorting network deleted.
	nw := Network{N: 16}
	for i := range 16 {
		var st Stage
		for j := i % 2; j+1 < 16; j += 2 {
			st = append(st, Comparator{int32(j), int32(j + 1)})
		}
		nw.Stages = append(nw.Stages, st)
	}
	bad := nw.Clone()
	bad.Stages[7] = slices.Delete(bad.Stages[7], 3, 4)
	p, err := Pack(bad, false)
	if err != nil {
		t.Fatal(err)
	}
	if packedDiff(r, nw, p, 8) == nil {
		t.Fatal("the differential check missed a deleted comparator")
	}
	if eval01ManyDiff(r, nw, p) == nil {
		t.Fatal("the Eval01Many check missed a deleted comparator")
	}
	xs := make([]int32, 16)
	for i, x := range r.Perm(16) {
		xs[i] = int32(x)
	}
	if lastExchangeDiff(r, nw, p, xs) == nil {
		t.Fatal("the ApplyLastExchange check missed a deleted comparator")
	}
}

// Pack refuses what it cannot hold, naming the parameter; consume releases
// the packed stages.
func TestPackRefusesAndConsumes(t *testing.T) {
	if _, err := Pack(Network{N: PackedMaxN + 1}, false); err == nil {
		t.Error("n = 2^16 + 1 accepted")
	}
	for _, c := range []Comparator{{2, 1}, {-1, 2}, {1, 5}, {3, 3}} {
		if _, err := Pack(Network{N: 5, Stages: []Stage{{c}}}, false); err == nil {
			t.Errorf("comparator %v on 5 wires accepted", c)
		}
	}
	nw := randNet(rand.New(rand.NewPCG(1, 1)), 40, 10)
	want := nw.Clone()
	p, err := Pack(nw, true)
	if err != nil {
		t.Fatal(err)
	}
	for s, st := range nw.Stages {
		if st != nil {
			t.Fatalf("stage %d not released", s)
		}
	}
	if u := p.Unpack(); !slices.EqualFunc(u.Stages, want.Stages, slices.Equal[Stage]) {
		t.Fatal("consuming pack lost comparators")
	}
}

// transposition is odd-even transposition sort on wires lo..hi−1 (hi − lo
// stages of adjacent comparators: it sorts them), as stages of a network
// on n wires.
func transposition(lo, hi int) []Stage {
	var sts []Stage
	for s := range hi - lo {
		var st Stage
		for i := lo + s%2; i+1 < hi; i += 2 {
			st = append(st, Comparator{int32(i), int32(i + 1)})
		}
		sts = append(sts, st)
	}
	return sts
}

// A run stops where its values are in order (spanUntilSorted) and still
// computes what the plain engine computes: on networks that sort early and
// then keep going — a sorter followed by random stages, and one that sorts
// all wires but the last, then moves the last value home one comparator a
// stage (a stop rule blind to the last wire would stop too soon there) —
// (and its mirror image, the first value moved home) — with a look after
// every comparator, every few, and at the default spacing; every packed method (packedDiff: Apply, stage prefixes,
// ApplyLastExchange, ApplyFrom, Eval01, Eval01Many). The stops must
// happen, and the differential check must see a stop rule that ignores the
// last or the first wire.
func TestPackedStopsWhenSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	const n = 40
	sorter := Network{N: n, Stages: transposition(0, n)}
	for _, st := range randNet(r, n, 30).Stages {
		sorter.Stages = append(sorter.Stages, st)
	}
	lastHome := Network{N: n, Stages: transposition(0, n-1)}
	for i := n - 2; i >= 0; i-- {
		lastHome.Stages = append(lastHome.Stages, Stage{{int32(i), int32(i + 1)}})
	}
	firstHome := Network{N: n, Stages: transposition(1, n)}
	for i := range n - 1 {
		firstHome.Stages = append(firstHome.Stages, Stage{{int32(i), int32(i + 1)}})
	}
	big := Network{N: Eval01ManyMaxN, Stages: transposition(0, 64)} // never sorts a random input: no stop
	for _, st := range randNet(r, Eval01ManyMaxN, 3).Stages {
		big.Stages = append(big.Stages, st)
	}
	oldMin, oldPer := sortedCheckMin, sortedCheckPerWire
	defer func() { sortedCheckMin, sortedCheckPerWire = oldMin, oldPer }()
	for _, sp := range [][2]int{{1, 0}, {5, 0}, {oldMin, oldPer}} {
		sortedCheckMin, sortedCheckPerWire = sp[0], sp[1]
		for name, nw := range map[string]Network{"sorter + random stages": sorter, "last value moved home": lastHome, "first value moved home": firstHome, "big": big} {
			p, err := Pack(nw, false)
			if err != nil {
				t.Fatal(err)
			}
			before := sortedStops.Load()
			if err := packedDiff(r, nw, p, 6); err != nil {
				t.Fatalf("%s, a look every %v: %v", name, sp, err)
			}
			// The two small networks sort every input well before their
			// end: with looks that close, runs stopped.
			if stops := sortedStops.Load() - before; sp[1] == 0 && name != "big" && stops < 6 {
				t.Errorf("%s, a look every %d comparators: %d runs stopped early, want ≥ 6", name, sp[0], stops)
			}
		}
	}
	// A stop rule blind to the last wire stops lastHome's runs right after
	// the sorter of the other wires, and leaves the last value out of
	// place; one blind to the first wire does the same on firstHome.
	sortedCheckMin, sortedCheckPerWire = 1, 0
	for _, c := range []struct {
		name   string
		nw     Network
		sorted func(v *[PackedMaxN]int32) bool
	}{
		{"the last wire", lastHome, func(v *[PackedMaxN]int32) bool { return valsSorted(v, n-1) }},
		{"the first wire", firstHome, func(v *[PackedMaxN]int32) bool { return slices.IsSorted(v[1:n]) }},
	} {
		p, err := Pack(c.nw, false)
		if err != nil {
			t.Fatal(err)
		}
		seen := false
		for range 20 {
			xs := make([]int32, n)
			for i, x := range r.Perm(n) {
				xs[i] = int32(x)
			}
			want := slices.Clone(xs)
			Apply(c.nw, want)
			v := new([PackedMaxN]int32)
			copy(v[:], xs)
			p.spanUntilSorted(0, p.Size(), func(cs []uint32) { applyPacked(v, cs) }, func() bool { return c.sorted(v) })
			if !slices.Equal(v[:n], want) {
				seen = true
			}
		}
		if !seen {
			t.Errorf("a stop rule blind to %s gave the plain outputs on 20 random permutations", c.name)
		}
	}
}

// applyPacked's two loops compute the same values, and so does applyPacked,
// which switches between them piece by piece by the exchange rate of a
// sample: on comparator lists longer than a piece, run on values where
// about half the comparators exchange (random values with repeats: the
// branch-free loop), where none do (sorted values: the branch), where all
// do at first (reversed values) and on a mix (half the pieces of each
// kind), against the plain compare-exchange.
func TestApplyPackedLoopsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	const n = 1 << 10
	plain := func(v []int32, cs []uint32) {
		for _, c := range cs {
			i, j := uint16(c), uint16(c>>16)
			if v[j] < v[i] {
				v[i], v[j] = v[j], v[i]
			}
		}
	}
	randomCS := func(m int) []uint32 {
		cs := make([]uint32, m)
		for k := range cs {
			i, j := r.IntN(n), r.IntN(n)
			for j == i {
				j = r.IntN(n)
			}
			cs[k] = uint32(min(i, j)) | uint32(max(i, j))<<16
		}
		return cs
	}
	// adjacentCS compares neighbours only: on sorted values nothing
	// exchanges, on reversed values every comparator of the first pass.
	adjacentCS := func(m int) []uint32 {
		cs := make([]uint32, m)
		for k := range cs {
			i := k % (n - 1)
			cs[k] = uint32(i) | uint32(i+1)<<16
		}
		return cs
	}
	inputs := map[string]func(i int) int32{
		"random":   func(int) int32 { return int32(r.IntN(n / 4)) },
		"sorted":   func(i int) int32 { return int32(i / 2) },
		"reversed": func(i int) int32 { return int32(n - i) },
	}
	for _, cs := range [][]uint32{randomCS(3*applyPiece + 77), adjacentCS(3*applyPiece + 5), append(randomCS(2*applyPiece), adjacentCS(2*applyPiece)...)} {
		for name, in := range inputs {
			want := make([]int32, n)
			for i := range want {
				want[i] = in(i)
			}
			for _, f := range []struct {
				name string
				run  func(v *[PackedMaxN]int32, cs []uint32)
			}{{"applyPacked", applyPacked}, {"branch", applyPackedBranch}, {"branch-free", applyPackedMinMax},
				{"count", func(v *[PackedMaxN]int32, cs []uint32) { applyPackedCount(v, cs) }}} {
				v := new([PackedMaxN]int32)
				copy(v[:], want)
				f.run(v, cs)
				w := slices.Clone(want)
				plain(w, cs)
				if !slices.Equal(v[:n], w) {
					t.Fatalf("%s on %s values, %d comparators: differs from the plain compare-exchange", f.name, name, len(cs))
				}
			}
		}
	}
	// The count is the number of exchanges.
	v := new([PackedMaxN]int32)
	for i := range n {
		v[i] = int32(n - i)
	}
	if got := applyPackedCount(v, adjacentCS(n-1)); got != n-1 {
		t.Fatalf("reversed values, one pass of neighbours: %d exchanges counted, want %d", got, n-1)
	}
}
