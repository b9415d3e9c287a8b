package aks

import (
	"fmt"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// pairHalver is a one-layer stand-in halver on l positions: {i, i + l/2}
// for i < l/2. It makes FromHalver's layers small enough to write down.
type pairHalver struct{}

func (pairHalver) Name() string { return "pairs" }

func (pairHalver) Halve(l int) []sortnet.Stage {
	var st sortnet.Stage
	for i := range l / 2 {
		st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + l/2)})
	}
	return []sortnet.Stage{st}
}

// The Lemma 2 separator's layers (§6, as FromHalver documents them), worked
// out by hand for the pair halver on m = 16: h on all 16 positions; then
// r = ⌈log₂(m/kick)⌉ and, for i = r−1 … 1, h on the prefix and the suffix of
// length 2^i·kick, dropping comparators that reach past the middle (8).
//   - kick = 2: r = 3; i = 2: prefix [0, 8) and suffix [8, 16), both whole;
//     i = 1: prefix [0, 4) and suffix [12, 16).
//   - kick = 3: r = 3 (3·8 ≥ 16 > 3·4); i = 2: length 12, prefix pairs
//     {j, j+6} with j + 6 < 8, suffix [4, 16) pairs {4+j, 10+j} with
//     4 + j ≥ 8; i = 1: length 6, prefix [0, 6), suffix [10, 16).
//   - kick = 0 (the root): h alone. 2·kick = m is refused (panic).
func TestLemma2Layers(t *testing.T) {
	sep := FromHalver(pairHalver{})
	c := func(i, j int32) sortnet.Comparator { return sortnet.Comparator{I: i, J: j} }
	all := pairHalver{}.Halve(16)
	for _, tc := range []struct {
		kick int
		want []sortnet.Stage
	}{
		{0, all},
		{2, []sortnet.Stage{all[0],
			{c(0, 4), c(8, 12), c(1, 5), c(9, 13), c(2, 6), c(10, 14), c(3, 7), c(11, 15)},
			{c(0, 2), c(12, 14), c(1, 3), c(13, 15)}}},
		{3, []sortnet.Stage{all[0],
			{c(0, 6), c(1, 7), c(8, 14), c(9, 15)},
			{c(0, 3), c(10, 13), c(1, 4), c(11, 14), c(2, 5), c(12, 15)}}},
	} {
		got := sep.Separate(16, tc.kick)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("m = 16, kick = %d:\n got %v\nwant %v", tc.kick, got, tc.want)
		}
	}
	for _, kick := range []int{8, 9} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("m = 16, kick = %d (2·kick ≥ m) did not panic", kick)
				}
			}()
			sep.Separate(16, kick)
		}()
	}
	// With Batcher's network as the halver (depth k(k+1)/2 on 2^k wires)
	// and kick = 2 on m = 16, r = 3 exactly: 10 layers on all 16, then 6 on
	// [0, 8) ∥ [8, 16), then 3 on [0, 4) ∥ [12, 16): 19. (No i = 3 round on
	// all 16 again, whose within-half comparators would survive.)
	if got := len(FromHalver(SortHalver()).Separate(16, 2)); got != 19 {
		t.Errorf("sort halver, m = 16, kick = 2: %d layers, want 10 + 6 + 3 = 19", got)
	}
	// The halver's own layers are not modified by the separator.
	if h := (pairHalver{}).Halve(16); !slices.Equal(h[0], all[0]) {
		t.Error("halver layers changed")
	}
}
