package aks

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"routecheck/models/sortnet"
)

// tinyHalver is a deterministic stand-in halver for checking FromHalver's
// assembly by hand: on l positions its layers are the matching {i, i + l/2}
// (i < l/2), the adjacent pairs {2j, 2j + 1}, and the single comparator
// {0, l − 1}. It is not a good halver; only the layout matters here.
type tinyHalver struct{}

func (tinyHalver) Name() string { return "tiny" }

func (tinyHalver) Halve(l int) []sortnet.Stage {
	var match, pairs sortnet.Stage
	for i := range l / 2 {
		match = append(match, sortnet.Comparator{I: int32(i), J: int32(i + l/2)})
		pairs = append(pairs, sortnet.Comparator{I: int32(2 * i), J: int32(2*i + 1)})
	}
	return []sortnet.Stage{match, pairs, {{I: 0, J: int32(l - 1)}}}
}

// cs writes a layer as pairs I, J, I, J, ….
func cs(ij ...int32) sortnet.Stage {
	var st sortnet.Stage
	for k := 0; k < len(ij); k += 2 {
		st = append(st, sortnet.Comparator{I: ij[k], J: ij[k+1]})
	}
	return st
}

// sameLayers compares two layer lists, each layer as a set of comparators.
func sameLayers(a, b []sortnet.Stage) bool {
	norm := func(st sortnet.Stage) sortnet.Stage {
		st = slices.Clone(st)
		slices.SortFunc(st, func(x, y sortnet.Comparator) int {
			return cmp.Or(cmp.Compare(x.I, y.I), cmp.Compare(x.J, y.J))
		})
		return st
	}
	return slices.EqualFunc(a, b, func(x, y sortnet.Stage) bool { return slices.Equal(norm(x), norm(y)) })
}

// FromHalver's layout, by hand from its doc comment (§6, Lemma 2): h on all
// m positions; then for i = r − 1 down to 1, r = ⌈log₂(m/kick)⌉, h on the
// prefix and the suffix of length l = 2^i·kick in parallel, a comparator
// dropped when it reaches past the middle (on the prefix: its J ≥ m/2; on
// the suffix, shifted by m − l: its I < m/2), and a layer left with no
// comparator dropped (it would only add depth).
//
//   - m = 12, kick = 2: r = 3 (2·8 ≥ 12 > 2·4); l = 8 (shift 4) keeps of
//     the matching {0,4} {1,5} and, shifted, {6,10} {7,11}; of the pairs
//     the prefix's {0,1} {2,3} {4,5} and the suffix's {6,7} {8,9} {10,11}
//     (the prefix's {6,7} and the suffix's {4,5} reach over); {0,7} and,
//     shifted, {4,11} both reach over, so that layer goes. Then l = 4
//     (shift 8), where nothing reaches over.
//   - m = 16, kick = 4: m/kick = 4, r = 2 exactly; only l = 8, whose
//     prefix and suffix are the two halves.
//
// TestLemma2Layers checks the layout with a one-layer halver, whose layers
// never lose every comparator; this halver's one long comparator shows that
// such a layer is dropped (gremlins' surviving mutant at separator.go:123,
// len(layer) ≥ 0, kept it), and its comparators inside a half show the
// power-of-two case on the expander-like layers too.
func TestLemma2LayoutHand(t *testing.T) {
	h := tinyHalver{}
	full := func(m int) []sortnet.Stage { return h.Halve(m) }
	cases := []struct {
		m, kick int
		want    []sortnet.Stage
	}{
		{12, 2, append(full(12),
			cs(0, 4, 1, 5, 6, 10, 7, 11),
			cs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
			cs(0, 2, 1, 3, 8, 10, 9, 11),
			cs(0, 1, 2, 3, 8, 9, 10, 11),
			cs(0, 3, 8, 11))},
		{16, 4, append(full(16),
			cs(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15),
			cs(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
			cs(0, 7, 8, 15))},
	}
	for _, c := range cases {
		got := FromHalver(h).Separate(c.m, c.kick)
		if !sameLayers(got, c.want) {
			t.Errorf("m = %d, kick = %d:\n got %v\nwant %v", c.m, c.kick, got, c.want)
		}
	}
}

// A separator's name identifies its halver (reports and the ledger name
// networks by it): FromHalver(h) names h, and two halvers give two names.
// ExpanderHalver's range ends: d = 1 (one matching per halver) is allowed,
// d = 0 and a nil source panic.
func TestSeparatorNameAndExpanderEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, h := range []Halver{tinyHalver{}, SortHalver(), ExpanderHalver(3, rng)} {
		if name := FromHalver(h).Name(); !strings.Contains(name, h.Name()) || name == h.Name() {
			t.Errorf("FromHalver(%s).Name() = %q", h.Name(), name)
		}
	}
	if a, b := FromHalver(SortHalver()).Name(), FromHalver(tinyHalver{}).Name(); a == b {
		t.Errorf("two halvers, one separator name %q", a)
	}
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	if panics(func() {
		if got := len(ExpanderHalver(1, rng).Halve(8)); got != 1 {
			t.Errorf("ExpanderHalver(1): %d layers, want 1", got)
		}
	}) {
		t.Error("ExpanderHalver(1, rng) panicked")
	}
	if !panics(func() { ExpanderHalver(0, rng) }) {
		t.Error("ExpanderHalver(0, rng) did not panic")
	}
	if !panics(func() { ExpanderHalver(2, nil) }) {
		t.Error("ExpanderHalver(2, nil) did not panic")
	}
}
